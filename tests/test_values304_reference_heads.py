"""The NumPy spec's heads (lnrnn/reference.py), second value pass, against computations written independently in
the test: the mixture density loss at K 1 and 3 against scipy's bivariate normal built from its covariance
matrix (rho = rho_max tanh, correlations near +1 and -1, tanh saturated at 1 so that only rho_max keeps the
density finite) and the Bernoulli pen written out; Graves's window at U 1 and 5 summed position by position with
the bias bp away from 0, and its backward by autograd of the window written in torch ops; CTC over input lengths
0, 1, 1 and T with empty, one-label and repeated labels in one batch against torch.nn.functional.ctc_loss with
zero_infinity and its gradient by autograd."""
import math

import numpy as np
import torch
import torch.nn.functional as F
from scipy.stats import multivariate_normal

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt

RHO_MAX = 1.0 - 1e-4


def mixture_by_hand(yhat, target, M):
    out = []
    for y, (dx, dy, pen) in zip(yhat, target):
        logits = y[1:1 + M]
        pi = np.exp(logits) / np.exp(logits).sum()
        total = 0.0
        for k in range(M):
            m1, m2 = y[1 + M + k], y[1 + 2 * M + k]
            s1, s2 = math.exp(min(max(y[1 + 3 * M + k], -10), 10)), math.exp(min(max(y[1 + 4 * M + k], -10), 10))
            rho = RHO_MAX * math.tanh(y[1 + 5 * M + k])
            cov = [[s1 * s1, rho * s1 * s2], [rho * s1 * s2, s2 * s2]]
            total += pi[k] * multivariate_normal(mean=[m1, m2], cov=cov).pdf([dx, dy])
        e = 1.0 / (1.0 + math.exp(-y[0]))
        out.append(-math.log(total) - (math.log(e) if pen == 1 else math.log(1.0 - e)))
    return np.array(out)


def test_mixture_density_nll_at_one_and_three_components_with_correlations_near_plus_and_minus_one():
    rng = np.random.default_rng(3048)
    for M in (1, 3):
        N = 4
        y = rng.standard_normal((N, 6 * M + 1)) * 0.5
        y[:, 1 + M:1 + 3 * M] += np.arange(2 * M) * 0.7 - 0.5          # means apart, mu1 != mu2
        y[:, 1 + 5 * M:] = rng.choice([20.0, -20.0, 3.0, -3.0], (N, M))  # tanh saturated or near +-1
        y[:, 1 + 5 * M] = [20.0, -20.0, 3.0, -3.0]
        target = np.column_stack([rng.standard_normal(N) * 0.4, rng.standard_normal(N) * 0.4,
                                  [1.0, 0.0, 0.0, 1.0]])
        # near rho = +-1 the density is a narrow ridge: put each point on the first component's ridge
        s1, s2 = np.exp(y[:, 1 + 3 * M]), np.exp(y[:, 1 + 4 * M])
        sign = np.sign(y[:, 1 + 5 * M])
        target[:, 1] = y[:, 1 + 2 * M] + sign * s2 / s1 * (target[:, 0] - y[:, 1 + M])
        got = ref.mdn_nll(y, target, np.ones(N), M)
        np.testing.assert_allclose(got, mixture_by_hand(y, target, M), rtol=1e-9, err_msg=f"M={M}")


def window_case(rng, B, U, K, H, C):
    h = rng.standard_normal((B, H)) * 0.5
    Wp = rng.standard_normal((H, 3 * K)) * 0.4
    bp = np.concatenate([rng.standard_normal(K) * 0.3 + 0.5, rng.standard_normal(K) * 0.3 - 0.7,
                         rng.standard_normal(K) * 0.3 + 0.4])
    kappa0 = rng.uniform(0.0, U, (B, K))
    chars = rng.integers(0, C, (B, U))
    return h, Wp, bp, kappa0, chars


