"""RecurrentLayer and RecurrentStack (lnrnn/model/layers.py) with options off their defaults, in float64 at tiny
sizes, against NumPy written here from the equations (gate order i, f, g, o): an LN-LSTM layer with eps 0.3
against LayerNorm with that eps; a BN-LSTM layer's running statistics after one training forward with momentum
0.3 against the batch moments of x_t Wx (momentum times the mean, the unbiased variance); the initial parameters
against the registry's docstring (shapes, Glorot-uniform Wx inside +-sqrt(6/(I+H)), orthogonal Wh blocks, b zero
but the forget block at forget_bias) and a stack rebuilt from its config holding the same; gradients that
accumulate over two backwards and start again after zero_grad, against central differences of the NumPy loss; a
plain two-layer stack from given states (each layer its own) and its dstate0 in layer order against central
differences; load_buffers giving each layer its own statistics; a bidirectional skip stack's output width; the
refusals at the boundary (a NaN or infinite entry, t0 negative or fractional, dy of the wrong width, no layers, a
bidirectional chunk)."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from gradcheck_util import numeric_grad

I, H, T, B = 3, 2, 3, 2
G = 4 * H


def sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def np_ln(v, g, b, eps):
    m = v.mean(-1, keepdims=True)
    return (v - m) / np.sqrt(((v - m) ** 2).mean(-1, keepdims=True) + eps) * g + b


def np_lstm(x, h0, c0, p, eps=None):
    """y (T,B,H), hT, cT of an LSTM (eps given: the LN-LSTM with LayerNorm of x Wx, h Wh and c)."""
    h, c, ys = h0, c0, []
    for t in range(x.shape[0]):
        if eps is None:
            a = x[t] @ p["Wx"] + h @ p["Wh"] + p["b"]
        else:
            a = np_ln(x[t] @ p["Wx"], p["gx"], p["bx"], eps) + np_ln(h @ p["Wh"], p["gh"], p["bh"], eps) + p["b"]
        i, f, g, o = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])
        c = f * c + i * g
        h = o * np.tanh(c if eps is None else np_ln(c, p["gc"], p["bc"], eps))
        ys.append(h)
    return np.stack(ys), h, c


def central(f, arrays, step=1e-6):
    """{name: dF/d(array)} by central differences of the scalar f() over arrays changed in place."""
    return {n: numeric_grad(f, a, eps=step, order=2) for n, a in arrays.items()}


def randomize(layer, seed):
    rng = np.random.default_rng(seed)
    for n, v in layer.params.items():
        v[...] = (1.0 if n.startswith("g") else 0.0) + 0.5 * rng.standard_normal(v.shape)  # in place: flat views


def data(seed, b=B):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, b, I)), 0.5 * rng.standard_normal((b, H)), 0.5 * rng.standard_normal((b, H))


# ---- settings off their defaults ----

def test_ln_lstm_layer_normalizes_with_its_eps():
    layer = RecurrentLayer("lstm", "ln", I, H, dtype=np.float64, eps=0.3, momentum=0.2)
    randomize(layer, 1)
    x, h0, c0 = data(2)
    y, (hT, cT) = layer.forward(x, (h0, c0), training=False)
    want_y, want_h, want_c = np_lstm(x, h0, c0, layer.params, eps=0.3)
    np.testing.assert_allclose(y, want_y, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(cT, want_c, rtol=1e-10, atol=1e-12)
    assert not np.allclose(y, np_lstm(x, h0, c0, layer.params, eps=1e-5)[0], atol=1e-4)  # eps shows


def test_bn_lstm_layer_moves_its_statistics_by_its_momentum():
    layer = RecurrentLayer("lstm", "bn", I, H, dtype=np.float64, max_steps=T, eps=1e-3, momentum=0.3)
    randomize(layer, 3)
    x, h0, c0 = data(4, b=4)
    layer.forward(x, (h0, c0), training=True)
    xw = x @ layer.params["Wx"]                                          # (T,B,G): no recurrence in it
    np.testing.assert_allclose(layer.buffers["rmx"], 0.3 * xw.mean(1), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(layer.buffers["rvx"], 0.7 + 0.3 * xw.var(1, ddof=1), rtol=1e-9, atol=1e-12)


def test_initial_parameters_follow_the_docstring_with_a_forget_bias():
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64, forget_bias=2.5, seed=7)
    p = layer.params
    assert {n: v.shape for n, v in p.items()} == {"Wx": (I, G), "Wh": (H, G), "b": (G,)}
    assert all(v.dtype == np.float64 for v in p.values())
    lim = np.sqrt(6.0 / (I + H))
    assert np.all(np.abs(p["Wx"]) <= lim) and np.abs(p["Wx"]).max() > lim / 4
    for k in range(4):                                                   # one orthogonal block per gate
        w = p["Wh"][:, k * H:(k + 1) * H]
        np.testing.assert_allclose(w.T @ w, np.eye(H), atol=1e-12)
    want_b = np.zeros(G)
    want_b[H:2 * H] = 2.5
    np.testing.assert_array_equal(p["b"], want_b)
    assert layer.forget_bias == 2.5


def test_a_stack_rebuilt_from_its_config_starts_where_it_did():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, forget_bias=-1.5)
    assert stack.config["forget_bias"] == -1.5 and stack.config["dtype"] == "float64"
    again = RecurrentStack(**stack.config)
    for n, v in stack.params.items():
        np.testing.assert_array_equal(again.params[n], v)
    for layer in again.layers:
        np.testing.assert_array_equal(layer.params["b"][H:2 * H], -1.5)


# ---- gradients: accumulated across backwards, cleared by zero_grad ----

def test_gradients_accumulate_and_zero_grad_starts_them_again():
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64)
    randomize(layer, 5)
    x, h0, c0 = data(6)
    w = np.random.default_rng(7).standard_normal((T, B, H))             # loss = sum(w * y)
    want = central(lambda: float(np.sum(w * np_lstm(x, h0, c0, layer.params)[0])), dict(layer.params))

    def one():
        layer.forward(x, (h0, c0))
        layer.backward(w.copy())

    one()
    for n in want:
        np.testing.assert_allclose(layer.grads[n], want[n], rtol=1e-6, atol=1e-8)
    one()
    for n in want:
        np.testing.assert_allclose(layer.grads[n], 2 * want[n], rtol=1e-6, atol=1e-8)
    layer.zero_grad()
    for n in want:
        assert not np.any(layer.grads[n])
    one()
    for n in want:
        np.testing.assert_allclose(layer.grads[n], want[n], rtol=1e-6, atol=1e-8)


# ---- a plain stack from given states ----

def test_plain_stack_runs_each_layer_from_its_own_state_and_returns_dstate0_in_layer_order():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64)
    for k, layer in enumerate(stack.layers):
        randomize(layer, 10 + k)
    x, _, _ = data(12)
    rng = np.random.default_rng(13)
    states = [(0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H))) for _ in range(2)]
    w = rng.standard_normal((T, B, H))

    def np_stack():
        y0, h0T, c0T = np_lstm(x, *states[0], stack.layers[0].params)
        y1, h1T, c1T = np_lstm(y0, *states[1], stack.layers[1].params)
        return y1, [(h0T, c0T), (h1T, c1T)]

    y, finals = stack.forward(x, [tuple(s.copy() for s in st) for st in states])
    want_y, want_finals = np_stack()
    np.testing.assert_allclose(y, want_y, rtol=1e-10, atol=1e-12)
    for got, want in zip(finals, want_finals):
        for a, b in zip(got, want):
            np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)
    stack.backward(w.copy())
    arrays = {f"{k}.{j}": states[k][j] for k in range(2) for j in range(2)}
    want = central(lambda: float(np.sum(w * np_stack()[0])), arrays)
    for k in range(2):
        for j in range(2):
            np.testing.assert_allclose(stack.dstate0[k][j], want[f"{k}.{j}"], rtol=1e-6, atol=1e-8)


def test_load_buffers_gives_each_layer_its_own_statistics():
    stack = RecurrentStack("lstm", "bn", I, H, num_layers=2, dtype=np.float64, max_steps=T)
    rng = np.random.default_rng(14)
    given = {n: rng.uniform(0.5, 1.5, v.shape) for n, v in stack.buffers.items()}
    assert {n.split(".")[0] for n in given} == {"l0", "l1"}
    stack.load_buffers(given)
    got = stack.buffers
    assert set(got) == set(given)
    for n, v in given.items():
        np.testing.assert_array_equal(got[n], v)


def test_bidirectional_skip_stack_is_two_directions_wide_per_layer():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, skip=True, bidirectional=True)
    x, _, _ = data(15)
    y, _ = stack.forward(x)
    assert y.shape == (T, B, 2 * 2 * H) and stack.output_size == 2 * 2 * H
    dx = stack.backward(np.ones_like(y))
    assert dx.shape == x.shape


# ---- refusals at the boundary ----

def test_a_nan_or_infinite_entry_is_refused():
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64)
    x, h0, c0 = data(16)
    bad = x.copy()
    bad[1, 0, 2] = np.nan
    with pytest.raises(ValueError, match="x contains NaN or infinite"):
        layer.forward(bad, (h0, c0))
    h_bad = h0.copy()
    h_bad[0, 1] = np.inf
    with pytest.raises(ValueError, match="contains NaN or infinite"):
        layer.forward(x, (h_bad, c0))


@pytest.mark.parametrize("t0", [-1, 1.5])
def test_a_negative_or_fractional_t0_is_refused(t0):
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64)
    x, _, _ = data(17)
    with pytest.raises(ValueError, match="t0 must be a non-negative integer"):
        layer.forward(x, t0=t0)


def test_dy_of_the_wrong_width_is_refused():
    layer = RecurrentLayer("lstm", "none", I, H, dtype=np.float64)
    x, _, _ = data(18)
    layer.forward(x)
    with pytest.raises(ValueError, match="dy must have shape"):
        layer.backward(np.ones((T, B, H + 1)))


def test_a_stack_of_no_layers_is_refused():
    with pytest.raises(ValueError, match="num_layers must be a positive integer"):
        RecurrentStack("lstm", "none", I, H, num_layers=0, dtype=np.float64)


def test_a_bidirectional_stack_refuses_a_chunk_from_a_carried_state():
    stack = RecurrentStack("lstm", "none", I, H, num_layers=1, dtype=np.float64, bidirectional=True)
    x, _, _ = data(19)
    with pytest.raises(ValueError, match="bidirectional stack reads whole sequences"):
        stack.forward(x, t0=2)
