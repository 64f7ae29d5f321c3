"""lnrnn/model/cells.py's adapters, lnrnn/model/layers.py and lnrnn/model/flat.py by value, with parameters and
BatchNorm statistics moved off their initial values (where the x and h sides' gains are equal and every bias
is zero, a swapped or misread argument changes nothing): a masked BN-LSTM layer's output, each row's own final
h and c, its updated running statistics and every gradient against the NumPy reference (reference.py, a loop
of its own), in training and in inference with different statistics per side; a masked LN-LSTM and plain RNN
layer's gradients against the reference run on dL/dy zeroed at the padded steps; a second backward adding into
the gradients of the first; a bidirectional stack with ragged rows against two one-direction layers run by
hand on each row's own steps reversed; and repack refusing two dtypes in one buffer."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.flat import repack
from lnrnn.model.functional import reverse_valid
from lnrnn.model.layers import RecurrentLayer, RecurrentStack

from test_layers_models_bidirectional import _unidirectional, reversed_rows

T, B, I, H = 5, 4, 3, 3
LENGTHS = np.array([T, 2, 0, 4])
EPS, MOM = 1e-5, 0.1


def _moved(layer, seed):
    """layer with random parameters and BN statistics (variances in [0.5, 1.5)), in place; -> rng."""
    rng = np.random.default_rng(seed)
    for v in layer.params.values():
        v += 0.3 * rng.standard_normal(v.shape)
    for n, v in layer.buffers.items():
        v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else 0.5 * rng.standard_normal(v.shape)
    return rng


def _own_last(seq, init, lengths):
    """Each row's entry of seq (T,B,H) at its last step, init (B,H) where it runs no step."""
    return np.stack([seq[L - 1, b] if L > 0 else init[b] for b, L in enumerate(lengths)])


