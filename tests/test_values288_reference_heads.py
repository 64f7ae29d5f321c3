"""The NumPy spec's heads (lnrnn/reference.py) against their definitions, at tiny shapes in float64: the
mixture density NLL against a two-component bivariate Gaussian mixture and a Bernoulli pen written out by hand
(one log-sigma past smax on each axis, so the clip of both shows); the attention window's w against the sum of
phi over each row's own characters (a repeated character, a row of two characters of three); CTC's loss and
gradient against torch.nn.functional.ctc_loss (zero_infinity) and autograd over rows of their own input
lengths, labels with a repeat and without."""
import math

import numpy as np
import torch
import torch.nn.functional as F

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt


def test_mixture_density_nll_against_a_mixture_written_out_with_both_sigmas_clipped():
    M, smax, rho_max = 2, 3.0, 0.9
    # rows: [e | pi(2) | mu1(2) | mu2(2) | log s1(2) | log s2(2) | rho_hat(2)]
    yhat = np.array([
        [0.3, 0.2, -0.5, 0.1, -0.4, 0.3, 0.2, 0.1, 3.5, -0.2, 0.4, 0.5, -0.7],
        [-1.1, 1.0, 0.4, -0.3, 0.6, 0.0, -0.5, -3.7, 0.2, 4.2, -0.1, -0.4, 1.3],
    ])
    target = np.array([[0.7, -0.2, 1.0], [-0.4, 0.9, 0.0]])
    got = ref.mdn_nll(yhat, target, np.array([1, 1]), M, smax, rho_max)
    for n in range(2):
        r = yhat[n]
        e = 1 / (1 + math.exp(-r[0]))
        w = [math.exp(r[1]), math.exp(r[2])]
        total = 0.0
        for k in range(M):
            pi = w[k] / sum(w)
            m1, m2 = r[3 + k], r[5 + k]
            s1 = math.exp(min(max(r[7 + k], -smax), smax))
            s2 = math.exp(min(max(r[9 + k], -smax), smax))
            rho = rho_max * math.tanh(r[11 + k])
            z1, z2 = (target[n, 0] - m1) / s1, (target[n, 1] - m2) / s2
            quad = (z1 * z1 + z2 * z2 - 2 * rho * z1 * z2) / (1 - rho * rho)
            total += pi * math.exp(-quad / 2) / (2 * math.pi * s1 * s2 * math.sqrt(1 - rho * rho))
        pen = target[n, 2]
        want = -math.log(total) - (math.log(e) if pen == 1 else math.log(1 - e))
        assert abs(got[n] - want) < 1e-10 * max(1.0, abs(want)), (n, got[n], want)


def test_window_w_sums_phi_over_each_rows_own_characters():
    rng = np.random.default_rng(2889)
    B, H, K, C = 2, 3, 2, 4
    h = rng.standard_normal((B, H)) * 0.5
    Wp, bp = rng.standard_normal((H, 3 * K)) * 0.4, rng.standard_normal(3 * K) * 0.3
    kappa_prev = np.array([[0.5, 1.2], [2.0, 0.3]])
    chars = np.array([[2, 1, 2], [3, 1, 0]])      # row 0 repeats 2; row 1's third is padding
    ulen = np.array([3, 2])
    w, phi, kappa, _ = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
    for b in range(B):
        p = h[b] @ Wp + bp
        alpha, beta, kap = np.exp(p[:K]), np.exp(p[K:2 * K]), kappa_prev[b] + np.exp(p[2 * K:])
        np.testing.assert_allclose(kappa[b], kap, rtol=1e-13)
        want_w = np.zeros(C)
        for u in range(1, ulen[b] + 1):
            ph = sum(alpha[k] * math.exp(-beta[k] * (kap[k] - u) ** 2) for k in range(K))
            assert abs(phi[b, u - 1] - ph) < 1e-13
            want_w[chars[b, u - 1]] += ph
        assert np.all(phi[b, ulen[b]:] == 0)
        np.testing.assert_allclose(w[b], want_w, rtol=1e-13, atol=1e-15)


def test_ctc_loss_and_gradient_match_torch_over_rows_of_their_own_lengths():
    rng = np.random.default_rng(28810)
    T, B, C = 6, 3, 4
    logits = rng.standard_normal((T, B, C)) * 1.5
    labels = np.array([[1, 2, 3], [2, 2, 0], [3, 1, 0]])
    label_lengths = np.array([3, 2, 2])
    input_lengths = np.array([6, 4, 3])
    loss, cache = ref.ctc_forward(logits, labels, input_lengths, label_lengths)
    L = tt(logits)
    want = F.ctc_loss(F.log_softmax(L, dim=2), torch.tensor(labels), torch.tensor(input_lengths),
                      torch.tensor(label_lengths), blank=0, reduction="none", zero_infinity=True)
    close(loss, want, "loss", 1e-10)
    dloss = np.array([1.0, 0.5, 2.0])
    (want * torch.tensor(dloss)).sum().backward()
    close(ref.ctc_backward(dloss, cache), L.grad, "dlogits", 1e-10)
