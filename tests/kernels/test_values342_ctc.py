"""The CTC kernel (lnrnn/kernels/ctc.py), eighteenth pass, float64, blank at class 0. One batch at T 5, C 3 with
input lengths 0, 1, 2, 3 and T: "1 1" on exactly the 3 steps it needs (a blank between the repeats) and on 2
(one short), "1 2" on exactly 2 and on 1, an empty label on 0 and on T steps, "2" on one step, "2 1 1" and
"2 2 2" on T; loss, logz and the backward's dloss-scaled gradient against test_values26_ctc's brute-force sum
over every alignment and the loss against PyTorch's ctc_loss (reduction none, zero_infinity). One-step rows
whose label's class is 700 or 800 nats down, by hand: p = e^-k / (2 + e^-k), the gradient 1/2, -1, 1/2. An
infeasible row (one step short) whose only first-step position underflows: loss 0, logz -inf, gradient 0, as
documented. Rows fitting only through classes 800 nats down (the log-space path) on 1 to 4 steps against the
brute-force sum and PyTorch. A class 100 nats down that no label reads: its gradient is its softmax, e^-100
relative to its step's sum, to 1e-9 relative."""
import numpy as np
import torch

from lnrnn.kernels.ctc import ctc_forward
from test_values26_ctc import brute_force, check_rows, run_kernel
from test_values48_ctc import packed
from test_values320_ctc import torch_loss


