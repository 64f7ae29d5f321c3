"""The NumPy spec's heads and window (lnrnn/reference.py) on awkward shapes (one row and three, five
components, a text of no characters, a row of no steps) against computations written here: Graves 2013's
mixture density (eqs. 23-26) per element in plain Python; the soft window (eqs. 46-51) per element in plain
Python and its backward, with an upstream dL/dkappa away from 0, by PyTorch autograd in float64; the window
LSTM with H = 5 for norm 'none' and 'ln' in PyTorch ops, every gradient by autograd; CTC's loss and gradient as
the log of the sum over every path in C^T that collapses to the label, by autograd."""
import math

import numpy as np
import torch

from lnrnn import reference as ref
from test_values150_reference_heads import check_mdn_nll
from test_values176_reference_cells import EPS, MOM, close, tt
from test_values176_reference_heads import t_ctc_logp, t_window_lstm, window_lstm_draws


def test_mixture_density_nll_per_element_on_one_point_and_three_with_five_components():
    rng = np.random.default_rng(191)
    M = 5
    for N in (1, 3):
        yhat = rng.standard_normal((N, 6 * M + 1))
        yhat[:, 1:1 + M] *= 2.5         # weights far from uniform
        target = np.column_stack([rng.standard_normal(N), rng.standard_normal(N), (np.arange(N) % 2).astype(float)])
        valid = np.ones(N, int)
        check_mdn_nll(ref.mdn_nll(yhat, target, valid, M), yhat, target, valid, M)


def t_window(h, Wp, bp, kappa_prev, chars, ulen, C):
    K = Wp.shape[1] // 3
    B, U = chars.shape
    p = h @ Wp + bp
    alpha, beta, kappa = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K]), kappa_prev + torch.exp(p[:, 2 * K:])
    rows = []
    for b in range(B):
        row = [torch.zeros((), dtype=torch.float64)] * C
        for u in range(int(ulen[b])):
            row[chars[b, u]] = row[chars[b, u]] + (alpha[b] * torch.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2)).sum()
        rows.append(torch.stack(row))
    return torch.stack(rows), kappa


def test_window_forward_per_element_and_backward_with_an_upstream_dkappa_by_autograd():
    rng = np.random.default_rng(1917)
    B, H, K, U, C = 3, 5, 2, 4, 4
    h = rng.standard_normal((B, H)) * 0.5
    Wp, bp = rng.standard_normal((H, 3 * K)) * 0.4, rng.standard_normal(3 * K) * 0.3
    kappa_prev = rng.uniform(0.5, 2.5, (B, K))
    chars = np.array([[1, 3, 1, 2], [2, 2, 2, 2], [3, 0, 1, 1]])   # row 1: no characters, padded with real codes
    ulen = np.array([4, 0, 2])
    w, phi, kappa, cache = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
    p = h @ Wp + bp
    for b in range(B):
        for k in range(K):
            assert math.isclose(kappa[b, k], kappa_prev[b, k] + math.exp(p[b, 2 * K + k]), rel_tol=1e-12)
        for u in range(U):
            want = 0.0
            if u < ulen[b]:
                want = sum(math.exp(p[b, k]) * math.exp(-math.exp(p[b, K + k]) * (kappa[b, k] - (u + 1)) ** 2)
                           for k in range(K))
            assert math.isclose(phi[b, u], want, rel_tol=1e-12, abs_tol=1e-300), (b, u)
        for c in range(C):
            want = sum(phi[b, u] for u in range(ulen[b]) if chars[b, u] == c)
            assert math.isclose(w[b, c], want, rel_tol=1e-12, abs_tol=1e-300), (b, c)
    dw, dkappa = rng.standard_normal((B, C)), rng.standard_normal((B, K)) * 2
    Hh, TWp, Tbp, K0 = tt(h), tt(Wp), tt(bp), tt(kappa_prev)
    W, KAP = t_window(Hh, TWp, Tbp, K0, chars, ulen, C)
    close(w, W, "w")
    ((W * torch.tensor(dw)).sum() + (KAP * torch.tensor(dkappa)).sum()).backward()
    dh, dkap, dWp, dbp = ref.window_backward(dw, dkappa, cache, Wp, chars)
    for name, got, want in (("h", dh, Hh), ("kappa_prev", dkap, K0), ("Wp", dWp, TWp), ("bp", dbp, Tbp)):
        close(got, want.grad, "d" + name)


def test_window_lstm_with_h_5_rows_of_no_steps_and_no_text_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1918)
    T, B, I, H, K, U, C = 3, 3, 2, 5, 2, 3, 3
    lengths = np.array([3, 0, 2])
    act = [[t < L for L in lengths] for t in range(T)]
    chars = np.array([[1, 2, 1], [2, 0, 0], [0, 0, 0]])
    ulen = np.array([3, 1, 0])
    names = ["x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp"]
    for norm in ("none", "ln"):
        P, x, h0, c0, kappa0, w0, dy, dw, tabs = window_lstm_draws(rng, T, B, I, H, K, C)
        ys, ws, hT, cT, kT, wT, phis, cache = ref.window_lstm_forward(
            x, h0, c0, kappa0, w0, chars, ulen, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"], P["bh"],
            P["gc"], P["bc"], P["Wp"], P["bp"], *tabs, norm, training=True, momentum=MOM, eps=EPS, lengths=lengths)
        TP = {k: tt(v) for k, v in P.items()}
        X, H0, C0, K0, W0 = (tt(v) for v in (x, h0, c0, kappa0, w0))
        Y, W, HT, CT, KT, WT, PHI = t_window_lstm(X, H0, C0, K0, W0, chars, ulen, TP, norm, act)
        close(ys, Y, norm + " y")
        close(ws, W, norm + " w")
        close(phis, PHI, norm + " phi")
        mask = torch.tensor(np.array(act, dtype=np.float64))[:, :, None]
        (((Y * torch.tensor(dy)) * mask).sum() + ((W * torch.tensor(dw)) * mask).sum()).backward()
        grads = ref.window_lstm_backward(dy, dw, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], P["Wp"], chars)
        want = [X.grad, H0.grad, C0.grad, K0.grad, W0.grad] + [TP[k].grad for k in names[5:]]
        for name, got, w in zip(names, grads, want):
            if norm == "ln" or name not in {"gx", "bx", "gh", "bh", "gc", "bc"}:
                close(got, w, f"{norm} d{name}")


def test_ctc_loss_and_gradient_on_one_row_and_three_with_a_row_of_no_steps():
    rng = np.random.default_rng(1919)
    T, C = 3, 3
    cases = [(np.array([[2, 1]]), np.array([1]), np.array([3])),
             (np.array([[1, 2], [2, 2], [2, 1]]), np.array([1, 0, 2]), np.array([3, 0, 3]))]
    for labels, label_lengths, input_lengths in cases:
        B = len(labels)
        logits = rng.standard_normal((T, B, C)) * 1.5
        loss, cache = ref.ctc_forward(logits, labels, input_lengths, label_lengths)
        dloss = rng.uniform(0.5, 2.0, B)
        d = ref.ctc_backward(dloss, cache)
        L = tt(logits)
        total = torch.zeros((), dtype=torch.float64)
        for b in range(B):
            lp = t_ctc_logp(L[:, b], labels[b, :label_lengths[b]], int(input_lengths[b]))
            assert abs(loss[b] + lp.item()) < 1e-10, (B, b)
            total = total - dloss[b] * lp
        total.backward()
        close(d, L.grad, f"B={B} dlogits", 1e-10)
