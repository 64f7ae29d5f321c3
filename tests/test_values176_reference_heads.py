"""The NumPy spec's heads and window (lnrnn/reference.py) with every option on, against computations written
here: Graves 2013's mixture density (eqs. 23-26) per element in plain Python with smax binding on the
standard deviations and rho_max away from its default; the synthesis network's window LSTM (eqs. 46-51: the
window of step t-1 beside x_t, alpha, beta, kappa and phi over each row's own text) in PyTorch ops, float64,
for norm 'none', 'ln' (its own eps) and 'bn' (per-step statistics over the active rows, momentum set), from
given h0, c0, kappa0 and w0, rows of their own lengths, every gradient by autograd; CTC's loss and gradient as
the log of the sum over every path in C^T that collapses to the label, by autograd, with an upstream gradient
away from 1, labels padded with real classes, an empty label and a row too short for its label."""
import numpy as np
import torch

from lnrnn import reference as ref
from test_values150_reference_heads import check_mdn_nll, paths_to

EPS = 0.05
MOM = 0.3


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def close(got, want, name="", tol=1e-8):
    want = want.detach().numpy() if torch.is_tensor(want) else np.asarray(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=tol, atol=tol, err_msg=name)


def test_mixture_density_nll_per_element_with_smax_and_rho_max_set():
    rng = np.random.default_rng(176)
    N, M, smax, rho_max = 5, 2, 1.5, 0.9
    yhat = rng.standard_normal((N, 6 * M + 1)) * 1.2
    yhat[0, 1 + 3 * M] = 3.0       # above smax: clipped
    yhat[1, 1 + 4 * M + 1] = -2.5  # below -smax: clipped
    target = np.column_stack([rng.standard_normal(N) * 1.5 + 0.4, rng.standard_normal(N) - 0.7,
                              np.array([1, 0, 1, 0, 1], float)])
    valid = np.array([1, 1, 1, 0, 1])
    check_mdn_nll(ref.mdn_nll(yhat, target, valid, M, smax=smax, rho_max=rho_max), yhat, target, valid, M,
                  smax=smax, rho_max=rho_max)


def t_ln(x, g, b):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + EPS) * g + b


def t_bn(x, act, g, b):
    """Training BatchNorm of one step over its active rows; every row normalized with their statistics."""
    xa = x[[r for r in range(x.shape[0]) if act[r]]]
    mu = xa.mean(0)
    var = ((xa - mu) ** 2).mean(0)
    return (x - mu) / torch.sqrt(var + EPS) * g + b


def t_window_lstm(x, h, c, kappa, w, chars, ulen, P, norm, act):
    H = h.shape[1]
    K = P["Wp"].shape[1] // 3
    B, U = chars.shape
    C = w.shape[1]
    onehot = np.zeros((B, U, C))
    for r in range(B):
        for u in range(int(ulen[r])):
            onehot[r, u, chars[r, u]] = 1.0
    onehot = torch.tensor(onehot)
    pos = torch.arange(1, U + 1, dtype=torch.float64)
    on = torch.tensor((np.arange(U)[None, :] < ulen[:, None]).astype(np.float64))
    ys, ws, phis = [], [], []
    for t in range(x.shape[0]):
        X = torch.cat([x[t], w], dim=1)
        xw, hw = X @ P["Wx"], h @ P["Wh"]
        if norm == "ln":
            a = t_ln(xw, P["gx"], P["bx"]) + t_ln(hw, P["gh"], P["bh"]) + P["b"]
        elif norm == "bn":
            a = t_bn(xw, act[t], P["gx"], 0.0) + t_bn(hw, act[t], P["gh"], 0.0) + P["b"]
        else:
            a = xw + hw + P["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        cn = t_ln(c, P["gc"], P["bc"]) if norm == "ln" else t_bn(c, act[t], P["gc"], P["bc"]) if norm == "bn" else c
        h = o * torch.tanh(cn)
        p = h @ P["Wp"] + P["bp"]
        alpha, beta = torch.exp(p[:, :K]), torch.exp(p[:, K:2 * K])
        kappa = kappa + torch.exp(p[:, 2 * K:])
        phi = (alpha[:, :, None] * torch.exp(-beta[:, :, None] * (kappa[:, :, None] - pos) ** 2)).sum(1) * on
        w = torch.einsum("bu,buc->bc", phi, onehot)
        ys.append(h)
        ws.append(w)
        phis.append(phi)
    return torch.stack(ys), torch.stack(ws), h, c, kappa, w, torch.stack(phis)


def window_lstm_draws(rng, T, B, I, H, K, C):
    """One window LSTM problem drawn from rng in this order: its parameters P, x, h0, c0, kappa0, w0, upstream
    dy, dw, and the running-statistics tables (means 0, variances 1); test_values191_reference_heads uses it too."""
    G = 4 * H
    P = dict(Wx=rng.standard_normal((I + C, G)) * 0.6, Wh=rng.standard_normal((H, G)) * 0.6,
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), bx=0.2 * rng.standard_normal(G),
             gh=rng.uniform(0.5, 1.5, G), bh=0.2 * rng.standard_normal(G), gc=rng.uniform(0.5, 1.5, H),
             bc=0.3 * rng.standard_normal(H), Wp=rng.standard_normal((H, 3 * K)) * 0.5,
             bp=np.r_[0.2 * rng.standard_normal(2 * K), np.full(K, -0.3)])
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    kappa0, w0 = rng.uniform(0.2, 1.5, (B, K)), rng.uniform(0.0, 1.0, (B, C))
    dy, dw = rng.standard_normal((T, B, H)), rng.standard_normal((T, B, C))
    tabs = [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)),
            np.ones((T, H))]
    return P, x, h0, c0, kappa0, w0, dy, dw, tabs


