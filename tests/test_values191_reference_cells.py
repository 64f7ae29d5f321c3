"""The NumPy spec's cells (lnrnn/reference.py) on awkward shapes (one row and three, H = 5, a row of no steps)
against the same cells written again here: LayerNorm's backward (Ba et al. 2016) with a gain away from 1 by
PyTorch autograd in float64; the LN-LSTM and LN-RNN, forward and every gradient, by autograd; per-step
training BatchNorm (Cooijmans et al. 2016) with its own momentum and eps, the running tables by the momentum
rule per element and the output per element in plain Python; BatchNorm's backward in inference (the running
statistics are constants) by autograd; the BN-LSTM in inference on distinct x, h and cell tables, forward and
every gradient by autograd, and in training its three pairs of running tables from each side's own
pre-activations."""
import math

import numpy as np
import torch

from lnrnn import reference as ref
from test_values150_reference_cells import lstm_params, rnn_case, t_lstm, t_rnn
from test_values176_reference_cells import EPS, MOM, close, running_by_hand, t_ln, tt


def test_layernorm_backward_with_a_gain_away_from_one_on_one_row_and_three():
    rng = np.random.default_rng(191)
    for B in (1, 3):
        x = rng.standard_normal((B, 5)) * 2 - 0.5
        g, b = rng.uniform(0.3, 2.5, 5), rng.standard_normal(5)
        dy = rng.standard_normal((B, 5))
        y, mean, rstd = ref.layernorm_forward(x, g, b, EPS)
        X, G, Bb = tt(x), tt(g), tt(b)
        Y = t_ln(X, G, Bb)
        close(y, Y, f"B={B} y")
        (Y * torch.tensor(dy)).sum().backward()
        dx, dg, db = ref.layernorm_backward(dy, x, mean, rstd, g)
        close(dx, X.grad, f"B={B} x")
        close(dg, G.grad, f"B={B} gain")
        close(db, Bb.grad, f"B={B} bias")


def test_ln_lstm_on_one_row_and_three_with_h_5_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1911)
    T, I, H = 2, 2, 5
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"]
    for B in (1, 3):
        P = lstm_params(rng, I, H)
        P["gh"] = rng.uniform(1.8, 2.6, 4 * H)      # far from the x side's gains
        x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H)) * 2
        dy = rng.standard_normal((T, B, H))
        y, hT, cT, cache = ref.lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"],
                                            P["bh"], P["gc"], P["bc"], "ln", EPS)
        TP = {k: tt(v) for k, v in P.items()}
        X, H0, C0 = tt(x), tt(h0), tt(c0)
        Y, HT, CT = t_lstm(X, H0, C0, TP, "ln", EPS)
        close(y, Y, f"B={B} y")
        close(cT, CT, f"B={B} cT")
        (Y * torch.tensor(dy)).sum().backward()
        out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
        want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
        for name, got, w in zip(names, out, want):
            close(got, w, f"B={B} d{name}")


def test_ln_rnn_on_one_row_and_three_with_h_5_matches_torch_in_dx():
    rng = np.random.default_rng(1912)
    for B in (1, 3):
        (_, _, Wx, Wh, _, g), dy, (y, hT, cache), (X, H0, TWx, TWh, Tb, Tg) = rnn_case(rng, 2, B, 3, 5, "ln", EPS)
        Y = t_rnn(X, H0, TWx, TWh, Tb, Tg, "ln", EPS)
        close(y, Y, f"B={B} y")
        (Y * torch.tensor(dy)).sum().backward()
        dx, dh0, dWx, dWh, db, dg = ref.rnn_backward(dy, cache, Wx, Wh, g, "ln")
        for name, got, w in (("x", dx, X), ("h0", dh0, H0), ("Wx", dWx, TWx), ("g", dg, Tg)):
            close(got, w.grad, f"B={B} d{name}")


def test_batchnorm_training_with_its_own_momentum_and_eps_and_a_row_of_no_steps():
    rng = np.random.default_rng(1913)
    T, F = 3, 5
    for lengths in (np.array([2, 0, 3]), np.array([3])):
        B = len(lengths)
        act = [[t < L for L in lengths] for t in range(T)]
        x = rng.standard_normal((T, B, F)) * 1.5 + 0.7
        g, b = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
        rm0, rv0 = rng.standard_normal((T, F)), rng.uniform(0.5, 2.0, (T, F))
        rm, rv = rm0.copy(), rv0.copy()
        y, mean, rstd = ref.batchnorm_forward_train(x, g, b, rm, rv, MOM, EPS, lengths=lengths)
        want_rm, want_rv = running_by_hand(x, act, rm0, rv0)
        close(rm, want_rm, f"{lengths} running mean", 1e-12)
        close(rv, want_rv, f"{lengths} running var", 1e-12)
        for t in range(T):
            rows = [r for r in range(B) if act[t][r]]
            for j in range(F):
                col = [float(x[t, r, j]) for r in rows]
                m = sum(col) / len(col)
                v = sum((e - m) ** 2 for e in col) / len(col)
                for r in range(B):
                    want = (x[t, r, j] - m) / math.sqrt(v + EPS) * g[j] + b[j]
                    assert math.isclose(y[t, r, j], want, rel_tol=1e-12, abs_tol=1e-12), (lengths, t, r, j)


