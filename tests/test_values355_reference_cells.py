"""The NumPy spec's cells (lnrnn/reference.py), fourth value pass, against computations written independently in
the test in float64: two-layer bidirectional LSTMs and RNNs composed from the spec's one-direction forwards AND
backwards against autograd of torch.nn.LSTM / torch.nn.RNN with the same weights and non-zero initial states; the
LN-LSTM's every gradient by autograd over 1 and 3 steps (x-side and h-side gains far apart); the LN RNN with an eps
of 0.5 against torch's layer_norm and autograd over 1 and 4 steps; training BatchNorm over lengths 0, 1, 2 and T in
one batch with the statistics written out row by row (eps 0.3, so that its place under the root shows); the BN-RNN
and the BN-LSTM in inference (population statistics, rows min(t, Ts - 1)) over lengths 0, 1 and T against the cells
in torch ops and autograd of the masked loss, the BN-LSTM with Graves's clip off and past every bound."""
import numpy as np
import pytest
import torch
import torch.nn.functional as F

from lnrnn import reference as ref
from lnrnn.config import EPS
from test_values176_reference_cells import close, tt
from test_values288_reference_cells import lstm_case, run_lstm
from test_values330_reference_cells import NAMES, lstm_grads_by_autograd


# ---- two layers, two directions: the spec's forwards and backwards composed, against torch autograd ----

def stack_forward_backward(mod, x, h0, c0, dy, lstm):
    """Each (layer, direction) one forward and one backward call of the spec; the reverse direction runs on the
    time-flipped input and its gradients are flipped back. -> y, dx, dh0 (4,B,H), dc0, {torch name: grad}."""
    H = h0.shape[2]
    inp, runs = x, []
    for layer in range(2):
        outs = []
        for k, suffix in enumerate(("", "_reverse")):
            tag = f"_l{layer}{suffix}"
            Wx = getattr(mod, "weight_ih" + tag).detach().numpy().T.copy()
            Wh = getattr(mod, "weight_hh" + tag).detach().numpy().T.copy()
            b = (getattr(mod, "bias_ih" + tag) + getattr(mod, "bias_hh" + tag)).detach().numpy()
            seq = inp if k == 0 else inp[::-1].copy()
            j = 2 * layer + k
            if lstm:
                one = np.ones(4 * H)
                y, _, _, cache = ref.lstm_forward(seq, h0[j], c0[j], Wx, Wh, b, one, 0 * one, one, 0 * one,
                                                  np.ones(H), np.zeros(H), "none", EPS)
            else:
                y, _, cache = ref.rnn_forward(seq, h0[j], Wx, Wh, b, np.ones(H), "none", EPS)
            runs.append((tag, j, k, Wx, Wh, cache))
            outs.append(y if k == 0 else y[::-1])
        inp = np.concatenate(outs, axis=2)
    y = inp
    grads, dh0, dc0 = {}, np.zeros_like(h0), np.zeros_like(h0)
    g = dy
    for layer in (1, 0):
        dinp = None
        for tag, j, k, Wx, Wh, cache in runs[2 * layer:2 * layer + 2]:
            d = g[:, :, k * H:(k + 1) * H]
            d = d if k == 0 else d[::-1].copy()
            if lstm:
                one = np.ones(4 * H)
                out = ref.lstm_backward(d, cache, Wx, Wh, one, one, np.ones(H), "none")
                dx, dh0[j], dc0[j], dWx, dWh, db = out[:6]
            else:
                dx, dh0[j], dWx, dWh, db, _ = ref.rnn_backward(d, cache, Wx, Wh, np.ones(H), "none")
            dx = dx if k == 0 else dx[::-1]
            dinp = dx if dinp is None else dinp + dx
            grads["weight_ih" + tag], grads["weight_hh" + tag] = dWx.T, dWh.T
            grads["bias_ih" + tag] = grads["bias_hh" + tag] = db
        g = dinp
    return y, g, dh0, dc0, grads


@pytest.mark.parametrize("lstm", [True, False], ids=["lstm", "rnn"])
def test_two_layer_bidirectional_forward_and_backward_composed_from_the_spec_match_torch_autograd(lstm):
    torch.manual_seed(3551)
    rng = np.random.default_rng(3551)
    T, B, I, H = 4, 3, 2, 3
    mod = (torch.nn.LSTM if lstm else torch.nn.RNN)(I, H, num_layers=2, bidirectional=True).double()
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((4, B, H)) * 0.8, rng.standard_normal((4, B, H))
    dy = rng.standard_normal((T, B, 2 * H))
    y, dx, dh0, dc0, grads = stack_forward_backward(mod, x, h0, c0, dy, lstm)
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    Y, _ = mod(X, (H0, C0)) if lstm else mod(X, H0)
    (Y * torch.tensor(dy)).sum().backward()
    close(y, Y, "y", 1e-12)
    close(dx, X.grad, "dx", 1e-10)
    close(dh0, H0.grad, "dh0", 1e-10)
    if lstm:
        close(dc0, C0.grad, "dc0", 1e-10)
    for name, p in mod.named_parameters():
        close(grads[name], p.grad, "d" + name, 1e-10)


