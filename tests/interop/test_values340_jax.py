"""lnrnn.jax against lnrnn/reference.py and torch, eighteenth pass: names, float32 without 64-bit types, vmap, refusals.

The judges: ``torch.nn.LSTM``'s state_dict (names, order, shapes, one and two directions); the BatchNorm statistics
of an lnrnn RecurrentStack read back by name; ``reference.bn_rnn_forward`` in float64 differentiated entry by entry
by central differences, against the gradients of a float32 BN-RNN run with 64-bit types off (its float64 fold
residual and int64 lengths then travel as uint32 pairs); ``reference.rnn_forward`` per example under
``jax.vmap(jax.grad(...))`` in float32; ``reference.lstm_forward`` row by row (lengths 0, 1 and T in one batch)
under two nested ``jax.vmap``; ``jax.test_util.check_grads`` in float64 with lengths 0, 1 and T; the running
statistics after one and two training calls by the momentum formula; the refusals (state and statistics dtypes,
float and out-of-range lengths, float64 without 64-bit JAX) word for word (I = 2, H = 3, B = 4, T = 5)."""
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
from lnrnn.model.layers import RecurrentStack  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values314_jax import B, H, I, T, _close, _lstm_rows, _np, _params  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files


def _lstm_rows0(p, x, h0, c0, lengths, norm):
    """_lstm_rows where a row of length 0 keeps its initial state and reads zero everywhere."""
    lengths = list(lengths)
    y, hn, cn = _lstm_rows(p, x, h0, c0, [n or 1 for n in lengths], norm)
    for b, n in enumerate(lengths):
        if n == 0:
            y[:, b], hn[b], cn[b] = 0.0, h0[b], c0[b]
    return y, hn, cn


def _central(f, q, eps=1e-6):
    """{name: d f / d q[name]} by central differences, entry by entry (f of a dict of float64 arrays)."""
    out = {}
    for k, v in q.items():
        g = np.zeros(v.shape)
        for i in np.ndindex(v.shape):
            hi = {**q, k: v.copy()}
            lo = {**q, k: v.copy()}
            hi[k][i] += eps
            lo[k][i] -= eps
            g[i] = (f(hi) - f(lo)) / (2 * eps)
        out[k] = g
    return out


# ---- names: torch.nn.LSTM's, and a stack's statistics ----
@pytest.mark.parametrize("bidirectional", [False, True])
def test_init_names_order_and_shapes_are_torch_lstms(bidirectional):
    torch = pytest.importorskip("torch")
    kw = {"bidirectional": True} if bidirectional else {}  # the default: one direction
    p = lj.init(jax.random.PRNGKey(0), "lstm", None, I, H, 2, **kw)
    sd = torch.nn.LSTM(I, H, num_layers=2, bidirectional=bidirectional).state_dict()
    assert list(p) == list(sd)
    assert [tuple(v.shape) for v in p.values()] == [tuple(v.shape) for v in sd.values()]


def test_params_from_a_bn_stack_carry_its_statistics_by_name():
    st = RecurrentStack("rnn", "bn", I, H, num_layers=2, dtype=np.float64, seed=3, max_steps=T)
    rng = np.random.default_rng(40)
    for layer in st.layers:
        for v in layer.buffers.values():
            v += rng.uniform(0.1, 0.5, v.shape)
    params, stats = lj.params_from_stack(st)
    # rmx: norm_ih_running_mean, rvh: norm_hh_running_var, ... of layer k
    want = {f"norm_{s}_running_{m}_l{k}": st.layers[k].buffers[("rm" if m == "mean" else "rv") + s[0].replace("i", "x")]
            for k in range(2) for s in ("ih", "hh") for m in ("mean", "var")}
    assert sorted(stats) == sorted(want)
    for n, v in want.items():
        np.testing.assert_array_equal(np.asarray(stats[n]), v, err_msg=n)
    assert sorted(params) == sorted(f"{a}_l{k}" for k in range(2) for a in (
        "weight_ih", "weight_hh", "bias_ih", "bias_hh", "norm_ih_weight", "norm_hh_weight"))


