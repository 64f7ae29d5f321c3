"""The heads' and optimizers' CUDA twins under the simulator, float64, against definitions written here in NumPy:
ctc_rows' best path and edit distance, the mixture density objective, Adam over two steps after clipping, and
CTC's loss and gradient.

ctc_rows: a row with no labels whose best path emits two classes (the table's first row is the whole answer), a
row whose first step's blank lies above every class of a later step, a row without steps. mdn: correlations far
from 0 on both signs, three components, a padded row, against lnrnn.reference.mdn_nll and its central
differences. Adam: two steps on gradients clipped by clip_grad_norm (one norm above the limit, one below), eps
large enough to matter, against the paper's bias-corrected rule. CTC: every one of the C^Tb paths collapsed by
hand, labels as long as T, a repeat that needs a blank between, a short row, a row without steps, logits far
from 0; dloss not 1.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import itertools
import math

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import ctc_cuda, losses_cuda, mdn, mdn_cuda, optim_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import empty, to_device  # noqa: E402
from lnrnn.kernels.optim import CLIP_EPS  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402
from test_cuda_kernels import host, small_blocks  # noqa: E402,F401  (small_blocks: autouse geometry)
from test_values75_ctc_cuda import collapse  # noqa: E402  (a best path collapsed: repeats merged, blanks dropped)
from test_values97_heads_cuda import levenshtein, log_softmax  # noqa: E402

TOL = 1e-12


def test_ctc_rows_by_definition():
    """Row 0: no labels, best path 1 2 2 (distance 2); row 1: labels 1 2, step 0's blank at log p -0.01 above every
    class of step 1, whose best is 2 (best path 0 2 0, distance 1); row 2: no steps (nothing scored)."""
    T, B, C = 3, 3, 3
    scores = np.array([[[0.0, 3.0, 0.0], [0.0, 0.0, 3.0], [0.0, 1.0, 2.5]],
                       [[6.0, 1.0, 1.0], [0.2, 0.0, 0.5], [4.0, 0.0, 0.0]],
                       [[0.0, 1.0, 0.0], [0.0, 1.0, 0.0], [0.0, 1.0, 0.0]]]).transpose(1, 0, 2)   # (T,B,C)
    logp = log_softmax(scores)
    labels = np.array([[0, 0], [1, 2], [1, 0]], np.int64)
    label_lengths, input_lengths = np.array([0, 2, 1], np.int64), np.array([3, 3, 0], np.int64)
    loss = np.array([0.7, 1.9, 0.0])
    rows = empty((B, 2), np.float64)
    losses_cuda.ctc_rows(to_device(loss), to_device(logp), to_device(labels), to_device(input_lengths),
                         to_device(label_lengths), rows)
    want = np.zeros((B, 2))
    for b in range(B):
        if input_lengths[b] == 0:
            continue
        hyp = collapse(np.argmax(logp[:input_lengths[b], b], axis=1))
        want[b] = loss[b], levenshtein(labels[b, :label_lengths[b]].tolist(), hyp)
    assert want[:, 1].tolist() == [2.0, 1.0, 0.0]
    np.testing.assert_array_equal(host(rows), want)


def test_mdn_twin_by_spec_and_differences():
    M, N = 3, 4
    rng = np.random.default_rng(11505)
    y = 0.5 * rng.standard_normal((N, 6 * M + 1))
    y[:, 1 + 5 * M:] = [[1.2, -0.9, 0.6]] * N                       # rho = tanh(.) far from 0, both signs
    t = np.zeros((N, 3))
    t[:, :2] = 0.6 * rng.standard_normal((N, 2))
    t[:, 2] = [1, 0, 0, 1]
    v = np.array([1.0, 1.0, 0.0, 1.0])
    nll, saved = mdn_cuda.mdn_forward(y, t, v, M)
    spec = lambda yy: mdn_nll(yy, t, v, M, smax=mdn.SMAX)  # noqa: E731
    np.testing.assert_allclose(host(nll), spec(y), rtol=1e-12, atol=1e-12)
    g = np.array([0.8, -1.1, 0.5, 1.7])
    d = host(mdn_cuda.mdn_backward(g, saved, y, t, M))
    h = 1e-6
    num = np.zeros_like(y)
    for idx in np.ndindex(*y.shape):
        yp, ym = y.copy(), y.copy()
        yp[idx] += h
        ym[idx] -= h
        num[idx] = g @ (spec(yp) - spec(ym)) / (2 * h)
    np.testing.assert_allclose(d, num, rtol=0, atol=1e-7)
    assert not np.any(d[2])


def test_adam_two_steps_after_clipping():
    """g1's norm 5 is clipped to 2 (the norm reported unclipped), g2's (below 2) is left alone; then Adam's rule of
    the paper: m_hat = m / (1 - beta1^k), v_hat = v / (1 - beta2^k), p -= lr m_hat / (sqrt(v_hat) + eps)."""
    lr, b1, b2, eps, max_norm = 0.1, 0.8, 0.9, 0.05, 2.0
    p0 = np.array([0.5, -1.0, 2.0, 0.0, 0.3])
    g1 = np.array([3.0, 0.0, -4.0, 0.0, 0.0])
    g2 = np.array([0.1, -0.2, 0.05, 0.3, -0.01])
    p, m, v = to_device(p0.copy()), to_device(np.zeros(5)), to_device(np.zeros(5))
    pw, mw, vw = p0.copy(), np.zeros(5), np.zeros(5)
    for k, g in enumerate((g1, g2), 1):
        gd, norm = to_device(g.copy()), to_device(np.zeros(1))
        optim_cuda.clip_grad_norm(gd, max_norm, norm)
        n = math.sqrt(float(g @ g))
        assert host(norm)[0] == pytest.approx(n, rel=1e-14, abs=0)
        gc = g * (max_norm / (n + CLIP_EPS)) if n > max_norm else g
        np.testing.assert_allclose(host(gd), gc, rtol=0, atol=TOL, err_msg=f"clipped g, step {k}")
        optim_cuda.adam_update(p, m, v, gd, lr, b1, b2, eps, k)
        mw = b1 * mw + (1 - b1) * gc
        vw = b2 * vw + (1 - b2) * gc * gc
        pw = pw - lr * (mw / (1 - b1 ** k)) / (np.sqrt(vw / (1 - b2 ** k)) + eps)
        np.testing.assert_allclose(host(p), pw, rtol=0, atol=TOL, err_msg=f"p, step {k}")
        np.testing.assert_allclose(host(m), mw, rtol=0, atol=TOL, err_msg=f"m, step {k}")
        np.testing.assert_allclose(host(v), vw, rtol=0, atol=TOL, err_msg=f"v, step {k}")


def test_ctc_loss_and_gradient_over_every_path():
    """Rows: labels 1 2 1 over T = 3 (one path), 1 1 over 3 (a blank between), 2 over 2 steps, nothing over no
    steps. The gradient w.r.t. the logits is dloss (softmax - the posterior occupancy of the paths)."""
    T, B, C = 3, 4, 3
    rng = np.random.default_rng(11506)
    logits = 2.0 * rng.standard_normal((T, B, C)) + 25.0            # far from 0: log p needs the shift back
    labels = np.array([[1, 2, 1], [1, 1, 0], [2, 0, 0], [0, 0, 0]], np.int64)
    label_lengths, input_lengths = np.array([3, 2, 1, 0], np.int64), np.array([3, 3, 2, 0], np.int64)
    dloss = np.array([0.7, -1.3, 2.0, 0.5])
    loss, saved = ctc_cuda.ctc_forward(logits, labels, input_lengths, label_lengths)
    d = host(ctc_cuda.ctc_backward(dloss, saved, labels, input_lengths, label_lengths))
    want_loss, want_d = np.zeros(B), np.zeros((T, B, C))
    for b in range(B):
        Tb, target = input_lengths[b], labels[b, :label_lengths[b]].tolist()
        if Tb == 0:
            continue
        lp = log_softmax(logits[:Tb, b])
        z, occ = 0.0, np.zeros((Tb, C))
        for path in itertools.product(range(C), repeat=Tb):
            if collapse(path) == target:
                w = math.exp(sum(lp[t, c] for t, c in enumerate(path)))
                z += w
                occ[np.arange(Tb), list(path)] += w
        want_loss[b] = -math.log(z)
        want_d[:Tb, b] = dloss[b] * (np.exp(lp) - occ / z)
    np.testing.assert_allclose(host(loss), want_loss, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(d, want_d, rtol=0, atol=1e-12)
