"""The NumPy spec's cells (lnrnn/reference.py), second value pass, against computations written independently in
the test, in float64: two-layer bidirectional LSTMs and RNNs composed from the spec's one-direction forwards
(the backward direction run on the reversed sequence, the second layer reading [forward | backward]) against
torch.nn.LSTM and torch.nn.RNN with the same weights; the LSTM's backward with Graves's clip against autograd
of the cell written in torch ops with a hook clamping dL/d(gate preactivations); per-step BatchNorm over the
active rows of lengths 0, 1 and T in one batch, with its running statistics after one and two updates, written
out row by row; inference BatchNorm from running rows with a variance smaller than eps; the BN-LSTM and the
BN-RNN written out step by step with the same masked statistics."""
import numpy as np
import torch

from lnrnn import reference as ref
from test_values176_reference_cells import close, tt
from test_values288_reference_cells import lstm_case, run_lstm

EPS = 1e-3


# ---- multi-layer, bidirectional compositions against torch.nn.LSTM / torch.nn.RNN ----

def torch_params(mod, name):
    return getattr(mod, name).detach().numpy().copy()


def bidir_stack(mod, x, h0, c0, lstm):
    """Two layers, two directions, each direction one call of the spec's forward; -> y (T,B,2H), hT (4,B,H)."""
    inp, hs = x, []
    for layer in range(2):
        outs = []
        for k, suffix in enumerate(("", "_reverse")):
            tag = f"_l{layer}{suffix}"
            Wx, Wh = torch_params(mod, "weight_ih" + tag).T, torch_params(mod, "weight_hh" + tag).T
            b = torch_params(mod, "bias_ih" + tag) + torch_params(mod, "bias_hh" + tag)
            seq = inp if k == 0 else inp[::-1]
            j = 2 * layer + k
            if lstm:
                one = np.ones(Wx.shape[1])
                y, hT, _, _ = ref.lstm_forward(seq, h0[j], c0[j], Wx, Wh, b, one, 0 * one, one, 0 * one,
                                               np.ones(h0.shape[2]), np.zeros(h0.shape[2]), "none", EPS)
            else:
                y, hT, _ = ref.rnn_forward(seq, h0[j], Wx, Wh, b, np.ones(Wh.shape[1]), "none", EPS)
            outs.append(y if k == 0 else y[::-1])
            hs.append(hT)
        inp = np.concatenate(outs, axis=2)
    return inp, np.stack(hs)


def test_two_layer_bidirectional_lstm_composed_from_the_spec_matches_torch_nn_lstm():
    torch.manual_seed(3041)
    rng = np.random.default_rng(3041)
    T, B, I, H = 5, 3, 3, 4
    mod = torch.nn.LSTM(I, H, num_layers=2, bidirectional=True).double()
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((4, B, H)) * 0.5, rng.standard_normal((4, B, H))
    y, hT = bidir_stack(mod, x, h0, c0, lstm=True)
    want, (wh, _) = mod(torch.tensor(x), (torch.tensor(h0), torch.tensor(c0)))
    close(y, want, "y", 1e-12)
    close(hT, wh, "hT", 1e-12)


def test_two_layer_bidirectional_rnn_composed_from_the_spec_matches_torch_nn_rnn():
    torch.manual_seed(3042)
    rng = np.random.default_rng(3042)
    T, B, I, H = 4, 2, 3, 5
    mod = torch.nn.RNN(I, H, num_layers=2, bidirectional=True).double()
    with torch.no_grad():   # biases well away from 0, so that a dropped bias shows
        for layer in range(2):
            for suffix in ("", "_reverse"):
                getattr(mod, f"bias_ih_l{layer}{suffix}").add_(0.8)
    x = rng.standard_normal((T, B, I))
    h0 = rng.standard_normal((4, B, H)) * 0.5
    y, hT = bidir_stack(mod, x, h0, None, lstm=False)
    want, wh = mod(torch.tensor(x), torch.tensor(h0))
    close(y, want, "y", 1e-12)
    close(hT, wh, "hT", 1e-12)


# ---- Graves's clip in the LSTM's backward, against autograd with a clamping hook ----

