"""lnrnn.jax (lnrnn/interop/jax.py) at its boundary and in its bookkeeping, checked by hand: init's bias halves
(torch.nn.LSTM's bias_ih + bias_hh, the forget bias once), init_stats's (steps, width) rows, every refusal a
user can trigger (zero sizes, skip stacks in params_from_stack and load_export, unknown parameter names, float
lengths, under jit too where no later check sees them, statistics of another width or dtype, an empty
batch), a bidirectional layer's backward half against the forward layer run by hand on each row's reversed
valid steps, and vmap's per-example input gradients against a loop of plain calls."""
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

jax.config.update("jax_enable_x64", True)

T, B, I, H = 4, 3, 2, 3


def test_init_refuses_zero_sizes():
    for sizes in ((0, H, 1), (I, 0, 1), (I, H, 0)):
        with pytest.raises(ValueError, match="must be a positive integer"):
            lj.init(jax.random.key(0), "lstm", None, *sizes)


def test_init_puts_the_forget_bias_in_bias_ih_once():
    p = lj.init(jax.random.key(1), "lstm", None, I, H, 2, dtype=np.float64, forget_bias=1.5)
    want = np.concatenate([np.zeros(H), np.full(H, 1.5), np.zeros(2 * H)])  # torch's gate order i, f, g, o
    for k in range(2):
        np.testing.assert_array_equal(p[f"bias_ih_l{k}"], want)
        np.testing.assert_array_equal(p[f"bias_hh_l{k}"], np.zeros(4 * H))


def test_init_stats_rows_are_steps_and_columns_are_widths():
    st = lj.init_stats("lstm", "bn", H, 2, 5, dtype=np.float64)
    assert len(st) == 2 * 6
    for name, v in st.items():
        width = H if "_cell_" in name else 4 * H  # the cell's BatchNorm is H wide, the gates' 4H
        assert v.shape == (5, width), name
        np.testing.assert_array_equal(v, np.zeros((5, width)) if "_mean_" in name else np.ones((5, width)))


def test_params_from_stack_refuses_a_stack_with_skip_connections():
    st = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, skip=True)
    with pytest.raises(ValueError, match="skip connections"):
        lj.params_from_stack(st)


def test_unknown_parameter_name_is_refused():
    p = lj.init(jax.random.key(2), "lstm", "ln", I, H, 1, dtype=np.float64)
    x = jnp.zeros((T, B, I), jnp.float64)
    with pytest.raises(ValueError, match=r"unexpected \['weight_ih_lx'\]"):
        lj.apply({**p, "weight_ih_lx": p["weight_ih_l0"]}, x, cell="lstm", norm="ln")


def test_float_lengths_and_empty_batch_are_refused():
    p = lj.init(jax.random.key(3), "lstm", "ln", I, H, 1, dtype=np.float64)
    x = jnp.ones((T, B, I), jnp.float64)
    with pytest.raises(ValueError, match="lengths must be 3 integers"):
        lj.apply(p, x, lengths=jnp.array([4.0, 2.0, 1.0]), cell="lstm", norm="ln")
    jitted = jax.jit(lambda p, x, lengths: lj.apply(p, x, lengths=lengths, cell="lstm", norm="ln"))
    with pytest.raises(ValueError, match="lengths must be 3 integers"):  # under jit only the binding checks
        jitted(p, x, jnp.array([4.0, 2.5, 1.0]))
    with pytest.raises(ValueError, match="at least one step and one sequence"):
        lj.apply(p, jnp.ones((T, 0, I), jnp.float64), cell="lstm", norm="ln")


def test_statistics_of_another_width_are_refused():
    p = lj.init(jax.random.key(4), "rnn", "bn", I, H, 1, dtype=np.float64)
    wide = lj.init_stats("rnn", "bn", H + 1, 1, T, dtype=np.float64)
    with pytest.raises(ValueError, match=r"must be a \(steps, 3\)"):
        lj.apply(p, jnp.ones((T, B, I), jnp.float64), cell="rnn", norm="bn", stats=wide, training=False)


