"""Stroke-task preparation against its definitions (lnrnn/data/strokes.py), on small hand-made lines: a split's
line count and start offsets, next-point batches (input p_t, target p_{t+1}, N-1 steps per line), split_raw's
(training, validation) order, names and texts that follow their lines past a skipped short line, glitch steps
counted over every line of both splits, the offset scale from the training split alone, refusals of an empty
split that name it, split_groups' held-out groups as the fixed seed's draw over the distinct groups, the texts of
each split, and the CTC reader's check of the validation texts and its unalignable counts (a line of N points
needs len(labels) + repeated neighbours steps)."""
import numpy as np
import pytest

from lnrnn.data.strokes import (GLITCH_STEP, RawSplit, StrokeSet, StrokeTask, make_task, split_groups, split_raw,
                                text_record)
from lnrnn.errors import DataError


def line(n, seed=0, lift_every=3):
    """(n, 3) stroke-3: row 0 (0, 0), small offsets, a lift after every lift_every-th point and after the last."""
    r = np.random.default_rng(seed)
    a = np.zeros((n, 3))
    a[1:, :2] = r.normal(0.0, 2.0, (n - 1, 2))
    a[lift_every - 1::lift_every, 2] = 1.0
    a[-1, 2] = 1.0
    return a


# ---- StrokeSet and StrokeTask.batch

def test_stroke_set_counts_its_lines_and_offsets_them_end_to_end():
    lines = [line(2, 1), line(5, 2), line(3, 3)]
    s = StrokeSet(lines)
    assert len(s) == 3
    assert s.starts.tolist() == [0, 2, 7, 10]
    for i, ln in enumerate(lines):
        np.testing.assert_array_equal(s.line(i), ln.astype(np.float32))
    assert s.max_steps == 4                                        # the longest line's N - 1
    assert len(StrokeSet([])) == 0 and StrokeSet([]).max_steps == 0


def test_batch_inputs_are_each_point_and_targets_the_next():
    lines = [line(4, 1), line(6, 2), line(2, 3)]
    t = StrokeTask({"task": "strokes-synthetic"}, "d", StrokeSet(lines), StrokeSet([line(3, 4)]), [1.0, 1.0])
    assert t.size("train") == 3 and t.size("val") == 1 and t.steps == 5
    idx = [2, 0, 1]
    x, y, lengths = t.batch("train", idx, np.float64)
    assert lengths.tolist() == [1, 3, 5]
    assert x.shape == (5, 3, 3) and y.shape == (3, 5, 3)
    for b, i in enumerate(idx):
        ln = lines[i].astype(np.float32)
        n = len(ln) - 1
        for k in range(5):
            want_x = ln[k] if k < n else np.zeros(3)
            want_y = ln[k + 1] if k < n else np.zeros(3)
            np.testing.assert_array_equal(x[k, b], want_x)
            np.testing.assert_array_equal(y[b, k], want_y)


# ---- split_raw and make_task

def test_split_raw_gives_unmasked_rows_to_training_and_masked_to_validation():
    lines = [line(3, k) for k in range(5)]
    names, texts = list("vwxyz"), ["t0", "t1", "t2", "t3", "t4"]
    mask = np.array([False, True, False, False, True])
    train, val = split_raw(lines, mask, names, texts)
    assert train.names == ["v", "x", "y"] and val.names == ["w", "z"]
    assert train.texts == ["t0", "t2", "t3"] and val.texts == ["t1", "t4"]
    assert [ln is lines[k] for k, ln in zip([0, 2, 3], train.lines)] == [True] * 3
    assert [ln is lines[k] for k, ln in zip([1, 4], val.lines)] == [True] * 2
    assert split_raw(lines, mask)[0].names is None


def test_names_and_texts_follow_their_lines_past_a_skipped_short_line():
    train = RawSplit([line(3, 1), line(1, 2), line(4, 3), line(5, 4)], names=["a", "b", "c", "d"],
                     texts=["ab", "b", "c", "dd"])
    val = RawSplit([line(1, 5), line(3, 6)], names=["e", "f"], texts=["e", "f"])
    t = make_task({"task": "strokes"}, "w", train, val)
    s = t.sets["train"]
    assert s.names == ["a", "c", "d"] and s.texts == ["ab", "c", "dd"]
    assert t.sets["val"].names == ["f"] and t.sets["val"].texts == ["f"]
    assert [len(s.line(i)) for i in range(len(s))] == [3, 4, 5]
    assert t.extra["short_lines"] == 2


