"""The NumPy spec's heads (lnrnn/reference.py) against computations written here: the mixture density loss
of Graves 2013 (eqs. 23-26: the bivariate normal of each component, weighted by the softmax, and the
end-of-stroke Bernoulli, with the spec's e = sigmoid(yhat_0)) per element in plain Python; the soft window
(eqs. 46-51) per element, and its backward by central differences of the forward; CTC's loss as minus the
log of the sum over every path in C^T that collapses to the label, and its gradient by central differences
of that sum."""
import itertools
import math

import numpy as np

from lnrnn import reference as ref
from gradcheck_util import numeric_grad


def check_mdn_nll(got, yhat, target, valid, M, smax=math.inf, rho_max=1.0 - 1e-4):
    """got (N,) against Graves 2013's eqs. 23-26 per element in plain Python: 0 on an invalid row, else minus the
    log of the softmax-weighted bivariate normals (log standard deviations clipped to [-smax, smax], rho =
    rho_max tanh) and of the end-of-stroke Bernoulli with e = sigmoid(yhat_0)."""
    for n in range(len(yhat)):
        if not valid[n]:
            assert got[n] == 0.0
            continue
        y = [float(v) for v in yhat[n]]
        x1, x2, pen = (float(v) for v in target[n])
        e = 1.0 / (1.0 + math.exp(-y[0]))
        ex = [math.exp(v) for v in y[1:1 + M]]
        total = 0.0
        for k in range(M):
            pi = ex[k] / sum(ex)
            mu1, mu2 = y[1 + M + k], y[1 + 2 * M + k]
            s1 = math.exp(min(max(y[1 + 3 * M + k], -smax), smax))
            s2 = math.exp(min(max(y[1 + 4 * M + k], -smax), smax))
            rho = rho_max * math.tanh(y[1 + 5 * M + k])
            z = ((x1 - mu1) / s1) ** 2 + ((x2 - mu2) / s2) ** 2 - 2 * rho * (x1 - mu1) * (x2 - mu2) / (s1 * s2)
            total += pi * math.exp(-z / (2 * (1 - rho * rho))) / (2 * math.pi * s1 * s2 * math.sqrt(1 - rho * rho))
        want = -math.log(total) - (math.log(e) if pen == 1 else math.log(1 - e))
        assert abs(got[n] - want) < 1e-10 * max(1.0, abs(want)), n


def test_mixture_density_nll_per_element():
    rng = np.random.default_rng(10)
    N, M = 5, 3
    yhat = rng.standard_normal((N, 6 * M + 1))
    yhat[:, 1 + 5 * M:] *= 0.8
    target = np.column_stack([rng.standard_normal(N) * 1.5 + 0.4, rng.standard_normal(N) - 0.7,
                              np.array([1, 0, 1, 0, 0], float)])
    valid = np.array([1, 1, 0, 1, 1])
    check_mdn_nll(ref.mdn_nll(yhat, target, valid, M), yhat, target, valid, M)


def window_case(rng):
    B, H, K, U, C = 2, 3, 2, 4, 5
    h = rng.standard_normal((B, H)) * 0.5
    Wp = rng.standard_normal((H, 3 * K)) * 0.4
    bp = rng.standard_normal(3 * K) * 0.3
    kappa_prev = rng.uniform(0.5, 2.5, (B, K))
    chars = rng.integers(0, C, (B, U))
    chars[0, :3] = [2, 4, 2]  # a repeated character
    ulen = np.array([3, 4])
    return h, Wp, bp, kappa_prev, chars, ulen, C


def test_window_forward_per_element_and_backward_by_central_differences():
    rng = np.random.default_rng(11)
    h, Wp, bp, kappa_prev, chars, ulen, C = window_case(rng)
    B, U = chars.shape
    K = Wp.shape[1] // 3
    w, phi, kappa, cache = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
    for b in range(B):
        p = [sum(h[b, j] * Wp[j, m] for j in range(h.shape[1])) + bp[m] for m in range(3 * K)]
        kap = [kappa_prev[b, k] + math.exp(p[2 * K + k]) for k in range(K)]
        np.testing.assert_allclose(kappa[b], kap, rtol=1e-12)
        wb = [0.0] * C
        for u in range(U):
            ph = sum(math.exp(p[k]) * math.exp(-math.exp(p[K + k]) * (kap[k] - (u + 1)) ** 2) for k in range(K))
            if u < ulen[b]:
                assert abs(phi[b, u] - ph) < 1e-12
                wb[chars[b, u]] += ph
            else:
                assert phi[b, u] == 0.0
        np.testing.assert_allclose(w[b], wb, rtol=1e-12, atol=1e-15)

    dw = rng.standard_normal(w.shape)
    dkappa = rng.standard_normal(kappa.shape)
    dh, dkprev, dWp, dbp = ref.window_backward(dw, dkappa, cache, Wp, chars)

    def loss():
        w_, _, k_, _ = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
        return float((w_ * dw).sum() + (k_ * dkappa).sum())

    for name, got, arr in (("h", dh, h), ("kappa_prev", dkprev, kappa_prev), ("Wp", dWp, Wp), ("bp", dbp, bp)):
        np.testing.assert_allclose(got, numeric_grad(loss, arr, eps=1e-6, order=2), rtol=1e-6, atol=1e-8, err_msg=name)


def paths_to(label, C, Tb):
    """Every path in C^Tb (class 0 the blank) that collapses (merge repeats, drop blanks) to label, in order."""
    for path in itertools.product(range(C), repeat=Tb):
        out, prev = [], None
        for c in path:
            if c != prev and c != 0:
                out.append(c)
            prev = c
        if out == list(label):
            yield path


def brute_ctc_logp(logits_b, label, Tb):
    """log of the sum over every path of Tb steps that collapses (merge repeats, drop blanks) to label."""
    z = logits_b[:Tb] - logits_b[:Tb].max(axis=1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    total = 0.0
    for path in paths_to(label, logits_b.shape[1], Tb):
        total += math.exp(sum(logp[t, c] for t, c in enumerate(path)))
    return math.log(total) if total > 0 else -math.inf


def test_ctc_loss_and_gradient_against_every_path():
    rng = np.random.default_rng(12)
    T, B, C = 4, 4, 3
    logits = rng.standard_normal((T, B, C)) * 1.5
    labels = np.array([[1, 0, 0], [1, 1, 0], [2, 1, 2], [2, 0, 0]])
    label_lengths = np.array([1, 2, 2, 1])
    input_lengths = np.array([4, 4, 3, 2])
    loss, cache = ref.ctc_forward(logits, labels, input_lengths, label_lengths)
    for b in range(B):
        want = -brute_ctc_logp(logits[:, b], labels[b, :label_lengths[b]], input_lengths[b])
        assert abs(loss[b] - want) < 1e-10, b
    dloss = np.array([1.0, 0.5, -0.7, 2.0])
    d = ref.ctc_backward(dloss, cache)

    def total():
        return sum(-dloss[b] * brute_ctc_logp(logits[:, b], labels[b, :label_lengths[b]], input_lengths[b])
                   for b in range(B))

    np.testing.assert_allclose(d, numeric_grad(total, logits, eps=1e-6, order=2), rtol=1e-6, atol=1e-8)
