"""lnrnn/data/strokes.py on lines written out here in stroke-3: a glitch step of length 1001 (600, 801) dropped with
its pen lift moved back to the point before it, and one of length exactly 1000 kept; CTC labels right-padded with -1
over texts of 3, 1 and 0 characters (an all-empty batch still one column wide); what a run keeps of a task's text
counting its 3 training lines, not its 1 validation line; the steps of a stroke task (the longest line's N - 1 over
both splits, whichever split holds it) and of a reading task (the longest N), with the batch's padding at lines of 3
and 5 points; the validation split built from its own lines (its size, its glitch count) and normalized by the
training offsets' standard deviation (2, 0.5) worked out by hand; a reading task's description word for word (3
characters and the blank, 20 and 21 unseen characters, all code 0 so each needing a blank between, short lines
counted only when a split has one); and the synthetic lines' cut at a stroke's end leaving no empty stroke."""
import numpy as np
import pytest

from lnrnn.data import strokes as S


def zigzag(n):
    """(n, 3) stroke-3 of one stroke whose offsets alternate (2, 0.5) and (-2, -0.5): for odd n the offsets
    have mean 0 and standard deviation exactly 2 in x and 0.5 in y."""
    r = np.zeros((n, 3))
    r[1::2, :2] = [2.0, 0.5]
    r[2::2, :2] = [-2.0, -0.5]
    r[-1, 2] = 1.0
    return r


def test_a_glitch_of_1001_is_dropped_with_its_lift_moved_back_and_1000_is_kept():
    seq = np.array([[0, 0, 0], [3, 4, 0], [600, 801, 1], [1, -2, 0], [2, 2, 1]], float)   # row 2: |.| = 1000.4
    out, dropped = S.drop_long_steps(seq)
    assert dropped == 1
    assert np.array_equal(out, np.array([[0, 0, 0], [3, 4, 1], [1, -2, 0], [2, 2, 1]], float))
    edge = seq.copy()
    edge[2, :2] = [600, 800]                                              # length exactly 1000: kept
    out, dropped = S.drop_long_steps(edge)
    assert dropped == 0 and np.array_equal(out, edge)
    # the same line as a reader normalizes it with scale (2, 0.5): dx / 2, dy / 0.5, pen as is
    assert np.array_equal(S.normalize_line(seq, [2.0, 0.5]),
                          np.array([[0, 0, 0], [1.5, 8, 1], [0.5, -4, 0], [1, 4, 1]], float))


def test_ctc_labels_are_codes_plus_one_padded_with_minus_one():
    alphabet = S.UNKNOWN + "ab"                                           # codes: a 1, b 2; classes a 2, b 3
    labels = S.text_labels(["aba", "b", "", "xa"], alphabet)
    assert labels.dtype == np.int64
    assert labels.tolist() == [[2, 3, 2], [3, -1, -1], [-1, -1, -1], [1, 2, -1]]   # x unknown: code 0, class 1
    assert S.text_labels([""], alphabet).tolist() == [[-1]]                # one column even when all are empty
    assert S.text_labels(["", ""], alphabet).tolist() == [[-1], [-1]]
    assert S.ctc_steps_needed(labels).tolist() == [3, 1, 0, 2]
    assert S.ctc_steps_needed(S.text_labels(["aab", "abba"], alphabet)).tolist() == [4, 5]


def texted_task(spec=None, train_texts=("ab", "ba", "b"), val_texts=("aaaa",)):
    train = S.RawSplit([zigzag(5), zigzag(3), zigzag(7)], None, list(train_texts))
    val = S.RawSplit([zigzag(9)] * len(val_texts), None, list(val_texts))
    return S.make_task(spec or {"task": "hand"}, "hand lines", train, val)


def test_the_text_record_counts_the_training_lines():
    t = texted_task()
    assert S.text_record(t) == {"alphabet": S.UNKNOWN + "ab", "unknown": 0, "lines": 3}
    plain = S.make_task({"task": "hand"}, "hand lines", S.RawSplit([zigzag(3)] * 3), S.RawSplit([zigzag(3)]))
    assert S.text_record(plain) is None


@pytest.mark.parametrize("train_n, val_n", [((3, 5), (7,)), ((9, 3), (3, 5))], ids=["val-longest", "train-longest"])
def test_steps_are_the_longest_line_of_either_split(train_n, val_n):
    train = S.RawSplit([zigzag(n) for n in train_n])
    val = S.RawSplit([zigzag(n) for n in val_n])
    t = S.make_task({"task": "hand"}, "hand lines", train, val)
    assert t.sets["train"].max_steps == max(train_n) - 1 and t.sets["val"].max_steps == max(val_n) - 1
    assert t.steps == max(train_n + val_n) - 1                             # N - 1 steps of next-point prediction
    texts = {"task": "hand", "head": "ctc"}
    r = S.make_task(texts, "hand lines", S.RawSplit(train.lines, None, ["a"] * len(train_n)),
                    S.RawSplit(val.lines, None, ["a"] * len(val_n)))
    assert r.steps == max(train_n + val_n)                                 # a reader takes all N points


