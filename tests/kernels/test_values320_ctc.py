"""The CTC kernel (lnrnn/kernels/ctc.py), seventeenth pass, float64. One batch of eight rows at T 5, C 3 with
input lengths 0, 1 and T side by side: a repeated label "1 1", "1 2" on exactly 2L+1 = 5 steps, "2 2 2" on 4
steps (too short), an empty label on 0 and on 3 steps, "2" on one step, "2 1" on no step; loss, logz and
gradient against test_values26_ctc's brute-force sum over every alignment, the one-step rows also by hand
(p is that step's softmax of the label, or of the blank). A row fitting only through a class 800 nats down
(run in log space) against the same sum and PyTorch's ctc_loss; long rows (T 70, C 30, where alpha and beta
are rescaled many times) against PyTorch's ctc_loss in float64 with zero_infinity on and off; the gradient
against central differences; the per-sequence mean and the sum by hand against PyTorch's reductions."""
import numpy as np
import torch

from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from gradcheck_util import numeric_grad
from test_values26_ctc import brute_force
from test_values48_ctc import packed

T, C = 5, 3
ROWS = [[1, 1], [], [2], [1, 2], [2, 2, 2], [], [2, 1], [1]]
IL = np.array([5, 0, 1, 5, 4, 3, 0, 5], np.int64)
B = len(ROWS)


def logits(seed, shape=(T, B, C), scale=1.5):
    return np.random.default_rng(seed).standard_normal(shape) * scale


def softmax(v):
    e = np.exp(v - v.max())
    return e / e.sum()


def torch_loss(x, rows, il, zero_infinity, reduction):
    """PyTorch's ctc_loss of logits x (T,B,C) float64 -> (its value, the logits' tensor to take .grad from)."""
    xt = torch.tensor(x, requires_grad=True)
    lp = torch.log_softmax(xt, dim=2)
    targets = torch.tensor([k for r in rows for k in r], dtype=torch.long)
    out = torch.nn.functional.ctc_loss(lp, targets, torch.tensor(il), torch.tensor([len(r) for r in rows]),
                                       blank=0, reduction=reduction, zero_infinity=zero_infinity)
    return out, xt


def test_lengths_0_1_and_T_in_one_batch_against_every_alignment():
    x = logits(320)
    labels, ll = packed(ROWS)
    g = np.array([0.5, 1.5, -1.25, 2.0, 0.75, 1.0, 3.0, -0.5])
    loss, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)
    for b, row in enumerate(ROWS):
        assert not d[IL[b]:, b].any(), f"row {b}: gradient past its length"
        assert not saved[0][IL[b]:, b].any(), f"row {b}: log-probabilities past its length"
        if IL[b] == 0:                                 # no step: p = 1 for the empty label, 0 for any other
            assert loss[b] == 0.0
            assert saved[2][b] == (0.0 if not row else -np.inf)
            continue
        want_loss, want_grad = brute_force(x[:IL[b], b], row)
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-11, atol=1e-13, err_msg=f"row {b}")
        np.testing.assert_allclose(d[:IL[b], b], g[b] * want_grad, rtol=1e-10, atol=1e-12, err_msg=f"row {b}")
    # one step: p is the softmax of that step at the label's class (the blank's for an empty label)
    np.testing.assert_allclose(loss[2], -np.log(softmax(x[0, 2])[2]), rtol=1e-12)
    np.testing.assert_allclose(saved[2][2], np.log(softmax(x[0, 2])[2]), rtol=1e-12)
    want = g[2] * (softmax(x[0, 2]) - np.eye(C)[2])
    np.testing.assert_allclose(d[0, 2], want, rtol=1e-11, atol=1e-13)
    # "2 2 2" needs 2 + 3 = 5 steps and has 4: loss 0, gradient 0, logz -inf
    assert loss[4] == 0.0 and saved[2][4] == -np.inf and not d[:, 4].any()
    # the repeated label "1 1" on 5 steps and "1 2" on exactly 2L+1 = 5 steps are possible
    assert loss[0] > 0 and loss[3] > 0 and not saved[3].any()


