"""lnrnn.jax's options, second pass: init's and params_from_stack's names and shapes of a bidirectional stack
written out here (l{k} and l{k}_reverse, layers above the first reading 2H); a bidirectional stack's initial states
(num_layers*2, B, H) with ragged lengths against test_values161_jax's lax.scan LN-LSTM (outputs, final states and
the gradients of every parameter, of x and of the states, float64); BatchNorm statistics grown to
exactly T rows by a training pass; refusals word for word: params of another norm (the missing names listed as
missing), a state in another dtype (each dtype named where it belongs)."""
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
from test_values161_jax import B, H, I, LENGTHS, T, _cell, _params, _x, ragged_stack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

LN = ("norm_ih_weight", "norm_ih_bias", "norm_hh_weight", "norm_hh_bias", "norm_cell_weight", "norm_cell_bias")


def _bidirectional_shapes(I_, H_, L, extras=()):
    out = {}
    for k in range(L):
        for sfx in (f"l{k}", f"l{k}_reverse"):
            out.update({f"weight_ih_{sfx}": (4 * H_, I_ if k == 0 else 2 * H_), f"weight_hh_{sfx}": (4 * H_, H_),
                        f"bias_ih_{sfx}": (4 * H_,), f"bias_hh_{sfx}": (4 * H_,)})
            out.update({f"{n}_{sfx}": (H_ if n.startswith("norm_cell") else 4 * H_,) for n in extras})
    return out


def test_init_names_a_bidirectional_stacks_directions():
    p = lj.init(jax.random.key(1), "lstm", "ln", 3, 2, 2, dtype=np.float64, bidirectional=True)
    assert {k: tuple(v.shape) for k, v in p.items()} == _bidirectional_shapes(3, 2, 2, LN)


def test_params_from_a_bidirectional_stack_name_its_directions_and_hold_its_weights():
    stack = RecurrentStack("lstm", "none", 3, 2, num_layers=2, dtype=np.float64, seed=4, bidirectional=True)
    params, stats = lj.params_from_stack(stack)
    assert stats == {}
    assert {k: tuple(v.shape) for k, v in params.items()} == _bidirectional_shapes(3, 2, 2)
    for j, sfx in enumerate(("l0", "l0_reverse", "l1", "l1_reverse")):
        np.testing.assert_array_equal(np.asarray(params[f"weight_ih_{sfx}"]), stack.layers[j].params["Wx"].T)
        np.testing.assert_array_equal(np.asarray(params[f"bias_ih_{sfx}"]), stack.layers[j].params["b"])


def _states(seed=241):
    rng = np.random.default_rng(seed)
    return tuple(jnp.asarray(rng.uniform(-0.5, 0.5, (2, B, H))) for _ in range(2))


def test_a_bidirectional_stacks_initial_states_and_gradients_with_ragged_lengths():
    p, x = _params(bidirectional=True, seed=3), _x(seed=9)
    h0, c0 = _states()
    y, (h, c) = lj.apply(p, x, (h0, c0), LENGTHS)
    ry, rh, rc = ragged_stack(_cell, p, x, 1, 2, LENGTHS, h0, c0)
    for a, b in ((y, ry), (h, rh), (c, rc)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=1e-12)

    def ours(p, x, h0, c0):
        y, (h, _) = lj.apply(p, x, (h0, c0), LENGTHS)
        return jnp.sum(y * jnp.cos(y)) + jnp.sum(h ** 3)

    def scan(p, x, h0, c0):
        y, h, _ = ragged_stack(_cell, p, x, 1, 2, LENGTHS, h0, c0)
        return jnp.sum(y * jnp.cos(y)) + jnp.sum(h ** 3)

    got = jax.grad(ours, argnums=(0, 1, 2, 3))(p, x, h0, c0)
    want = jax.grad(scan, argnums=(0, 1, 2, 3))(p, x, h0, c0)
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=0, atol=1e-10)


def test_training_grows_batchnorm_statistics_to_exactly_t_rows():
    p = _params(norm="bn", seed=5)
    stats = lj.init_stats("lstm", "bn", H, 1, 2, dtype=np.float64)
    assert all(v.shape[0] == 2 for v in stats.values())
    _, new = lj.apply(p, _x(seed=6), cell="lstm", norm="bn", stats=stats, mutable=True)
    widths = {"ih": 4 * H, "hh": 4 * H, "cell": H}
    assert {k: tuple(v.shape) for k, v in new.items()} == {
        f"norm_{w}_running_{s}_l0": (T, widths[w]) for w in ("ih", "hh", "cell") for s in ("mean", "var")}


def test_plain_params_passed_as_layer_normalized_ones_are_refused_listing_the_missing_names():
    p = lj.init(jax.random.key(0), "lstm", None, I, H, dtype=np.float64)
    with pytest.raises(ValueError) as e:
        lj.apply(p, _x(), cell="lstm", norm="ln")
    missing = sorted(f"{n}_l0" for n in LN)
    assert str(e.value) == (f"params do not match a 1-layer ln-lstm stack (missing {missing}, unexpected none): "
                            "pass the cell and norm the parameters were made for.")


def test_a_state_in_another_dtype_is_refused_naming_each_dtype_where_it_belongs():
    p, x = _params(), _x()
    h0 = jnp.zeros((1, B, H), jnp.float32)
    with pytest.raises(TypeError) as e:
        lj.apply(p, x, (h0, jnp.zeros((1, B, H))))
    assert str(e.value) == "h0 is float32 but x is float64: pass x, the state and the parameters in one dtype."