def test_window_at_one_and_five_positions_summed_position_by_position():
    rng = np.random.default_rng(3049)
    for U, ulen in ((1, [1, 0]), (5, [5, 3])):
        B, K, H, C = 2, 2, 3, 4
        h, Wp, bp, kappa0, chars = window_case(rng, B, U, K, H, C)
        if U == 5:
            chars[0, 3] = chars[0, 1]   # a repeated character
        w, phi, kappa, _ = ref.window_forward(h, Wp, bp, kappa0, chars, np.array(ulen), C)
        for b in range(B):
            p = [sum(h[b, j] * Wp[j, q] for j in range(H)) + bp[q] for q in range(3 * K)]
            kap = [kappa0[b, k] + math.exp(p[2 * K + k]) for k in range(K)]
            close(kappa[b], kap, f"kappa U={U} b={b}", 1e-12)
            want_w = np.zeros(C)
            for u in range(1, ulen[b] + 1):
                ph = sum(math.exp(p[k]) * math.exp(-math.exp(p[K + k]) * (kap[k] - u) ** 2) for k in range(K))
                close(phi[b, u - 1], ph, f"phi U={U} b={b} u={u}", 1e-12)
                want_w[chars[b, u - 1]] += ph
            close(phi[b, ulen[b]:], np.zeros(U - ulen[b]), f"phi past ulen U={U} b={b}", 0)
            close(w[b], want_w, f"w U={U} b={b}", 1e-12)


def test_window_backward_at_one_and_five_positions_matches_autograd():
    rng = np.random.default_rng(3050)
    for U, ulen in ((1, [1, 1]), (5, [5, 2])):
        B, K, H, C = 2, 3, 3, 4
        h, Wp, bp, kappa0, chars = window_case(rng, B, U, K, H, C)
        dw, dkappa = rng.standard_normal((B, C)), rng.standard_normal((B, K))
        _, _, _, cache = ref.window_forward(h, Wp, bp, kappa0, chars, np.array(ulen), C)
        dh, dk0, dWp, dbp = ref.window_backward(dw, dkappa, cache, Wp, chars)
        Th, TW, Tb, Tk = tt(h), tt(Wp), tt(bp), tt(kappa0)
        p = Th @ TW + Tb
        alpha, beta, kap = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K]), Tk + torch.exp(p[:, 2 * K:])
        loss = (kap * torch.tensor(dkappa)).sum()
        for b in range(B):
            for u in range(1, ulen[b] + 1):
                ph = (alpha[b] * torch.exp(-beta[b] * (kap[b] - u) ** 2)).sum()
                loss = loss + ph * dw[b, chars[b, u - 1]]
        loss.backward()
        for name, got, want in (("dh", dh, Th.grad), ("dkappa0", dk0, Tk.grad), ("dWp", dWp, TW.grad),
                                ("dbp", dbp, Tb.grad)):
            close(got, want, f"{name} U={U}", 1e-10)


def ctc_and_torch(logits, labels, input_lengths, label_lengths, dloss):
    """reference.ctc_forward/ctc_backward of logits (T,B,C) and torch's ctc_loss by sequence (zero_infinity on)
    with its gradient by autograd, both weighted by dloss (B,) -> loss, dlogits, torch's loss, torch's dlogits."""
    B = logits.shape[1]
    loss, cache = ref.ctc_forward(logits, labels, input_lengths, label_lengths)
    d = ref.ctc_backward(dloss, cache)
    X = tt(logits)
    flat = torch.tensor(np.concatenate([labels[b, :label_lengths[b]] for b in range(B)]))
    want = F.ctc_loss(X.log_softmax(2), flat, torch.tensor(input_lengths), torch.tensor(label_lengths), blank=0,
                      reduction="none", zero_infinity=True)
    (want * torch.tensor(dloss)).sum().backward()
    return loss, d, want, X.grad


def test_ctc_over_input_lengths_0_1_1_and_T_matches_torch_ctc_loss_and_its_gradient():
    rng = np.random.default_rng(3051)
    T, B, C = 5, 5, 4
    logits = rng.standard_normal((T, B, C)) * 1.5
    input_lengths = np.array([0, 1, 1, 5, 5])
    label_lengths = np.array([0, 0, 1, 2, 3])
    labels = np.array([[0, 0, 0], [0, 0, 0], [2, 0, 0], [3, 3, 0], [1, 2, 1]])
    loss, d, want, grad = ctc_and_torch(logits, labels, input_lengths, label_lengths,
                                        np.array([0.7, 1.3, -0.9, 1.1, 0.6]))
    lp = logits - logits.max(2, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(2, keepdims=True))
    close(loss, want, "loss", 1e-10)
    close(loss[:3], [0.0, -lp[0, 1, 0], -lp[0, 2, 2]], "one step by hand", 1e-12)
    close(d, grad, "dlogits", 1e-10)
