"""The NumPy spec's cells (lnrnn/reference.py) against the same cells written again here in PyTorch ops
(float64, gradients by autograd): LayerNorm over the last axis (biased variance, eps inside the sqrt, gain
and bias) and its backward over a (T,B,F) input; the LN-LSTM (Ba et al. 2016: LN of x Wx and of h Wh with
their own gains and biases, plus b, gates i f g o, LN of the cell before tanh) and the plain and LN RNN,
forward and every gradient; per-step BatchNorm (Cooijmans et al. 2016) in training against torch's batch
statistics and in inference against the running rows, the running rows by the momentum rule written here;
the BN-LSTM's forward and every gradient with distinct x and h gains; the BN-RNN's four running tables."""
import numpy as np
import torch

from lnrnn import reference as ref

EPS = 1e-5
MOM = 0.1


def tt(a):
    return torch.tensor(np.asarray(a, dtype=np.float64), requires_grad=True)


def t_ln(x, g, b, eps=EPS):
    mu = x.mean(-1, keepdim=True)
    var = ((x - mu) ** 2).mean(-1, keepdim=True)
    return (x - mu) / torch.sqrt(var + eps) * g + b


def t_bn(x, g, b):
    """Training BatchNorm of one step x (B,F) over the batch."""
    mu = x.mean(0)
    var = ((x - mu) ** 2).mean(0)
    return (x - mu) / torch.sqrt(var + EPS) * g + b


def close(a, b, tol=1e-9):
    np.testing.assert_allclose(np.asarray(a), b.detach().numpy() if torch.is_tensor(b) else b, rtol=tol, atol=tol)


def test_layernorm_and_its_backward_match_torch_on_a_3d_input():
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 2, 5)) * 2 + 1.5
    g, b = rng.uniform(0.5, 1.5, 5), rng.standard_normal(5)
    dy = rng.standard_normal((3, 2, 5))
    y, mean, rstd = ref.layernorm_forward(x, g, b, EPS)
    X, G, Bb = tt(x), tt(g), tt(b)
    Y = torch.nn.functional.layer_norm(X, (5,), G, Bb, eps=EPS)
    close(y, Y)
    (Y * torch.tensor(dy)).sum().backward()
    dx, dg, db = ref.layernorm_backward(dy, x, mean, rstd, g)
    close(dx, X.grad)
    close(dg, G.grad)
    close(db, Bb.grad)


def lstm_params(rng, I, H):
    G = 4 * H
    return dict(Wx=rng.standard_normal((I, G)) * 0.7, Wh=rng.standard_normal((H, G)) * 0.7,
                b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), bx=0.2 * rng.standard_normal(G),
                gh=rng.uniform(0.5, 1.5, G), bh=0.2 * rng.standard_normal(G), gc=rng.uniform(0.5, 1.5, H),
                bc=0.3 * rng.standard_normal(H))


def t_lstm(x, h, c, P, norm, eps=EPS):
    """-> y (T,B,H), h_T, c_T."""
    H = h.shape[1]
    ys = []
    for t in range(x.shape[0]):
        xw, hw = x[t] @ P["Wx"], h @ P["Wh"]
        if norm == "ln":
            a = t_ln(xw, P["gx"], P["bx"], eps) + t_ln(hw, P["gh"], P["bh"], eps) + P["b"]
        else:
            a = xw + hw + P["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(t_ln(c, P["gc"], P["bc"], eps) if norm == "ln" else c)
        ys.append(h)
    return torch.stack(ys), h, c


def test_ln_lstm_forward_and_every_gradient_match_torch():
    rng = np.random.default_rng(1)
    T, B, I, H = 3, 3, 2, 3
    P = lstm_params(rng, I, H)
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    y, hT, cT, cache = ref.lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"], P["bh"],
                                        P["gc"], P["bc"], "ln", EPS)
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    Y = t_lstm(X, H0, C0, TP, "ln")[0]
    close(y, Y)
    (Y * torch.tensor(dy)).sum().backward()
    out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"]
    want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
    for name, got, w in zip(names, out, want):
        np.testing.assert_allclose(got, w.numpy(), rtol=1e-8, atol=1e-9, err_msg=name)


