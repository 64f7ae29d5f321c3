"""Planted bugs, round 387 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the judge of written lines (lnrnn/judge.py), twentieth pass, planted before any test was written for them: the
refusal of a writer without a window saying there is nothing for a writer to judge; a reader of another task told to
train one on its own task; a shorter line's replay inputs put at the end of the padded batch; the replay's text array
as wide as the shortest text; alpha taken from the top layer's parameters; kappa read as the last entry of the window
layer's state (w); rows given as a generator not made a list; the prime's characters asked of the reader; a line's
points counted without its last; travel reported as kappa_T itself; the summary's lines and stop-rule share counted
over the uncapped lines only; the table's CER header set left.

12 mutants. Against the old targeted files alone (the twelve test_*judge* files of lnrnn/judge.py listed in OLD): 9
of 12 caught; missed: the writer-without-a-window refusal's wrong word, the prime's characters asked of the reader,
the points one short. The new file test_values387_judge (judge() on rows made here by a one-layer float64 writer
saved as a run, primed with a text whose space the reader never learned and not: every row judged, as a list and as a
generator, its points all its written points, its travel (kappa_T - P) / (U - P) with kappa_T from the reference's
window over the row alone; summary and table over hand-made lines, one capped; the table's header word for word over
its figures; check_judge's refusals of a writer without a window and of a reader of another task word for word)
catches the three misses, and 11 of the 12 on its own (checked with every list cut to it): not alpha from the top
layer, which its one-layer writer cannot tell (the old two-layer writer of test_judge does). Nothing left out as
equivalent.

    python tests/mutants/run.py --only 'v387-*'
"""
JUDGE = "lnrnn/judge.py"
NEW = ["tests/commands/test_values387_judge.py"]

OLD = [
    "tests/commands/test_judge.py",
    "tests/commands/test_values37_judge.py",
    "tests/commands/test_values_judge.py",
    "tests/test_values118_diagnostics_judge.py",
    "tests/test_values12_judge.py",
    "tests/test_values184_judge.py",
    "tests/test_values20_judge.py",
    "tests/test_values267_judge.py",
    "tests/test_values281_judge.py",
    "tests/test_values360_judge.py",
    "tests/test_values70_judge.py",
    "tests/test_values96_judge_backend.py",
]

MUTANTS = [
    dict(name="v387-judge-unconditioned-writer-message-word", file=JUDGE,
         old='"there is nothing for a reader to judge.")',
         new='"there is nothing for a writer to judge.")',
         tests=NEW + OLD,
         why="the refusal of a writer without a window says there is nothing for a writer to judge"),
    dict(name="v387-judge-other-task-advice-names-the-readers-task", file=JUDGE,
         old='train one on " f"{wt}.")',
         new='train one on " f"{rt}.")',
         tests=NEW + OLD,
         why="a reader of another task is told to train one on its own task, not the writer's"),
    dict(name="v387-judge-replay-inputs-right-aligned", file=JUDGE,
         old="        x[:len(xb), b] = xb\n",
         new="        x[len(x) - len(xb):, b] = xb\n",
         tests=NEW + OLD,
         why="a shorter line's replay inputs put at the end of the padded batch: it replays padding first"),
    dict(name="v387-judge-replay-codes-shortest-text", file=JUDGE,
         old="codes = np.zeros((B, int(ulen.max())), np.int64)",
         new="codes = np.zeros((B, int(ulen.min())), np.int64)",
         tests=NEW + OLD,
         why="the replay's text array only as wide as the shortest line's text"),
    dict(name="v387-judge-alpha-from-the-top-layer", file=JUDGE,
         old="L1, H, K = stack.layers[0], stack.H, stack.K",
         new="L1, H, K = stack.layers[-1], stack.H, stack.K",
         tests=NEW + OLD,
         why="the window's weights alpha taken from the top layer's parameters, not the window layer's"),
    dict(name="v387-judge-kappa-the-states-last-entry", file=JUDGE,
         old="kappa = np.asarray(states[0][2], np.float64)",
         new="kappa = np.asarray(states[0][-1], np.float64)",
         tests=NEW + OLD,
         why="kappa read as the last entry of the window layer's state (h, c, kappa, w): it is w"),
    dict(name="v387-judge-rows-not-listed", file=JUDGE,
         old="    rows = list(rows)\n",
         new="",
         tests=NEW + OLD,
         why="rows given as a generator are used up by the check: nothing is read and no line is judged"),
    dict(name="v387-judge-checks-the-primes-characters", file=JUDGE,
         old="check_judge(writer, reader, [r.text for r in rows])",
         new="check_judge(writer, reader, [r.chars for r in rows])",
         tests=NEW + OLD,
         why="the reader must know the prime's characters too, though the prime's points are never read"),
    dict(name="v387-judge-points-one-short", file=JUDGE,
         old="points=len(r.points),",
         new="points=len(r.points) - 1,",
         tests=NEW + OLD,
         why="a judged line's points counted without its last (stopping) point"),
    dict(name="v387-judge-travel-is-kappa", file=JUDGE,
         old="for r, got, tr in zip(rows, reads, travel)]",
         new="for r, got, tr in zip(rows, reads, kappa)]",
         tests=NEW + OLD,
         why="travel reported as kappa_T itself, not over the line's own characters past the prime"),
    dict(name="v387-judge-summary-counts-uncapped-lines", file=JUDGE,
         old="    n = len(judged)\n",
         new="    n = sum(not j.capped for j in judged)\n",
         tests=NEW + OLD,
         why="the summary's lines and the stop-rule share counted over the uncapped lines only"),
    dict(name="v387-judge-table-cer-header-left", file=JUDGE,
         old="{'CER':>5}",
         new="{'CER':<5}",
         tests=NEW + OLD,
         why="the table's CER header set left in its column while the figures below it stand right"),
]
