"""lnrnn.jax against lnrnn/reference.py, nineteenth pass: bidirectional names, vmap's folded forward and its
residuals, mutable=True without BatchNorm.

The judges: ``reference.lstm_forward`` in float64 over x for the forward direction and over x reversed in time
(then reversed back) for the backward one, with each direction's own weights (``*_l0_reverse``); the same
function per example for ``jax.vmap`` over x alone (parameters and state unmapped: the folded forward); central
differences of the reference's weighted output sum, entry by entry, per example for ``jax.vmap(jax.grad(...))``;
the module docstring's ``(y, state), stats = apply(..., mutable=True)`` with stats {} for a cell without
BatchNorm (T = 5, B = 4, I = 2, H = 3 as test_values314_jax; V = 2 examples)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn import reference as R  # noqa: E402
from test_values314_jax import B, H, I, T, _close, _lstm_rows, _np, _params  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

V = 2


def _ref_lstm(q, sfx, x):
    """reference.lstm_forward of a plain LSTM direction with the weights named *_{sfx}, zero state."""
    z = np.zeros((x.shape[1], H))
    G = 4 * H
    y, hn, cn, _ = R.lstm_forward(x, z, z, q[f"weight_ih_{sfx}"].T, q[f"weight_hh_{sfx}"].T,
                                  q[f"bias_ih_{sfx}"] + q[f"bias_hh_{sfx}"], np.ones(G), np.zeros(G), np.ones(G),
                                  np.zeros(G), np.ones(H), np.zeros(H), "none")
    return y, hn, cn


def test_bidirectional_lstm_is_the_reference_forward_and_reversed():
    p = lj.init(jax.random.PRNGKey(365), "lstm", None, I, H, dtype=jnp.float64, bidirectional=True)
    rng = np.random.default_rng(365)
    p = {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape)) for k, v in p.items()}
    assert {"weight_ih_l0_reverse", "bias_hh_l0_reverse"} <= set(p) and "weight_ih_l1" not in p
    x = rng.standard_normal((T, B, I))
    y, (hn, cn) = lj.apply(p, jnp.asarray(x), cell="lstm", norm=None)
    q = _np(p)
    yf, hf, cf = _ref_lstm(q, "l0", x)
    yb, hb, cb = _ref_lstm(q, "l0_reverse", x[::-1])
    assert y.shape == (T, B, 2 * H) and hn.shape == (2, B, H)
    _close(y, np.concatenate([yf, yb[::-1]], axis=2))
    _close(hn, np.stack([hf, hb]))
    _close(cn, np.stack([cf, cb]))


def test_vmap_over_x_only_is_the_reference_per_example():
    p = _params("lstm", "ln", seed=5)
    X = np.random.default_rng(5).standard_normal((V, T, B, I))
    z = np.zeros((B, H))
    ys, (hn, cn) = jax.vmap(lambda xv: lj.apply(p, xv, cell="lstm", norm="ln"))(jnp.asarray(X))
    assert ys.shape == (V, T, B, H)
    for v in range(V):
        y, h, c = _lstm_rows(p, X[v], z, z, [T] * B, "ln")
        _close(ys[v], y)
        _close(hn[v], h[None])
        _close(cn[v], c[None])


def test_vmap_of_grad_is_central_differences_of_the_reference_per_example():
    p = _params("lstm", "ln", seed=6)
    rng = np.random.default_rng(6)
    X = rng.standard_normal((V, T, B, I))
    W = rng.standard_normal((T, B, H))
    z = np.zeros((B, H))

    def loss(xv):
        return jnp.sum(lj.apply(p, xv, cell="lstm", norm="ln")[0] * W)

    g = np.asarray(jax.vmap(jax.grad(loss))(jnp.asarray(X)))
    eps = 1e-6
    for v in range(V):
        want = np.zeros((T, B, I))
        for i in np.ndindex(T, B, I):
            hi, lo = X[v].copy(), X[v].copy()
            hi[i] += eps
            lo[i] -= eps
            want[i] = (np.sum(_lstm_rows(p, hi, z, z, [T] * B, "ln")[0] * W)
                       - np.sum(_lstm_rows(p, lo, z, z, [T] * B, "ln")[0] * W)) / (2 * eps)
        np.testing.assert_allclose(g[v], want, rtol=0, atol=1e-7)


def test_mutable_ln_lstm_returns_the_reference_outputs_and_empty_stats():
    p = _params("lstm", "ln", seed=7)
    x = np.random.default_rng(7).standard_normal((T, B, I))
    out = lj.apply(p, jnp.asarray(x), cell="lstm", norm="ln", mutable=True)
    assert isinstance(out, tuple) and len(out) == 2
    (y, (hn, cn)), stats = out
    assert stats == {}
    z = np.zeros((B, H))
    yr, hr, cr = _lstm_rows(p, x, z, z, [T] * B, "ln")
    _close(y, yr)
    _close(hn, hr[None])
    _close(cn, cr[None])
