"""lnrnn.data.strokes.make_task's counts against their definitions on lines where a count over one split, or a
bound one off, gives another number: glitch steps dropped from the training and the validation lines alike
(``drop_long_steps`` of each line), lines of fewer than 2 points skipped in both splits, a line of exactly 2
points kept (one step of next-point prediction), and a reader's lines with fewer points than their labels need
(``ctc_steps_needed``): one with exactly as many is alignable, one with one fewer is not."""
import numpy as np

from lnrnn.data import strokes as S


def line(n, glitches=(), seed=0):
    """(n, 3) stroke-3 of small steps; a glitch step (far beyond GLITCH_STEP) at each row in ``glitches``."""
    rng = np.random.default_rng(seed)
    seq = np.zeros((n, 3))
    seq[1:, :2] = rng.normal(0, 3.0, (n - 1, 2))
    for i in glitches:
        seq[i, 0] = 5 * S.GLITCH_STEP
    seq[-1, 2] = 1.0
    return seq


def test_dropped_and_short_counts_cover_both_splits():
    train = [line(12, (4,), 1), line(9, (), 2), line(3, (1, 2), 3)]           # the last leaves 1 point
    val = [line(10, (2, 7), 4), line(2, (1,), 5), line(2, (), 6), line(7, (3,), 7)]
    task = S.make_task({"task": "strokes-synthetic"}, "test", S.RawSplit(train), S.RawSplit(val))
    drops = [S.drop_long_steps(ln) for ln in train + val]
    assert task.extra["dropped_steps"] == sum(d for _, d in drops) == 7
    assert task.extra["short_lines"] == sum(len(fixed) < 2 for fixed, _ in drops) == 2
    assert (task.size("train"), task.size("val")) == (2, 3)                    # the 2-point line is kept
    assert task.extra["points"] == [12 - 1 + 9, 10 - 2 + 2 + 7 - 1]
    x, y, lengths = task.batch("val", [1])
    assert list(lengths) == [1]                                                # one step: p0 -> p1


def test_a_reader_counts_lines_too_short_for_their_labels():
    texts_train = ["ab", "aa", "ba", "aa"]
    needed = [2, 3, 2, 3]                     # a blank between the two a's
    points = [2, 3, 2, 2]                     # exactly, exactly, exactly, one fewer
    train = [line(n, (), k) for k, n in enumerate(points)]
    val = [line(3, (), 9), line(2, (), 10)]
    texts_val = ["aa", "aa"]                  # 3 needed: alignable, then one fewer
    task = S.make_task({"task": "strokes-hershey", "head": "ctc"}, "test", S.RawSplit(train, texts=texts_train),
                       S.RawSplit(val, texts=texts_val))
    labels = S.text_labels(texts_train, task.alphabet)
    assert list(S.ctc_steps_needed(labels)) == needed
    assert task.extra["unalignable"] == {"train": 1, "val": 1}