def t_rnn(x, h, Wx, Wh, b, g, norm, eps=EPS):
    ys = []
    for t in range(x.shape[0]):
        a = x[t] @ Wx + h @ Wh
        h = torch.tanh(t_ln(a, g, b, eps) if norm == "ln" else a + b)
        ys.append(h)
    return torch.stack(ys)


def rnn_case(rng, T, B, I, H, norm, eps=EPS):
    """An RNN problem drawn from rng: its arrays (x, h0, Wx, Wh, b, g), an upstream gradient dy, the spec's
    forward of it (y, hT, cache) and the arrays again as float64 leaf tensors."""
    Wx, Wh = rng.standard_normal((I, H)) * 0.8, rng.standard_normal((H, H)) * 0.8
    b, g = rng.standard_normal(H) * 0.5, rng.uniform(0.5, 1.5, H)
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    arrays = (x, h0, Wx, Wh, b, g)
    return arrays, dy, ref.rnn_forward(x, h0, Wx, Wh, b, g, norm, eps), tuple(tt(v) for v in arrays)


def test_plain_and_ln_rnn_forward_and_every_gradient_match_torch():
    rng = np.random.default_rng(2)
    T, B, I, H = 4, 2, 3, 3
    for norm in ("none", "ln"):
        (_, _, Wx, Wh, _, g), dy, (y, _, cache), (X, H0, TWx, TWh, Tb, Tg) = rnn_case(rng, T, B, I, H, norm)
        Y = t_rnn(X, H0, TWx, TWh, Tb, Tg, norm)
        close(y, Y)
        (Y * torch.tensor(dy)).sum().backward()
        dx, dh0, dWx, dWh, db, dg = ref.rnn_backward(dy, cache, Wx, Wh, g, norm)
        for name, got, w in (("x", dx, X), ("h0", dh0, H0), ("Wx", dWx, TWx), ("Wh", dWh, TWh), ("b", db, Tb)):
            np.testing.assert_allclose(got, w.grad.numpy(), rtol=1e-8, atol=1e-9, err_msg=f"{norm} {name}")
        if norm == "ln":
            np.testing.assert_allclose(dg, Tg.grad.numpy(), rtol=1e-8, atol=1e-9)


