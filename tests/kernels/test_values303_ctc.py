"""The CTC kernel (lnrnn/kernels/ctc.py), sixteenth pass, float64, one batch of five rows at T 5, C 3: a repeated
label "1 1" on five steps, a label of length 0, "1 2" on exactly 2L+1 = 5 steps, "2 2 2" on 4 steps (too short:
it needs 5), "2" on 2 steps. Loss, logz and gradient against test_values26_ctc's brute-force sum over every
alignment; the infeasible row against PyTorch's ctc_loss with zero_infinity on (loss 0, gradient 0) and off
(inf, where the kernel keeps 0 and marks logz -inf); the gradient against central differences of sum(g loss);
and the per-sequence mean (each row's loss over its label length, at least 1, averaged over the rows) and the
per-step share by hand: dloss = 1 / (B max(L_b, 1)) against PyTorch's reduction='mean' gradient."""
import numpy as np
import torch

from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from gradcheck_util import numeric_grad
from test_values26_ctc import brute_force
from test_values48_ctc import packed

T, C = 5, 3
ROWS = [[1, 1], [], [1, 2], [2, 2, 2], [2]]
IL = np.array([5, 4, 5, 4, 2], np.int64)
B = len(ROWS)


def logits(seed=303):
    return np.random.default_rng(seed).standard_normal((T, B, C)) * 1.5


def test_loss_logz_and_gradient_by_every_alignment():
    x = logits()
    labels, ll = packed(ROWS)
    g = np.array([0.5, -1.25, 2.0, 0.75, 1.5])
    loss, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)
    for b, row in enumerate(ROWS):
        want_loss, want_grad = brute_force(x[:IL[b], b], row)
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-11, atol=1e-13, err_msg=f"row {b}")
        np.testing.assert_allclose(d[:IL[b], b], g[b] * want_grad, rtol=1e-10, atol=1e-12, err_msg=f"row {b}")
        assert not d[IL[b]:, b].any()
        if b == 3:                                      # "2 2 2" needs 5 steps: p = 0
            assert loss[b] == 0.0 and saved[2][b] == -np.inf and not d[:, b].any()
        else:
            np.testing.assert_allclose(saved[2][b], -want_loss, rtol=1e-11)
            assert want_loss > 0.0


def torch_ctc(x, zero_infinity, reduction):
    labels, ll = packed(ROWS)
    xt = torch.tensor(x, requires_grad=True)
    lp = torch.log_softmax(xt, dim=2)
    targets = torch.tensor(np.concatenate([r for r in ROWS if r]), dtype=torch.long)
    out = torch.nn.functional.ctc_loss(lp, targets, torch.tensor(IL), torch.tensor(ll), blank=0,
                                       reduction=reduction, zero_infinity=zero_infinity)
    return out, xt


def test_infeasible_row_as_zero_infinity_on_and_off():
    x = logits(7)
    labels, ll = packed(ROWS)
    loss, saved = ctc_forward(x, labels, IL, ll)
    on, _ = torch_ctc(x, True, "none")
    off, _ = torch_ctc(x, False, "none")
    np.testing.assert_allclose(loss, on.detach().numpy(), rtol=1e-10, atol=1e-12)
    assert np.isinf(off[3].item()) and loss[3] == 0.0 and saved[2][3] == -np.inf
    keep = [0, 1, 2, 4]
    np.testing.assert_allclose(loss[keep], off.detach().numpy()[keep], rtol=1e-10)


def test_per_sequence_mean_and_per_step_gradient_by_hand():
    x = logits(11)
    labels, ll = packed(ROWS)
    loss, saved = ctc_forward(x, labels, IL, ll)
    dloss = 1.0 / (B * np.maximum(ll, 1))
    mean = float(np.sum(loss * dloss))
    d = ctc_backward(dloss, saved, labels, IL, ll)
    out, xt = torch_ctc(x, True, "mean")
    out.backward()
    np.testing.assert_allclose(mean, out.item(), rtol=1e-10)
    np.testing.assert_allclose(d, xt.grad.numpy(), rtol=1e-9, atol=1e-12)
    # per step: each scored step's gradient sums to 0 over the classes (softmax minus a distribution)
    for b in range(B):
        sums = d[:IL[b], b].sum(axis=1)
        np.testing.assert_allclose(sums, np.zeros(IL[b]), atol=1e-12)


def test_gradient_against_central_differences():
    x = logits(13)
    labels, ll = packed(ROWS)
    g = np.array([1.0, 0.5, -0.75, 2.0, 1.25])
    _, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)

    def f():
        return float(np.sum(g * ctc_forward(x, labels, IL, ll)[0]))

    np.testing.assert_allclose(d, numeric_grad(f, x, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)
