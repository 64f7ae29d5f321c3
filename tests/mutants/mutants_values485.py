"""Planted bugs, round 485 (format: tests/mutants/mutants.py): the real survivor of a seventy-fifth random sample
(tests/mutants/random_sample.py --seed 75 --count 40 --all-named, on 81d07d6: 38 of 40 caught) and its neighbours,
eighty-first pass.

Seed 75's 2 missed: 1 equivalent (rnd75-29: the functional backward's dy taken without a copy where its dtype is
already the one asked for; backward copies it again before it writes into it, so the caller's array is never
written), 1 real for the named files: the edit distance's first row written one place past the hypothesis' length
(rnd75-35), which goes past the buffer when a hypothesis fills its padded array; the compiled function checks no
index, so nothing failed.

The planted bugs, each an index one place off in label_edit_distances: the first row written past the hypothesis'
length (rnd75-35), either row's buffer one place short, each later row computed one place past the length, a
substitution compared with the hypothesis' next label. 5 mutants. The old files named after the module catch 1 of 5
(the last, whose distances change); the new file alone catches 5 of 5, by running the function's own source compiled
with bounds checks.

    python tests/mutants/run.py --only 'v485-*'
"""
TEXT = "lnrnn/textmetrics.py"
NEW = ["tests/test_values485_textmetrics_bounds.py"]
OLD = [
    "tests/test_values119_textmetrics.py",
    "tests/test_values10_textmetrics.py",
    "tests/test_values137_textmetrics.py",
    "tests/test_values213_textmetrics.py",
    "tests/test_values235_textmetrics.py",
    "tests/test_values281_textmetrics.py",
    "tests/test_values368_textmetrics.py",
    "tests/test_values37_textmetrics.py",
    "tests/test_values48_textmetrics.py",
    "tests/test_values62_textmetrics.py",
    "tests/test_values87_textmetrics.py",
    "tests/test_values_textmetrics.py",
]


def _x(name, old, new, why):
    return dict(name=f"v485-{name}", file=TEXT, old=old, new=new, tests=NEW + OLD, why=why)


MUTANTS = [
    _x("first-row-long", "        for j in range(n + 1):\n", "        for j in range(n + 2):\n",
       "the first row written one place past the hypothesis' length (rnd75-35)"),
    _x("prev-short", "    prev = np.empty(hyp.shape[1] + 1, np.int64)\n",
       "    prev = np.empty(hyp.shape[1], np.int64)\n",
       "the previous row's buffer one place short of the hypothesis' width + 1"),
    _x("cur-short", "    cur = np.empty(hyp.shape[1] + 1, np.int64)\n", "    cur = np.empty(hyp.shape[1], np.int64)\n",
       "the current row's buffer one place short of the hypothesis' width + 1"),
    _x("row-long", "            for j in range(1, n + 1):\n", "            for j in range(1, n + 2):\n",
       "each later row computed one place past the hypothesis' length"),
    _x("hyp-next", "prev[j - 1] + (ref[b, i - 1] != hyp[b, j - 1]))", "prev[j - 1] + (ref[b, i - 1] != hyp[b, j]))",
       "each substitution compares the reference's label with the hypothesis' next one (past the row at its end)"),
]
