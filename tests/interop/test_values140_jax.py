"""lnrnn.jax's apply with its defaults (cell 'lstm', norm 'ln', as its signature documents) against the NumPy
reference LN-LSTM (lnrnn.reference.lstm_forward, gates [i|f|g|o]) run here layer by layer on the same weights,
and jax.test_util.check_grads of it on tiny float64 shapes; and the one-sentence messages of its input checks,
each naming the argument at fault and the shape or dtype it must have: c0 (not h0) of the wrong shape or dtype,
lengths of the wrong count (B of them, with T != B), a BN-LSTM gate statistic of the wrong width (4H), a
parameter of another dtype than x (the parameter's dtype first), stats given to a stack without BatchNorm in
training and in inference, and a missing statistic by the name init_stats gives it."""
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
from lnrnn import reference as R  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H, L = 4, 3, 2, 2, 2  # T != B: a count of lengths checked against T would pass wrong ones


def _params(cell="lstm", norm="ln", dtype=np.float64, seed=0):
    p = lj.init(jax.random.key(seed), cell, norm, I, H, L, dtype=dtype)
    rng = np.random.default_rng(seed + 1)  # gains and biases off their initial 1 and 0
    return {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape), dtype) for k, v in p.items()}


def _data(dtype=np.float64, seed=2):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    h0, c0 = (rng.uniform(-0.5, 0.5, (L, B, H)).astype(dtype) for _ in range(2))
    return x, h0, c0


def _ln_lstm_reference(p, x, h0, c0):
    """The NumPy reference, layer after layer: y (T,B,H), h_n and c_n (L,B,H)."""
    P = {k: np.asarray(v) for k, v in p.items()}
    inp, hs, cs = x, [], []
    for k in range(L):
        y, h, c, _ = R.lstm_forward(inp, h0[k], c0[k], P[f"weight_ih_l{k}"].T, P[f"weight_hh_l{k}"].T,
                                    P[f"bias_ih_l{k}"] + P[f"bias_hh_l{k}"],
                                    P[f"norm_ih_weight_l{k}"], P[f"norm_ih_bias_l{k}"],
                                    P[f"norm_hh_weight_l{k}"], P[f"norm_hh_bias_l{k}"],
                                    P[f"norm_cell_weight_l{k}"], P[f"norm_cell_bias_l{k}"], "ln")
        inp = y
        hs.append(h)
        cs.append(c)
    return inp, np.stack(hs), np.stack(cs)


def test_apply_defaults_are_the_ln_lstm():
    p = _params()
    x, h0, c0 = _data()
    y, (h, c) = lj.apply(p, x, (h0, c0))  # cell and norm left at their defaults
    y_ref, h_ref, c_ref = _ln_lstm_reference(p, x, h0, c0)
    np.testing.assert_allclose(np.asarray(y), y_ref, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(np.asarray(h), h_ref, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(np.asarray(c), c_ref, rtol=1e-9, atol=1e-11)
    # the default state is zeros, as the reference from zeros
    y0, _ = lj.apply(p, x)
    np.testing.assert_allclose(np.asarray(y0), _ln_lstm_reference(p, x, 0 * h0, 0 * c0)[0], rtol=1e-9, atol=1e-11)


def test_check_grads_with_the_defaults():
    p = _params()
    x, h0, c0 = _data()

    def f(x, p):
        y, (h, c) = lj.apply(p, x, (jnp.asarray(h0), jnp.asarray(c0)))
        return jnp.sum(y * jnp.cos(y)) + jnp.sum(h * h)

    check_grads(f, (jnp.asarray(x), p), order=1, modes=["rev"], atol=1e-6, rtol=1e-6, eps=1e-6)


def test_state_messages_name_the_state_at_fault():
    p = _params()
    x, h0, c0 = _data()
    with pytest.raises(ValueError, match=r"^c0 must have shape \(num_layers, B, H\) = \(2, 3, 2\), got \(1, 3, 2\)\.$"):
        lj.apply(p, x, (h0, c0[:1]))
    with pytest.raises(ValueError, match=r"^h0 must have shape \(num_layers, B, H\) = \(2, 3, 2\), got \(2, 3, 1\)\.$"):
        lj.apply(p, x, (h0[:, :, :1], c0))
    with pytest.raises(TypeError, match=r"^c0 is float32 but x is float64"):
        lj.apply(p, x, (h0, c0.astype(np.float32)))


def test_lengths_message_asks_for_one_per_sequence():
    p = _params()
    x, _, _ = _data()
    with pytest.raises(ValueError, match=rf"^lengths must be {B} integers \(one per sequence\), got int64 \({T},\)\.$"):
        lj.apply(p, x, lengths=np.full(T, 2, np.int64))


def test_parameter_dtype_message_gives_the_parameters_dtype_then_xs():
    p = _params()
    x, _, _ = _data()
    p32 = dict(p, weight_hh_l1=p["weight_hh_l1"].astype(np.float32))
    with pytest.raises(TypeError, match=r"^weight_hh_l1 is float32 but x is float64: pass x, the state and the "):
        lj.apply(p32, x)


@pytest.mark.parametrize("training", [True, False])
def test_stats_given_to_a_stack_without_batchnorm_are_refused(training):
    p = _params()
    x, _, _ = _data()
    stats = lj.init_stats("lstm", "bn", H, L, T, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^a ln-lstm stack has no BatchNorm statistics, but stats were given\.$"):
        lj.apply(p, x, stats=stats, training=training)


def test_statistics_messages_name_the_statistic_and_its_width():
    p = _params("lstm", "bn")
    x, _, _ = _data()
    stats = lj.init_stats("lstm", "bn", H, L, T, dtype=np.float64)
    widths = {k: v.shape[1] for k, v in stats.items()}
    assert widths["norm_ih_running_mean_l1"] == 4 * H and widths["norm_cell_running_var_l0"] == H
    bad = dict(stats, norm_ih_running_mean_l1=stats["norm_ih_running_mean_l1"][:, :H])
    with pytest.raises(ValueError, match=rf"^norm_ih_running_mean_l1 must be a \(steps, {4 * H}\) float64 array, "
                                         rf"got float64 \({T}, {H}\)\.$"):
        lj.apply(p, x, stats=bad, cell="lstm", norm="bn", training=False)
    missing = {k: v for k, v in stats.items() if k != "norm_hh_running_var_l0"}
    with pytest.raises(ValueError, match=r"^stats lack norm_hh_running_var_l0: pass the dict lnrnn.jax.init_stats"):
        lj.apply(p, x, stats=missing, cell="lstm", norm="bn", training=False)
