"""lnrnn/model/layers.py against lnrnn/reference.py (the NumPy spec) and what its docstrings write out, float64,
ragged sizes: a layer's documented defaults (float32, the LSTM's forget block at 1) and its seed's Glorot-uniform
Wx drawn by hand; a fresh layer's first backward (dx, dh0 and every parameter gradient) against
reference.rnn_backward; synchronized BatchNorm reaching a BN layer's statistics (its reduce called, y the spec's)
and leaving an LN layer alone; a BN layer's per-step statistics grown and updated by a training forward longer
than max_steps, then read at min(t, Ts-1) by a longer inference forward, against reference.bn_rnn_forward; the
trainer's hooks fired only on forwards a backward can follow; a stack's BN statistics loaded name by name; a
bidirectional layer whose input and hidden widths differ, its dx and dh0 against central differences of the
spec composed by hand."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model import layers
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from test_values313_layers import _active, _rnn_rows
from test_values341_layers_stacks import _central

I, H, B, T = 2, 5, 3, 4


def test_a_layer_built_with_its_defaults_is_float32_with_the_forget_block_at_one():
    layer = RecurrentLayer("lstm", "none", I, H)
    assert layer.dtype is np.float32 and layer.params["Wx"].dtype == np.float32
    assert layer.params["Wx"].shape == (I, 4 * H) and layer.params["Wh"].shape == (H, 4 * H)
    want = np.zeros(4 * H, np.float32)
    want[H:2 * H] = 1.0                                 # gates [i | f | g | o]: the forget block
    np.testing.assert_array_equal(layer.params["b"], want)
    assert layer.forget_bias == 1.0


def test_a_layers_seed_fixes_its_glorot_uniform_draw():
    one = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=5)
    again = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=5)
    other = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=6)
    lim = np.sqrt(6.0 / (I + H))                        # Glorot-uniform, the first draw of the seed's generator
    np.testing.assert_array_equal(one.params["Wx"], np.random.default_rng(5).uniform(-lim, lim, (I, H)))
    for n in ("Wx", "Wh"):
        np.testing.assert_array_equal(one.params[n], again.params[n])
        assert not np.array_equal(one.params[n], other.params[n])
    np.testing.assert_allclose(one.params["Wh"] @ one.params["Wh"].T, np.eye(H), rtol=0, atol=1e-12)


def test_a_fresh_layers_first_backward_against_the_spec():
    layer = RecurrentLayer("rnn", "ln", I, H, dtype=np.float64, seed=1)
    p = {n: v.copy() for n, v in layer.params.items()}
    rng = np.random.default_rng(3)
    x, h0 = rng.standard_normal((T, B, I)), 0.5 * rng.standard_normal((B, H))
    dy = rng.standard_normal((T, B, H))
    y, (hT,) = layer.forward(x, (h0,))
    want_y, want_h, cache = ref.rnn_forward(x, h0, p["Wx"], p["Wh"], p["b"], p["g"], "ln")
    np.testing.assert_allclose(y, want_y, rtol=0, atol=1e-12)
    np.testing.assert_allclose(hT, want_h, rtol=0, atol=1e-12)
    dx, (dh0,) = layer.backward(dy)
    want = dict(zip(("dx", "dh0", "Wx", "Wh", "b", "g"), ref.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], "ln")))
    np.testing.assert_allclose(dx, want["dx"], rtol=0, atol=1e-10)
    np.testing.assert_allclose(dh0, want["dh0"], rtol=0, atol=1e-10)
    for n in ("Wx", "Wh", "b", "g"):
        np.testing.assert_allclose(layer.grads[n], want[n], rtol=0, atol=1e-10, err_msg=n)


def _bn_rnn_by_hand(p, x, bufs, training):
    """reference.bn_rnn_forward from a zero state on copies of bufs -> (y, the copies as it left them)."""
    b = {n: v.copy() for n, v in bufs.items()}
    y = ref.bn_rnn_forward(x, np.zeros((x.shape[1], p["Wh"].shape[0])), p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"],
                           b["rmx"], b["rvx"], b["rmh"], b["rvh"], training)[0]
    return y, b


def test_synchronized_batchnorm_reaches_bn_layers_and_leaves_ln_layers_alone():
    calls = []

    def group_of_one(buf):   # the sum over a group of one process: the buffer as it is
        calls.append(buf.size)

    x = np.random.default_rng(4).standard_normal((T, B, I))
    bn = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, seed=2, max_steps=T)
    p, bufs = {n: v.copy() for n, v in bn.params.items()}, {n: v.copy() for n, v in bn.buffers.items()}
    bn.set_batch_reduce(group_of_one)
    y, _ = bn.forward(x, training=True)
    assert calls, "a BN layer's statistics never went through the group's reduce"
    want, after = _bn_rnn_by_hand(p, x, bufs, True)
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-10)
    for n in after:
        np.testing.assert_allclose(bn.buffers[n], after[n], rtol=0, atol=1e-12, err_msg=n)
    calls.clear()
    ln = RecurrentLayer("rnn", "ln", I, H, dtype=np.float64, seed=2)
    ln.set_batch_reduce(group_of_one)
    y, _ = ln.forward(x, training=True)
    P = ln.params
    np.testing.assert_allclose(y, ref.rnn_forward(x, np.zeros((B, H)), P["Wx"], P["Wh"], P["b"], P["g"], "ln")[0],
                               rtol=0, atol=1e-12)
    assert calls == []


def test_bn_statistics_grow_past_max_steps_in_training_and_are_read_at_the_last_row_beyond():
    layer = RecurrentLayer("rnn", "bn", I, H, dtype=np.float64, seed=7, max_steps=2)
    p = {n: v.copy() for n, v in layer.params.items()}
    assert {n: v.shape for n, v in layer.buffers.items()} == {n: (2, H) for n in ("rmx", "rvx", "rmh", "rvh")}
    # grown by hand: rows 2 and 3 repeat row 1 (means 0, variances 1, as initialized)
    grown = {n: np.zeros((T, H)) if n.startswith("rm") else np.ones((T, H)) for n in layer.buffers}
    rng = np.random.default_rng(8)
    x = rng.standard_normal((T, B, I))
    y, _ = layer.forward(x, training=True)
    want, after = _bn_rnn_by_hand(p, x, grown, True)
    np.testing.assert_allclose(y, want, rtol=0, atol=1e-10)
    for n in after:
        assert layer.buffers[n].shape == (T, H)
        np.testing.assert_allclose(layer.buffers[n], after[n], rtol=0, atol=1e-12, err_msg=n)
        assert not np.array_equal(after[n][T - 1], grown[n][T - 1])   # every step's row moved
    x6 = rng.standard_normal((6, B, I))
    kept = {n: v.copy() for n, v in layer.buffers.items()}
    y6, _ = layer.forward(x6, training=False, keep=False)
    want6, _ = _bn_rnn_by_hand(p, x6, after, False)      # steps 4 and 5 read row 3
    np.testing.assert_allclose(y6, want6, rtol=0, atol=1e-10)
    for n in kept:
        np.testing.assert_array_equal(layer.buffers[n], kept[n])   # inference leaves them as they were


def test_the_trainers_hooks_fire_only_on_forwards_a_backward_can_follow(monkeypatch):
    seen, before = [], []
    monkeypatch.setitem(layers.HOOKS, "training_forward", seen.append)
    monkeypatch.setitem(layers.HOOKS, "before_backward", lambda: before.append(1))
    layer = RecurrentLayer("rnn", "none", I, H, dtype=np.float64, seed=0)
    x = np.random.default_rng(1).standard_normal((T, B, I))
    layer.forward(x, training=True, keep=False)
    layer.forward(x, training=False)
    assert seen == [] and before == []
    layer.forward(x, training=True)
    assert seen == [layer]
    layer.backward(np.ones((T, B, H)))
    assert before == [1] and seen == [layer]


def test_a_stack_loads_each_layers_bn_statistics_by_name():
    kw = dict(num_layers=2, dtype=np.float64, max_steps=3)
    trained = RecurrentStack("rnn", "bn", I, H, seed=1, **kw)
    fresh = RecurrentStack("rnn", "bn", I, H, seed=1, **kw)
    x = np.random.default_rng(2).standard_normal((3, B, I))
    trained.forward(x, training=True)
    names = [f"l{k}.{n}" for k in range(2) for n in ("rmx", "rvx", "rmh", "rvh")]
    assert sorted(trained.buffers) == sorted(names)
    assert not np.array_equal(trained.buffers["l0.rmx"], trained.buffers["l1.rmx"])
    fresh.load_buffers({n: v.copy() for n, v in trained.buffers.items()})
    for n in names:
        np.testing.assert_array_equal(fresh.buffers[n], trained.buffers[n], err_msg=n)
    y_fresh, _ = fresh.forward(x, training=False, keep=False)
    y_trained, _ = trained.forward(x, training=False, keep=False)
    np.testing.assert_allclose(y_fresh, y_trained, rtol=0, atol=1e-12)


def test_bidirectional_gradients_with_input_and_hidden_of_different_widths():
    lengths = [3, 0, 2]
    stack = RecurrentStack("rnn", "none", I, H, dtype=np.float64, seed=9, bidirectional=True)
    P = stack.params
    pf = {n: P["l0." + n] for n in ("Wx", "Wh", "b")}
    pb = {n: P["l0_reverse." + n] for n in ("Wx", "Wh", "b")}
    rng = np.random.default_rng(10)
    x = rng.standard_normal((3, B, I))
    dy = _active(rng.standard_normal((3, B, 2 * H)), lengths)

    def by_hand():
        return np.concatenate([_rnn_rows(x, lengths, pf, False)[0], _rnn_rows(x, lengths, pb, True)[0]], axis=2)

    y, _ = stack.forward(x, lengths=lengths, training=True)
    np.testing.assert_allclose(_active(y, lengths), by_hand(), rtol=0, atol=1e-12)
    dx = stack.backward(dy)
    want_dx, want_wx, want_rwx = _central(lambda: float(np.sum(by_hand() * dy)), [x, pf["Wx"], pb["Wx"]])
    np.testing.assert_allclose(dx, want_dx, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(stack.grads["l0.Wx"], want_wx, rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(stack.grads["l0_reverse.Wx"], want_rwx, rtol=1e-6, atol=1e-8)
