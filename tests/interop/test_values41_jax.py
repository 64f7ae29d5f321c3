"""lnrnn.jax against its definitions: init's parameters a function of its key (the same key, the same
parameters; another key, others), params_from_stack of a plain LSTM stack a torch.nn.LSTM state_dict (bias_hh
zero, bias_ih the stack's b) whose apply equals nn.LSTM's output, and an initial state in another dtype than x
refused in one sentence."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files: float64 states and parameters


@pytest.mark.parametrize("cell, norm", [("lstm", "ln"), ("rnn", None)])
def test_init_is_a_function_of_its_key(cell, norm):
    a = lj.init(jax.random.key(3), cell, norm, 2, 3, 2)
    b = lj.init(jax.random.key(3), cell, norm, 2, 3, 2)
    c = lj.init(jax.random.key(4), cell, norm, 2, 3, 2)
    assert a.keys() == b.keys() == c.keys()
    for k in a:
        np.testing.assert_array_equal(np.asarray(a[k]), np.asarray(b[k]))
    assert not np.array_equal(np.asarray(a["weight_ih_l0"]), np.asarray(c["weight_ih_l0"]))
    assert not np.array_equal(np.asarray(a["weight_hh_l1"]), np.asarray(c["weight_hh_l1"]))


def test_params_from_a_plain_stack_are_an_nn_lstm_state_dict():
    torch = pytest.importorskip("torch")
    T, B, I, H = 5, 3, 2, 4
    st = RecurrentStack("lstm", "none", I, H, num_layers=2, dtype=np.float64, seed=2, max_steps=T)
    rng = np.random.default_rng(3)
    for layer in st.layers:
        layer.params["b"][:] = rng.uniform(-0.5, 0.5, layer.params["b"].shape)   # a bias that counts
    params, stats = lj.params_from_stack(st)
    assert stats == {}
    for k, layer in enumerate(st.layers):
        np.testing.assert_array_equal(np.asarray(params[f"bias_hh_l{k}"]), np.zeros(4 * H))
        np.testing.assert_array_equal(np.asarray(params[f"bias_ih_l{k}"]), layer.params["b"])
        np.testing.assert_array_equal(np.asarray(params[f"weight_ih_l{k}"]), layer.params["Wx"].T)
    ref = torch.nn.LSTM(I, H, 2, dtype=torch.float64)
    ref.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in params.items()}, strict=True)
    x = rng.standard_normal((T, B, I))
    y, (h, c) = lj.apply(params, jnp.asarray(x), cell="lstm", norm=None)
    with torch.no_grad():
        want, (wh, wc) = ref(torch.from_numpy(x))
    np.testing.assert_allclose(np.asarray(y), want.numpy(), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(np.asarray(c), wc.numpy(), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("cell, norm", [("lstm", "ln"), ("rnn", None)])
@pytest.mark.parametrize("state_dtype", [np.float32, np.float16])
def test_a_state_in_another_dtype_is_refused(cell, norm, state_dtype):
    p = lj.init(jax.random.key(0), cell, norm, 2, 3, 1, dtype=np.float64)
    x = jnp.zeros((4, 2, 2), np.float64)
    h0 = jnp.zeros((1, 2, 3), state_dtype)
    state = (h0, jnp.zeros((1, 2, 3), np.float64)) if cell == "lstm" else h0
    with pytest.raises(TypeError, match=f"h0 is {np.dtype(state_dtype).name} but x is float64"):
        lj.apply(p, x, state, cell=cell, norm=norm)
