"""lnrnn/data/strokes.py's make_task on two splits written here in stroke-3, each with a glitch step and a line
too short to keep: the offset scale is the standard deviation of the kept training offsets worked out by hand
(dx +-2, dy +-0.5: exactly 2 and 0.5, while the validation offsets' own are other), every kept line of either
split is its hand-fixed rows (glitch row gone, its pen lift moved back) divided by that scale, each split keeps
its own names and texts past its skipped line, the alphabet is the kept training texts' characters, and the
description is one sentence written out here with both standard deviations."""
import numpy as np

from lnrnn.data import strokes as S

# training: a kept line, a one-point line (skipped), and a line whose row 2 is a glitch that lifted the pen
TRAIN = [np.array([[0, 0, 0], [2, 0.5, 0], [-2, -0.5, 1]], float),
         np.array([[0, 0, 1]], float),
         np.array([[0, 0, 0], [2, -0.5, 0], [1500, 0, 1], [-2, 0.5, 1]], float)]
# validation: a kept line, a one-point line (skipped), a line with a glitch at row 2 (pen down)
VAL = [np.array([[0, 0, 0], [4, 1, 0], [-4, -1, 1], [2, 2, 1]], float),
       np.array([[0, 0, 1]], float),
       np.array([[0, 0, 0], [6, -1, 1], [1200, 0, 0], [0, 1, 1]], float)]


def task():
    train = S.RawSplit(TRAIN, ["t-a", "t-short", "t-b"], ["ab", "x", "ba"])
    val = S.RawSplit(VAL, ["v-c", "v-short", "v-e"], ["abc", "zz", "b"])
    return S.make_task({"task": "hand"}, "hand lines", train, val)


def test_the_scale_is_the_kept_training_offsets_std_by_hand():
    t = task()
    # kept training offsets after the glitch fix: dx 2, -2, 2, -2; dy 0.5, -0.5, -0.5, 0.5 (means 0)
    dx, dy = np.array([2, -2, 2, -2.0]), np.array([0.5, -0.5, -0.5, 0.5])
    want = [np.sqrt(np.mean(dx ** 2)), np.sqrt(np.mean(dy ** 2))]
    assert want == [2.0, 0.5]
    assert t.scale == want and t.extra["offset_scale"] == want and t.head["scale"] == want


def test_each_split_keeps_its_lines_names_and_texts_past_the_skipped_ones():
    t = task()
    by_hand = {
        "train": [np.array([[0, 0, 0], [1, 1, 0], [-1, -1, 1]]),
                  np.array([[0, 0, 0], [1, -1, 1], [-1, 1, 1]])],   # the glitch's lift moved to row 1
        "val": [np.array([[0, 0, 0], [2, 2, 0], [-2, -2, 1], [1, 4, 1]]),
                np.array([[0, 0, 0], [3, -2, 1], [0, 2, 1]])],
    }
    for which, lines in by_hand.items():
        assert t.size(which) == len(lines)
        for i, want in enumerate(lines):
            assert np.array_equal(t.line(which, i), want.astype(np.float32))
    assert t.sets["train"].names == ["t-a", "t-b"] and t.sets["val"].names == ["v-c", "v-e"]
    assert t.texts_train == ["ab", "ba"] and t.texts_val == ["abc", "b"]
    assert t.alphabet == S.UNKNOWN + "ab"                                # 'x' went with its one-point line
    assert t.extra["dropped_steps"] == 2 and t.extra["short_lines"] == 2 and t.extra["points"] == [6, 7]


def test_the_description_names_both_standard_deviations():
    assert task().description == ("hand lines: 2 train / 2 validation lines of 3-4 points (dx, dy, pen), offsets "
                                  "divided by the training std (2, 0.5); 2 glitch steps longer than 1000 dropped, "
                                  "2 lines of fewer than 2 points skipped")
