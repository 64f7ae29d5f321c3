"""The CTC kernel (lnrnn/kernels/ctc.py) against the sum over every alignment (test_values87_ctc.by_paths: each of
the C^T paths collapsed, the loss -log of the paths that read the label, the gradient the softmax minus each
class's share of them), on the cases the recursion's edges meet: a repeated label, which needs a blank between
its two copies; an empty label; labels on exactly L steps (only skips between labels) and on 2L + 1 steps (room
for a blank at every position); rows of unequal lengths in one batch, whose steps past their length are zero in
the saved log-softmax, the saved gradient and the returned one. Both the saved gradient and ctc_backward's
product with dloss are checked, and a batch whose labels fit only through classes 800 nats down runs in log
space."""
import numpy as np

from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from test_values48_ctc import packed  # label rows of their own lengths, padded with -1
from test_values87_ctc import by_paths  # the sum over every path


def check(x, rows, il, g):
    """Loss, saved buffers and gradient of each row against the sum over its paths on its own steps."""
    labels, ll = packed(rows)
    il, g = np.asarray(il, np.int64), np.asarray(g, np.float64)
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    logp, grad = np.asarray(saved[0]), np.asarray(saved[1])
    for b, r in enumerate(rows):
        n = il[b]
        want_loss, want_grad = by_paths(x[:n, b], r)
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-10, atol=1e-12, err_msg=f"row {b} {r}: loss")
        np.testing.assert_allclose(grad[:n, b], want_grad, rtol=1e-8, atol=1e-11, err_msg=f"row {b} {r}: saved")
        np.testing.assert_allclose(d[:n, b], g[b] * want_grad, rtol=1e-8, atol=1e-11, err_msg=f"row {b} {r}: d")
        z = x[:n, b] - x[:n, b].max(axis=1, keepdims=True)
        np.testing.assert_allclose(logp[:n, b], z - np.log(np.exp(z).sum(axis=1, keepdims=True)), atol=1e-12)
        assert not logp[n:, b].any() and not grad[n:, b].any() and not d[n:, b].any(), f"row {b}: padding"
    return loss, saved


def test_repeats_empty_labels_and_labels_on_L_and_2L_plus_1_steps_in_one_batch():
    rows = [[1, 1], [], [1, 2, 1], [1, 2], [2, 2], [], [2]]
    il = [3, 2, 3, 5, 4, 0, 1]        # [1, 1] on its 3-step minimum, [1, 2, 1] on L steps, [1, 2] on 2L + 1
    rng = np.random.default_rng(137)
    for _ in range(2):                # the second batch's buffers may reuse the first's: padding is written
        x = rng.normal(0.0, 1.2, (5, len(rows), 3))
        check(x, rows, il, rng.uniform(0.5, 2.0, len(rows)))


def test_a_label_on_exactly_its_own_length_reads_one_path():
    """[1, 2, 1] on 3 steps: the only path is 1 2 1 (labels joined by skips), so p is the product of its softmaxes."""
    rng = np.random.default_rng(1)
    x = rng.normal(0.0, 1.0, (3, 1, 4))
    loss, saved = check(x, [[1, 2, 1]], [3], [1.0])
    lp = x[:, 0] - np.log(np.exp(x[:, 0]).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(loss[0], -(lp[0, 1] + lp[1, 2] + lp[2, 1]), rtol=1e-12)
    onehot = np.eye(4)[[1, 2, 1]]
    np.testing.assert_allclose(saved[1][:, 0], np.exp(lp) - onehot, atol=1e-12)


def test_a_repeat_without_room_for_its_blank_has_no_path():
    """[1, 1] on 2 steps: 1 1 collapses to [1], so p = 0: loss 0 and gradient 0, as by_paths says."""
    x = np.random.default_rng(2).normal(0.0, 1.0, (2, 1, 3))
    check(x, [[1, 1]], [2], [1.5])


def test_rows_of_unequal_lengths_on_four_classes():
    rows = [[3, 1, 3], [2], [1, 1, 2], [], [3, 3]]
    il = [6, 2, 4, 6, 3]
    rng = np.random.default_rng(3)
    x = rng.normal(0.0, 1.0, (6, len(rows), 4))
    check(x, rows, il, rng.uniform(0.5, 2.0, len(rows)))


def test_rows_in_log_space_have_every_steps_shares():
    """Blank and labels 800 nats under class 3: the softmax underflows and the kernel runs in log space."""
    rows = [[1, 2], [1, 1], [2], [1, 2, 1]]
    rng = np.random.default_rng(4)
    x = rng.normal(0.0, 0.7, (5, len(rows), 4))
    x[:, :, 3] += 800.0
    _, saved = check(x, rows, [5, 5, 4, 3], rng.uniform(0.5, 2.0, len(rows)))
    assert np.asarray(saved[3]).all()