# ---- float32 with 64-bit types off against the float64 reference ----
BN_LENGTHS = [5, 2, 5, 3]  # two running rows at every step (one row alone has no variance)


def _bn_rnn_ref(q, x, w, lengths):
    """sum(w * y) of reference.bn_rnn_forward (training, fresh statistics of T rows), padded steps masked."""
    y, _, _ = R.bn_rnn_forward(x, np.zeros((x.shape[1], H)), q["weight_ih_l0"].T, q["weight_hh_l0"].T,
                               q["bias_ih_l0"] + q["bias_hh_l0"], q["norm_ih_weight_l0"], q["norm_hh_weight_l0"],
                               np.zeros((T, H)), np.ones((T, H)), np.zeros((T, H)), np.ones((T, H)), True,
                               lengths=np.asarray(lengths))
    mask = (np.arange(T)[:, None] < np.asarray(lengths)[None, :])[:, :, None]
    return y * mask, float(np.sum(w * y * mask))


def test_float32_bn_rnn_without_x64_against_the_float64_reference():
    rng = np.random.default_rng(341)
    p64 = _params("rnn", "bn", seed=3)
    p = {k: np.asarray(v, np.float32) for k, v in p64.items()}
    x = rng.standard_normal((T, B, I)).astype(np.float32)
    w = rng.standard_normal((T, B, H)).astype(np.float32)

    def loss(p, x, w, lengths):
        return jnp.sum(w * lj.apply(p, x, None, lengths, "rnn", "bn")[0])

    with jax.enable_x64(False):  # float32 everywhere: the 8-byte residuals go as uint32 pairs
        args = jax.tree.map(jnp.asarray, (p, x, w)) + (jnp.asarray(np.array(BN_LENGTHS, np.int32)),)
        y32 = lj.apply(args[0], args[1], None, args[3], "rnn", "bn")[0]
        g32 = jax.jit(jax.grad(loss))(*args)
        assert {np.dtype(v.dtype) for v in g32.values()} == {np.dtype(np.float32)}
        assert y32.dtype == jnp.float32
    q = {k: v.astype(np.float64) for k, v in p.items()}
    x64, w64 = x.astype(np.float64), w.astype(np.float64)
    y_ref, _ = _bn_rnn_ref(q, x64, w64, BN_LENGTHS)
    np.testing.assert_allclose(np.asarray(y32), y_ref, rtol=0, atol=2e-5)
    want = _central(lambda q: _bn_rnn_ref(q, x64, w64, BN_LENGTHS)[1], q)
    for k in ("weight_ih_l0", "weight_hh_l0", "bias_hh_l0", "norm_ih_weight_l0", "norm_hh_weight_l0"):
        np.testing.assert_allclose(np.asarray(g32[k], np.float64), want[k], rtol=2e-3, atol=2e-4, err_msg=k)


# ---- vmap ----
def test_vmap_of_grad_in_float32_per_example_against_the_reference():
    """Two examples of a plain RNN in float32 (x64 on): each example's parameter gradients by central
    differences of reference.rnn_forward in float64, the results float32."""
    rng = np.random.default_rng(342)
    p = {k: jnp.asarray(np.asarray(v, np.float32)) for k, v in _params("rnn", None, seed=4).items()}
    xs = rng.standard_normal((2, T, B, I)).astype(np.float32)
    w = rng.standard_normal((T, B, H))

    def loss(p, x):
        return jnp.sum(jnp.asarray(w, jnp.float32) * lj.apply(p, x, cell="rnn", norm=None)[0])
    g = jax.vmap(jax.grad(loss), in_axes=(None, 0))(p, jnp.asarray(xs))
    assert {np.dtype(v.dtype) for v in g.values()} == {np.dtype(np.float32)}
    q = _np(p)
    for e in range(2):
        def ref(q, x=xs[e].astype(np.float64)):
            y, _, _ = R.rnn_forward(x, np.zeros((B, H)), q["weight_ih_l0"].T, q["weight_hh_l0"].T,
                                    q["bias_ih_l0"] + q["bias_hh_l0"], None, "none")
            return float(np.sum(w * y))
        want = _central(ref, q)
        for k in q:
            np.testing.assert_allclose(np.asarray(g[k][e], np.float64), want[k], rtol=1e-4, atol=1e-4,
                                       err_msg=f"{k} example {e}")