def test_batchnorm_backward_in_inference_treats_the_running_statistics_as_constants():
    rng = np.random.default_rng(1914)
    T, B, F = 3, 3, 5
    lengths = np.array([3, 0, 2])
    mask = torch.tensor(np.array([[t < L for L in lengths] for t in range(T)], dtype=np.float64))[:, :, None]
    x = rng.standard_normal((T, B, F)) * 1.5
    g, b = rng.uniform(0.5, 2.0, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((T, F)), rng.uniform(0.3, 2.0, (T, F))
    dy = rng.standard_normal((T, B, F))
    y = ref.batchnorm_forward_infer(x, g, b, rm, rv, EPS)
    X, G, Bb = tt(x), tt(g), tt(b)
    Y = (X - torch.tensor(rm)[:, None]) / torch.sqrt(torch.tensor(rv)[:, None] + EPS) * G + Bb
    close(y, Y, "y")
    (Y * torch.tensor(dy) * mask).sum().backward()
    dx, dg, db = ref.batchnorm_backward(dy, x, rm, 1.0 / np.sqrt(rv + EPS), g, training=False, lengths=lengths)
    close(dx, X.grad, "x")
    close(dg, G.grad, "gain")
    close(db, Bb.grad, "bias")


def bn_lstm_case(rng, T, B, I, H):
    G = 4 * H
    P = dict(Wx=rng.standard_normal((I, G)) * 0.7, Wh=rng.standard_normal((H, G)) * 0.7,
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G),
             gc=rng.uniform(0.5, 1.5, H), bc=0.3 * rng.standard_normal(H))
    # distinct tables per side: x's means near +1, h's near -1, the variances far apart
    tabs = [1 + 0.3 * rng.standard_normal((T, G)), rng.uniform(0.3, 0.6, (T, G)),
            -1 + 0.3 * rng.standard_normal((T, G)), rng.uniform(2.0, 3.0, (T, G)),
            0.3 * rng.standard_normal((T, H)), rng.uniform(0.5, 1.5, (T, H))]
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    return P, tabs, x, h0, c0


def test_bn_lstm_in_inference_reads_each_sides_own_tables_and_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1915)
    T, B, I, H = 2, 3, 2, 5
    P, tabs, x, h0, c0 = bn_lstm_case(rng, T, B, I, H)
    dy = rng.standard_normal((T, B, H))
    y, hT, cT, saved = ref.bn_lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], P["gc"],
                                           P["bc"], *[a.copy() for a in tabs], False, MOM, EPS)
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    rmx, rvx, rmh, rvh, rmc, rvc = (torch.tensor(a) for a in tabs)
    h, c, ys = H0, C0, []
    for t in range(T):
        a = (TP["gx"] * (X[t] @ TP["Wx"] - rmx[t]) / torch.sqrt(rvx[t] + EPS)
             + TP["gh"] * (h @ TP["Wh"] - rmh[t]) / torch.sqrt(rvh[t] + EPS) + TP["b"])
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(TP["gc"] * (c - rmc[t]) / torch.sqrt(rvc[t] + EPS) + TP["bc"])
        ys.append(h)
    Y = torch.stack(ys)
    close(y, Y, "y")
    close(cT, c, "cT")
    (Y * torch.tensor(dy)).sum().backward()
    out = ref.bn_lstm_backward(dy, saved, x, h0, c0, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"])
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"]
    want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
    for name, got, w in zip(names, out, want):
        close(got, w, "d" + name)


def test_bn_lstm_in_training_moves_each_sides_own_running_tables():
    rng = np.random.default_rng(1916)
    T, B, I, H = 2, 3, 2, 5
    lengths = np.array([2, 0, 1])
    act = [[t < L for L in lengths] for t in range(T)]
    P, tabs, x, h0, c0 = bn_lstm_case(rng, T, B, I, H)
    got = [a.copy() for a in tabs]
    ref.bn_lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], P["gc"], P["bc"], *got, True, MOM,
                        EPS, lengths=lengths)
    # the pre-activations of each side, step by step, from the cell written here (statistics over active rows)
    xs, hs, cs = [], [], []
    h, c = h0, c0

    def bn(v, t):
        va = v[[r for r in range(B) if act[t][r]]]
        return (v - va.mean(0)) / np.sqrt(va.var(0) + EPS)

    for t in range(T):
        xw, hw = x[t] @ P["Wx"], h @ P["Wh"]
        a = P["gx"] * bn(xw, t) + P["gh"] * bn(hw, t) + P["b"]
        i, f, g, o = (1 / (1 + np.exp(-a[:, :H])), 1 / (1 + np.exp(-a[:, H:2 * H])), np.tanh(a[:, 2 * H:3 * H]),
                      1 / (1 + np.exp(-a[:, 3 * H:])))
        c = f * c + i * g
        h = o * np.tanh(P["gc"] * bn(c, t) + P["bc"])
        xs.append(xw)
        hs.append(hw)
        cs.append(c)
    for k, seq in enumerate((xs, hs, cs)):
        want_m, want_v = running_by_hand(seq, act, tabs[2 * k], tabs[2 * k + 1])
        side = "xhc"[k]
        close(got[2 * k], want_m, side + " running mean", 1e-10)
        close(got[2 * k + 1], want_v, side + " running var", 1e-10)
