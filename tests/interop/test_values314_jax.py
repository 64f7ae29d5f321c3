"""lnrnn.jax against lnrnn/reference.py, seventeenth pass: states, final states, BatchNorm statistics, vmap.

The judges: ``reference.lstm_forward`` / ``rnn_forward`` / ``bn_rnn_forward`` in float64 (each row of a ragged
batch run alone over its own steps: its final state is the one after its last step), the running statistics
grown from one row to T by repeating it and updated by the reference's momentum formula after one and two
training calls, then read back in inference; the same functions per example under ``jax.vmap`` with lengths
1 and T in one batch; ``jax.test_util.check_grads`` with the state given; the refusals of the params dict, the
state's count, shapes and dtype word for word (I = 2, H = 3, B = 4, T = 5: every size apart)."""
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
from test_values132_torch import _raises  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 5, 4, 2, 3
LENGTHS = [5, 1, 3, 5]  # lengths 1 and T in one batch


def _params(cell, norm, seed=0, dtype=jnp.float64):
    p = lj.init(jax.random.PRNGKey(seed), cell, norm, I, H, dtype=dtype)
    rng = np.random.default_rng(seed + 314)  # every bias, gain and LN bias away from 0 and 1
    return {k: v + jnp.asarray(rng.uniform(-0.4, 0.4, v.shape), dtype) for k, v in p.items()}


def _np(p):
    return {k: np.asarray(v, np.float64) for k, v in p.items()}


def _lstm_rows(p, x, h0, c0, lengths, norm):
    """reference.lstm_forward row by row over its own steps -> y (zero past a length), h_n, c_n (B,H)."""
    q = _np(p)
    W = (q["weight_ih_l0"].T, q["weight_hh_l0"].T, q["bias_ih_l0"] + q["bias_hh_l0"])
    ln = (tuple(q[f"norm_{a}_{b}_l0"] for a in ("ih", "hh", "cell") for b in ("weight", "bias"))
          if norm == "ln" else (None,) * 6)
    y = np.zeros((x.shape[0], x.shape[1], H))
    hn, cn = np.array(h0, dtype=np.float64), np.array(c0, dtype=np.float64)
    for b, n in enumerate(lengths):
        yb, hb, cb, _ = R.lstm_forward(np.asarray(x[:n, b:b + 1], np.float64), hn[b:b + 1], cn[b:b + 1], *W, *ln,
                                       norm or "none")
        y[:n, b], hn[b], cn[b] = yb[:, 0], hb[0], cb[0]
    return y, hn, cn


def _rnn_rows(p, x, h0, lengths):
    q = _np(p)
    y = np.zeros((x.shape[0], x.shape[1], H))
    hn = np.array(h0, dtype=np.float64)
    for b, n in enumerate(lengths):
        yb, hb, _ = R.rnn_forward(x[:n, b:b + 1], hn[b:b + 1], q["weight_ih_l0"].T, q["weight_hh_l0"].T,
                                  q["bias_ih_l0"] + q["bias_hh_l0"], None, "none")
        y[:n, b], hn[b] = yb[:, 0], hb[0]
    return y, hn


def _data(seed):
    rng = np.random.default_rng(seed)
    return rng.standard_normal((T, B, I)), rng.uniform(-0.8, 0.8, (1, B, H)), rng.uniform(-0.8, 0.8, (1, B, H))


def _close(a, b, atol=1e-11):
    np.testing.assert_allclose(np.asarray(a), b, rtol=0, atol=atol)


@pytest.mark.parametrize("norm", ["ln", None])
def test_lstm_with_state_given_final_states_at_each_rows_own_last_step(norm):
    """(h0, c0) given away from zero: y, h_n and c_n of rows of lengths 5, 1, 3, 5 as the reference per row."""
    p = _params("lstm", norm)
    x, h0, c0 = _data(1)
    y, (hn, cn) = lj.apply(p, jnp.asarray(x), (jnp.asarray(h0), jnp.asarray(c0)), jnp.asarray(LENGTHS),
                           cell="lstm", norm=norm)
    y_ref, h_ref, c_ref = _lstm_rows(p, x, h0[0], c0[0], LENGTHS, norm)
    assert y.shape == (T, B, H) and hn.shape == cn.shape == (1, B, H)
    _close(y, y_ref)
    _close(hn[0], h_ref)
    _close(cn[0], c_ref)