def test_nested_vmap_of_ln_lstm_with_lengths_0_1_and_T_against_the_reference_rows():
    """vmap over two leading axes (2, 3): each example's y, h_n and c_n as reference.lstm_forward row by row."""
    rng = np.random.default_rng(343)
    p = _params("lstm", "ln", seed=5)
    xs = rng.standard_normal((2, 3, T, B, I))
    h0 = rng.uniform(-0.8, 0.8, (2, 3, 1, B, H))
    c0 = rng.uniform(-0.8, 0.8, (2, 3, 1, B, H))
    lens = np.array([[[0, 1, 5, 3], [5, 5, 2, 1], [1, 0, 4, 5]],
                     [[5, 4, 0, 2], [3, 1, 5, 0], [5, 5, 5, 5]]])

    def f(x, h, c, n):
        return lj.apply(p, x, (h, c), n, cell="lstm", norm="ln")
    y, (hn, cn) = jax.vmap(jax.vmap(f))(*map(jnp.asarray, (xs, h0, c0, lens)))
    assert y.shape == (2, 3, T, B, H) and hn.shape == cn.shape == (2, 3, 1, B, H)
    for i, j in np.ndindex(2, 3):
        y_r, h_r, c_r = _lstm_rows0(p, xs[i, j], h0[i, j, 0], c0[i, j, 0], lens[i, j], "ln")
        _close(y[i, j], y_r)
        _close(hn[i, j, 0], h_r)
        _close(cn[i, j, 0], c_r)


# ---- gradients with lengths 0, 1 and T ----
def test_ln_lstm_lengths_0_1_and_T_forward_and_check_grads():
    rng = np.random.default_rng(344)
    p = _params("lstm", "ln", seed=6)
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.uniform(-0.8, 0.8, (1, B, H)), rng.uniform(-0.8, 0.8, (1, B, H))
    lengths = jnp.array([0, 1, 5, 3])
    wy, wh = rng.standard_normal((T, B, H)), rng.standard_normal((1, B, H))
    y, (hn, cn) = jax.jit(lambda p, x, h, c: lj.apply(p, x, (h, c), lengths, "lstm", "ln"))(p, x, h0, c0)
    y_r, h_r, c_r = _lstm_rows0(p, x, h0[0], c0[0], [0, 1, 5, 3], "ln")
    _close(y, y_r)
    _close(hn[0], h_r)
    _close(cn[0], c_r)

    def loss(x, p, h, c):
        y, (h_n, _) = lj.apply(p, x, (h, c), lengths, "lstm", "ln")
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)
    check_grads(loss, (jnp.asarray(x), p, jnp.asarray(h0), jnp.asarray(c0)), order=1, modes=["rev"], eps=1e-6)
    # the row of length 0: h0 reaches h_n unchanged, so its gradient is wh there and nothing else
    g_h0 = jax.grad(loss, argnums=2)(jnp.asarray(x), p, jnp.asarray(h0), jnp.asarray(c0))
    _close(g_h0[0, 0], wh[0, 0])


