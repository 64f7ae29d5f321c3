"""The NumPy spec's cells (lnrnn/reference.py) against PyTorch's own modules and against central differences,
at tiny shapes in float64: LayerNorm by torch.nn.functional.layer_norm with a bias away from 0, its backward by
central differences on rows whose mean is far from 0; the plain LSTM by nn.LSTMCell (weights copied, gate order
i, f, g, o) over three steps and its backward by autograd with clip 0 (off) given and left to its default; the
LN-LSTM by Ba et al.'s equations written out in torch ops (the cell carried un-normalized), its gains' gradients
by autograd; the plain RNN by nn.RNNCell from a given h0 and its backward by central differences; per-step
training BatchNorm over rows of their own lengths by torch.nn.functional.batch_norm on the active rows alone,
and its backward summed over steps by autograd."""
import numpy as np
import torch
import torch.nn.functional as F

from lnrnn import reference as ref
from gradcheck_util import numeric_grad
from test_values176_reference_cells import close, tt

EPS = 1e-3


def central(f, x):
    """d f / d x by second-order central differences (the project's judge, gradcheck_util.numeric_grad)."""
    return numeric_grad(f, x, eps=1e-6, order=2)


def test_layernorm_forward_matches_torch_layer_norm_with_a_bias():
    rng = np.random.default_rng(2881)
    x = rng.standard_normal((3, 5)) * 1.7 + 2.0
    g, b = rng.uniform(0.4, 2.0, 5), rng.standard_normal(5) + 1.0
    y, mean, rstd = ref.layernorm_forward(x, g, b, EPS)
    want = F.layer_norm(torch.tensor(x), (5,), torch.tensor(g), torch.tensor(b), EPS)
    close(y, want, "y", 1e-12)
    close(mean, x.mean(-1), "mean", 1e-12)
    close(rstd, 1 / np.sqrt(x.var(-1) + EPS), "rstd", 1e-12)


def test_layernorm_backward_against_central_differences_on_rows_far_from_zero():
    rng = np.random.default_rng(2882)
    x = rng.standard_normal((3, 5)) + np.array([[4.0], [-3.0], [2.5]])
    g, b = rng.uniform(0.4, 2.0, 5), rng.standard_normal(5)
    dy = rng.standard_normal((3, 5))

    def loss():
        return (ref.layernorm_forward(x, g, b, EPS)[0] * dy).sum()

    _, mean, rstd = ref.layernorm_forward(x, g, b, EPS)
    dx, dg, db = ref.layernorm_backward(dy, x, mean, rstd, g)
    np.testing.assert_allclose(dx, central(loss, x), atol=1e-7)
    np.testing.assert_allclose(dg, central(loss, g), atol=1e-7)
    np.testing.assert_allclose(db, central(loss, b), atol=1e-7)


def lstm_case(rng, T=3, B=2, I=3, H=4):
    G = 4 * H
    P = dict(Wx=rng.standard_normal((I, G)) * 0.6, Wh=rng.standard_normal((H, G)) * 0.6,
             b=rng.standard_normal(G) * 0.5, gx=rng.uniform(0.5, 1.5, G), bx=rng.standard_normal(G) * 0.3,
             gh=rng.uniform(1.6, 2.4, G), bh=rng.standard_normal(G) * 0.3, gc=rng.uniform(0.5, 1.5, H),
             bc=rng.standard_normal(H) * 0.3)
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((B, H)) * 0.5, rng.standard_normal((B, H))
    return P, x, h0, c0


def run_lstm(P, x, h0, c0, norm):
    return ref.lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"], P["bh"], P["gc"],
                            P["bc"], norm, EPS)


def torch_cell(P, I, H):
    cell = torch.nn.LSTMCell(I, H).double()
    with torch.no_grad():
        cell.weight_ih.copy_(torch.tensor(P["Wx"].T))
        cell.weight_hh.copy_(torch.tensor(P["Wh"].T))
        cell.bias_ih.copy_(torch.tensor(P["b"]))
        cell.bias_hh.zero_()
    return cell


def test_plain_lstm_matches_nn_lstmcell_over_three_steps():
    rng = np.random.default_rng(2883)
    P, x, h0, c0 = lstm_case(rng)
    y, hT, cT, _ = run_lstm(P, x, h0, c0, "none")
    cell = torch_cell(P, 3, 4)
    h, c = torch.tensor(h0), torch.tensor(c0)
    for t in range(3):
        h, c = cell(torch.tensor(x[t]), (h, c))
        close(y[t], h, f"y[{t}]", 1e-12)
    close(hT, h, "hT", 1e-12)
    close(cT, c, "cT", 1e-12)


def test_plain_lstm_backward_matches_autograd_of_lstmcell_with_clip_zero_given_and_by_default():
    rng = np.random.default_rng(2884)
    P, x, h0, c0 = lstm_case(rng)
    dy = rng.standard_normal((3, 2, 4)) * 3.0   # large enough that a clip at 0 or 1 would show
    _, _, _, cache = run_lstm(P, x, h0, c0, "none")
    cell = torch_cell(P, 3, 4)
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    h, c, ys = H0, C0, []
    for t in range(3):
        h, c = cell(X[t], (h, c))
        ys.append(h)
    (torch.stack(ys) * torch.tensor(dy)).sum().backward()
    want = [X.grad, H0.grad, C0.grad, cell.weight_ih.grad.T, cell.weight_hh.grad.T, cell.bias_ih.grad]
    names = ["dx", "dh0", "dc0", "dWx", "dWh", "db"]
    for out in (ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "none"),
                ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "none", clip=0.0)):
        for name, got, w in zip(names, out[:6], want):
            close(got, w, name, 1e-10)