# ---- the LN-LSTM over 1 and 3 steps, every gradient by autograd ----

@pytest.mark.parametrize("T", [1, 3])
def test_ln_lstm_over_one_and_three_steps_every_gradient_matches_autograd(T):
    rng = np.random.default_rng(3552 + T)
    B, I, H = 3, 4, 2
    P, x, h0, c0 = lstm_case(rng, T, B, I, H)   # gx in [0.5, 1.5], gh in [1.6, 2.4]: never equal
    y, hT, cT, cache = run_lstm(P, x, h0, c0, "ln")
    dy = rng.standard_normal((T, B, H)) * 1.5
    Y, HT, CT, want = lstm_grads_by_autograd(P, x, h0, c0, H, "ln", dy)
    close(y, Y, "y", 1e-12)
    out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
    for name, got, w in zip(NAMES, out, want):
        close(got, w, f"d{name} T={T}", 1e-10)


# ---- the LN RNN with an eps far from the default ----

@pytest.mark.parametrize("T", [1, 4])
def test_ln_rnn_with_eps_one_half_matches_torch_layer_norm_and_autograd(T):
    rng = np.random.default_rng(3554 + T)
    B, I, H, eps = 3, 2, 4, 0.5
    x = rng.standard_normal((T, B, I))
    h0 = rng.standard_normal((B, H)) * 0.6
    Wx, Wh = rng.standard_normal((I, H)) * 0.9, rng.standard_normal((H, H)) * 0.6
    b, g = rng.standard_normal(H) * 0.5 + 0.2, rng.uniform(0.6, 1.9, H)
    dy = rng.standard_normal((T, B, H))
    y, hT, cache = ref.rnn_forward(x, h0, Wx, Wh, b, g, "ln", eps)
    X, H0, TWx, TWh, Tb, Tg = (tt(v) for v in (x, h0, Wx, Wh, b, g))
    h, ys = H0, []
    for t in range(T):
        h = torch.tanh(F.layer_norm(X[t] @ TWx + h @ TWh, (H,), Tg, Tb, eps=eps))
        ys.append(h)
    Y = torch.stack(ys)
    (Y * torch.tensor(dy)).sum().backward()
    close(y, Y, "y", 1e-12)
    close(hT, h, "hT", 1e-12)
    got = ref.rnn_backward(dy, cache, Wx, Wh, g, "ln")
    for name, v, w in zip(("dx", "dh0", "dWx", "dWh", "db", "dg"), got, (X, H0, TWx, TWh, Tb, Tg)):
        close(v, w.grad, f"{name} T={T}", 1e-10)


# ---- training BatchNorm over lengths 0, 1, 2 and T in one batch ----

def test_batchnorm_train_over_lengths_0_1_2_T_with_eps_under_the_root_written_out_row_by_row():
    rng = np.random.default_rng(3557)
    T, B, Fe, Ts, eps, mom = 4, 4, 3, 3, 0.3, 0.25
    lengths = np.array([0, 1, 4, 2])
    x = rng.standard_normal((T, B, Fe)) * 1.7 + 0.4
    gain, bias = rng.uniform(0.5, 1.5, Fe), rng.standard_normal(Fe)
    rm0, rv0 = rng.standard_normal((Ts, Fe)), rng.uniform(0.5, 2.0, (Ts, Fe))
    rm, rv = rm0.copy(), rv0.copy()
    y, mean, rstd = ref.batchnorm_forward_train(x, gain, bias, rm, rv, mom, eps, lengths)
    for t in range(T):
        rows = [b for b in range(B) if t < lengths[b]]          # 3, 2, 1, 1 rows
        n = len(rows)
        mu = sum(x[t, b] for b in rows) / n
        var = sum((x[t, b] - mu) ** 2 for b in rows) / n
        close(mean[t], mu, f"mean t={t}", 1e-12)
        close(rstd[t], 1.0 / np.sqrt(var + eps), f"rstd t={t}", 1e-12)
        for b in range(B):
            close(y[t, b], (x[t, b] - mu) / np.sqrt(var + eps) * gain + bias, f"y t={t} b={b}", 1e-12)
        if t < Ts:
            unbiased = var * n / (n - 1) if n > 1 else var
            close(rm[t], 0.75 * rm0[t] + 0.25 * mu, f"running mean t={t}", 1e-12)
            close(rv[t], 0.75 * rv0[t] + 0.25 * unbiased, f"running var t={t}", 1e-12)
    assert np.all(rstd[2:] == 1.0 / np.sqrt(eps))   # one row: variance 0


# ---- the BN cells in inference over lengths 0, 1 and T, against torch ops and autograd ----