# ---- BatchNorm statistics after one and two training calls; non-BN cells have none ----
def test_mutable_statistics_by_the_momentum_formula_and_none_for_ln():
    rng = np.random.default_rng(345)
    p = _params("rnn", "bn", seed=7)
    q = _np(p)
    stats = lj.init_stats("rnn", "bn", H, 1, 1, dtype=np.float64)   # one row: grown to T by repeating it
    x1, x2 = rng.standard_normal((T, B, I)), rng.standard_normal((T, B, I))
    m = 0.1  # reference.BN_MOMENTUM
    # the first step's input statistics by hand: x1[0] W, its mean and unbiased variance over the 4 rows
    xw0 = x1[0] @ q["weight_ih_l0"].T
    (_, _), s1 = lj.apply(p, x1, cell="rnn", norm="bn", stats=stats, mutable=True)
    _close(s1["norm_ih_running_mean_l0"][0], m * xw0.mean(0))
    _close(s1["norm_ih_running_var_l0"][0], (1 - m) + m * xw0.var(0) * B / (B - 1))
    (_, _), s2 = lj.apply(p, x2, None, jnp.array(BN_LENGTHS), cell="rnn", norm="bn", stats=s1, mutable=True)
    rm = {k: np.zeros((T, H)) for k in ("x", "h")}
    rv = {k: np.ones((T, H)) for k in ("x", "h")}
    for x, n in ((x1, None), (x2, BN_LENGTHS)):
        R.bn_rnn_forward(x, np.zeros((B, H)), q["weight_ih_l0"].T, q["weight_hh_l0"].T,
                         q["bias_ih_l0"] + q["bias_hh_l0"], q["norm_ih_weight_l0"], q["norm_hh_weight_l0"],
                         rm["x"], rv["x"], rm["h"], rv["h"], True, lengths=n)
    for k, s in (("x", "ih"), ("h", "hh")):
        assert s2[f"norm_{s}_running_mean_l0"].shape == (T, H)
        _close(s2[f"norm_{s}_running_mean_l0"], rm[k])
        _close(s2[f"norm_{s}_running_var_l0"], rv[k])
    for cell, norm in (("lstm", "ln"), ("rnn", None)):
        pl = _params(cell, norm)
        out, st = lj.apply(pl, x1, cell=cell, norm=norm, mutable=True)
        assert type(st) is dict and st == {}


# ---- refusals word for word ----
def test_state_statistics_and_lengths_refusals_word_for_word():
    p = _params("lstm", "ln")
    x = np.zeros((T, B, I))
    h0, c0 = np.zeros((1, B, H)), np.zeros((1, B, H))
    _raises(TypeError, "c0 is float32 but x is float64: pass x, the state and the parameters in one dtype.",
            lambda: lj.apply(p, x, (h0, c0.astype(np.float32)), cell="lstm", norm="ln"))
    _raises(ValueError, "lengths must be 4 integers (one per sequence), got float64 (4,).",
            lambda: lj.apply(p, x, lengths=np.array([5.0, 1.0, 3.0, 5.0]), cell="lstm", norm="ln"))
    _raises(ValueError, "lengths must lie in [0, 5], got 0..6",
            lambda: lj.apply(p, x, lengths=np.array([0, 6, 3, 5]), cell="lstm", norm="ln"))
    _raises(ValueError, "lengths must lie in [0, 5], got -1..5",
            lambda: lj.apply(p, x, lengths=np.array([5, 1, -1, 5]), cell="lstm", norm="ln"))
    pb = _params("lstm", "bn")
    stats = lj.init_stats("lstm", "bn", H, 1, 1, dtype=np.float64)
    stats["norm_hh_running_var_l0"] = jnp.ones((1, 4 * H), jnp.float32)
    _raises(ValueError, "norm_hh_running_var_l0 must be a (steps, 12) float64 array, got float32 (1, 12).",
            lambda: lj.apply(pb, x, cell="lstm", norm="bn", stats=stats))


def test_float64_without_64_bit_jax_refused_word_for_word():
    with jax.enable_x64(False):
        _raises(TypeError, "float64 needs 64-bit JAX: call jax.config.update('jax_enable_x64', True) first, or "
                "use float32.", lambda: lj.init(jax.random.PRNGKey(0), "lstm", "ln", I, H, dtype=np.float64))