def test_glitch_steps_are_counted_over_every_line_of_both_splits_and_the_scale_is_the_training_std():
    big = 2.0 * GLITCH_STEP
    a, b, c, v = line(6, 1), line(5, 2), line(7, 3), line(6, 4)
    a[2, 0], a[4, 1] = big, -big                                   # two glitch steps in the first line
    b[3, :2] = [0.8 * GLITCH_STEP, 0.8 * GLITCH_STEP]              # hypot 1.13 GLITCH_STEP: one more
    b[1, 0] = 0.9 * GLITCH_STEP                                    # under the threshold: kept
    v[1, 1] = big                                                  # one in validation
    val_other = line(4, 5)
    val_other[0, 0] = big                                          # row 0 is never a step: kept
    t = make_task({"task": "strokes"}, "w", RawSplit([a, b, c]), RawSplit([v, val_other]))

    def long(ln):
        return int(np.sum(np.hypot(ln[1:, 0], ln[1:, 1]) > GLITCH_STEP))
    assert t.extra["dropped_steps"] == long(a) + long(b) + long(c) + long(v) == 4
    assert [len(t.line("train", i)) for i in range(3)] == [4, 4, 7]
    kept = [np.delete(a, [2, 4], 0), np.delete(b, [3], 0), c]      # the training lines after the fix
    d = np.concatenate([k[1:, :2] for k in kept])
    sx, sy = d.std(axis=0)
    np.testing.assert_allclose(t.scale, [sx, sy], rtol=1e-12)
    np.testing.assert_allclose(t.line("train", 2)[:, :2], c[:, :2] / [sx, sy], rtol=1e-6)
    assert f"; 4 glitch steps longer than {GLITCH_STEP:g} dropped" in t.description


@pytest.mark.parametrize("empty", ["training", "validation"])
def test_a_split_without_a_usable_line_is_refused_by_its_name(empty):
    good, short = RawSplit([line(3, 1), line(4, 2)]), RawSplit([line(1, 3), line(1, 4)])
    train, val = (short, good) if empty == "training" else (good, short)
    with pytest.raises(DataError, match=rf"^strokes: the {empty} split has no line of 2 or more points"):
        make_task({"task": "strokes"}, "w", train, val)


# ---- split_groups

def test_split_groups_holds_out_the_seeds_draw_of_distinct_groups_whole():
    groups = ["a"] * 10 + [f"g{k:02d}" for k in range(11)] + ["g03", "g07", "a"]   # 12 distinct, repeats
    distinct = sorted(set(groups))
    mask = split_groups(groups, fraction=0.25, seed=5)
    n_val = round(0.25 * len(distinct))                                              # 3
    order = np.random.default_rng(5).permutation(len(distinct))
    want = {distinct[i] for i in order[:n_val]}
    assert {g for g, m in zip(groups, mask) if m} == want
    assert mask.tolist() == [g in want for g in groups]
    for g in distinct:                                                               # each group goes whole
        assert len({bool(m) for h, m in zip(groups, mask) if h == g}) == 1
    few = split_groups(["p", "q", "p"], fraction=0.9)                                 # never all
    assert 0 < len({g for g, m in zip(["p", "q", "p"], few) if m}) < 2


# ---- text

def test_each_split_keeps_its_own_texts_and_the_record_counts_training_lines():
    train = RawSplit([line(3, 1), line(4, 2), line(5, 3)], texts=["ab", "ba", "c"])
    val = RawSplit([line(3, 4)], texts=["zz"])
    t = make_task({"task": "strokes"}, "w", train, val)
    assert t.texts_train == ["ab", "ba", "c"] and t.texts_val == ["zz"]
    assert t.alphabet == "\ufffdabc"
    assert text_record(t) == {"alphabet": "\ufffdabc", "unknown": 0, "lines": 3}


def test_the_reader_refuses_validation_lines_without_text():
    train = RawSplit([line(3, 1), line(4, 2)], texts=["ab", "b"])
    val = RawSplit([line(3, 3)], texts=None)
    with pytest.raises(DataError, match=r"^--head ctc reads each line's text as its labels, and the lines of strokes "
                                        r"carry none"):
        make_task({"task": "strokes", "head": "ctc"}, "w", train, val)


def test_the_reader_counts_lines_too_short_for_their_labels_in_each_split():
    # steps needed: len(text) + one per repeated neighbour ("aa": 3, "ab": 2, "abba": 5)
    train = RawSplit([line(2, 1), line(3, 2), line(5, 3), line(2, 4)], texts=["aa", "aa", "abba", "ab"])
    val = RawSplit([line(4, 5), line(2, 6), line(3, 7)], texts=["abba", "bb", "ab"])
    t = make_task({"task": "strokes", "head": "ctc"}, "w", train, val)

    def needed(s):
        return len(s) + sum(1 for p, q in zip(s, s[1:]) if p == q)
    want = {w: sum(len(ln) < needed(s) for ln, s in zip(raw.lines, raw.texts))
            for w, raw in (("train", train), ("val", val))}
    assert want == {"train": 1, "val": 2}
    assert t.extra["unalignable"] == want
    assert "; 1 train / 2 validation lines have fewer points than their labels need" in t.description
    assert t.head["outputs"] == len(t.alphabet) + 1 == 4