def test_backward_half_is_the_layer_over_each_rows_reversed_valid_steps():
    """One bidirectional LN-LSTM layer, I != 2H: y[:L_b, b, H:] must be the forward layer with the _reverse
    parameters run on row b's first L_b steps reversed, its output reversed back; padded steps read zero."""
    p = lj.init(jax.random.key(5), "lstm", "ln", I, H, 1, dtype=np.float64, bidirectional=True)
    rng = np.random.default_rng(5)
    p = {k: v + jnp.asarray(rng.uniform(-0.2, 0.2, v.shape)) for k, v in p.items()}
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    lengths = np.array([4, 2, 3])
    y, _ = lj.apply(p, x, lengths=jnp.asarray(lengths), cell="lstm", norm="ln")
    y = np.asarray(y)
    rev = {k[:-len("_reverse")]: v for k, v in p.items() if k.endswith("_reverse")}
    fwd = {k: v for k, v in p.items() if not k.endswith("_reverse")}
    for b, L in enumerate(lengths):
        xb = np.asarray(x)[:L, b:b + 1][::-1]                        # (L,1,I) row b's valid steps reversed
        yb, _ = lj.apply(rev, jnp.asarray(xb.copy()), cell="lstm", norm="ln")
        np.testing.assert_allclose(y[:L, b, H:], np.asarray(yb)[::-1, 0], rtol=1e-12, atol=1e-14)
        yf, _ = lj.apply(fwd, x[:L, b:b + 1], cell="lstm", norm="ln")
        np.testing.assert_allclose(y[:L, b, :H], np.asarray(yf)[:, 0], rtol=1e-12, atol=1e-14)
        np.testing.assert_array_equal(y[L:, b], 0.0)


def test_vmapped_input_gradients_are_each_examples_own():
    """vmap over x of a folded (unmapped-parameter) LN-LSTM: each example's dL/dx equals its own plain call's."""
    p = lj.init(jax.random.key(6), "lstm", "ln", I, H, 1, dtype=np.float64)
    rng = np.random.default_rng(6)
    xs = jnp.asarray(rng.standard_normal((2, T, B, I)))
    w = jnp.asarray(rng.standard_normal((T, B, H)))

    def loss(x):
        y, _ = lj.apply(p, x, cell="lstm", norm="ln")
        return jnp.sum(w * y)

    got = np.asarray(jax.vmap(jax.grad(loss))(xs))
    for v in range(2):
        np.testing.assert_allclose(got[v], np.asarray(jax.grad(loss)(xs[v])), rtol=1e-12, atol=1e-14)
    assert not np.allclose(got[0], got[1])  # the examples differ, so a shared residual would show


def test_statistics_of_another_dtype_are_refused():
    p = lj.init(jax.random.key(7), "rnn", "bn", I, H, 1, dtype=np.float64)
    st32 = lj.init_stats("rnn", "bn", H, 1, T, dtype=np.float32)
    with pytest.raises(ValueError, match=r"must be a \(steps, 3\) float64 array, got float32"):
        lj.apply(p, jnp.ones((T, B, I), jnp.float64), cell="rnn", norm="bn", stats=st32, training=False)


def test_load_export_refuses_a_stack_with_skip_connections(tmp_path):
    from lnrnn.interop.export import write_safetensors
    p = lj.init(jax.random.key(8), "lstm", "ln", I, H, 1, dtype=np.float64)
    tensors = {"rnn." + k: np.asarray(v) for k, v in p.items()}
    write_safetensors(str(tmp_path / "s.safetensors"), tensors,
                      {"model_config": '{"cell": "lstm", "norm": "ln", "skip": true}'})
    with pytest.raises(ValueError, match="skip connections"):
        lj.load_export(tmp_path / "s.safetensors")
    write_safetensors(str(tmp_path / "n.safetensors"), tensors,
                      {"model_config": '{"cell": "lstm", "norm": "ln", "skip": false}'})
    p2, s2, config = lj.load_export(tmp_path / "n.safetensors")
    assert s2 == {} and config["skip"] is False
    for k in p:
        np.testing.assert_array_equal(p2[k], p[k])