def _torch_check(x, rows, il, loss):
    want, _ = torch_loss(x, rows, il, zero_infinity=True, reduction="none")
    np.testing.assert_allclose(loss, want.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_minimum_and_one_short_lengths_0_1_and_T_in_one_batch_against_every_alignment():
    T, C = 5, 3
    rows = [[1, 1], [1, 1], [1, 2], [1, 2], [], [], [2], [2, 1, 1], [2, 2, 2]]
    il = np.array([3, 2, 2, 1, 0, 5, 1, 5, 5], np.int64)
    feasible = [True, False, True, False, True, True, True, True, True]
    x = 1.3 * np.random.default_rng(342).standard_normal((T, len(rows), C))
    g = np.array([0.5, 1.5, -1.25, 2.0, 0.75, 1.0, 3.0, -0.5, 1.75])
    loss, saved = check_rows(x, rows, il, g, rtol=1e-11)
    _torch_check(x, rows, il, loss)
    labels, ll = packed(rows)
    for b, row in enumerate(rows):
        want_loss, _ = brute_force(x[:il[b], b], row)
        want_logz = -want_loss if feasible[b] else -np.inf
        np.testing.assert_allclose(saved[2][b], want_logz, rtol=1e-11, atol=1e-13, err_msg=f"row {b}")
        if not feasible[b]:
            assert loss[b] == 0.0 and not saved[1][:, b].any()
    assert saved[2][4] == 0.0                               # no step and an empty label: p = 1
    # the log-softmax saved at each row's steps is the definition's
    for b in range(len(rows)):
        v = x[:il[b], b]
        want = v - v.max(axis=1, keepdims=True)
        want -= np.log(np.exp(want).sum(axis=1, keepdims=True))
        np.testing.assert_allclose(saved[0][:il[b], b], want, rtol=1e-12, atol=1e-13)
    # "1 1" on 3 steps has the single alignment 1 0 1: p is the product of those three softmax entries
    y = np.exp(x[:3, 0]) / np.exp(x[:3, 0]).sum(axis=1, keepdims=True)
    np.testing.assert_allclose(loss[0], -np.log(y[0, 1] * y[1, 0] * y[2, 1]), rtol=1e-12)


def test_one_step_rows_whose_label_is_700_and_800_nats_down_by_hand():
    """T 1, C 3, label "1", logits 0, -k, 0: p = e^-k / (2 + e^-k) = e^-k / 2 in float64, so loss = k + log 2;
    the only alignment reads class 1, whose posterior is 1: gradient = softmax - (0, 1, 0) = (1/2, -1, 1/2)."""
    x = np.zeros((1, 2, 3))
    x[0, 0, 1] = -800.0
    x[0, 1, 1] = -700.0
    g = np.array([1.0, 2.5])
    loss, d, saved = run_kernel(x, np.array([[1], [1]]), np.array([1, 1]), np.array([1, 1]), g)
    np.testing.assert_allclose(loss, [800.0 + np.log(2.0), 700.0 + np.log(2.0)], rtol=1e-15)
    np.testing.assert_allclose(saved[2], [-800.0 - np.log(2.0), -700.0 - np.log(2.0)], rtol=1e-15)
    np.testing.assert_allclose(d[0], [[0.5, -1.0, 0.5], [1.25, -2.5, 1.25]], rtol=1e-14, atol=1e-290)


def test_infeasible_row_whose_first_step_underflows_gets_loss_0_logz_minus_inf_gradient_0():
    """"1 1" needs 3 steps (a blank between the repeats); on 2 it cannot fit, whatever the logits. Its only live
    position at step 0 is class 1 at -800 (an emission of 0 in float64, a dropped path), so the row is looked at
    in log space too: the documented result is still loss 0, logz -inf and a zero gradient. The same label on 3
    steps with class 1 at -800 everywhere fits (one alignment 1 0 1): loss against the brute-force sum."""
    rng = np.random.default_rng(3421)
    T, C = 3, 3
    x = 0.5 * rng.standard_normal((T, 2, C))
    x[:, :, 1] -= 800.0
    labels, ll = packed([[1, 1], [1, 1]])
    il = np.array([2, 3], np.int64)
    g = np.array([2.0, 0.5])
    loss, d, saved = run_kernel(x, labels, il, ll, g)
    assert loss[0] == 0.0
    assert saved[2][0] == -np.inf
    assert not d[:, 0].any()
    want_loss, want_grad = brute_force(x[:, 1], [1, 1])
    np.testing.assert_allclose(loss[1], want_loss, rtol=1e-13)
    assert 1590.0 < loss[1] < 1610.0              # two label steps at -800, the blank step near 0
    np.testing.assert_allclose(d[:, 1], g[1] * want_grad, rtol=1e-10, atol=1e-12)


def test_rows_fitting_only_800_nats_down_against_every_alignment_and_torch():
    """Labels read classes 1 and 2, both 800 nats under the blank and class 3 at every step: every alignment
    lies below 1e-300, so the rows run in log space; lengths 1 to 4, a repeat with its blank, labels of one to
    three classes. Loss and gradient against the brute-force sum, the loss against PyTorch."""
    rng = np.random.default_rng(3422)
    T, C = 4, 4
    rows = [[1], [1, 2], [2, 1, 1], [1, 1], [2], [2, 1]]
    il = np.array([4, 3, 4, 4, 1, 4], np.int64)
    x = 0.7 * rng.standard_normal((T, len(rows), C))
    x[:, :, 1:3] -= 800.0
    g = np.array([1.0, -0.75, 1.5, 2.0, 0.5, 1.25])
    loss, saved = check_rows(x, rows, il, g, rtol=1e-9)
    assert saved[3].all()
    _torch_check(x, rows, il, loss)


def test_class_100_nats_down_keeps_its_softmax_as_gradient():
    """Class 3 is 100 nats under the others at every step and no label reads it: its gradient is its softmax
    exactly (no posterior to subtract), about e^-100 / 3, to 1e-9 relative; the rest against the brute-force
    sum."""
    rng = np.random.default_rng(3423)
    T, C = 3, 4
    rows = [[1, 2], [2], [1, 1]]
    x = rng.standard_normal((T, len(rows), C))
    x[:, :, 3] -= 100.0
    il = np.full(len(rows), T, np.int64)
    g = np.array([1.0, 0.5, -2.0])
    check_rows(x, rows, il, g)
    labels, ll = packed(rows)
    loss, saved = ctc_forward(x, labels, il, ll)
    want = np.exp(x[..., 3]) / np.exp(x).sum(axis=2)
    assert np.all(want > 1e-46) and np.all(want < 1e-42)
    np.testing.assert_allclose(saved[1][..., 3], want, rtol=1e-9, atol=0)
    out, xt = torch_loss(x, rows, il, zero_infinity=True, reduction="sum")
    out.backward()
    np.testing.assert_allclose(saved[1][..., 3], xt.grad.numpy()[..., 3], rtol=1e-9, atol=0)