def test_plain_rnn_with_state_given_and_its_gradients():
    p = _params("rnn", None)
    x, h0, _ = _data(2)
    y, hn = lj.apply(p, jnp.asarray(x), jnp.asarray(h0), jnp.asarray(LENGTHS), cell="rnn", norm=None)
    y_ref, h_ref = _rnn_rows(p, x, h0[0], LENGTHS)
    _close(y, y_ref)
    _close(hn[0], h_ref)
    w = jnp.asarray(np.random.default_rng(3).standard_normal((T, B, H)))

    def loss(x, h0, p):
        y, hn = lj.apply(p, x, h0, jnp.asarray(LENGTHS), cell="rnn", norm=None)
        return jnp.sum(y * w) + jnp.sum(jnp.sin(hn))

    check_grads(loss, (jnp.asarray(x), jnp.asarray(h0), p), order=1, modes=["rev"], atol=1e-6, rtol=1e-6)


def test_float32_lstm_without_state_starts_from_float32_zeros():
    p = _params("lstm", "ln", dtype=jnp.float32)
    x, _, _ = _data(4)
    y, (hn, cn) = lj.apply(p, jnp.asarray(x, jnp.float32), cell="lstm", norm="ln")
    assert y.dtype == hn.dtype == cn.dtype == jnp.float32
    zeros = np.zeros((B, H))
    y_ref, h_ref, c_ref = _lstm_rows(p, np.asarray(x, np.float32), zeros, zeros, [T] * B, "ln")
    _close(y, y_ref, 2e-5)
    _close(hn[0], h_ref, 2e-5)
    _close(cn[0], c_ref, 2e-5)


def test_batch_first_swaps_only_time_and_batch():
    """x given (B, T, I) = (4, 5, 2): the result is the time-major run's y with its first two axes swapped."""
    p = _params("lstm", "ln")
    x, h0, c0 = _data(5)
    y, (hn, _) = lj.apply(p, jnp.asarray(np.swapaxes(x, 0, 1)), (jnp.asarray(h0), jnp.asarray(c0)),
                          jnp.asarray(LENGTHS), cell="lstm", norm="ln", batch_first=True)
    y_ref, h_ref, _ = _lstm_rows(p, x, h0[0], c0[0], LENGTHS, "ln")
    assert y.shape == (B, T, H)
    _close(y, np.swapaxes(y_ref, 0, 1))
    _close(hn[0], h_ref)


