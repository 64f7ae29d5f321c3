"""The layer API: whole multi-layer stacks gradient-checked in float64 for every cell x norm, seeded
initialisation, and clear errors for bad input."""
import numpy as np
import pytest

from lnrnn.gradcheck import TOLERANCE, check_stack
from lnrnn.model.cells import CELLS, parse_cell
from lnrnn.model.layers import RecurrentLayer, RecurrentStack

COMBOS = [(c, n) for c in ("rnn", "lstm") for n in ("none", "ln", "bn")]


@pytest.mark.parametrize("cell,norm", COMBOS)
def test_stack_gradcheck_two_layers(cell, norm):
    """Every parameter of both layers, the input sequence and every initial state, T=5."""
    results = check_stack(cell, norm, T=5, B=3, I=3, H=4, num_layers=2, training=True, seed=11)
    names = [n for n, _ in results]
    assert "x" in names and "l1.h0" in names and "l1.Wh" in names
    if cell == "lstm":
        assert "l0.c0" in names
    bad = [(n, e) for n, e in results if not e < TOLERANCE]
    assert not bad, bad


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_stack_gradcheck_bn_inference_mode(cell):
    results = check_stack(cell, "bn", T=6, B=3, I=2, H=3, num_layers=2, training=False, seed=12)
    bad = [(n, e) for n, e in results if not e < TOLERANCE]
    assert not bad, bad


def test_gradcheck_detects_a_wrong_gradient(monkeypatch):
    """The checker itself must be able to fail: corrupt one gradient and expect a large error."""
    from lnrnn.model import cells

    cpu = cells.LSTM_CPU  # the CPU LSTM kernels every LSTM row names (the registry's own record)
    real = cpu.backward

    def broken(*args, **kw):
        out = list(real(*args, **kw))
        out[4] = out[4] * 1.01  # dWh off by 1%
        return tuple(out)

    monkeypatch.setattr(cpu, "backward", broken)
    results = dict(check_stack("lstm", "ln", num_layers=1))
    assert results["l0.Wh"] > 1e-3
    assert results["l0.Wx"] < TOLERANCE


def test_seeded_init_is_deterministic_and_orthogonal():
    a = RecurrentStack("lstm", "ln", 3, 5, num_layers=2, seed=7)
    b = RecurrentStack("lstm", "ln", 3, 5, num_layers=2, seed=7)
    c = RecurrentStack("lstm", "ln", 3, 5, num_layers=2, seed=8)
    for k in a.params:
        assert np.array_equal(a.params[k], b.params[k])
    assert not np.array_equal(a.params["l0.Wx"], c.params["l0.Wx"])
    Wh = a.params["l1.Wh"].astype(np.float64)
    for j in range(4):  # each gate block is orthogonal
        blk = Wh[:, j * 5:(j + 1) * 5]
        assert np.allclose(blk.T @ blk, np.eye(5), atol=1e-5)
    assert np.all(a.params["l0.b"][5:10] == 1.0) and np.all(a.params["l0.b"][:5] == 0.0)  # forget bias
    bn = RecurrentLayer("lstm", "bn", 3, 5)
    assert np.all(bn.params["gx"] == np.float32(0.1)) and np.all(bn.params["gc"] == np.float32(0.1))
    ln = RecurrentLayer("lstm", "ln", 3, 5)  # LayerNorm gains start at 1, its biases at 0
    for n in ("gx", "gh", "gc"):
        assert np.all(ln.params[n] == 1.0), n
    for n in ("bx", "bh", "bc"):
        assert np.all(ln.params[n] == 0.0), n
    assert np.all(RecurrentLayer("rnn", "ln", 3, 5).params["g"] == 1.0)


def test_parse_cell_names():
    assert parse_cell("ln-lstm") == ("lstm", "ln")
    assert parse_cell("bn-rnn") == ("rnn", "bn")
    assert parse_cell("lstm") == ("lstm", "none")
    assert len(CELLS) == 6
    with pytest.raises(ValueError, match="unknown cell 'gru'"):
        parse_cell("gru")


def test_bad_input_is_reported_clearly():
    layer = RecurrentLayer("lstm", "ln", 3, 4)
    x = np.zeros((5, 2, 3), np.float32)
    with pytest.raises(ValueError, match=r"x must have shape \(\?,\?,3\), got \(5, 2, 4\)"):
        layer.forward(np.zeros((5, 2, 4), np.float32))
    with pytest.raises(ValueError, match="shape"):
        layer.forward(np.zeros((5, 3), np.float32))
    with pytest.raises(TypeError, match="float32 like the layer's parameters, got float64"):
        layer.forward(x.astype(np.float64))
    bad = x.copy()
    bad[1, 1, 1] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        layer.forward(bad)
    with pytest.raises(ValueError, match="state is a tuple of 2"):
        layer.forward(x, state=(np.zeros((2, 4), np.float32),))
    with pytest.raises(ValueError, match=r"h0 must have shape \(2,4\)"):
        layer.forward(x, state=(np.zeros((3, 4), np.float32), np.zeros((2, 4), np.float32)))
    with pytest.raises(RuntimeError, match="before forward"):
        layer.backward(np.zeros((5, 2, 4), np.float32))
    layer.forward(x)
    with pytest.raises(ValueError, match=r"dy must have shape \(5,2,4\)"):
        layer.backward(np.zeros((5, 2, 3), np.float32))
    with pytest.raises(ValueError, match="unknown norm 'wn'"):
        RecurrentLayer("lstm", "wn", 3, 4)
    with pytest.raises(ValueError, match="hidden_size must be a positive integer"):
        RecurrentLayer("lstm", "ln", 3, 0)
    with pytest.raises(TypeError, match="float32 or float64"):
        RecurrentLayer("rnn", "ln", 3, 4, dtype=np.int32)


