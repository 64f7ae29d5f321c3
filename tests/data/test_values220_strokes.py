"""Stroke sets and CTC-reading batches: default line names, a reading batch's points, lengths and labels element
by element, and text_batch's codes, against the normalization, alphabet and classes worked out here."""
import numpy as np

from lnrnn.data import strokes
from lnrnn.data.strokes import RawSplit, StrokeSet, make_task


def test_default_names_are_the_indices():
    lines = [np.zeros((n, 3)) for n in (2, 4, 3)]
    assert StrokeSet(lines).names == ["0", "1", "2"]
    assert StrokeSet(lines, names=["a", "b", "c"]).names == ["a", "b", "c"]


def _lines(rng, sizes):
    out = []
    for n in sizes:
        ln = np.zeros((n, 3))
        ln[:, :2] = rng.normal(0, 5, (n, 2))
        ln[n // 2, 2] = ln[-1, 2] = 1.0
        out.append(ln)
    return out


def _reading_task():
    rng = np.random.default_rng(7)
    train, val = _lines(rng, (6, 4, 5)), _lines(rng, (3, 7, 5))
    task = make_task({"task": "strokes-hershey", "head": "ctc"}, "lines",
                     RawSplit(train, texts=["ab", "ba c", "cab"]), RawSplit(val, texts=["ba", "a!", "cc a"]))
    return task, train, val


def test_reading_batch_element_by_element():
    task, train, val = _reading_task()
    d = np.concatenate([ln[1:, :2] for ln in train])
    div = np.array([d[:, 0].std(), d[:, 1].std(), 1.0])
    alphabet = strokes.UNKNOWN + " abc"                    # unknown first, then the training characters sorted
    texts = ["ba", "a!", "cc a"]
    idx = [2, 0, 1]
    x, labels, lengths = task.batch("val", idx)
    assert x.shape == (7, 3, 3) and list(lengths) == [5, 3, 7]
    want_labels = np.full((3, 4), -1)
    for j, i in enumerate(idx):
        np.testing.assert_allclose(x[:lengths[j], j], val[i] / div, rtol=1e-6)
        assert not x[lengths[j]:, j].any()
        want_labels[j, :len(texts[i])] = [alphabet.index(c) + 1 if c in alphabet else 1 for c in texts[i]]
    np.testing.assert_array_equal(labels, want_labels)


def test_text_batch_codes_are_alphabet_indices():
    task, _, _ = _reading_task()
    alphabet = strokes.UNKNOWN + " abc"
    codes, ulen = task.text_batch("train", [1, 0])
    np.testing.assert_array_equal(ulen, [4, 2])
    want = np.zeros((2, 4), np.int64)
    for j, t in enumerate(["ba c", "ab"]):
        want[j, :len(t)] = [alphabet.index(c) for c in t]
    np.testing.assert_array_equal(codes, want)