def test_lstm_backward_with_clip_matches_autograd_with_the_gate_gradients_clamped():
    rng = np.random.default_rng(3043)
    P, x, h0, c0 = lstm_case(rng, T=4, B=2, I=3, H=3)
    dy = rng.standard_normal((4, 2, 3)) * 2.0
    clip = 0.05   # some gate gradients past it, others inside
    _, _, _, cache = run_lstm(P, x, h0, c0, "none")
    X, H0, C0, Wx, Wh, b = tt(x), tt(h0), tt(c0), tt(P["Wx"]), tt(P["Wh"]), tt(P["b"])
    h, c, ys, seen = H0, C0, [], []
    for t in range(4):
        a = X[t] @ Wx + h @ Wh + b

        def hook(g):
            seen.append(g.detach().abs())
            return g.clamp(-clip, clip)
        a.register_hook(hook)
        i, f, g_, o = (torch.sigmoid(a[:, :3]), torch.sigmoid(a[:, 3:6]), torch.tanh(a[:, 6:9]),
                       torch.sigmoid(a[:, 9:]))
        c = f * c + i * g_
        h = o * torch.tanh(c)
        ys.append(h)
    (torch.stack(ys) * torch.tensor(dy)).sum().backward()
    raw = torch.cat([s.flatten() for s in seen])
    assert (raw > clip).any() and (raw < clip).any()
    out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "none", clip=clip)
    for name, got, w in zip(["dx", "dh0", "dc0", "dWx", "dWh", "db"], out[:6],
                            [X.grad, H0.grad, C0.grad, Wx.grad, Wh.grad, b.grad]):
        close(got, w, name, 1e-10)


# ---- BatchNorm with per-step statistics over the active rows, written out row by row ----

class RunningBN:
    """Per-step batch statistics over the rows that run, and running rows (Ts,F) updated by momentum."""

    def __init__(self, rm, rv, momentum):
        self.rm, self.rv, self.mom = rm.copy(), rv.copy(), momentum

    def stats(self, v, act, t):
        rows = [v[r] for r in range(v.shape[0]) if act[r]]
        F = v.shape[1]
        if not rows:
            return np.zeros(F), np.full(F, EPS ** -0.5)
        n = len(rows)
        mean = sum(rows) / n
        var = sum((r - mean) ** 2 for r in rows) / n
        if t < self.rm.shape[0]:
            unbiased = var * n / (n - 1) if n > 1 else var
            self.rm[t] = self.mom * mean + (1 - self.mom) * self.rm[t]
            self.rv[t] = self.mom * unbiased + (1 - self.mom) * self.rv[t]
        return mean, 1.0 / np.sqrt(var + EPS)


def active_of(lengths, T):
    return [[t < L for L in lengths] for t in range(T)]


def test_batchnorm_train_over_lengths_0_1_T_with_running_rows_after_one_and_two_updates():
    rng = np.random.default_rng(3044)
    T, B, F, Ts, mom = 3, 3, 4, 2, 0.3
    lengths = np.array([0, 1, 3])   # steps 1 and 2 run one row only; row 0 never runs
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)) * 0.2, rng.uniform(0.5, 1.5, (Ts, F))
    hand = RunningBN(rm, rv, mom)
    act = active_of(lengths, T)
    for call in range(2):
        x = rng.standard_normal((T, B, F)) * 1.3 + 0.7 * call
        y, mean, rstd = ref.batchnorm_forward_train(x, gain, bias, rm, rv, mom, EPS, lengths=lengths)
        for t in range(T):
            m, s = hand.stats(x[t], act[t], t)
            close(mean[t], m, f"mean[{t}] call {call}", 1e-12)
            close(rstd[t], s, f"rstd[{t}] call {call}", 1e-12)
            for r in range(B):
                close(y[t, r], (x[t, r] - m) * s * gain + bias, f"y[{t},{r}] call {call}", 1e-12)
        close(rm, hand.rm, f"running mean after {call + 1} update(s)", 1e-12)
        close(rv, hand.rv, f"running var after {call + 1} update(s)", 1e-12)
    close(y[1, 2], bias, "the one row of step 1 sits at the bias", 1e-12)


