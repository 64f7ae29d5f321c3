"""Connectionist temporal classification: the NumPy spec (lnrnn.reference.ctc_*) against PyTorch's
ctc_loss and central differences, the CPU kernel (lnrnn/kernels/ctc.py) against the spec, the head,
decoding (lnrnn/model/decode.py) and the error rates (lnrnn/textmetrics.py)."""
import itertools

import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error


def problem(rng, C=5, dtype=np.float64):
    """Ragged rows that reach every branch: repeated labels (a blank needed between them), an empty
    label, an input exactly long enough (3 3 3 needs 5 steps), an impossible row (3 labels, 2 steps),
    a row with a zero-length input and an empty label, and a row shorter than T.
    -> logits (T,B,C), labels (B,Lmax) padded with -1, input_lengths (B,), label_lengths (B,)."""
    T = 7
    labels = np.array([[1, 1, 2], [2, -1, -1], [1, 2, 3], [3, 3, 3], [1, 2, 1], [-1, -1, -1], [4, 2, -1]])
    ll = np.array([3, 0, 3, 3, 3, 0, 2])
    il = np.array([7, 4, 3, 5, 2, 0, 6])
    x = (2.0 * rng.standard_normal((T, len(ll), C))).astype(dtype)
    return x, labels, il, ll


def torch_ctc(x, labels, il, ll, g):
    """PyTorch's loss (reduction none, zero_infinity) and its gradient w.r.t. the logits of sum(g * loss)."""
    torch = pytest.importorskip("torch")
    xt = torch.tensor(x, requires_grad=True)
    lp = torch.log_softmax(xt, 2)
    tl = torch.nn.functional.ctc_loss(lp, torch.tensor(np.maximum(labels, 0)), torch.tensor(il), torch.tensor(ll),
                                      blank=0, reduction="none", zero_infinity=True)
    (tl * torch.tensor(g)).sum().backward()
    return tl.detach().numpy(), xt.grad.numpy()


def test_reference_equals_torch_ctc_loss():
    rng = np.random.default_rng(0)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    loss, cache = R.ctc_forward(x, labels, il, ll)
    d = R.ctc_backward(g, cache)
    tl, tg = torch_ctc(x, labels, il, ll, g)
    np.testing.assert_allclose(loss, tl, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d, tg, rtol=1e-10, atol=1e-12)
    assert loss[4] == 0 and not d[:, 4].any()          # impossible: zero_infinity
    assert loss[5] == 0 and not d[:, 5].any()          # empty label, empty input: p = 1
    assert not d[6:, 6].any() and d[:6, 6].any()       # nothing past the row's input length


def test_reference_gradient_by_central_differences():
    rng = np.random.default_rng(1)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    d = R.ctc_backward(g, R.ctc_forward(x, labels, il, ll)[1])
    n = numeric_grad(lambda: float(g @ R.ctc_forward(x, labels, il, ll)[0]), x)
    assert rel_error(d, n) < TOLERANCE


def test_reference_counts_paths_by_brute_force():
    """p(label | x) is the sum over every path of T symbols that collapses to the label."""
    rng = np.random.default_rng(2)
    T, C = 4, 3
    x = rng.standard_normal((T, 1, C))
    p = np.exp(R.ctc_forward(x, np.zeros((1, 1), int), [T], [0])[1][0][:, 0])   # softmax (T,C)
    total = {}
    for path in itertools.product(range(C), repeat=T):
        lab = tuple(k for i, k in enumerate(path) if k != 0 and (i == 0 or path[i - 1] != k))
        total[lab] = total.get(lab, 0.0) + np.prod(p[np.arange(T), path])
    for lab in [(), (1,), (1, 1), (1, 2), (2, 1, 2), (1, 1, 2)]:
        L = len(lab)
        loss, _ = R.ctc_forward(x, np.array([list(lab) or [0]]), [T], [L])
        np.testing.assert_allclose(np.exp(-loss[0]) if loss[0] else 0.0, total.get(lab, 0.0), rtol=1e-12)


