"""The CTC kernel (lnrnn/kernels/ctc.py) against a sum over every alignment (test_values26_ctc.brute_force): for
tiny T and three or four classes, each of the C^T paths is collapsed (repeats merged, then blanks dropped), and
the loss is -log of the summed probability of the paths that read the label; the gradient with respect to
the logits is the softmax minus each class's share of those paths at each step. Rows of one batch have their
own lengths (a row of one step in a batch of four, a row shorter than the batch's longest), one-label rows
reach step 0's band edge, and a batch whose labels fit only through classes 800 nats down makes the kernel
run in log space, where the gradient is still the paths' shares."""
import numpy as np
import pytest

from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from test_values26_ctc import brute_force  # the sum over every path


def packed(rows):
    """Label rows of their own lengths -> labels (B, L) padded with -1 (L at least 1), their lengths (B,)."""
    L = max(1, max(len(r) for r in rows))
    labels = np.full((len(rows), L), -1, np.int64)
    for b, r in enumerate(rows):
        labels[b, :len(r)] = r
    return labels, np.array([len(r) for r in rows], np.int64)


def check(x, rows, il, g, rtol=1e-9):
    labels, ll = packed(rows)
    il = np.asarray(il, np.int64)
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    for b, r in enumerate(rows):
        want_loss, want_grad = brute_force(x[:il[b], b], r)
        np.testing.assert_allclose(loss[b], want_loss, rtol=rtol, atol=1e-12, err_msg=f"row {b} {r} loss")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=rtol, atol=1e-10, err_msg=f"row {b} {r}")
        assert not d[il[b]:, b].any()
    return loss, saved


def test_one_step_rows_read_one_label_from_that_step_alone():
    """A one-step row: p('a') = y[a] only (no room for a blank before it), p('') = y[blank]; by hand."""
    x = np.array([[[0.3, 1.2, -0.4]]] * 1)                     # T 1, B 1, C 3
    y = np.exp(x[0, 0]) / np.exp(x[0, 0]).sum()
    for label, p in (([1], y[1]), ([2], y[2]), ([], y[0])):
        labels = np.full((1, max(1, len(label))), -1, np.int64)
        labels[0, :len(label)] = label
        loss, saved = ctc_forward(x, labels, np.array([1]), np.array([len(label)]))
        np.testing.assert_allclose(loss[0], -np.log(p), rtol=1e-12)
    check(x, [[1]], [1], np.ones(1))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rows_of_their_own_lengths_equal_the_sum_over_every_path(seed):
    """T 4, C 3, four rows: lengths 4, 1, 3 and 2 (a row shorter than the batch's longest, one of one step),
    labels with a repeat, one label, two distinct ones; loss and gradient (times a dloss per row) by paths."""
    rng = np.random.default_rng(4800 + seed)
    T, C = 4, 3
    rows = [[1, 1], [2], [2, 1], [1]]
    x = 1.5 * rng.standard_normal((T, len(rows), C))
    check(x, rows, [4, 1, 3, 2], rng.uniform(0.5, 2.0, len(rows)))


def test_confident_rows_with_four_classes():
    """Logits of scale 4 (the blank and the labels far apart at some steps), C 4, T 4: by paths."""
    rng = np.random.default_rng(4810)
    T, C = 4, 4
    rows = [[3, 1], [2, 2], [1, 2, 3], [3]]
    x = 4.0 * rng.standard_normal((T, len(rows), C))
    check(x, rows, [4, 4, 3, 4], rng.uniform(0.5, 2.0, len(rows)))


def test_rows_in_log_space_have_the_paths_shares_as_gradient():
    """Label classes 800 nats under the blank (and class 3, never a label): every path that reads a label is
    below 1e-300, so the kernel runs these rows in log space; loss and gradient still by paths."""
    rng = np.random.default_rng(4820)
    T, C = 4, 4
    rows = [[1], [2, 1], [1, 1], [2]]
    x = 0.5 * rng.standard_normal((T, len(rows), C))
    x[:, :, 1:3] -= 800.0
    loss, saved = check(x, rows, [4, 4, 3, 2], rng.uniform(0.5, 2.0, len(rows)))
    assert saved[3].all()
    assert np.all(loss > 790)
