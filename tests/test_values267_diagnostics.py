"""lnrnn/diagnostics.per_step, twelfth pass: test_values184_diagnostics' two-layer plain RNN under a last-step
classifier on a padded batch (lengths 4, 1, 3: a row of one step among them), every figure against its
definition: grad_h[l, t] the mean over the rows running at t of ||dL/dh_t|| with dL/dh_t the total derivative of
the batch's mean loss that torch.autograd gives through the same RNN written in torch (the loss read at each
row's own last step), pre_std/pre_sat/h_std over the running rows and units only from 184's NumPy replay, and
the head's gradients left exactly as they were before the call."""
import numpy as np
import pytest
import torch

from lnrnn.diagnostics import per_step

from test_values184_diagnostics import B, H, T, _model, _replay

LENGTHS = np.array([4, 1, 3])


def _torch_dh(m, x, y):
    """[layer][t] (B,H) total derivative of the mean last-step cross-entropy with respect to h_t."""
    inp, hs = torch.tensor(x), []
    for layer in m.stack.layers:
        Wx, Wh, b = (torch.tensor(np.array(layer.params[k])) for k in ("Wx", "Wh", "b"))
        h, out = torch.zeros(B, H, dtype=torch.float64, requires_grad=True), []
        for t in range(T):
            h = torch.tanh(inp[t] @ Wx + h @ Wh + b)
            h.retain_grad()
            out.append(h)
        hs.append(out)
        inp = torch.stack(out)
    last = torch.stack([hs[-1][LENGTHS[r] - 1][r] for r in range(B)])           # each row's own last step
    z = last @ torch.tensor(np.array(m.head.params["W"])) + torch.tensor(np.array(m.head.params["b"]))
    loss = torch.nn.functional.cross_entropy(z, torch.tensor(y))
    loss.backward()
    return [[h.grad.numpy() for h in layer] for layer in hs], float(loss.detach())


def test_grad_h_is_the_mean_norm_of_the_total_derivative_over_running_rows():
    m, x, y = _model()
    dh, loss = _torch_dh(m, x, y)
    d = per_step(m, x, y, lengths=LENGTHS)
    assert d["loss"] == pytest.approx(loss, rel=1e-12)
    run = np.arange(T)[:, None] < LENGTHS                                       # (T,B)
    for l in range(2):
        want = [np.linalg.norm(dh[l][t][run[t]], axis=1).mean() for t in range(T)]
        np.testing.assert_allclose(d["grad_h"][l], want, rtol=1e-10)
        for t in range(T):
            np.testing.assert_allclose(d["dh"][l][t][run[t]], dh[l][t][run[t]], rtol=1e-9, atol=1e-14)
    assert d["grad_h"][0, 0] > 0 and d["grad_h"][0, 3] > 0                      # the bottom layer is reached


def test_pre_std_pre_sat_and_h_std_over_the_running_rows_only():
    m, x, y = _model()
    hs, pres = _replay(m, x)
    d = per_step(m, x, y, lengths=LENGTHS)
    run = np.arange(T)[:, None] < LENGTHS
    for l in range(2):
        for t in range(T):
            a, h = pres[l][t][run[t]], hs[l][t][run[t]]                          # (rows running, H)
            assert d["pre_std"][l, t] == pytest.approx(a.std(), rel=1e-10)
            assert d["pre_sat"][l, t] == np.count_nonzero(np.abs(a) > 3.0) / a.size
            assert d["h_std"][l, t] == pytest.approx(h.std(), rel=1e-10)
    assert 0 < d["pre_sat"].max() < 1 and not np.allclose(d["pre_sat"], d["pre_std"])
    assert d["h_std"][0, 1] > 0


def test_the_heads_gradients_are_left_as_they_were():
    m, x, y = _model()
    before = {}
    for k, g in m.head.grads.items():
        g[...] = 0.125 * np.arange(1, g.size + 1).reshape(g.shape)              # a pattern no backward gives
        before[k] = g.copy()
    per_step(m, x, y, lengths=LENGTHS)
    for k, g in m.head.grads.items():
        np.testing.assert_array_equal(g, before[k], err_msg=k)
