"""The cell registry's rows (lnrnn/model/cells.py) through a RecurrentLayer in float64, against ``lnrnn.reference``:
an LN-LSTM whose six LayerNorm gains and biases all differ from their initial values and from each other (the
forward's y and final state against ``reference.lstm_forward``; every named parameter gradient, dx and the
initial-state gradients against ``reference.lstm_backward``), and a BN-RNN training forward over ragged rows
(y at the running steps and the running statistics after the update against ``reference.bn_rnn_forward`` with the
same lengths: a step's statistics count only the rows running there)."""
import numpy as np

from lnrnn import reference as ref
from lnrnn.config import BN_MOMENTUM, EPS
from lnrnn.model.layers import RecurrentLayer

T, B, I, H = 4, 3, 2, 3


def test_ln_lstm_forward_and_named_gradients_with_every_gain_and_bias_its_own():
    layer = RecurrentLayer("lstm", "ln", I, H, dtype=np.float64, seed=1)
    rng = np.random.default_rng(11)
    for n, v in layer.params.items():
        v[...] = rng.normal(1.0 if n.startswith("g") else 0.0, 0.5, v.shape)
    p = {n: np.array(v) for n, v in layer.params.items()}
    x = rng.normal(size=(T, B, I))
    h0, c0 = rng.normal(0, 0.5, (B, H)), rng.normal(0, 0.5, (B, H))
    y, (hT, cT) = layer.forward(x, (h0, c0))
    ry, rh, rc, cache = ref.lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["bx"], p["gh"], p["bh"],
                                         p["gc"], p["bc"], "ln", EPS)
    np.testing.assert_allclose(y, ry, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(hT, rh, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(cT, rc, rtol=1e-11, atol=1e-13)
    dy = rng.normal(size=(T, B, H))
    dx, (dh0, dc0) = layer.backward(dy)
    rdx, rdh0, rdc0, *rd = ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "ln")
    np.testing.assert_allclose(dx, rdx, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dh0, rdh0, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dc0, rdc0, rtol=1e-10, atol=1e-12)
    names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")    # reference.lstm_backward's order
    for n, want in zip(names, rd):
        np.testing.assert_allclose(layer.grads[n], want, rtol=1e-10, atol=1e-12, err_msg=n)


def test_bn_rnn_training_forward_counts_only_running_rows():
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, seed=2, max_steps=T)
    rng = np.random.default_rng(12)
    for v in layer.params.values():
        v[...] = rng.normal(0.5, 0.5, v.shape)
    for n, v in layer.buffers.items():
        v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else rng.normal(0, 0.3, v.shape)
    p = {n: np.array(v) for n, v in layer.params.items()}
    bufs = {n: np.array(v) for n, v in layer.buffers.items()}
    lengths = np.array([4, 1, 3])
    x = rng.normal(size=(T, B, I))
    h0 = rng.normal(0, 0.5, (B, H))
    y, _ = layer.forward(x, (h0,), training=True, lengths=lengths)
    ry, _, _ = ref.bn_rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], bufs["rmx"], bufs["rvx"],
                                  bufs["rmh"], bufs["rvh"], True, BN_MOMENTUM, EPS, lengths=lengths)
    run = np.arange(T)[:, None] < lengths[None, :]
    np.testing.assert_allclose(y[run], ry[run], rtol=1e-11, atol=1e-13)
    for n in bufs:                                         # the reference updated its copies in place
        np.testing.assert_allclose(layer.buffers[n], bufs[n], rtol=1e-11, atol=1e-13, err_msg=n)