def test_batchnorm_training_backward_matches_torch_and_inference_reads_the_running_rows():
    rng = np.random.default_rng(3)
    T, B, F, Ts = 3, 4, 3, 2
    x = rng.standard_normal((T, B, F)) * 1.5 + 0.7
    g, b = rng.uniform(0.3, 2.0, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    rm0, rv0 = rm.copy(), rv.copy()
    y, mean, rstd = ref.batchnorm_forward_train(x, g, b, rm, rv, MOM, EPS)
    X, G, Bb = tt(x), tt(g), tt(b)
    Y = torch.stack([t_bn(X[t], G, Bb) for t in range(T)])
    close(y, Y)
    for t in range(Ts):  # the running rows by the momentum rule, unbiased variance
        np.testing.assert_allclose(rm[t], (1 - MOM) * rm0[t] + MOM * x[t].mean(0), rtol=1e-12)
        np.testing.assert_allclose(rv[t], (1 - MOM) * rv0[t] + MOM * x[t].var(0, ddof=1), rtol=1e-12)
    dy = rng.standard_normal((T, B, F))
    (Y * torch.tensor(dy)).sum().backward()
    dx, dg, db = ref.batchnorm_backward(dy, x, mean, rstd, g, True)
    close(dx, X.grad)
    close(dg, G.grad)
    close(db, Bb.grad)

    # inference: step t normalized by running row min(t, Ts-1), the rows left alone
    rm1, rv1 = rm.copy(), rv.copy()
    yi = ref.batchnorm_forward_infer(x, g, b, rm, rv, EPS)
    for t in range(T):
        r = min(t, Ts - 1)
        for bb in range(B):
            for k in range(F):
                want = (x[t, bb, k] - rm1[r, k]) / np.sqrt(rv1[r, k] + EPS) * g[k] + b[k]
                assert abs(yi[t, bb, k] - want) < 1e-12
    np.testing.assert_array_equal(rm, rm1)
    np.testing.assert_array_equal(rv, rv1)


def t_bn_lstm(x, h, c, P):
    H = h.shape[1]
    ys = []
    zero = torch.zeros(4 * H, dtype=torch.float64)
    for t in range(x.shape[0]):
        a = t_bn(h @ P["Wh"], P["gh"], zero) + t_bn(x[t] @ P["Wx"], P["gx"], zero) + P["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * torch.tanh(t_bn(c, P["gc"], P["bc"]))
        ys.append(h)
    return torch.stack(ys)


def test_bn_lstm_forward_and_every_gradient_match_torch():
    rng = np.random.default_rng(4)
    T, B, I, H = 3, 4, 2, 2
    G = 4 * H
    P = dict(Wx=rng.standard_normal((I, G)), Wh=rng.standard_normal((H, G)), b=0.3 * rng.standard_normal(G),
             gx=rng.uniform(0.2, 0.6, G), gh=rng.uniform(1.2, 2.0, G), gc=rng.uniform(0.5, 1.5, H),
             bc=0.3 * rng.standard_normal(H))
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    tabs = [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)), np.ones((T, H))]
    y, hT, cT, saved = ref.bn_lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["gh"], P["gc"], P["bc"],
                                           *tabs, True, MOM, EPS)
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    Y = t_bn_lstm(X, H0, C0, TP)
    close(y, Y)
    (Y * torch.tensor(dy)).sum().backward()
    out = ref.bn_lstm_backward(dy, saved, x, h0, c0, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"])
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"]
    want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
    for name, got, w in zip(names, out, want):
        np.testing.assert_allclose(got, w.numpy(), rtol=1e-7, atol=1e-9, err_msg=name)


def test_bn_rnn_running_tables_follow_each_sides_own_statistics():
    rng = np.random.default_rng(5)
    T, B, I, H, Ts = 3, 4, 2, 3, 2
    Wx, Wh = rng.standard_normal((I, H)), rng.standard_normal((H, H))
    b, gx, gh = rng.standard_normal(H) * 0.3, rng.uniform(0.5, 1.5, H), rng.uniform(0.5, 1.5, H)
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    rmx, rvx = rng.standard_normal((Ts, H)), rng.uniform(0.5, 2, (Ts, H))
    rmh, rvh = rng.standard_normal((Ts, H)), rng.uniform(0.5, 2, (Ts, H))
    want = [a.copy() for a in (rmx, rvx, rmh, rvh)]
    y, hT, saved = ref.bn_rnn_forward(x, h0, Wx, Wh, b, gx, gh, rmx, rvx, rmh, rvh, True, MOM, EPS)
    # the forward by hand, keeping each side's statistics for the running rows
    h = h0
    for t in range(T):
        xw, hw = x[t] @ Wx, h @ Wh
        pre = b.copy()
        for k, (v, gain) in enumerate(((xw, gx), (hw, gh))):
            m, var = v.mean(0), ((v - v.mean(0)) ** 2).mean(0)
            pre = pre + gain * (v - m) / np.sqrt(var + EPS)
            if t < Ts:
                want[2 * k][t] = (1 - MOM) * want[2 * k][t] + MOM * m
                want[2 * k + 1][t] = (1 - MOM) * want[2 * k + 1][t] + MOM * var * B / (B - 1)
        h = np.tanh(pre)
        np.testing.assert_allclose(y[t], h, rtol=1e-10, atol=1e-12)
    for name, got, w in zip(("rmx", "rvx", "rmh", "rvh"), (rmx, rvx, rmh, rvh), want):
        np.testing.assert_allclose(got, w, rtol=1e-10, atol=1e-12, err_msg=name)