def test_batch_padding_at_lines_of_3_and_5_points():
    t = S.make_task({"task": "hand"}, "hand lines", S.RawSplit([zigzag(3), zigzag(5)]), S.RawSplit([zigzag(3)]))
    x, y, lengths = t.batch("train", [0, 1], np.float64)
    unit = zigzag(5) / [2.0, 0.5, 1.0]                                     # offsets +-1 after the scale (2, 0.5)
    assert lengths.tolist() == [2, 4] and x.shape == (4, 2, 3) and y.shape == (2, 4, 3)
    assert np.array_equal(x[:, 1], unit[:4]) and np.array_equal(y[1], unit[1:])
    assert np.array_equal(x[:2, 0], zigzag(3)[:2] / [2.0, 0.5, 1.0]) and not x[2:, 0].any()
    assert np.array_equal(y[0, :2], zigzag(3)[1:] / [2.0, 0.5, 1.0]) and not y[0, 2:].any()


def test_the_validation_split_is_its_own_lines_scaled_by_the_training_std():
    glitch = np.array([[0, 0, 0], [4, 1, 0], [0, 1500, 1], [6, -3, 1]], float)   # row 2 dropped, lift to row 1
    train = S.RawSplit([zigzag(3), zigzag(5), zigzag(7)], ["t0", "t1", "t2"])
    val = S.RawSplit([glitch, zigzag(11) * [3, 3, 1]], ["v0", "v1"])       # val offsets wider: not the scale
    t = S.make_task({"task": "hand"}, "hand lines", train, val)
    assert t.scale == [2.0, 0.5]
    assert t.size("train") == 3 and t.size("val") == 2 and t.sets["val"].names == ["v0", "v1"]
    assert np.array_equal(t.line("val", 0), np.array([[0, 0, 0], [2, 2, 1], [3, -6, 1]], np.float32))
    assert np.array_equal(t.line("val", 1), (zigzag(11) * [1.5, 6, 1]).astype(np.float32))
    assert t.extra["dropped_steps"] == 1 and t.extra["points"] == [15, 14]
    assert t.description == ("hand lines: 3 train / 2 validation lines of 3-11 points (dx, dy, pen), offsets "
                             "divided by the training std (2, 0.5); 1 glitch step longer than 1000 dropped")


READ_HEAD = "; read with a CTC head: each whole line in, its text out as labels over 3 characters and the blank"
SHORT = ("; 1 train / 0 validation lines have fewer points than their labels need and score loss 0 without "
         "gradient (CTC's zero_infinity)")


def reading(train_texts, val_text):
    train = S.RawSplit([zigzag(5), zigzag(3), zigzag(3)], None, list(train_texts))
    val = S.RawSplit([zigzag(45)], None, [val_text])
    return S.make_task({"task": "hand", "head": "ctc"}, "hand lines", train, val)


def test_a_reading_description_with_20_unseen_characters_and_one_short_training_line():
    # "aab" needs 4 steps (3 labels and a blank between the two a's): its 3 points are too few; the validation
    # text's 20 unseen characters are all code 0, so it needs 22 labels + 19 blanks = 41 of its 45 points
    t = reading(["ab", "aab", "ba"], "ab" + "cdefghijklmnopqrstuv")       # c..v: 20 characters unseen
    assert t.head["outputs"] == 4 and t.extra["unalignable"] == {"train": 1, "val": 0}
    assert t.description == ("hand lines: 3 train / 1 validation lines of 3-45 points (dx, dy, pen), offsets "
                             "divided by the training std (2, 0.5); 0 glitch steps longer than 1000 dropped"
                             + READ_HEAD + "; the validation texts hold 20 characters no training text uses "
                             "('cdefghijklmnopqrstuv'), which no reader can name" + SHORT)


def test_a_reading_description_with_21_unseen_characters_and_no_short_line():
    t = reading(["ab", "ba", "b"], "ab" + "cdefghijklmnopqrstuvw")        # c..w: 21 unseen, 23 + 20 = 43 steps
    assert t.extra["unalignable"] == {"train": 0, "val": 0}
    assert t.description == ("hand lines: 3 train / 1 validation lines of 3-45 points (dx, dy, pen), offsets "
                             "divided by the training std (2, 0.5); 0 glitch steps longer than 1000 dropped"
                             + READ_HEAD + "; the validation texts hold 21 characters no training text uses "
                             "('cdefghijklmnopqrstuv'...), which no reader can name")
    t = reading(["ab", "ba", "b"], "ab")
    assert t.description.endswith("dropped" + READ_HEAD)


def test_the_cut_at_a_strokes_end_leaves_no_empty_stroke():
    a, b, c = np.arange(6.0).reshape(3, 2), np.arange(4.0).reshape(2, 2) + 10, np.arange(8.0).reshape(4, 2) + 20
    shapes = {n: [len(s) for s in S._cut([a, b, c], n)] for n in (1, 3, 4, 5, 9, 12)}
    assert shapes == {1: [1], 3: [3], 4: [3, 1], 5: [3, 2], 9: [3, 2, 4], 12: [3, 2, 4]}
    assert np.array_equal(S._cut([a, b, c], 4)[1], b[:1])
    for n in (40, 41, 57):                                                 # whole generated lines: n points, none empty
        strokes = S.synthetic_line(np.random.default_rng(n), n)
        assert sum(len(s) for s in strokes) == n and min(len(s) for s in strokes) >= 1