def test_a_row_fitting_only_through_a_class_800_nats_down_against_torch():
    x = logits(321)
    x[:, 3, 2] -= 800.0                               # "1 2" must read class 2 once: p below e^-800
    x[:, 7, 1] -= 760.0                               # "1" likewise, through class 1
    labels, ll = packed(ROWS)
    g = np.linspace(0.5, 2.25, B)
    loss, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)
    assert saved[3][3] and saved[3][7]                # these rows ran in log space
    for b in (3, 7):
        want_loss, want_grad = brute_force(x[:, b], ROWS[b])
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-12, err_msg=f"row {b}")
        np.testing.assert_allclose(d[:, b], g[b] * want_grad, rtol=1e-9, atol=1e-12, err_msg=f"row {b}")
    out, xt = torch_loss(x, ROWS, IL, True, "none")
    np.testing.assert_allclose(loss, out.detach().numpy(), rtol=1e-11, atol=1e-12)
    (out * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(d, xt.grad.numpy(), rtol=1e-8, atol=1e-11)
    assert loss[3] > 790.0 and loss[7] > 750.0


LONG_ROWS = [[3, 7, 7, 1, 29, 12, 5, 5, 5, 18, 2, 9], [11, 4], [6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6,
             6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6, 6], [], [8, 20, 8]]
LONG_IL = np.array([70, 63, 70, 41, 1], np.int64)   # the fourth row: 36 sixes need 71 steps and have 70


def test_long_rows_rescaled_against_torch_with_zero_infinity_on_and_off():
    x = logits(322, (70, len(LONG_ROWS), 30), 2.0)
    labels, ll = packed(LONG_ROWS)
    g = np.array([1.0, -0.5, 2.0, 0.25, 1.5])
    loss, saved = ctc_forward(x, labels, LONG_IL, ll)
    d = ctc_backward(g, saved, labels, LONG_IL, ll)
    on, xt = torch_loss(x, LONG_ROWS, LONG_IL, True, "none")
    off, _ = torch_loss(x, LONG_ROWS, LONG_IL, False, "none")
    np.testing.assert_allclose(loss, on.detach().numpy(), rtol=1e-11)
    assert np.isinf(off[2].item()) and loss[2] == 0.0 and saved[2][2] == -np.inf
    keep = [0, 1, 3]
    np.testing.assert_allclose(loss[keep], off.detach().numpy()[keep], rtol=1e-11)
    assert loss[0] > 100.0                            # far below 2^-100: rescaled on the way
    assert loss[4] == 0.0 and saved[2][4] == -np.inf  # three labels on one step
    (on * torch.tensor(g)).sum().backward()
    np.testing.assert_allclose(d, xt.grad.numpy(), rtol=1e-8, atol=1e-11)
    assert not saved[3][keep].any()


def test_gradient_against_central_differences():
    x = logits(323)
    labels, ll = packed(ROWS)
    g = np.array([1.0, 0.5, -0.75, 2.0, 1.25, -1.5, 0.5, 0.25])
    _, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)

    def f():
        return float(np.sum(g * ctc_forward(x, labels, IL, ll)[0]))

    np.testing.assert_allclose(d, numeric_grad(f, x, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)


def test_per_sequence_mean_and_sum_by_hand_against_torch():
    x = logits(324)
    labels, ll = packed(ROWS)
    loss, saved = ctc_forward(x, labels, IL, ll)
    # per sequence: each row's loss over its label length (at least 1), averaged over the 8 rows
    per = 1.0 / (B * np.maximum(ll, 1))
    d = ctc_backward(per, saved, labels, IL, ll)
    out, xt = torch_loss(x, ROWS, IL, True, "mean")
    out.backward()
    np.testing.assert_allclose(float(np.sum(loss * per)), out.item(), rtol=1e-11)
    np.testing.assert_allclose(d, xt.grad.numpy(), rtol=1e-9, atol=1e-12)
    # the sum: dloss 1 on every row
    d = ctc_backward(np.ones(B), saved, labels, IL, ll)
    out, xt = torch_loss(x, ROWS, IL, True, "sum")
    out.backward()
    np.testing.assert_allclose(float(loss.sum()), out.item(), rtol=1e-11)
    np.testing.assert_allclose(d, xt.grad.numpy(), rtol=1e-9, atol=1e-12)
    # per step: a scored step's gradient sums to 0 over the classes; steps past a length carry none
    for b in range(B):
        np.testing.assert_allclose(d[:IL[b], b].sum(axis=1), np.zeros(IL[b]), atol=1e-12)
