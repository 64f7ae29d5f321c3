"""lnrnn.jax against an LSTM and a tanh RNN written here in jax.numpy under lax.scan (torch.nn.LSTM's and
nn.RNN's equations, gates [i|f|g|o]): norm=None is the plain cell (values, gradients, jax.test_util.check_grads on
float64, the parameter names torch's state_dict has); jax.vmap over examples with shared parameters and rows of
their own lengths (each row's final state after its own last step); init's defaults (the forget block of
bias_ih at 1, everything else of a plain cell's biases at 0) and init_stats' (one row, means 0, variances 1,
widths 4H and H); an export file read by load_export running as the model it came from; and the refusals word for
word: float16, a state with the wrong count of arrays."""
import os
from types import SimpleNamespace

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.interop.export import export_weights  # noqa: E402
from lnrnn.model.models import build_model, head_config  # noqa: E402
from test_values86_jax import plain_stack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 4, 3, 2, 3


def stack(cell, p, x, h0, c0, lengths=None):
    """x (T,B,I), h0/c0 (L,B,H) -> y (T,B,H), h_n, c_n (L,B,H): test_values86_jax's stack, LSTM or tanh RNN."""
    return plain_stack(p, x, h0, c0, lengths, cell)


def _params(cell, L, seed=0):
    p = lj.init(jax.random.key(seed), cell, None, I, H, num_layers=L, dtype=jnp.float64)
    r = np.random.default_rng(seed + 1)                           # bias_hh and every block not zero
    return {k: jnp.asarray(np.asarray(v) + 0.3 * r.standard_normal(v.shape)) for k, v in p.items()}


def _torch_names(cell, L):
    G = 4 * H if cell == "lstm" else H
    out = {}
    for k in range(L):
        out.update({f"weight_ih_l{k}": (G, I if k == 0 else H), f"weight_hh_l{k}": (G, H),
                    f"bias_ih_l{k}": (G,), f"bias_hh_l{k}": (G,)})
    return out


def test_float16_is_refused_in_one_sentence():
    msg = ("lnrnn.jax runs float32 or float64 only, got float16: cast x, the state and the parameters to float32 "
           "(or float64).")
    with pytest.raises(TypeError) as e:
        lj.init(jax.random.key(0), "lstm", None, I, H, dtype=jnp.float16)
    assert str(e.value) == msg
    p = lj.init(jax.random.key(0), "lstm", None, I, H)
    with pytest.raises(TypeError) as e:
        lj.apply(p, jnp.zeros((T, B, I), jnp.float16), cell="lstm", norm=None)
    assert str(e.value) == msg


@pytest.mark.parametrize("cell,state,what,n", [("lstm", 1, "(h0, c0)", "1 array"), ("lstm", 3, "(h0, c0)", "3 arrays"),
                                               ("rnn", 2, "h0", "2 arrays")])
def test_a_state_with_the_wrong_count_of_arrays_is_refused_counting_them(cell, state, what, n):
    p = lj.init(jax.random.key(0), cell, None, I, H, dtype=jnp.float64)
    parts = tuple(jnp.zeros((1, B, H)) for _ in range(state))
    with pytest.raises(ValueError) as e:
        lj.apply(p, jnp.zeros((T, B, I)), parts, cell=cell, norm=None)
    assert str(e.value) == f"a {cell} stack's state is {what}, got {n}."


def test_init_defaults_put_the_forget_block_at_one_and_the_rest_at_zero():
    p = lj.init(jax.random.key(1), "lstm", None, I, H, num_layers=2, dtype=jnp.float64)
    want = np.zeros(4 * H)
    want[H:2 * H] = 1.0                                           # gates [i|f|g|o]
    for k in range(2):
        np.testing.assert_array_equal(p[f"bias_ih_l{k}"], want)
        np.testing.assert_array_equal(p[f"bias_hh_l{k}"], np.zeros(4 * H))
    q = lj.init(jax.random.key(1), "lstm", None, I, H, dtype=jnp.float64, forget_bias=0.25)
    np.testing.assert_array_equal(q["bias_ih_l0"], want / 4)


