"""lnrnn/data/strokes.py's tasks and text against the module docstring worked out by hand, nineteenth pass: CTC
labels of ragged texts (code + 1, padded with -1) and the alphabet U+FFFD then the training characters sorted;
text_record's three keys for a task with text and None without; a task of 3 training and 2 validation lines
keeping each split's own lines (divided by the training std written out as a formula) and texts; a reading task
whose alphabet, sizes and unseen characters come from the training texts and the validation texts as given;
synthetic lines given a spike each carrying two offsets past GLITCH_STEP, both dropped."""
import numpy as np

from lnrnn.data import strokes as S

TRAIN = [np.array([[0, 0, 0], [3, 1, 0], [2, -2, 1]], float),
         np.array([[0, 0, 0], [1, 4, 1], [5, 0, 0], [-1, -1, 1]], float),
         np.array([[0, 0, 0], [-2, 3, 1]], float)]
VAL = [np.array([[0, 0, 0], [4, 4, 0], [1, 0, 0], [0, 2, 0], [7, -3, 1]], float),
       np.array([[0, 0, 0], [6, 1, 1], [2, 2, 1]], float)]
T_TRAIN, T_VAL = ["ab", "b", "ba"], ["abc", "a"]


def hand_std(values):
    values = [float(v) for v in values]
    mean = sum(values) / len(values)
    return (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5


def hand_scale():
    """[sx, sy]: the population std of the training offsets, rows 1.. of each line."""
    dx = [r[0] for ln in TRAIN for r in ln[1:]]
    dy = [r[1] for ln in TRAIN for r in ln[1:]]
    return hand_std(dx), hand_std(dy)


def build(head=None, texts=True):
    spec = {"task": "strokes-test"} if head is None else {"task": "strokes-test", "head": head}
    return S.make_task(spec, "hand lines", S.RawSplit(list(TRAIN), texts=T_TRAIN if texts else None),
                       S.RawSplit(list(VAL), texts=T_VAL if texts else None))


def test_ctc_labels_of_ragged_texts_by_hand():
    alphabet = S.make_alphabet(["cab", "b"])
    assert alphabet == "\ufffdabc"
    labels = S.text_labels(["ba", "c", "", "xa"], alphabet)       # x is unknown: code 0, class 1
    assert labels.dtype == np.int64
    assert labels.tolist() == [[3, 2], [4, -1], [-1, -1], [1, 2]]
    assert S.classes_to_text([3, 2, 4], alphabet) == "bac"
    assert S.ctc_steps_needed(S.text_labels(["aab", "c"], alphabet)).tolist() == [4, 1]


def test_text_record_of_a_task_with_text_and_without():
    assert S.text_record(build()) == {"alphabet": "\ufffdab", "unknown": 0, "lines": 3}
    assert S.text_record(build(texts=False)) is None


def test_each_split_keeps_its_own_lines_and_texts():
    t = build()
    sx, sy = hand_scale()
    np.testing.assert_allclose(t.scale, [sx, sy], rtol=1e-12, atol=0)
    assert (t.size("train"), t.size("val")) == (3, 2)
    for which, lines in (("train", TRAIN), ("val", VAL)):
        for i, ln in enumerate(lines):
            want = np.array([[r[0] / sx, r[1] / sy, r[2]] for r in ln], np.float32)
            np.testing.assert_allclose(t.line(which, i), want, rtol=1e-6, atol=1e-7)
    assert [t.text("train", i) for i in range(3)] == T_TRAIN
    assert [t.text("val", i) for i in range(2)] == T_VAL
    assert t.texts_val == T_VAL
    x, y, lengths = t.batch("val", [1, 0])
    assert lengths.tolist() == [2, 4]
    np.testing.assert_allclose(y[1, :4, :2], VAL[0][1:, :2] / [sx, sy], rtol=1e-6, atol=1e-7)
    assert t.head["kind"] == "mdn" and t.head["components"] == 20


def test_a_reading_task_takes_its_alphabet_from_the_training_texts():
    t = build(head="ctc")
    assert isinstance(t, S.ReadingTask)
    assert t.alphabet == "\ufffdab"
    assert (t.size("train"), t.size("val")) == (3, 2)
    assert t.extra["unseen_characters"] == "c"
    assert t.head["outputs"] == 4
    x, labels, lengths = t.batch("val", [0, 1])
    assert lengths.tolist() == [5, 3]
    assert labels.tolist() == [[2, 3, 1], [2, -1, -1]]         # c unknown: code 0, class 1
    # a line of N points aligns labels needing at most N steps: "ab" (2 of 3 points), "b", "ba" all fit
    assert t.extra["unalignable"] == {"train": 0, "val": 0}


def test_a_planted_spike_is_two_offsets_past_the_glitch_step():
    rng = np.random.default_rng(11)
    lines, spikes = S.synthetic_lines(rng, 3, glitch_rate=1.0)
    assert spikes == 3
    for seq in lines:
        lengths = np.hypot(seq[:, 0], seq[:, 1])
        long = np.flatnonzero(lengths > S.GLITCH_STEP)
        assert len(long) == 2 and long[1] == long[0] + 1 and long[0] >= 1
        fixed, dropped = S.drop_long_steps(seq)
        assert dropped == 2 and len(fixed) == len(seq) - 2
