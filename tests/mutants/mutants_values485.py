"""Planted bugs, round 485 (format: tests/mutants/mutants.py): the real survivor of a seventy-fifth random sample
(tests/mutants/random_sample.py --seed 75 --count 40 --all-named, on 81d07d6: 38 of 40 caught) and its neighbours,
eighty-first pass.

Seed 75's 2 missed: 1 equivalent (rnd75-29: the functional backward's dy taken without a copy where its dtype is
already the one asked for; backward copies it again before it writes into it, so the caller's array is never
written), 1 real for the named files: the edit distance's first row written one place past the hypothesis' length
(rnd75-35), which goes past the buffer when a hypothesis fills its padded array; the compiled function checks no
index, so nothing failed.

The planted bugs, each an index one place off. In label_edit_distances: the first row written past the hypothesis'
length (rnd75-35), either row's buffer one place short, each later row computed one place past the length, a
substitution compared with the hypothesis' next label; 5 mutants, the old files named after the module catch 1 (the
last, whose distances change), the new file alone 5, by running the function's own source compiled with bounds
checks. In the CTC loss and the beam search, two bugs an earlier round (250) left out as crashes, the CTC scratch
sized 2 Lmax and the beam's sift-down reading one place past the heap (k > W), and three neighbours: alpha's rows
one place short, the sift-down comparing a right child past the heap, the prefix tree one node short; 5 mutants, the
old named files catch 3 (the other 2 crash pytest, which the catalogue counts as an error, not a catch), the new
file alone 5, from a child process that compiles both with NUMBA_BOUNDSCHECK=1 and compares them with the NumPy
specs. Left out: a row's zeroing loop in ctc._forward one step past T (Numba checks no index in a prange loop's own
body, so the child writes past logp and only what the write corrupts shows). 10 mutants in all: old 4 of 10, new
files 10 of 10.

    python tests/mutants/run.py --only 'v485-*'
"""
TEXT = "lnrnn/textmetrics.py"
CTC = "lnrnn/kernels/ctc.py"
BEAM = "lnrnn/model/beam.py"
NEW = ["tests/test_values485_textmetrics_bounds.py"]
NEW_BOUNDS = ["tests/kernels/test_values485_ctc_beam_bounds.py"]
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

OLD_CTC = [
    "tests/kernels/test_ctc.py",
    "tests/kernels/test_values105_ctc.py",
    "tests/kernels/test_values137_ctc.py",
    "tests/kernels/test_values166_ctc.py",
    "tests/kernels/test_values199_ctc.py",
    "tests/kernels/test_values26_ctc.py",
    "tests/kernels/test_values285_ctc.py",
    "tests/kernels/test_values303_ctc.py",
    "tests/kernels/test_values320_ctc.py",
    "tests/kernels/test_values342_ctc.py",
    "tests/kernels/test_values35_ctc.py",
    "tests/kernels/test_values368_ctc.py",
    "tests/kernels/test_values390_ctc.py",
    "tests/kernels/test_values48_ctc.py",
    "tests/kernels/test_values62_ctc.py",
    "tests/kernels/test_values87_ctc.py",
    "tests/kernels/test_values223_ctc.py",
    "tests/kernels/test_values250_ctc.py",
    "tests/kernels/test_values261_ctc.py",
    "tests/test_values83_reference_ctc.py",
]
OLD_BEAM = [
    "tests/model/test_beam.py",
    "tests/model/test_values109_beam.py",
    "tests/model/test_values137_beam.py",
    "tests/model/test_values166_beam.py",
    "tests/model/test_values198_beam.py",
    "tests/model/test_values223_beam_decode.py",
    "tests/model/test_values235_beam_decode.py",
    "tests/model/test_values250_beam.py",
    "tests/model/test_values257_beam.py",
    "tests/model/test_values276_beam.py",
    "tests/model/test_values313_beam.py",
    "tests/model/test_values32_beam.py",
    "tests/model/test_values337_beam.py",
    "tests/model/test_values368_decode_beam.py",
    "tests/model/test_values432_beam.py",
    "tests/model/test_values445_beam.py",
    "tests/model/test_values87_beam.py",
    "tests/model/test_values9_beam.py",
]

def _x(name, old, new, why, file=TEXT, new_tests=NEW, old_tests=OLD):
    return dict(name=f"v485-{name}", file=file, old=old, new=new, tests=new_tests + old_tests, why=why)


def _c(name, old, new, why):
    return _x(name, old, new, why, CTC, NEW_BOUNDS, OLD_CTC)


def _b(name, old, new, why):
    return _x(name, old, new, why, BEAM, NEW_BOUNDS, OLD_BEAM)


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
    _c("ctc-s-short", "    S = 2 * labels.shape[1] + 1\n", "    S = 2 * labels.shape[1]\n",
       "the CTC scratch one position short of the extended label (2 Lmax, not 2 Lmax + 1)"),
    _c("ctc-alpha-short", "    alpha = np.empty((K, T, S + 2))", "    alpha = np.empty((K, T, S + 1))",
       "alpha's rows one place short of its two leading places and S positions"),
    _b("sift-past", "        if k >= W:\n", "        if k > W:\n",
       "the beam's sift-down reads the heap one place past its width"),
    _b("sibling-past", "        if k + 1 < W and heap[0, k + 1] < heap[0, k]:\n",
       "        if k + 1 <= W and heap[0, k + 1] < heap[0, k]:\n",
       "the sift-down compares a right child one place past the heap"),
    _b("tree-short", "    N = 1 + steps * W\n", "    N = steps * W\n",
       "the prefix tree one node short of the root and W per step"),
]
