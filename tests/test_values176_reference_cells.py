"""The NumPy spec's cells (lnrnn/reference.py) with every option on, against the same cells written again here:
LayerNorm (Ba et al. 2016) per element in plain Python over a (T,B,F) input with its own eps, its backward by
autograd; the plain and LN LSTM and RNN from given h0 and c0, with eps away from the default, in PyTorch ops
(float64, every gradient by autograd); per-step BatchNorm (Cooijmans et al. 2016) in training over rows of
their own lengths, one step no row runs, a momentum away from the default, its running tables by the momentum
rule and the unbiased variance per element, its backward by autograd over the active rows only; the BN-LSTM
and BN-RNN with lengths, h0, c0 and every gain and bias away from 1 and 0, forward and every gradient."""
import math

import numpy as np
import torch

from lnrnn import reference as ref
from test_values150_reference_cells import lstm_params, rnn_case, t_lstm, t_rnn

EPS = 0.05   # away from the default, so that an eps left behind shows
MOM = 0.3    # away from the default momentum


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def close(got, want, name="", tol=1e-8):
    want = want.detach().numpy() if torch.is_tensor(want) else np.asarray(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol, err_msg=name)


def t_ln(x, g, b, eps=EPS):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * g + b


def test_layernorm_per_element_on_a_3d_input_and_its_parameter_gradients_per_feature():
    rng = np.random.default_rng(176)
    T, B, F = 3, 2, 4
    x = rng.standard_normal((T, B, F)) * 1.5 + 0.5
    g, b = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    dy = rng.standard_normal((T, B, F))
    y, mean, rstd = ref.layernorm_forward(x, g, b, EPS)
    for t in range(T):
        for r in range(B):
            row = [float(v) for v in x[t, r]]
            m = sum(row) / F
            v = sum((e - m) ** 2 for e in row) / F
            for j in range(F):
                assert math.isclose(y[t, r, j], (row[j] - m) / math.sqrt(v + EPS) * g[j] + b[j], rel_tol=1e-12,
                                    abs_tol=1e-12)
    X, G, Bb = tt(x), tt(g), tt(b)
    (t_ln(X, G, Bb) * torch.tensor(dy)).sum().backward()
    dx, dg, db = ref.layernorm_backward(dy, x, mean, rstd, g)
    assert dg.shape == (F,) and db.shape == (F,)
    close(dx, X.grad, "x")
    close(dg, G.grad, "gain")
    close(db, Bb.grad, "bias")
    # by hand: the parameter gradients sum over every step and row
    xhat = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + EPS)
    close(db, sum(dy[t, r] for t in range(T) for r in range(B)), "bias by hand")
    close(dg, sum(dy[t, r] * xhat[t, r] for t in range(T) for r in range(B)), "gain by hand")


def test_lstm_plain_and_ln_with_initial_states_and_eps_match_torch_in_every_gradient():
    rng = np.random.default_rng(1761)
    T, B, I, H = 3, 2, 3, 2
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"]
    for norm in ("none", "ln"):
        P = lstm_params(rng, I, H)
        x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
        dy = rng.standard_normal((T, B, H))
        y, hT, cT, cache = ref.lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"],
                                            P["bh"], P["gc"], P["bc"], norm, EPS)
        TP = {k: tt(v) for k, v in P.items()}
        X, H0, C0 = tt(x), tt(h0), tt(c0)
        Y, HT, CT = t_lstm(X, H0, C0, TP, norm, EPS)
        close(y, Y, norm + " y")
        close(hT, HT, norm + " hT")
        close(cT, CT, norm + " cT")
        (Y * torch.tensor(dy)).sum().backward()
        out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], norm)
        want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
        checked = names if norm == "ln" else names[:6]
        for name, got, w in zip(names, out, want):
            if name in checked:
                close(got, w, f"{norm} {name}")


def test_rnn_plain_and_ln_with_h0_and_eps_match_torch_in_every_gradient():
    rng = np.random.default_rng(1762)
    T, B, I, H = 3, 2, 2, 3
    for norm in ("none", "ln"):
        (_, _, Wx, Wh, _, g), dy, (y, hT, cache), (X, H0, TWx, TWh, Tb, Tg) = rnn_case(rng, T, B, I, H, norm, EPS)
        Y = t_rnn(X, H0, TWx, TWh, Tb, Tg, norm, EPS)
        close(y, Y, norm + " y")
        close(hT, Y[-1], norm + " hT")
        (Y * torch.tensor(dy)).sum().backward()
        dx, dh0, dWx, dWh, db, dg = ref.rnn_backward(dy, cache, Wx, Wh, g, norm)
        for name, got, w in (("x", dx, X), ("h0", dh0, H0), ("Wx", dWx, TWx), ("Wh", dWh, TWh), ("b", db, Tb)):
            close(got, w.grad, f"{norm} {name}")
        if norm == "ln":
            close(dg, Tg.grad, "ln g")


def t_bn_step(x, act, g, b):
    """One step's training BatchNorm: statistics over the active rows (act: bool list), every row normalized
    with them; a step no row runs uses mean 0 and variance 0."""
    idx = [r for r in range(x.shape[0]) if act[r]]
    if not idx:
        return (x - 0.0) / math.sqrt(EPS) * g + b
    xa = x[idx]
    mu = xa.mean(0)
    var = ((xa - mu) ** 2).mean(0)
    return (x - mu) / torch.sqrt(var + EPS) * g + b