def test_state_carries_across_calls():
    """Running T steps at once equals running them in two calls with the state carried over."""
    rng = np.random.default_rng(3)
    for cell, norm in [("lstm", "ln"), ("rnn", "none"), ("lstm", "bn")]:
        stack = RecurrentStack(cell, norm, 2, 3, num_layers=2, dtype=np.float64, seed=1, max_steps=8)
        x = rng.standard_normal((8, 4, 2))
        if norm == "bn":  # inference mode: per-step statistics come from the buffers, time-aligned
            y_all, _ = stack.forward(x, training=False)
            y1, s = stack.forward(x[:8], training=False)
            assert np.allclose(y_all, y1)
            continue
        y_all, _ = stack.forward(x)
        y1, s = stack.forward(x[:5])
        y2, _ = stack.forward(x[5:], state=s)
        assert np.allclose(y_all, np.concatenate([y1, y2]), atol=1e-12)


def test_bn_statistics_grow_and_are_reused_beyond_training_length():
    layer = RecurrentLayer("lstm", "bn", 2, 3, dtype=np.float64, max_steps=2)
    rng = np.random.default_rng(0)
    layer.forward(rng.standard_normal((4, 5, 2)), training=True)
    assert layer.buffers["rmx"].shape == (4, 12)
    y, _ = layer.forward(rng.standard_normal((7, 5, 2)), training=False)  # beyond 4 steps: reuse last row
    assert y.shape == (7, 5, 3) and np.all(np.isfinite(y))
    assert layer.buffers["rmx"].shape == (4, 12)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_ln_gradients_stay_finite_through_leading_blank_inputs(cell):
    """Pixel MNIST starts with ~100 zero pixels. With a zero state every LayerNorm row is all-zero and
    each step would multiply the gradient by 1/sqrt(eps); the initialisation must avoid that fixed point."""
    rng = np.random.default_rng(0)
    x = np.zeros((120, 4, 1), np.float32)
    x[100:] = rng.random((20, 4, 1))
    stack = RecurrentStack(cell, "ln", 1, 16, seed=0)
    y, _ = stack.forward(x)
    stack.backward(np.ones_like(y))
    worst = max(float(np.abs(g).max()) for g in stack.grads.values())
    assert np.isfinite(worst) and worst < 1e6, worst  # with a zero cell-candidate/LN bias: NaN


def test_identity_recurrent_init_keeps_every_other_draw():
    """--init identity: every gate block of Wh is the identity; Wx and the other parameters are those
    of the orthogonal initialization with the same seed (the random draws are unchanged)."""
    a = RecurrentStack("lstm", "bn", 3, 5, num_layers=2, seed=4)
    b = RecurrentStack("lstm", "bn", 3, 5, num_layers=2, seed=4, recurrent_init="identity")
    for k in a.params:
        if k.endswith("Wh"):
            np.testing.assert_array_equal(b.params[k], np.tile(np.eye(5, dtype=np.float32), (1, 4)))
        else:
            np.testing.assert_array_equal(a.params[k], b.params[k])
    with pytest.raises(ValueError, match="recurrent_init"):
        RecurrentLayer("rnn", "none", 3, 5, recurrent_init="zeros")


@pytest.mark.parametrize("cell,norm", COMBOS)
def test_input_weights_are_glorot_uniform_over_input_and_hidden(cell, norm):
    """Wx (I,G) ~ U(-a, a), a = sqrt(6 / (I + H)): the bound holds and the largest of I*G draws nearly reaches
    it (below 0.9 a with probability 0.9^(I*G) < 1e-10 here)."""
    I, H = 12, 20
    layer = RecurrentLayer(cell, norm, I, H, dtype=np.float64, seed=4)
    a = np.sqrt(6.0 / (I + H))
    Wx = layer.params["Wx"]
    assert Wx.shape == (I, layer.spec.blocks * H)
    assert np.abs(Wx).max() <= a and np.abs(Wx).max() > 0.9 * a


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_bn_population_statistics_start_at_mean_zero_variance_one(cell):
    """Before any training the running rows are N(0, 1)'s: inference normalizes with x / sqrt(1 + eps)."""
    layer = RecurrentLayer(cell, "bn", 3, 5, max_steps=4)
    G = layer.spec.blocks * 5
    want = {"rmx": (4, G), "rvx": (4, G), "rmh": (4, G), "rvh": (4, G)}
    if cell == "lstm":
        want.update(rmc=(4, 5), rvc=(4, 5))
    assert {k: v.shape for k, v in layer.buffers.items()} == want
    for k, v in layer.buffers.items():
        assert np.all(v == (1.0 if k.startswith("rv") else 0.0)), k