def test_init_stats_defaults_to_one_row_of_zero_means_and_unit_variances():
    s = lj.init_stats("lstm", "bn", H)
    want = {}
    for part, width in (("ih", 4 * H), ("hh", 4 * H), ("cell", H)):
        want[f"norm_{part}_running_mean_l0"] = (np.zeros((1, width)), np.float32)
        want[f"norm_{part}_running_var_l0"] = (np.ones((1, width)), np.float32)
    assert set(s) == set(want)
    for k, (a, dt) in want.items():
        assert s[k].dtype == dt
        np.testing.assert_array_equal(s[k], a)


def test_an_export_loads_and_runs_as_the_model_does(tmp_path):
    L = 2
    model = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=L,
                             dtype="float64", forget_bias=1.0, head=head_config("ce", 4)), seed=5)
    rng = np.random.default_rng(128)
    for v in model.params.values():
        v[...] = rng.uniform(-0.8, 0.8, v.shape)
    path = tmp_path / "w.safetensors"
    export_weights(SimpleNamespace(model=model, step=3), path)
    params, stats, config = lj.load_export(str(path))
    assert set(params) == set(_torch_names("lstm", L)) and stats == {}
    assert config["cell"] == "lstm" and config["num_layers"] == L
    x = rng.normal(size=(5, B, I))
    y, (h, c) = lj.apply(params, jnp.asarray(x), cell="lstm", norm=None)
    want = model.last_outputs(x)                                 # (B,H): the top layer's last hidden state
    np.testing.assert_allclose(y[-1], want, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h[-1], want, rtol=1e-10, atol=1e-12)


def test_vmap_over_examples_with_lengths_is_each_rows_own_run():
    V, L = 2, 1
    p = _params("lstm", L, seed=4)
    r = np.random.default_rng(8)
    xs = jnp.asarray(r.standard_normal((V, T, B, I)))
    lengths = jnp.array([T, 1, 2])
    z = jnp.zeros((L, B, H))

    def ours(x):
        y, (h, c) = lj.apply(p, x, lengths=lengths, cell="lstm", norm=None)
        return y, h, c

    got = jax.jit(jax.vmap(ours))(xs)
    for v in range(V):
        exp = stack("lstm", p, xs[v], z, z, lengths)
        for a, e in zip(got, exp):
            np.testing.assert_allclose(a[v], e, rtol=1e-10, atol=1e-12)
    # each row's h_n is its y at its own last step (by definition, from the reference alone)
    y0, h0, _ = stack("lstm", p, xs[0], z, z, lengths)
    np.testing.assert_allclose(got[1][0, 0], np.asarray(y0)[np.asarray(lengths) - 1, np.arange(B)], rtol=1e-10)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_norm_none_is_the_plain_cell_in_names_values_and_gradients(cell):
    L = 2
    p = _params(cell, L)
    assert {k: tuple(v.shape) for k, v in p.items()} == _torch_names(cell, L)
    r = np.random.default_rng(3)
    x = jnp.asarray(r.standard_normal((T, B, I)))
    h0 = jnp.asarray(0.5 * r.standard_normal((L, B, H)))
    c0 = jnp.asarray(0.5 * r.standard_normal((L, B, H))) if cell == "lstm" else jnp.zeros((L, B, H))
    w = jnp.asarray(r.standard_normal((T, B, H)))

    def ours(p, x, h0):
        if cell == "lstm":
            y, (h, c) = lj.apply(p, x, (h0, c0), cell=cell, norm=None)
        else:
            y, h = lj.apply(p, x, h0, cell=cell, norm=None)
        return jnp.sum(y * w) + jnp.sum(h * h)

    def ref(p, x, h0):
        y, h, _ = stack(cell, p, x, h0, c0)
        return jnp.sum(y * w) + jnp.sum(h * h)

    got = jax.jit(jax.value_and_grad(ours, argnums=(0, 1, 2)))(p, x, h0)
    exp = jax.value_and_grad(ref, argnums=(0, 1, 2))(p, x, h0)
    for a, e in zip(jax.tree.leaves(got), jax.tree.leaves(exp)):
        np.testing.assert_allclose(a, e, rtol=1e-9, atol=1e-11)
    check_grads(lambda x: ours(p, x, h0), (x,), order=1, modes=["rev"], eps=1e-6, atol=1e-6, rtol=1e-6)
