"""The NumPy spec's cells (lnrnn/reference.py), third value pass, against computations written independently in
the test with PyTorch autograd in float64: LayerNorm with a bias against torch.nn.functional.layer_norm and the
variance written out; the plain LSTM over steps of 5 inputs and 3 units written in torch ops, its backward by
autograd with the clip off (0 and inf) and at a bound past every gate gradient; the LN-LSTM's gradients of every
gain and bias by autograd; the plain and LN RNN written in torch ops, forward and backward."""
import numpy as np
import torch
import torch.nn.functional as F

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt
from test_values288_reference_cells import lstm_case, run_lstm, t_ln

EPS = 1e-3


def test_layernorm_forward_with_a_bias_matches_torch_layer_norm_and_the_biased_variance():
    rng = np.random.default_rng(3301)
    x = rng.standard_normal((2, 3, 5)) * 2.0 + 4.0
    gain, bias = rng.uniform(0.5, 1.5, 5), rng.standard_normal(5) + 1.0
    y, mean, rstd = ref.layernorm_forward(x, gain, bias, EPS)
    want = F.layer_norm(torch.tensor(x), (5,), torch.tensor(gain), torch.tensor(bias), eps=EPS)
    close(y, want, "y", 1e-12)
    close(mean, x.sum(-1) / 5, "mean", 1e-12)
    var = ((x - x.sum(-1, keepdims=True) / 5) ** 2).sum(-1) / 5
    close(rstd, 1.0 / np.sqrt(var + EPS), "rstd", 1e-12)


def torch_lstm(TP, X, H0, C0, H, norm):
    """The cell in torch ops: a = xWx + hWh + b (or the LN form), c_t carried, h = o tanh(c or LN(c))."""
    h, c, ys = H0, C0, []
    for t in range(X.shape[0]):
        if norm == "ln":
            a = t_ln(X[t] @ TP["Wx"], TP["gx"], TP["bx"]) + t_ln(h @ TP["Wh"], TP["gh"], TP["bh"]) + TP["b"]
        else:
            a = X[t] @ TP["Wx"] + h @ TP["Wh"] + TP["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(t_ln(c, TP["gc"], TP["bc"]) if norm == "ln" else c)
        ys.append(h)
    return torch.stack(ys), h, c


NAMES = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"]


def lstm_grads_by_autograd(P, x, h0, c0, H, norm, dy):
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    Y, hT, cT = torch_lstm(TP, X, H0, C0, H, norm)
    (Y * torch.tensor(dy)).sum().backward()
    grads = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in NAMES[3:]]
    return Y, hT, cT, grads


def test_plain_lstm_forward_and_backward_match_the_cell_in_torch_ops_with_the_clip_off_or_never_reached():
    rng = np.random.default_rng(3302)
    T, B, I, H = 4, 3, 5, 3
    P, x, h0, c0 = lstm_case(rng, T, B, I, H)
    y, hT, cT, cache = run_lstm(P, x, h0, c0, "none")
    dy = rng.standard_normal((T, B, H)) * 1.3
    Y, HT, CT, want = lstm_grads_by_autograd(P, x, h0, c0, H, "none", dy)
    close(y, Y, "y", 1e-12)
    close(hT, HT, "hT", 1e-12)
    close(cT, CT, "cT", 1e-12)
    for clip in (0.0, np.inf, 1e6):   # off, off, and a bound past every |dL/da|
        out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "none", clip=clip)
        for name, got, w in zip(NAMES[:6], out[:6], want[:6]):
            close(got, w, f"d{name} clip={clip}", 1e-10)
        for got in out[6:]:
            assert not np.any(got), f"norm gradients of a plain LSTM at clip={clip}"


def test_ln_lstm_gradients_of_every_gain_and_bias_match_autograd():
    rng = np.random.default_rng(3303)
    T, B, I, H = 3, 4, 2, 3
    P, x, h0, c0 = lstm_case(rng, T, B, I, H)
    y, hT, cT, cache = run_lstm(P, x, h0, c0, "ln")
    dy = rng.standard_normal((T, B, H))
    Y, HT, CT, want = lstm_grads_by_autograd(P, x, h0, c0, H, "ln", dy)
    close(y, Y, "y", 1e-12)
    out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
    for name, got, w in zip(NAMES, out, want):
        close(got, w, "d" + name, 1e-10)


def test_rnn_plain_and_ln_forward_and_backward_match_the_cell_in_torch_ops():
    rng = np.random.default_rng(3304)
    T, B, I, H = 4, 3, 2, 5
    x = rng.standard_normal((T, B, I))
    h0 = rng.standard_normal((B, H)) * 0.5
    Wx, Wh = rng.standard_normal((I, H)) * 0.8, rng.standard_normal((H, H)) * 0.5
    b, g = rng.standard_normal(H) * 0.7 + 0.3, rng.uniform(0.5, 1.8, H)
    dy = rng.standard_normal((T, B, H))
    for norm in ("none", "ln"):
        y, hT, cache = ref.rnn_forward(x, h0, Wx, Wh, b, g, norm, EPS)
        X, H0, TWx, TWh, Tb, Tg = (tt(v) for v in (x, h0, Wx, Wh, b, g))
        h, ys = H0, []
        for t in range(T):
            a = X[t] @ TWx + h @ TWh
            h = torch.tanh(t_ln(a, Tg, Tb) if norm == "ln" else a + Tb)
            ys.append(h)
        Y = torch.stack(ys)
        close(y, Y, f"y {norm}", 1e-12)
        close(hT, h, f"hT {norm}", 1e-12)
        (Y * torch.tensor(dy)).sum().backward()
        out = ref.rnn_backward(dy, cache, Wx, Wh, g, norm)
        want = [X.grad, H0.grad, TWx.grad, TWh.grad, Tb.grad, Tg.grad if norm == "ln" else torch.zeros(H)]
        for name, got, w in zip(["x", "h0", "Wx", "Wh", "b", "g"], out, want):
            close(got, w, f"d{name} {norm}", 1e-10)