def t_ln(v, g, b):
    mu = v.mean(-1, keepdim=True)
    return (v - mu) / torch.sqrt(((v - mu) ** 2).mean(-1, keepdim=True) + EPS) * g + b


def test_ln_lstm_against_ba_et_al_written_out_with_the_cell_carried_unnormalized():
    rng = np.random.default_rng(2885)
    P, x, h0, c0 = lstm_case(rng)
    y, hT, cT, cache = run_lstm(P, x, h0, c0, "ln")
    TP = {k: tt(v) for k, v in P.items()}
    X, H0, C0 = tt(x), tt(h0), tt(c0)
    h, c, ys, H = H0, C0, [], 4
    for t in range(3):
        a = t_ln(X[t] @ TP["Wx"], TP["gx"], TP["bx"]) + t_ln(h @ TP["Wh"], TP["gh"], TP["bh"]) + TP["b"]
        i, f = torch.sigmoid(a[:, :H]), torch.sigmoid(a[:, H:2 * H])
        g, o = torch.tanh(a[:, 2 * H:3 * H]), torch.sigmoid(a[:, 3 * H:])
        c = f * c + i * g                               # c_t itself carries on, not LN(c_t)
        h = o * torch.tanh(t_ln(c, TP["gc"], TP["bc"]))
        ys.append(h)
    Y = torch.stack(ys)
    close(y, Y, "y", 1e-12)
    close(cT, c, "cT", 1e-12)
    dy = rng.standard_normal((3, 2, 4))
    (Y * torch.tensor(dy)).sum().backward()
    out = ref.lstm_backward(dy, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc"]
    want = [X.grad, H0.grad, C0.grad] + [TP[k].grad for k in names[3:]]
    for name, got, w in zip(names, out, want):
        close(got, w, "d" + name, 1e-10)


def test_plain_rnn_matches_nn_rnncell_from_h0_and_its_backward_central_differences():
    rng = np.random.default_rng(2886)
    T, B, I, H = 3, 2, 3, 4
    Wx, Wh = rng.standard_normal((I, H)) * 0.7, rng.standard_normal((H, H)) * 0.7
    b, g = rng.standard_normal(H) * 0.5, np.ones(H)
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    y, hT, cache = ref.rnn_forward(x, h0, Wx, Wh, b, g, "none", EPS)
    cell = torch.nn.RNNCell(I, H).double()
    with torch.no_grad():
        cell.weight_ih.copy_(torch.tensor(Wx.T))
        cell.weight_hh.copy_(torch.tensor(Wh.T))
        cell.bias_ih.copy_(torch.tensor(b))
        cell.bias_hh.zero_()
    h = torch.tensor(h0)
    for t in range(T):
        h = cell(torch.tensor(x[t]), h)
        close(y[t], h, f"y[{t}]", 1e-12)
    dy = rng.standard_normal((T, B, H))

    def loss():
        return (ref.rnn_forward(x, h0, Wx, Wh, b, g, "none", EPS)[0] * dy).sum()

    dx, dh0, dWx, dWh, db, _ = ref.rnn_backward(dy, cache, Wx, Wh, g, "none")
    for name, got, arr in (("x", dx, x), ("h0", dh0, h0), ("Wx", dWx, Wx), ("Wh", dWh, Wh), ("b", db, b)):
        np.testing.assert_allclose(got, central(loss, arr), atol=1e-7, err_msg=name)


def test_batchnorm_training_with_lengths_matches_torch_batch_norm_on_the_active_rows():
    rng = np.random.default_rng(2887)
    T, B, Fe = 3, 4, 3
    lengths = np.array([3, 1, 2, 3])
    x = rng.standard_normal((T, B, Fe)) * 2 + np.arange(B)[None, :, None] * 1.5   # padded rows far off
    g, b = rng.uniform(0.5, 1.8, Fe), rng.standard_normal(Fe)
    rm, rv = np.zeros((T, Fe)), np.ones((T, Fe))
    y, mean, rstd = ref.batchnorm_forward_train(x, g, b, rm, rv, 0.1, EPS, lengths)
    for t in range(T):
        on = t < lengths
        xa = torch.tensor(x[t][on])
        want = F.batch_norm(xa, None, None, torch.tensor(g), torch.tensor(b), training=True, eps=EPS)
        close(y[t][on], want, f"y[{t}] active", 1e-12)
        close(mean[t], x[t][on].mean(0), f"mean[{t}]", 1e-12)
        # padded rows are normalized with the active rows' statistics
        close(y[t][~on], (x[t][~on] - x[t][on].mean(0)) / np.sqrt(x[t][on].var(0) + EPS) * g + b,
              f"y[{t}] padded", 1e-12)


def test_batchnorm_backward_gain_and_bias_summed_over_every_step_against_autograd():
    rng = np.random.default_rng(2888)
    T, B, Fe = 3, 3, 2
    x = rng.standard_normal((T, B, Fe))
    g, b = rng.uniform(0.5, 1.8, Fe), rng.standard_normal(Fe)
    y, mean, rstd = ref.batchnorm_forward_train(x, g, b, np.zeros((T, Fe)), np.ones((T, Fe)), 0.1, EPS)
    X, G, Bb = tt(x), tt(g), tt(b)
    Y = torch.stack([F.batch_norm(X[t], None, None, G, Bb, training=True, eps=EPS) for t in range(T)])
    close(y, Y, "y", 1e-12)
    dy = rng.standard_normal((T, B, Fe))
    (Y * torch.tensor(dy)).sum().backward()
    dx, dg, db = ref.batchnorm_backward(dy, x, mean, rstd, g)
    close(dx, X.grad, "dx", 1e-10)
    close(dg, G.grad, "dgain", 1e-10)
    close(db, Bb.grad, "dbias", 1e-10)