@pytest.mark.parametrize("training", [True, False])
def test_masked_bn_lstm_layer_is_the_reference(training):
    layer = RecurrentLayer("lstm", "bn", I, H, dtype=np.float64, max_steps=T, seed=4, eps=EPS, momentum=MOM)
    rng = _moved(layer, 5)
    p, bufs = layer.params, {n: v.copy() for n, v in layer.buffers.items()}
    x, h0, c0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H)), rng.standard_normal((B, H))
    y, (hT, cT) = layer.forward(x, (h0, c0), training=training, lengths=LENGTHS)
    run = [bufs[n] for n in ("rmx", "rvx", "rmh", "rvh", "rmc", "rvc")]
    yr, _, _, saved = ref.bn_lstm_forward(x, h0, c0, p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],
                                          *run, training, MOM, EPS, lengths=LENGTHS)
    on = LENGTHS[None, :, None] > np.arange(T)[:, None, None]
    np.testing.assert_allclose(np.where(on, y, 0), np.where(on, yr, 0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(hT, _own_last(yr, h0, LENGTHS), rtol=1e-10, atol=1e-12)
    cs = np.stack([s["c"] for s in saved["steps"]])
    np.testing.assert_allclose(cT, _own_last(cs, c0, LENGTHS), rtol=1e-10, atol=1e-12)
    for n, v in zip(("rmx", "rvx", "rmh", "rvh", "rmc", "rvc"), run):   # the reference's updates (none in inference)
        np.testing.assert_allclose(layer.buffers[n], v, rtol=1e-12, atol=1e-14, err_msg=n)
    dy = rng.standard_normal((T, B, H))
    dx, (dh0, dc0) = layer.backward(dy)
    want = ref.bn_lstm_backward(dy, saved, x, h0, c0, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"])
    for name, got, w in zip(("dx", "dh0", "dc0"), (dx, dh0, dc0), want[:3]):
        np.testing.assert_allclose(got, w, rtol=1e-9, atol=1e-11, err_msg=name)
    for name, w in zip(("Wx", "Wh", "b", "gx", "gh", "gc", "bc"), want[3:]):
        np.testing.assert_allclose(layer.grads[name], w, rtol=1e-9, atol=1e-11, err_msg=name)


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "none"), ("lstm", "none")])
def test_masked_layer_gradients_are_the_references_on_the_running_steps(cell, norm):
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64, seed=6, eps=EPS)
    rng = _moved(layer, 7)
    p = layer.params
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.standard_normal((B, H)) for _ in range(layer.nstate))
    y, out = layer.forward(x, state, lengths=LENGTHS)
    dy = rng.standard_normal((T, B, H))                                  # padded steps' dy must be ignored
    dx, dstate = layer.backward(dy)
    dy0 = np.where(LENGTHS[None, :, None] > np.arange(T)[:, None, None], dy, 0.0)
    if cell == "lstm":
        one_g, zero_g = np.ones(4 * H), np.zeros(4 * H)
        ln = {k: p.get(k, d) for k, d in (("gx", one_g), ("bx", zero_g), ("gh", one_g), ("bh", zero_g),
                                          ("gc", np.ones(H)), ("bc", np.zeros(H)))}
        yr, _, _, cache = ref.lstm_forward(x, *state, p["Wx"], p["Wh"], p["b"], ln["gx"], ln["bx"], ln["gh"],
                                           ln["bh"], ln["gc"], ln["bc"], norm, EPS)
        want = ref.lstm_backward(dy0, cache, p["Wx"], p["Wh"], ln["gx"], ln["gh"], ln["gc"], norm)
        cs = np.stack([s["c_new"] for s in cache])
        np.testing.assert_allclose(out[1], _own_last(cs, state[1], LENGTHS), rtol=1e-10, atol=1e-12)
        names = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
        grads = dict(zip(names, want[3:]))
        wstate = want[1:3]
    else:
        yr, _, cache = ref.rnn_forward(x, *state, p["Wx"], p["Wh"], p["b"], np.ones(H), norm, EPS)
        want = ref.rnn_backward(dy0, cache, p["Wx"], p["Wh"], np.ones(H), norm)
        grads = dict(zip(("Wx", "Wh", "b"), want[2:5]))
        wstate = want[1:2]
    np.testing.assert_allclose(out[0], _own_last(yr, state[0], LENGTHS), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(dx, want[0], rtol=1e-9, atol=1e-11)
    for got, w in zip(dstate, wstate):
        np.testing.assert_allclose(got, w, rtol=1e-9, atol=1e-11)
    for n, g in layer.grads.items():
        np.testing.assert_allclose(g, grads[n], rtol=1e-9, atol=1e-11, err_msg=n)


@pytest.mark.parametrize("cell,norm", [("lstm", "bn"), ("rnn", "ln")])
def test_a_second_backward_adds_into_the_gradients(cell, norm):
    """Truncated BPTT's chunks add their gradients into one buffer until the update zeroes it."""
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64, max_steps=T, seed=8)
    rng = _moved(layer, 9)
    x1, x2 = rng.standard_normal((2, T, B, I))
    dy1, dy2 = rng.standard_normal((2, T, B, H))
    bufs = {n: v.copy() for n, v in layer.buffers.items()}
    layer.forward(x1, training=False)
    layer.backward(dy1)
    first = {n: g.copy() for n, g in layer.grads.items()}
    layer.zero_grad()
    layer.forward(x2, training=False)
    layer.backward(dy2)
    second = {n: g.copy() for n, g in layer.grads.items()}
    layer.zero_grad()
    layer.forward(x1, training=False)
    layer.backward(dy1)
    layer.forward(x2, training=False)
    layer.backward(dy2)
    for n, v in layer.buffers.items():
        np.testing.assert_array_equal(v, bufs[n])                         # inference: the statistics unchanged
    for n, g in layer.grads.items():
        assert np.abs(first[n]).max() > 0 and np.abs(second[n]).max() > 0, n
        np.testing.assert_allclose(g, first[n] + second[n], rtol=1e-12, atol=1e-14, err_msg=n)


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "bn")])
def test_ragged_bidirectional_stack_is_two_directions_on_each_rows_own_steps(cell, norm):
    stack = RecurrentStack(cell, norm, I, H, num_layers=1, dtype=np.float64, seed=10, max_steps=T,
                           bidirectional=True)
    rng = np.random.default_rng(11)
    stack.flat[0].data[...] += 0.3 * rng.standard_normal(stack.flat[0].data.size)
    x = rng.standard_normal((T, B, I))
    fwd, bwd = _unidirectional(stack, 0, I), _unidirectional(stack, 1, I)
    y, states = stack.forward(x, training=True, lengths=LENGTHS)
    # by hand: the backward direction reads row b's steps L_b-1 .. 0, then its padding as it is
    hf, sf = fwd.forward(x, training=True, lengths=LENGTHS)
    hb, sb = bwd.forward(reversed_rows(x, LENGTHS), training=True, lengths=LENGTHS)
    hb_back = reversed_rows(hb, LENGTHS)
    on = LENGTHS[None, :, None] > np.arange(T)[:, None, None]
    np.testing.assert_allclose(np.where(on, y[:, :, :H], 0), np.where(on, hf, 0), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.where(on, y[:, :, H:], 0), np.where(on, hb_back, 0), rtol=1e-10, atol=1e-12)
    for got, want in zip(states[1], sb):
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)
    # the gradients: dL/dx of the stack is the forward layer's plus the backward layer's reversed back
    dy = rng.standard_normal(y.shape)
    dx = stack.backward(dy)
    dxf, _ = fwd.backward(np.ascontiguousarray(dy[:, :, :H]))
    dxb, _ = bwd.backward(reverse_valid(np.ascontiguousarray(dy[:, :, H:]), LENGTHS))
    want = dxf + reverse_valid(dxb, LENGTHS)
    np.testing.assert_allclose(dx, want, rtol=1e-9, atol=1e-11)
    for n, g in stack.layers[1].grads.items():
        np.testing.assert_allclose(g, bwd.grads[n], rtol=1e-9, atol=1e-11, err_msg=n)


def test_repack_refuses_float32_beside_float64():
    a = {"w": np.ones(3, np.float32)}
    b = {"v": np.zeros(2, np.float64)}
    with pytest.raises(TypeError, match="several dtypes"):
        repack([("a.", a), ("b.", b)])
    assert a["w"].dtype == np.float32 and b["v"].dtype == np.float64          # nothing re-pointed
    flat = repack([("a.", a), ("b.", b)], dtype=np.float64)                     # told: converted
    assert flat.data.dtype == np.float64 and a["w"].dtype == np.float64
    np.testing.assert_array_equal(flat.data, [1, 1, 1, 0, 0])