def test_batchnorm_infer_reads_row_min_t_Ts_minus_1_with_eps_inside_the_root():
    rng = np.random.default_rng(3045)
    T, B, F = 4, 2, 3
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((2, F)), np.array([[0.004, 0.0, 0.02], [0.001, 0.3, 0.0005]])
    x = rng.standard_normal((T, B, F))
    y = ref.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)
    for t in range(T):
        row = 0 if t == 0 else 1
        close(y[t], (x[t] - rm[row]) / np.sqrt(rv[row] + EPS) * gain + bias, f"y[{t}]", 1e-12)


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def bn_case(rng, T, B, I, H, G):
    return dict(x=rng.standard_normal((T, B, I)), h0=rng.standard_normal((B, H)) * 0.5,
                c0=rng.standard_normal((B, H)), Wx=rng.standard_normal((I, G)) * 0.7,
                Wh=rng.standard_normal((H, G)) * 0.7, b=rng.standard_normal(G) * 0.3,
                gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G), gc=rng.uniform(0.5, 1.5, H),
                bc=rng.standard_normal(H) * 0.3)


def test_bn_lstm_training_over_lengths_0_1_T_against_the_cell_written_out():
    rng = np.random.default_rng(3046)
    T, B, I, H, Ts, mom = 4, 4, 3, 2, 3, 0.2
    lengths = np.array([4, 0, 1, 3])
    P = bn_case(rng, T, B, I, H, 4 * H)
    run = {k: (rng.standard_normal((Ts, n)) * 0.1, rng.uniform(0.5, 1.5, (Ts, n)))
           for k, n in (("x", 4 * H), ("h", 4 * H), ("c", H))}
    bx, bh, bcn = (RunningBN(*run[k], mom) for k in ("x", "h", "c"))
    rs = [a.copy() for k in ("x", "h", "c") for a in run[k]]
    y, hT, cT, _ = ref.bn_lstm_forward(P["x"], P["h0"], P["c0"], P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"],
                                       P["gc"], P["bc"], *rs, True, mom, EPS, lengths=lengths)
    act = active_of(lengths, T)
    h, c = P["h0"], P["c0"]
    for t in range(T):
        xw, hw = P["x"][t] @ P["Wx"], h @ P["Wh"]
        mx, sx = bx.stats(xw, act[t], t)
        mh, sh = bh.stats(hw, act[t], t)
        a = P["gx"] * (xw - mx) * sx + P["gh"] * (hw - mh) * sh + P["b"]
        c = sig(a[:, H:2 * H]) * c + sig(a[:, :H]) * np.tanh(a[:, 2 * H:3 * H])
        mc, sc = bcn.stats(c, act[t], t)
        h = sig(a[:, 3 * H:]) * np.tanh(P["gc"] * (c - mc) * sc + P["bc"])
        close(y[t], h, f"y[{t}]", 1e-11)
    close(cT, c, "cT", 1e-11)
    for got, want, name in zip(rs, (bx.rm, bx.rv, bh.rm, bh.rv, bcn.rm, bcn.rv),
                               ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")):
        close(got, want, name, 1e-11)


def test_bn_rnn_training_over_lengths_0_1_T_against_the_cell_written_out():
    rng = np.random.default_rng(3047)
    T, B, I, H, Ts, mom = 3, 3, 2, 4, 3, 0.4
    lengths = np.array([1, 3, 0])
    P = bn_case(rng, T, B, I, H, H)
    run = {k: (rng.standard_normal((Ts, H)) * 0.1, rng.uniform(0.5, 1.5, (Ts, H))) for k in ("x", "h")}
    bx, bh = (RunningBN(*run[k], mom) for k in ("x", "h"))
    rs = [a.copy() for k in ("x", "h") for a in run[k]]
    y, hT, _ = ref.bn_rnn_forward(P["x"], P["h0"], P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], *rs, True, mom,
                                  EPS, lengths=lengths)
    act = active_of(lengths, T)
    h = P["h0"]
    for t in range(T):
        xw, hw = P["x"][t] @ P["Wx"], h @ P["Wh"]
        mx, sx = bx.stats(xw, act[t], t)
        mh, sh = bh.stats(hw, act[t], t)
        h = np.tanh(P["gx"] * (xw - mx) * sx + P["gh"] * (hw - mh) * sh + P["b"])
        close(y[t], h, f"y[{t}]", 1e-11)
    close(hT, h, "hT", 1e-11)
    for got, want, name in zip(rs, (bx.rm, bx.rv, bh.rm, bh.rv), ("rmx", "rvx", "rmh", "rvh")):
        close(got, want, name, 1e-11)