# ------------------------------------------------------------------------------------------------
# CPU kernel (lnrnn/kernels/ctc.py)
# ------------------------------------------------------------------------------------------------
def random_problem(rng, T=12, B=9, C=4, Lmax=5, dtype=np.float64):
    """Random ragged rows: labels from few classes (so repeats are common), random label and input
    lengths (some impossible), padding of -1 past each label."""
    ll = rng.integers(0, Lmax + 1, B)
    il = rng.integers(0, T + 1, B)
    il[0], ll[0] = T, Lmax                      # the longest row fills both
    labels = np.full((B, Lmax), -1, np.int64)
    for b in range(B):
        labels[b, :ll[b]] = rng.integers(1, C, ll[b])
    return (2.0 * rng.standard_normal((T, B, C))).astype(dtype), labels, il, ll


def test_blank_is_class_zero_in_kernels_and_spec():
    from lnrnn.kernels.codes import CTC_BLANK
    assert CTC_BLANK == R.CTC_BLANK == 0


def test_kernel_equals_reference_and_torch():
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(3)
    for x, labels, il, ll in (problem(rng), random_problem(rng)):
        g = rng.standard_normal(len(ll))
        loss, saved = ctc_forward(x, labels, il, ll)
        d = ctc_backward(g, saved, labels, il, ll)
        ref_loss, cache = R.ctc_forward(x, labels, il, ll)
        np.testing.assert_allclose(loss, ref_loss, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(d, R.ctc_backward(g, cache), rtol=1e-10, atol=1e-12)
        tl, tg = torch_ctc(x, labels, il, ll, g)
        np.testing.assert_allclose(loss, tl, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(d, tg, rtol=1e-10, atol=1e-12)


def test_kernel_gradient_by_central_differences():
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(4)
    x, labels, il, ll = problem(rng)
    g = rng.standard_normal(len(ll))
    d = ctc_backward(g, ctc_forward(x, labels, il, ll)[1], labels, il, ll)
    n = numeric_grad(lambda: float(g @ ctc_forward(x, labels, il, ll)[0]), x)
    assert rel_error(d, n) < TOLERANCE


def test_kernel_ignores_padding():
    """Label entries past label_lengths and logits past input_lengths change nothing."""
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(5)
    x, labels, il, ll = random_problem(rng)
    g = np.ones(len(ll))
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    x2, labels2 = x.copy(), labels.copy()
    for b in range(len(ll)):
        x2[il[b]:, b] = 50.0 * rng.standard_normal((x.shape[0] - il[b], x.shape[2]))
        labels2[b, ll[b]:] = rng.integers(1, x.shape[2], labels.shape[1] - ll[b])
    loss2, saved2 = ctc_forward(x2, labels2, il, ll)
    np.testing.assert_array_equal(loss2, loss)
    np.testing.assert_array_equal(ctc_backward(g, saved2, labels2, il, ll), d)


def test_kernel_float32_stays_near_float64_on_long_rows():
    """float32 keeps alpha and beta in float32 (ctc.py says why): at T 200, C 30, labels of 40 the loss
    is within 1e-5 relative and the gradient within 1e-3 of the largest (3.4e-4 seen), against float64."""
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(6)
    x, labels, il, ll = random_problem(rng, T=200, B=3, C=30, Lmax=40)
    il[:], ll[:] = 200, 40
    g = np.ones(3)
    l64, s64 = ctc_forward(x, labels, il, ll)
    l32, s32 = ctc_forward(x.astype(np.float32), labels, il, ll)
    d64 = ctc_backward(g, s64, labels, il, ll)
    d32 = ctc_backward(g.astype(np.float32), s32, labels, il, ll)
    assert l32.dtype == d32.dtype == np.float32
    assert np.all(l64 > 100)                                          # long rows: large log values
    np.testing.assert_allclose(l32, l64, rtol=1e-5)
    assert np.abs(d32 - d64).max() < 1e-3 * np.abs(d64).max()