def test_bn_rnn_statistics_after_one_and_two_training_calls_then_inference():
    """Statistics of one row (zeros, ones) grown to T rows, updated by the reference's momentum formula over
    the active rows at each step: after call 1 (all rows), after call 2 (lengths 5, 1, 3, 5), then read back
    with training=False; y and h_n of each call as reference.bn_rnn_forward."""
    p = _params("rnn", "bn")
    q = _np(p)
    W = (q["weight_ih_l0"].T, q["weight_hh_l0"].T, q["bias_ih_l0"] + q["bias_hh_l0"], q["norm_ih_weight_l0"],
         q["norm_hh_weight_l0"])
    stats = lj.init_stats("rnn", "bn", H, 1, 1, dtype=jnp.float64)
    keys = ["norm_ih_running_mean_l0", "norm_ih_running_var_l0", "norm_hh_running_mean_l0", "norm_hh_running_var_l0"]
    assert sorted(stats) == sorted(keys) and all(v.shape == (1, H) for v in stats.values())
    ref = [np.zeros((T, H)), np.ones((T, H)), np.zeros((T, H)), np.ones((T, H))]  # rm x, rv x, rm h, rv h
    for call, lengths in enumerate([None, LENGTHS]):
        x, h0, _ = _data(10 + call)
        (y, hn), stats = lj.apply(p, jnp.asarray(x), jnp.asarray(h0), None if lengths is None else jnp.asarray(lengths),
                                  cell="rnn", norm="bn", stats=stats, mutable=True)
        y_ref, _, _ = R.bn_rnn_forward(x, h0[0], *W, *ref, True,
                                       lengths=None if lengths is None else np.asarray(lengths))
        n = lengths or [T] * B
        mask = (np.arange(T)[:, None] < np.asarray(n)[None, :])[:, :, None]
        _close(y, np.where(mask, y_ref, 0.0))
        _close(hn[0], y_ref[np.asarray(n) - 1, np.arange(B)])
        assert sorted(stats) == sorted(keys)
        for k, r in zip(keys, ref):
            assert stats[k].shape == (T, H)
            _close(stats[k], r)
    x, h0, _ = _data(12)
    y, hn = lj.apply(p, jnp.asarray(x), jnp.asarray(h0), cell="rnn", norm="bn", stats=stats, training=False)
    y_ref, h_ref, _ = R.bn_rnn_forward(x, h0[0], *W, *ref, False)
    _close(y, y_ref)
    _close(hn[0], h_ref)


def test_bn_rnn_first_update_by_the_momentum_formula_written_out():
    """One call of T = 1, B = 4 from (0, 1): rm = m * mean, rv = (1 - m) + m * var * B / (B - 1) of x Wx."""
    from lnrnn.config import BN_MOMENTUM as m
    p = _params("rnn", "bn")
    x = np.random.default_rng(20).standard_normal((1, B, I))
    stats = lj.init_stats("rnn", "bn", H, 1, 1, dtype=jnp.float64)
    _, stats = lj.apply(p, jnp.asarray(x), cell="rnn", norm="bn", stats=stats, mutable=True)
    xw = x[0] @ np.asarray(p["weight_ih_l0"]).T
    _close(stats["norm_ih_running_mean_l0"][0], m * xw.mean(0))
    _close(stats["norm_ih_running_var_l0"][0], (1 - m) + m * xw.var(0) * B / (B - 1))
    _close(stats["norm_hh_running_mean_l0"][0], np.zeros(H))  # h0 = 0: h Wh is zero in every row
    _close(stats["norm_hh_running_var_l0"][0], np.full(H, 1 - m))


def test_vmap_of_bn_rnn_keeps_each_examples_lengths():
    """vmap over 2 examples of a BN-RNN with lengths 5, 1, 3, 5: each as reference.bn_rnn_forward with them."""
    p = _params("rnn", "bn")
    q = _np(p)
    W = (q["weight_ih_l0"].T, q["weight_hh_l0"].T, q["bias_ih_l0"] + q["bias_hh_l0"], q["norm_ih_weight_l0"],
         q["norm_hh_weight_l0"])
    xs = np.stack([_data(30 + v)[0] for v in range(2)])
    lens = jnp.asarray(LENGTHS)
    ys, hs = jax.vmap(lambda x: lj.apply(p, x, None, lens, cell="rnn", norm="bn"))(jnp.asarray(xs))
    mask = (np.arange(T)[:, None] < np.asarray(LENGTHS)[None, :])[:, :, None]
    for v in range(2):
        stats = [np.zeros((T, H)), np.ones((T, H)), np.zeros((T, H)), np.ones((T, H))]
        y_ref, _, _ = R.bn_rnn_forward(xs[v], np.zeros((B, H)), *W, *stats, True, lengths=np.asarray(LENGTHS))
        _close(ys[v], np.where(mask, y_ref, 0.0))
        _close(hs[v, 0], y_ref[np.asarray(LENGTHS) - 1, np.arange(B)])


