"""Stroke tasks counted against hand computations: the lines of a StrokeSet of 3, 5 and 2 points found at their
own offsets (starts 0, 3, 8, 10) and a batch of two of them padded with zeros to the longer's 4 steps; the
validation groups of split_groups at 7, 11, 101 and 1001 distinct groups (the nearest whole number to a tenth,
at least 1, never all, drawn at the seed-0 permutation worked out here); split_counts and strokes-synthetic
taking --split 7/11."""
import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec

A = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [-3.0, 0.5, 1.0]])
B = np.array([[0.0, 0.0, 0.0], [4.0, -1.0, 1.0], [0.25, 0.0, 0.0], [2.0, 2.0, 0.0], [-1.0, 6.0, 1.0]])
C = np.array([[0.0, 0.0, 0.0], [7.0, 8.0, 1.0]])


def test_lines_at_their_own_offsets_and_a_batch_padded_to_the_longest():
    s = S.StrokeSet([A, B, C])
    assert len(s) == 3 and s.starts.tolist() == [0, 3, 8, 10] and s.max_steps == 5 - 1
    for i, ln in enumerate((A, B, C)):
        np.testing.assert_array_equal(s.line(i), ln)
    task = S.StrokeTask({"task": "t"}, "t", s, S.StrokeSet([C]), [1.0, 1.0])
    x, y, lengths = task.batch("train", [0, 1])
    assert lengths.tolist() == [2, 4] and x.shape == (4, 2, 3) and y.shape == (2, 4, 3)
    want_x = np.zeros((4, 2, 3))
    want_x[:2, 0], want_x[:4, 1] = A[:2], B[:4]                            # inputs p_0..p_{N-2}, zeros after
    want_y = np.zeros((2, 4, 3))
    want_y[0, :2], want_y[1, :4] = A[1:], B[1:]                            # targets p_1..p_{N-1}
    np.testing.assert_array_equal(x, want_x)
    np.testing.assert_array_equal(y, want_y)


@pytest.mark.parametrize("n,n_val", [(7, 1), (11, 1), (101, 10), (1001, 100)])
def test_validation_groups_at_awkward_counts(n, n_val):
    names = [f"g{k:04d}" for k in range(n)]                               # sorted as numbered
    groups = [names[(3 * i) % n] for i in range(2 * n)]                   # every group twice, interleaved
    mask = S.split_groups(groups)
    order = np.random.default_rng(0).permutation(n)
    val = {names[k] for k in order[:n_val]}
    assert mask.tolist() == [g in val for g in groups]
    assert len({g for g, m in zip(groups, mask) if m}) == n_val


def test_split_counts_and_synthetic_lines_take_the_split():
    assert S.split_counts({"split": "7/11"}) == (7, 11)
    assert S.split_counts({}) == (2000, 200)
    task = load_task(task_spec("strokes-synthetic", split="7/11"))
    assert (task.size("train"), task.size("val")) == (7, 11)