def test_window_lstm_every_norm_with_initial_states_and_lengths_matches_torch_in_every_gradient():
    rng = np.random.default_rng(1766)
    T, B, I, H, K, U, C = 3, 3, 2, 2, 2, 4, 4
    lengths = np.array([3, 2, 3])
    act = [[t < L for L in lengths] for t in range(T)]
    chars = np.array([[1, 3, 1, 2], [2, 0, 3, 3], [3, 2, 0, 0]])   # padding of real codes past ulen
    ulen = np.array([4, 2, 3])
    names = ["x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp"]
    for norm in ("none", "ln", "bn"):
        P, x, h0, c0, kappa0, w0, dy, dw, tabs = window_lstm_draws(rng, T, B, I, H, K, C)
        out = ref.window_lstm_forward(x, h0, c0, kappa0, w0, chars, ulen, P["Wx"], P["Wh"], P["b"], P["gx"],
                                      P["bx"], P["gh"], P["bh"], P["gc"], P["bc"], P["Wp"], P["bp"], *tabs, norm,
                                      training=True, momentum=MOM, eps=EPS, lengths=lengths)
        ys, ws, hT, cT, kT, wT, phis, cache = out
        TP = {k: tt(v) for k, v in P.items()}
        X, H0, C0, K0, W0 = (tt(v) for v in (x, h0, c0, kappa0, w0))
        Y, W, HT, CT, KT, WT, PHI = t_window_lstm(X, H0, C0, K0, W0, chars, ulen, TP, norm, act)
        for name, got, want in (("y", ys, Y), ("w", ws, W), ("h", hT, HT), ("c", cT, CT), ("kappa", kT, KT),
                                ("w_T", wT, WT), ("phi", phis, PHI)):
            close(got, want, f"{norm} {name}")
        mask = torch.tensor(np.array(act, dtype=np.float64))[:, :, None]
        (((Y * torch.tensor(dy)) * mask).sum() + ((W * torch.tensor(dw)) * mask).sum()).backward()
        grads = ref.window_lstm_backward(dy, dw, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], P["Wp"], chars)
        want = [X.grad, H0.grad, C0.grad, K0.grad, W0.grad] + [TP[k].grad for k in names[5:]]
        skip = {"none": {"gx", "bx", "gh", "bh", "gc", "bc"}, "ln": set(), "bn": {"bx", "bh"}}[norm]
        for name, got, w in zip(names, grads, want):
            if name not in skip:
                close(got, w, f"{norm} d{name}")


def t_ctc_logp(logits_b, label, Tb):
    """log of the sum over every path of Tb steps that collapses (merge repeats, drop blanks) to label."""
    logp = torch.log_softmax(logits_b[:Tb], dim=1)
    terms = [sum((logp[t, c] for t, c in enumerate(path)), torch.zeros((), dtype=torch.float64))
             for path in paths_to(label, logits_b.shape[1], Tb)]
    return torch.logsumexp(torch.stack(terms), 0) if terms else None


def test_ctc_loss_and_gradient_with_dloss_padded_labels_an_empty_label_and_a_short_row():
    rng = np.random.default_rng(1767)
    T, B, C = 4, 5, 3
    logits = rng.standard_normal((T, B, C)) * 1.5
    labels = np.array([[1, 2, 2], [2, 2, 1], [1, 1, 2], [2, 1, 1], [1, 1, 2]])  # past the lengths: real classes
    label_lengths = np.array([2, 1, 0, 2, 2])
    input_lengths = np.array([4, 3, 4, 2, 2])   # the last row's '1 1' needs 3 steps (1 blank 1): p = 0
    loss, cache = ref.ctc_forward(logits, labels, input_lengths, label_lengths)
    dloss = np.array([0.5, -1.5, 2.0, 0.75, 3.0])
    d = ref.ctc_backward(dloss, cache)
    L = tt(logits)
    total = torch.zeros((), dtype=torch.float64)
    for b in range(B):
        lp = t_ctc_logp(L[:, b], labels[b, :label_lengths[b]], int(input_lengths[b]))
        if lp is None:                  # no path: loss 0 and gradient 0 (zero_infinity)
            assert loss[b] == 0.0
            continue
        assert abs(loss[b] + lp.item()) < 1e-10, b
        total = total - dloss[b] * lp
    total.backward()
    close(d, L.grad, "dlogits", 1e-10)
    assert np.all(d[:, 4] == 0.0)
    assert np.all(d[2:, 3] == 0.0)     # steps past a row's input length
