"""Recurrent stacks (lnrnn/model/layers.py), second pass, in float64 at tiny sizes: a two-layer tanh RNN stack
with skip connections (layer 1 reads [x | h_0], y = [h_0 | h_1]) run from a given state of width H != I, each
step written out here, and its input gradient against central differences of a weighted sum of y; a state
carried from one chunk into the next equal to the whole run; the saved configs of skip and bidirectional stacks
written out key by key; the refusals of num_layers and dtype word for word."""
import numpy as np
import pytest

from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from gradcheck_util import numeric_grad

I, H = 2, 3


def skip_stack():
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, seed=5, skip=True)
    rng = np.random.default_rng(21)
    for v in stack.params.values():
        v[...] = rng.normal(0.0, 0.6, v.shape)
    return stack


def skip_by_hand(p, x, h0):
    """y (T,B,2H) = [h_0 | h_1] of a two-layer skip tanh RNN from states h0 = (h0_0, h0_1)."""
    T = x.shape[0]
    a, b, ys = h0[0], h0[1], []
    for t in range(T):
        a = np.tanh(x[t] @ p["l0.Wx"] + a @ p["l0.Wh"] + p["l0.b"])
        b = np.tanh(np.concatenate([x[t], a], axis=1) @ p["l1.Wx"] + b @ p["l1.Wh"] + p["l1.b"])
        ys.append(np.concatenate([a, b], axis=1))
    return np.array(ys)


def test_a_skip_stack_from_a_given_state_and_its_input_gradient():
    T, B = 3, 2
    stack = skip_stack()
    p = {k: np.array(v) for k, v in stack.params.items()}
    assert p["l1.Wx"].shape == (I + H, H)
    rng = np.random.default_rng(22)
    x, h0 = rng.standard_normal((T, B, I)), [rng.standard_normal((B, H)) for _ in range(2)]
    w = rng.standard_normal((T, B, 2 * H))
    y, states = stack.forward(x, [(h0[0],), (h0[1],)])
    want = skip_by_hand(p, x, h0)
    np.testing.assert_allclose(y, want, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(states[0][0], want[-1, :, :H], rtol=1e-12)
    np.testing.assert_allclose(states[1][0], want[-1, :, H:], rtol=1e-12)
    dx = stack.backward(w.copy())
    np.testing.assert_allclose(dx, numeric_grad(lambda: float((skip_by_hand(p, x, h0) * w).sum()), x),
                               rtol=1e-7, atol=1e-10)


def test_a_state_carried_into_the_next_chunk_continues_the_run():
    T, B = 5, 2
    stack = skip_stack()
    x = np.random.default_rng(23).standard_normal((T, B, I))
    y, _ = stack.forward(x)
    y1, s1 = stack.forward(np.ascontiguousarray(x[:2]))
    y2, _ = stack.forward(np.ascontiguousarray(x[2:]), s1, t0=2)
    np.testing.assert_allclose(np.concatenate([y1, y2]), y, rtol=1e-12)
    np.testing.assert_allclose(y, skip_by_hand(stack.params, x, [np.zeros((B, H))] * 2), rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("skip,bidirectional", [(True, False), (False, True), (True, True), (False, False)])
def test_a_stacks_config_names_its_flags(skip, bidirectional):
    stack = RecurrentStack("rnn", "none", I, H, num_layers=2, dtype=np.float64, skip=skip,
                           bidirectional=bidirectional)
    want = {"cell": "rnn", "norm": "none", "input_size": I, "hidden_size": H, "num_layers": 2,
            "dtype": "float64", "forget_bias": 1.0}
    if skip:
        want["skip"] = True
    if bidirectional:
        want["bidirectional"] = True
    assert stack.config == want
    D = 2 if bidirectional else 1
    assert stack.output_size == (2 * D * H if skip else D * H)


def test_num_layers_and_dtype_refusals_word_for_word():
    for n in (1.5, 0, -2):
        with pytest.raises(ValueError) as e:
            RecurrentStack("rnn", "none", I, H, num_layers=n)
        assert str(e.value) == f"num_layers must be a positive integer, got {n}"
    for dt, name in ((np.float16, "float16"), (np.int32, "int32"), ("float16", "float16")):
        with pytest.raises(TypeError) as e:
            RecurrentLayer("rnn", "none", I, H, dtype=dt)
        assert str(e.value) == f"dtype must be float32 or float64, got {name}"