def running_by_hand(xs, act, rm, rv):
    """The momentum rule per element: rows t < Ts with at least one active row, unbiased variance."""
    rm, rv = rm.copy(), rv.copy()
    for t, x in enumerate(xs):
        rows = [x[r] for r in range(x.shape[0]) if act[t][r]]
        n = len(rows)
        if t >= rm.shape[0] or n == 0:
            continue
        for j in range(x.shape[1]):
            col = [float(r[j]) for r in rows]
            m = sum(col) / n
            v = sum((e - m) ** 2 for e in col) / n
            rm[t, j] = (1 - MOM) * rm[t, j] + MOM * m
            rv[t, j] = (1 - MOM) * rv[t, j] + MOM * v * n / max(n - 1, 1)
    return rm, rv


def test_batchnorm_with_lengths_an_empty_step_and_momentum_running_tables_and_every_gradient():
    rng = np.random.default_rng(1763)
    T, B, F, Ts = 4, 4, 3, 4
    lengths = np.array([3, 1, 2, 3])        # step 3: no row runs; step 1: three rows of four
    act = [[t < L for L in lengths] for t in range(T)]
    x = rng.standard_normal((T, B, F)) * 2 + 1
    g, b = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    dy = rng.standard_normal((T, B, F))
    rm0, rv0 = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    rm, rv = rm0.copy(), rv0.copy()
    y, mean, rstd = ref.batchnorm_forward_train(x, g, b, rm, rv, MOM, EPS, lengths=lengths)
    want_rm, want_rv = running_by_hand(x, act, rm0, rv0)
    close(rm, want_rm, "running mean", 1e-12)
    close(rv, want_rv, "running var", 1e-12)
    X, G, Bb = tt(x), tt(g), tt(b)
    Y = torch.stack([t_bn_step(X[t], act[t], G, Bb) for t in range(T)])
    close(y, Y, "y")
    mask = torch.tensor(np.array(act, dtype=np.float64))[:, :, None]
    (Y * torch.tensor(dy) * mask).sum().backward()
    dx, dg, db = ref.batchnorm_backward(dy, x, mean, rstd, g, True, lengths=lengths)
    close(dx, X.grad, "x")
    close(dg, G.grad, "gain")
    close(db, Bb.grad, "bias")


def bn_params(rng, I, H, G):
    return dict(Wx=rng.standard_normal((I, G)) * 0.7, Wh=rng.standard_normal((H, G)) * 0.7,
                b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G))


def test_bn_lstm_with_lengths_initial_states_and_momentum_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1764)
    T, B, I, H = 3, 3, 2, 2
    G = 4 * H
    lengths = np.array([3, 2, 3])
    act = [[t < L for L in lengths] for t in range(T)]
    P = bn_params(rng, I, H, G)
    P.update(gc=rng.uniform(0.5, 1.5, H), bc=0.4 + 0.3 * rng.standard_normal(H))
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    tabs = [np.zeros((T, n)) for n in (G, G, G, G, H, H)]
    tabs[1] += 1
    tabs[3] += 1
    tabs[5] += 1
    y, hT, cT, saved = ref.bn_lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], P["gc"],
                                           P["bc"], *tabs, True, MOM, EPS, lengths=lengths)
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    h, c, ys = H0, C0, []
    zero = torch.zeros(G, dtype=torch.float64)
    for t in range(T):
        a = t_bn_step(X[t] @ TP["Wx"], act[t], TP["gx"], zero) + t_bn_step(h @ TP["Wh"], act[t], TP["gh"], zero) \
            + TP["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(t_bn_step(c, act[t], TP["gc"], TP["bc"]))
        ys.append(h)
    Y = torch.stack(ys)
    close(y, Y, "y")
    mask = torch.tensor(np.array(act, dtype=np.float64))[:, :, None]
    (Y * torch.tensor(dy) * mask).sum().backward()
    out = ref.bn_lstm_backward(dy, saved, x, h0, c0, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"])
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"]
    want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
    for name, got, w in zip(names, out, want):
        close(got, w, name)


def test_bn_rnn_with_lengths_and_h0_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1765)
    T, B, I, H = 3, 3, 2, 3
    lengths = np.array([2, 3, 3])
    act = [[t < L for L in lengths] for t in range(T)]
    P = bn_params(rng, I, H, H)
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    tabs = [np.zeros((T, H)), np.ones((T, H)), np.zeros((T, H)), np.ones((T, H))]
    y, hT, saved = ref.bn_rnn_forward(x, h0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], *tabs, True, MOM, EPS,
                                      lengths=lengths)
    TP = {k: tt(v) for k, v in P.items()}
    X, H0 = tt(x), tt(h0)
    h, ys = H0, []
    zero = torch.zeros(H, dtype=torch.float64)
    for t in range(T):
        h = torch.tanh(t_bn_step(h @ TP["Wh"], act[t], TP["gh"], zero)
                       + t_bn_step(X[t] @ TP["Wx"], act[t], TP["gx"], zero) + TP["b"])
        ys.append(h)
    Y = torch.stack(ys)
    close(y, Y, "y")
    mask = torch.tensor(np.array(act, dtype=np.float64))[:, :, None]
    (Y * torch.tensor(dy) * mask).sum().backward()
    out = ref.bn_rnn_backward(dy, saved, x, h0, P["Wx"], P["Wh"], P["gx"], P["gh"])
    names = ["x", "h0", "Wx", "Wh", "b", "gx", "gh"]
    want = [X.grad, H0.grad] + [TP[k].grad for k in names[2:]]
    for name, got, w in zip(names, out, want):
        close(got, w, name)
