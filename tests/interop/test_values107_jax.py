"""lnrnn.jax against a plain LSTM written in jax.numpy under lax.scan (test_values86_jax's, torch.nn.LSTM's
equations) and against torch's names: a two-layer unidirectional stack's parameter names are nn.LSTM's
state_dict keys and its values and gradients the plain LSTM's (jax.test_util.check_grads too); jax.vmap of the
gradient over a batch of examples with shared parameters (the folded forward splitting its residuals per
example) against the plain LSTM's vmapped gradient; and the refusals, word for word: a params dict with a key
missing or one too many, a parameter of the wrong shape, and an initial state of the wrong shape for a
unidirectional and a bidirectional stack."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from test_values86_jax import plain_stack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 3, 2, 2, 3


def _params(L, seed=0):
    p = lj.init(jax.random.key(seed), "lstm", None, I, H, num_layers=L, dtype=jnp.float64)
    r = np.random.default_rng(seed + 1)                           # bias_hh not zero
    return {k: jnp.asarray(np.asarray(v) + 0.2 * r.standard_normal(v.shape)) for k, v in p.items()}


def test_a_two_layer_stack_has_nn_lstms_names_values_and_gradients():
    torch = pytest.importorskip("torch")
    L = 2
    p = _params(L)
    want = {k: tuple(v.shape) for k, v in torch.nn.LSTM(I, H, num_layers=L).state_dict().items()}
    assert {k: tuple(v.shape) for k, v in p.items()} == want
    r = np.random.default_rng(5)
    x = jnp.asarray(r.standard_normal((T, B, I)))
    h0, c0 = (jnp.asarray(0.5 * r.standard_normal((L, B, H))) for _ in range(2))
    w = jnp.asarray(r.standard_normal((T, B, H)))

    def ours(p, x, h0):
        y, (h, c) = lj.apply(p, x, (h0, c0), cell="lstm", norm=None)
        return jnp.sum(y * w) + jnp.sum(h * h) + jnp.sum(c)

    def ref(p, x, h0):
        y, h, c = plain_stack(p, x, h0, c0)
        return jnp.sum(y * w) + jnp.sum(h * h) + jnp.sum(c)

    got = jax.jit(jax.value_and_grad(ours, argnums=(0, 1, 2)))(p, x, h0)
    exp = jax.jit(jax.value_and_grad(ref, argnums=(0, 1, 2)))(p, x, h0)
    for a, e in zip(jax.tree.leaves(got), jax.tree.leaves(exp)):
        np.testing.assert_allclose(a, e, rtol=1e-9, atol=1e-11)
    check_grads(jax.jit(lambda h0: ours(p, x, h0)), (h0,), order=1, modes=["rev"], eps=1e-6, atol=1e-6, rtol=1e-6)


def test_vmap_of_the_gradient_over_examples_is_the_plain_lstms():
    V, L = 3, 1
    p = _params(L, seed=2)
    r = np.random.default_rng(7)
    xs = jnp.asarray(r.standard_normal((V, T, B, I)))
    w = jnp.asarray(r.standard_normal((T, B, H)))
    z = jnp.zeros((L, B, H))

    def ours(p, x):
        y, (h, c) = lj.apply(p, x, cell="lstm", norm=None)
        return jnp.sum(y * w) + jnp.sum(h * h)

    def ref(p, x):
        y, h, c = plain_stack(p, x, z, z)
        return jnp.sum(y * w) + jnp.sum(h * h)

    got = jax.jit(jax.vmap(jax.grad(ours, argnums=(0, 1)), in_axes=(None, 0)))(p, xs)
    exp = jax.jit(jax.vmap(jax.grad(ref, argnums=(0, 1)), in_axes=(None, 0)))(p, xs)
    for a, e in zip(jax.tree.leaves(got), jax.tree.leaves(exp)):
        np.testing.assert_allclose(a, e, rtol=1e-9, atol=1e-11)


def test_a_params_dict_with_a_key_missing_or_extra_is_refused_naming_each():
    p = _params(1)
    x = jnp.zeros((T, B, I))
    tail = ": pass the cell and norm the parameters were made for."
    extra = dict(p, foo=jnp.zeros(1))
    with pytest.raises(ValueError) as e:
        lj.apply(extra, x, cell="lstm", norm=None)
    assert str(e.value) == "params do not match a 1-layer lstm stack (missing none, unexpected ['foo'])" + tail
    missing = {k: v for k, v in p.items() if k != "bias_hh_l0"}
    with pytest.raises(ValueError) as e:
        lj.apply(missing, x, cell="lstm", norm=None)
    assert str(e.value) == "params do not match a 1-layer lstm stack (missing ['bias_hh_l0'], unexpected none)" + tail


def test_a_parameter_of_the_wrong_shape_is_refused_with_both_shapes():
    p = dict(_params(1), weight_ih_l0=jnp.zeros((4 * H, I + 1)))
    with pytest.raises(ValueError) as e:
        lj.apply(p, jnp.zeros((T, B, I)), cell="lstm", norm=None)
    assert str(e.value) == (f"weight_ih_l0 has shape {(4 * H, I + 1)}, expected {(4 * H, I)} for input size {I} and "
                            f"hidden size {H}.")


@pytest.mark.parametrize("bidirectional", [False, True])
def test_a_state_of_the_wrong_shape_is_refused_with_the_stacks_layout(bidirectional):
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=jnp.float64, bidirectional=bidirectional)
    rows = 2 if bidirectional else 1
    bad = jnp.zeros((rows + 1, B, H))
    with pytest.raises(ValueError) as e:
        lj.apply(p, jnp.zeros((T, B, I)), bad, cell="rnn", norm=None)
    dims = "num_layers * 2, B, H" if bidirectional else "num_layers, B, H"
    assert str(e.value) == f"h0 must have shape ({dims}) = {(rows, B, H)}, got {(rows + 1, B, H)}."