def test_vmap_of_ln_lstm_final_states_at_each_rows_own_last_step():
    p = _params("lstm", "ln")
    xs = np.stack([_data(40 + v)[0] for v in range(3)])
    lens = jnp.asarray(LENGTHS)
    ys, (hs, cs) = jax.vmap(lambda x: lj.apply(p, x, None, lens, cell="lstm", norm="ln"))(jnp.asarray(xs))
    zeros = np.zeros((B, H))
    for v in range(3):
        y_ref, h_ref, c_ref = _lstm_rows(p, xs[v], zeros, zeros, LENGTHS, "ln")
        _close(ys[v], y_ref)
        _close(hs[v, 0], h_ref)
        _close(cs[v, 0], c_ref)


# ---- refusals word for word ----
def test_params_without_weight_ih_l0_refused():
    p = _params("lstm", "ln")
    q = {k: v for k, v in p.items() if k != "weight_ih_l0"}
    x = jnp.zeros((T, B, I))
    _raises(ValueError, "params must be the dict lnrnn.jax.init returns (it holds weight_ih_l0, ...).",
            lambda: lj.apply(q, x, cell="lstm", norm="ln"))


def test_a_stray_second_layer_recurrent_weight_named_against_one_layer():
    p = dict(_params("rnn", None), weight_hh_l1=jnp.zeros((H, H)))
    _raises(ValueError, "params do not match a 1-layer rnn stack (missing none, unexpected ['weight_hh_l1']): "
                        "pass the cell and norm the parameters were made for.",
            lambda: lj.apply(p, jnp.zeros((T, B, I)), cell="rnn", norm=None))


def test_state_counts_refused_with_singular_and_plural():
    x = jnp.zeros((T, B, I))
    s = jnp.zeros((1, B, H))
    lstm, rnn = _params("lstm", "ln"), _params("rnn", None)
    _raises(ValueError, "a lstm stack's state is (h0, c0), got 1 array.",
            lambda: lj.apply(lstm, x, (s,), cell="lstm", norm="ln"))
    _raises(ValueError, "a lstm stack's state is (h0, c0), got 3 arrays.",
            lambda: lj.apply(lstm, x, (s, s, s), cell="lstm", norm="ln"))
    _raises(ValueError, "a rnn stack's state is h0, got 0 arrays.",
            lambda: lj.apply(rnn, x, (), cell="rnn", norm=None))
    _raises(ValueError, "a rnn stack's state is h0, got 2 arrays.",
            lambda: lj.apply(rnn, x, (s, s), cell="rnn", norm=None))


def test_state_shapes_refused_naming_the_array_and_the_layout():
    x = jnp.zeros((T, B, I))
    good, swapped = jnp.zeros((1, B, H)), jnp.zeros((1, H, B))
    lstm = _params("lstm", "ln")
    _raises(ValueError, "c0 must have shape (num_layers, B, H) = (1, 4, 3), got (1, 3, 4).",
            lambda: lj.apply(lstm, x, (good, swapped), cell="lstm", norm="ln"))
    _raises(ValueError, "h0 must have shape (num_layers, B, H) = (1, 4, 3), got (1, 3, 4).",
            lambda: lj.apply(lstm, x, (swapped, good), cell="lstm", norm="ln"))
    bi = lj.init(jax.random.PRNGKey(1), "rnn", None, I, H, bidirectional=True, dtype=jnp.float64)
    _raises(ValueError, "h0 must have shape (num_layers * 2, B, H) = (2, 4, 3), got (1, 4, 3).",
            lambda: lj.apply(bi, x, good, cell="rnn", norm=None))


def test_state_of_another_dtype_refused():
    x = jnp.zeros((T, B, I))
    lstm = _params("lstm", "ln")
    h, c32 = jnp.zeros((1, B, H)), jnp.zeros((1, B, H), jnp.float32)
    _raises(TypeError, "c0 is float32 but x is float64: pass x, the state and the parameters in one dtype.",
            lambda: lj.apply(lstm, x, (h, c32), cell="lstm", norm="ln"))