def bn_case(rng, T, B, I, H, G, Ts):
    P = dict(Wx=rng.standard_normal((I, G)) * 0.7, Wh=rng.standard_normal((H, G)) * 0.6,
             b=rng.standard_normal(G) * 0.4, gx=rng.uniform(0.4, 0.9, G), gh=rng.uniform(1.4, 2.2, G),
             rmx=rng.standard_normal((Ts, G)) * 0.5, rvx=rng.uniform(0.3, 0.9, (Ts, G)),
             rmh=rng.standard_normal((Ts, G)) * 0.5, rvh=rng.uniform(1.5, 3.0, (Ts, G)))
    return P, rng.standard_normal((T, B, I)), rng.standard_normal((B, H)) * 0.7


def bn_t(v, gain, rm, rv, eps):
    return gain * (v - torch.tensor(rm)) / torch.sqrt(torch.tensor(rv) + eps)


def test_bn_rnn_inference_over_lengths_0_1_T_forward_and_backward_match_autograd():
    rng = np.random.default_rng(3558)
    T, B, I, H, Ts, eps = 3, 3, 2, 4, 2, 0.05
    P, x, h0 = bn_case(rng, T, B, I, H, H, Ts)
    lengths = np.array([0, 1, 3])
    mask = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]
    dy = rng.standard_normal((T, B, H))
    y, hT, saved = ref.bn_rnn_forward(x, h0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], P["rmx"], P["rvx"],
                                      P["rmh"], P["rvh"], False, 0.1, eps, lengths)
    got = ref.bn_rnn_backward(dy, saved, x, h0, P["Wx"], P["Wh"], P["gx"], P["gh"])
    TP = {k: tt(P[k]) for k in ("Wx", "Wh", "b", "gx", "gh")}
    X, H0 = tt(x), tt(h0)
    h, ys = H0, []
    for t in range(T):
        r = min(t, Ts - 1)
        h = torch.tanh(bn_t(h @ TP["Wh"], TP["gh"], P["rmh"][r], P["rvh"][r], eps)
                       + bn_t(X[t] @ TP["Wx"], TP["gx"], P["rmx"][r], P["rvx"][r], eps) + TP["b"])
        ys.append(h)
    Y = torch.stack(ys)
    (Y * torch.tensor(dy * mask)).sum().backward()
    close(y, Y, "y", 1e-12)
    for name, v, w in zip(("dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh"), got,
                          (X, H0, TP["Wx"], TP["Wh"], TP["b"], TP["gx"], TP["gh"])):
        close(v, w.grad, name, 1e-10)


@pytest.mark.parametrize("clip", [0.0, 1e6])
def test_bn_lstm_inference_over_lengths_0_1_T_forward_and_backward_match_autograd(clip):
    rng = np.random.default_rng(3559)
    T, B, I, H, Ts, eps = 3, 3, 3, 2, 2, 0.05
    G = 4 * H
    P, x, h0 = bn_case(rng, T, B, I, H, G, Ts)
    c0 = rng.standard_normal((B, H))
    gc, bc = rng.uniform(0.5, 1.5, H), rng.standard_normal(H) * 0.3
    rmc, rvc = rng.standard_normal((Ts, H)) * 0.5, rng.uniform(0.4, 1.2, (Ts, H))
    lengths = np.array([3, 0, 1])
    mask = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]
    dy = rng.standard_normal((T, B, H)) * 1.2
    y, hT, cT, saved = ref.bn_lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], gc, bc,
                                           P["rmx"], P["rvx"], P["rmh"], P["rvh"], rmc, rvc, False, 0.1, eps,
                                           lengths)
    got = ref.bn_lstm_backward(dy, saved, x, h0, c0, P["Wx"], P["Wh"], P["gx"], P["gh"], gc, clip=clip)
    TP = {k: tt(P[k]) for k in ("Wx", "Wh", "b", "gx", "gh")}
    X, H0, C0, Tgc, Tbc = tt(x), tt(h0), tt(c0), tt(gc), tt(bc)
    h, c, ys = H0, C0, []
    for t in range(T):
        r = min(t, Ts - 1)
        a = (bn_t(h @ TP["Wh"], TP["gh"], P["rmh"][r], P["rvh"][r], eps)
             + bn_t(X[t] @ TP["Wx"], TP["gx"], P["rmx"][r], P["rvx"][r], eps) + TP["b"])
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(bn_t(c, Tgc, rmc[r], rvc[r], eps) + Tbc)
        ys.append(h)
    Y = torch.stack(ys)
    (Y * torch.tensor(dy * mask)).sum().backward()
    close(y, Y, "y", 1e-12)
    close(cT, c, "cT", 1e-12)
    wants = (X, H0, C0, TP["Wx"], TP["Wh"], TP["b"], TP["gx"], TP["gh"], Tgc, Tbc)
    for name, v, w in zip(("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc"), got, wants):
        close(v, w.grad, f"{name} clip={clip}", 1e-10)
