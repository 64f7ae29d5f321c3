"""lnrnn.jax: lnrnn's cells as JAX functions (custom_vjp over pure_callback).

Its gradients are checked by finite differences (jax.test_util.check_grads, float64, every cell, two
layers, padded batches, initial states, h_n in the loss); its forward and backward must equal lnrnn's own
RecurrentStack on the same weights, and a plain LSTM a lax.scan LSTM written here; jit, vmap (folded into
the batch, per example, mapped parameters, per-example gradients, jacrev, nested) give what a loop of
plain calls gives. Without jax these tests skip, except where LNRNN_REQUIRE_EXTRAS=1 (CI): they fail."""
import os
import subprocess
import sys
import testpaths

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax  # CI installs the extras: a missing jax is a failure, not a skip
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from lnrnn.interop.export import PARAM_NAMES  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # float64 gradient checks; float32 tests turn it off where it matters

CELLS = list(cells.CELLS)
T, B, I, H = 5, 4, 2, 3  # I = 2: the narrow input the kernels fold into their time loop (BN: a float64 residual)


def _args(name, dtype=np.float64, seed=0, I=I):
    """(cell, norm), params moved off their initial values, x (T,B,I), state, lengths."""
    spec = cells.get(name)
    p = lj.init(jax.random.key(seed), spec.cell, spec.norm, I, H, 2, dtype=dtype)
    rng = np.random.default_rng(seed + 1)
    p = {k: v + jnp.asarray(rng.uniform(-0.2, 0.2, v.shape), dtype) for k, v in p.items()}
    x = jnp.asarray(rng.standard_normal((T, B, I)), dtype)
    state = tuple(jnp.asarray(rng.uniform(-0.5, 0.5, (2, B, H)), dtype) for _ in range(spec.nstate))
    # BN counts the running rows of each step: keep two at every step (one row has zero variance)
    lengths = jnp.array([5, 3, 5, 2] if spec.norm == "bn" else [5, 3, 0, 4])
    return (spec.cell, spec.norm), p, x, state, lengths


def _state_arg(spec, state):
    return state if spec.nstate == 2 else state[0]


@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("training", [True, False])
def test_check_grads_float64(name, training):
    """y and h_n in the loss, padded batch, initial states, two layers; BN in both modes."""
    spec = cells.get(name)
    if not training and spec.norm != "bn":
        pytest.skip("training only changes BatchNorm cells")
    (cell, norm), p, x, state, lengths = _args(name)
    stats = lj.init_stats(cell, norm, H, 2, T, dtype=np.float64) if spec.norm == "bn" else None
    if stats:
        rng = np.random.default_rng(7)
        stats = {k: v + jnp.asarray(rng.uniform(0.0, 0.5, v.shape)) for k, v in stats.items()}  # var > 0
    rng = np.random.default_rng(9)
    wy, wh = jnp.asarray(rng.standard_normal((T, B, H))), jnp.asarray(rng.standard_normal((2, B, H)))

    def loss(x, p, *st):
        y, s = lj.apply(p, x, _state_arg(spec, st), lengths, cell, norm, stats=stats, training=training)
        h_n = s[0] if spec.nstate == 2 else s
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    # eps 1e-6: LayerNorm over H = 3 features curves enough that 1e-4 steps miss by 3e-5 (relative)
    check_grads(loss, (x, p, *state), order=1, modes=["rev"], eps=1e-6)
    check_grads(jax.jit(loss), (x, p, *state), order=1, modes=["rev"], eps=1e-6)


def _stack(name, dtype=np.float64):
    spec = cells.get(name)
    st = RecurrentStack(spec.cell, spec.norm, I, H, num_layers=2, dtype=dtype, seed=3, max_steps=T)
    rng = np.random.default_rng(4)
    for layer in st.layers:
        for v in layer.params.values():
            v += rng.uniform(-0.2, 0.2, v.shape).astype(dtype)
    return st


@pytest.mark.parametrize("name", CELLS)
@pytest.mark.parametrize("masked", [False, True])
def test_forward_and_backward_equal_recurrent_stack(name, masked):
    spec = cells.get(name)
    st = _stack(name)
    params, stats = lj.params_from_stack(st)
    _, _, x, state, lengths = _args(name)
    lengths = lengths if masked else None
    mask = np.ones((T, B, 1)) if lengths is None else (np.arange(T)[:, None] < np.asarray(lengths))[:, :, None]
    dy = np.random.default_rng(5).standard_normal((T, B, H)) * mask

    def f(x, p, *s):
        (y, s), new = lj.apply(p, x, _state_arg(spec, s), lengths, spec.cell, spec.norm, stats=stats or None,
                               mutable=True)
        return y, (s, new)

    y, vjp, (s, new_stats) = jax.vjp(f, x, params, *state, has_aux=True)
    dx, dp, *dstate = vjp(jnp.asarray(dy))

    layer_states = [tuple(np.asarray(a[k]) for a in state) for k in range(2)]
    y_l, s_l = st.forward(np.asarray(x), layer_states, lengths=None if lengths is None else np.asarray(lengths))
    np.testing.assert_allclose(y, y_l * mask, rtol=1e-12, atol=1e-14)
    s = s if spec.nstate == 2 else (s,)
    for i in range(spec.nstate):
        np.testing.assert_allclose(s[i], np.stack([s_l[k][i] for k in range(2)]), rtol=1e-12, atol=1e-14)
    for n, v in lj.params_from_stack(st)[1].items():  # training updated the BN statistics as the stack's
        np.testing.assert_allclose(new_stats[n], v, rtol=1e-12, atol=1e-14)

    st.zero_grad()
    dx_l = st.backward(dy)
    np.testing.assert_allclose(dx, dx_l, rtol=1e-12, atol=1e-14)
    for i in range(spec.nstate):
        np.testing.assert_allclose(dstate[i], np.stack([st.dstate0[k][i] for k in range(2)]), rtol=1e-12, atol=1e-14)
    want = {}
    for k, layer in enumerate(st.layers):
        for n, g in layer.grads.items():
            stem, transposed = PARAM_NAMES[n]
            want[f"{stem}_l{k}"] = g.T if transposed else g
        want[f"bias_hh_l{k}"] = layer.grads["b"]  # the kernels add the two biases
    assert set(want) == set(dp)
    for n, g in want.items():
        np.testing.assert_allclose(dp[n], g, rtol=1e-12, atol=1e-14, err_msg=n)


def _lstm_scan(p, x, h0, c0):
    """A plain LSTM in lax.scan, torch.nn.LSTM's equations and gate order [i | f | g | o]."""
    def layer(x, k, h, c):
        Wx, Wh = p[f"weight_ih_l{k}"], p[f"weight_hh_l{k}"]
        b = p[f"bias_ih_l{k}"] + p[f"bias_hh_l{k}"]

        def step(carry, xt):
            h, c = carry
            i, f, g, o = jnp.split(xt @ Wx.T + h @ Wh.T + b, 4, axis=-1)
            c = jax.nn.sigmoid(f) * c + jax.nn.sigmoid(i) * jnp.tanh(g)
            h = jax.nn.sigmoid(o) * jnp.tanh(c)
            return (h, c), h
        (h, c), y = jax.lax.scan(step, (h, c), x)
        return y, h, c
    hs, cs = [], []
    for k in range(2):
        x, h, c = layer(x, k, h0[k], c0[k])
        hs.append(h)
        cs.append(c)
    return x, (jnp.stack(hs), jnp.stack(cs))


def test_plain_lstm_equals_lax_scan():
    _, p, x, (h0, c0), _ = _args("lstm")
    y, (h, c) = lj.apply(p, x, (h0, c0), cell="lstm", norm=None)
    y_s, (h_s, c_s) = _lstm_scan(p, x, h0, c0)
    for a, b in ((y, y_s), (h, h_s), (c, c_s)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    w = jnp.asarray(np.random.default_rng(6).standard_normal((T, B, H)))

    def loss(fn, p, x, h0, c0):
        y, (h, _) = fn(p, x, h0, c0)
        return jnp.sum(w * y) + jnp.sum(h ** 2)
    mine = jax.jit(jax.grad(lambda *a: loss(lambda p, x, h0, c0: lj.apply(p, x, (h0, c0), cell="lstm", norm=None),
                                            *a), argnums=(0, 1, 2, 3)))(p, x, h0, c0)
    ref = jax.grad(lambda *a: loss(_lstm_scan, *a), argnums=(0, 1, 2, 3))(p, x, h0, c0)
    for a, b in zip(jax.tree.leaves(mine), jax.tree.leaves(ref)):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-13)


# ---- vmap ----
def _loop(fn, *xs):
    return jax.tree.map(lambda *a: jnp.stack(a), *[fn(*a) for a in zip(*xs)])


@pytest.mark.parametrize("name", CELLS)
def test_vmap_forward_and_per_example_gradients(name):
    """A mapped batch axis: folded into the batch (plain, LN) or one call per example (BN): each
    example's y, final state and parameter gradient is its own."""
    spec = cells.get(name)
    (cell, norm), p, _, state, lengths = _args(name)
    xs = jnp.asarray(np.random.default_rng(8).standard_normal((3, T, B, I)))
    ls = jnp.stack([lengths, lengths[::-1], jnp.full_like(lengths, T)])

    def f(x, ln):
        y, s = lj.apply(p, x, _state_arg(spec, state), ln, cell, norm)
        return y, s
    got = jax.jit(jax.vmap(f))(xs, ls)
    want = _loop(f, xs, ls)
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)

    def loss(p, x, ln):
        y, s = lj.apply(p, x, _state_arg(spec, state), ln, cell, norm)
        return jnp.sum(y ** 2) + jnp.sum((s[0] if spec.nstate == 2 else s) ** 3)
    g = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))(p, xs, ls)
    g_want = _loop(lambda x, ln: jax.grad(loss)(p, x, ln), xs, ls)
    for n in p:
        np.testing.assert_allclose(g[n], g_want[n], rtol=1e-11, atol=1e-13, err_msg=n)


@pytest.mark.parametrize("name, calls", [("ln-lstm", 1), ("rnn", 1), ("bn-lstm", 3)])
def test_vmap_folds_independent_rows_into_one_kernel_call(name, calls, monkeypatch):
    """Three mapped examples: one forward call for a plain or LN cell, one per example for BN (its
    statistics must not mix examples); the backward runs per example (per-example parameter gradients)."""
    from lnrnn.model import functional
    spec = cells.get(name)
    (cell, norm), p, _, state, lengths = _args(name)
    xs = jnp.asarray(np.random.default_rng(8).standard_normal((3, T, B, I)))
    seen = {"forward": 0, "backward": 0}

    def counted(fn, what):
        def wrapper(*a, **k):
            seen[what] += 1
            return fn(*a, **k)
        return wrapper
    monkeypatch.setattr(functional, "layer_forward", counted(functional.layer_forward, "forward"))
    monkeypatch.setattr(functional, "layer_backward", counted(functional.layer_backward, "backward"))
    f = jax.jit(jax.vmap(lambda x: lj.apply(p, x, _state_arg(spec, state), lengths, cell, norm)[0]))
    jax.block_until_ready(f(xs))
    assert seen == {"forward": 2 * calls, "backward": 0}  # two layers
    seen["forward"] = 0
    jax.block_until_ready(jax.jit(jax.vmap(jax.grad(lambda x: jnp.sum(
        lj.apply(p, x, _state_arg(spec, state), lengths, cell, norm)[0] ** 2))))(xs))
    assert seen == {"forward": 2 * calls, "backward": 2 * 3}


@pytest.mark.parametrize("name", ["ln-lstm", "bn-rnn"])
def test_vmap_over_parameters_nested_and_jacrev(name):
    """An ensemble (mapped parameters: one call per member), two nested vmaps, and jacrev (a mapped
    cotangent with unmapped residuals)."""
    spec = cells.get(name)
    (cell, norm), p, x, state, lengths = _args(name)
    ps = jax.tree.map(lambda v: jnp.stack([v, 0.9 * v]), p)

    def f(p, x):
        return lj.apply(p, x, _state_arg(spec, state), lengths, cell, norm)[0]
    members = jnp.stack([f(jax.tree.map(lambda v: v[i], ps), x) for i in range(2)])
    np.testing.assert_allclose(jax.vmap(f, in_axes=(0, None))(ps, x), members, rtol=1e-12, atol=1e-14)
    xs = jnp.asarray(np.random.default_rng(2).standard_normal((2, 3, T, B, I)))
    nested = jax.vmap(jax.vmap(lambda x: f(p, x)))(xs)
    np.testing.assert_allclose(nested, jnp.stack([jnp.stack([f(p, a) for a in row]) for row in xs]), rtol=1e-12,
                               atol=1e-14)
    jac = jax.jacrev(lambda x: f(p, x)[-1, 0])(x)                      # (H, T, B, I)
    rows = jnp.stack([jax.grad(lambda x: f(p, x)[-1, 0, j])(x) for j in range(H)])
    np.testing.assert_allclose(jac, rows, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("name", CELLS)
def test_remat_gives_the_same_gradients_without_residuals(name, monkeypatch):
    """remat=True: the backward reruns the forward on the host (two forward calls per layer, no residual
    leaves the forward) and gives the residual path's gradients, also per example under vmap."""
    from lnrnn.model import functional
    spec = cells.get(name)
    (cell, norm), p, x, state, lengths = _args(name)
    stats = lj.init_stats(cell, norm, H, 2, T, dtype=np.float64) if spec.norm == "bn" else None

    def loss(p, x, remat, *st):
        (y, s), _ = lj.apply(p, x, _state_arg(spec, st), lengths, cell, norm, stats=stats, remat=remat, mutable=True)
        return jnp.sum(y ** 2) + jnp.sum((s[0] if spec.nstate == 2 else s) ** 3)
    want = jax.grad(loss, argnums=(0, 1, 3))(p, x, False, *state)
    kept = []
    forward = functional.layer_forward

    def counted(*a, **k):
        out = forward(*a, **k)
        kept.append(len(out[2]))
        return out
    monkeypatch.setattr(functional, "layer_forward", counted)
    got = jax.jit(jax.grad(loss, argnums=(0, 1, 3)), static_argnums=2)(p, x, True, *state)
    assert len(kept) == 4 and kept[:2] == [0, 0] and min(kept[2:]) > 0  # two layers: forwards, then reruns
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-14)
    xs = jnp.stack([x, -x])

    def per_example(remat):
        return jax.vmap(jax.grad(lambda p, x: loss(p, x, remat, *state)), in_axes=(None, 0))(p, xs)
    for a, b in zip(jax.tree.leaves(per_example(True)), jax.tree.leaves(per_example(False))):
        np.testing.assert_allclose(a, b, rtol=1e-11, atol=1e-13)


# ---- dtypes ----
# An LSTM and an RNN, LN and BN: what float32 without x64 changes here is how residuals travel (int64
# lengths as uint32 pairs for every cell, BN's float64 fold too), for one or two state arrays. Each cell
# compiles its float32 kernels for read-only inputs for this test alone (about 30 s each from a fresh
# clone); that every cell's kernels take read-only inputs is checked in float64 above.
@pytest.mark.parametrize("name", ["ln-rnn", "bn-lstm"])
def test_float32_without_x64_agrees_with_float64(name):
    """float32 with 64-bit types off (BN's float64 residual then travels as uint32 pairs)."""
    spec = cells.get(name)
    (cell, norm), p, x, state, lengths = _args(name)

    def loss(p, x, lengths, *st):
        y, s = lj.apply(p, x, _state_arg(spec, st), lengths, cell, norm)
        return jnp.sum(y ** 2) + jnp.sum((s[0] if spec.nstate == 2 else s) ** 2)
    g64 = jax.grad(loss)(p, x, lengths, *state)
    with jax.enable_x64(False):
        p32, x32, s32 = jax.tree.map(lambda v: jnp.asarray(np.asarray(v, np.float32)), (p, x, state))
        g32 = jax.jit(jax.grad(loss))(p32, x32, jnp.asarray(np.asarray(lengths, np.int32)), *s32)
        assert all(v.dtype == jnp.float32 for v in g32.values())
    for n in p:
        np.testing.assert_allclose(g32[n], g64[n], rtol=2e-3, atol=2e-4, err_msg=n)


def test_half_precision_and_mixed_dtypes_are_refused_in_one_sentence():
    (cell, norm), p, x, state, _ = _args("ln-lstm")
    for dt in (jnp.float16, jnp.bfloat16):
        with pytest.raises(TypeError, match="float32 or float64 only"):
            lj.apply(jax.tree.map(lambda v: v.astype(dt), p), x.astype(dt), cell=cell, norm=norm)
    with pytest.raises(TypeError, match="one dtype"):
        lj.apply(p, x.astype(jnp.float32), cell=cell, norm=norm)
    with pytest.raises(TypeError, match="one dtype"):
        lj.apply(p, x, (state[0].astype(jnp.float32), state[1]), cell=cell, norm=norm)
    with pytest.raises(TypeError, match="float32 or float64 only"):
        lj.init(jax.random.key(0), "lstm", "ln", 2, 3, dtype=jnp.bfloat16)


def test_float64_in_an_x64_context_only_is_refused_in_one_sentence():
    """The callbacks run on another thread, where a jax.enable_x64 context does not hold."""
    code = ("import jax, jax.numpy as jnp, pytest, lnrnn.jax as lj\n"
            "with jax.enable_x64(True):\n"
            "    p = lj.init(jax.random.key(0), 'rnn', None, 2, 3, dtype=jnp.float32)\n"
            "    p = {k: v.astype(jnp.float64) for k, v in p.items()}\n"
            "    with pytest.raises(TypeError, match='whole process'):\n"
            "        lj.apply(p, jnp.ones((2, 1, 2), jnp.float64), cell='rnn', norm=None)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=testpaths.ROOT)


# ---- final cell state, BatchNorm statistics, options ----
@pytest.mark.parametrize("name", ["lstm", "ln-lstm"])
def test_check_grads_of_c_n_over_full_rows(name):
    """c_n in the loss (its gradient seeds the kernels' carried dL/dc at the last step), with y and h_n."""
    (cell, norm), p, x, state, _ = _args(name)
    rng = np.random.default_rng(10)
    wc = jnp.asarray(rng.standard_normal((2, B, H)))

    def loss(x, p, h0, c0):
        y, (h_n, c_n) = lj.apply(p, x, (h0, c0), cell=cell, norm=norm)
        return jnp.sum(y) + jnp.sum(h_n) + jnp.sum(wc * c_n)

    check_grads(loss, (x, p, *state), order=1, modes=["rev"], eps=1e-6)


def test_a_gradient_of_c_n_is_refused_where_the_kernels_take_none_and_an_unused_c_n_is_not():
    """The BN-LSTM, and a row that ends inside the sequence: one sentence naming c_n."""
    for name, lengths in (("bn-lstm", None), ("ln-lstm", jnp.array([5, 3, 0, 4]))):
        (cell, norm), p, x, state, _ = _args(name)
        ok = jax.grad(lambda x: jnp.sum(lj.apply(p, x, state, cell=cell, norm=norm, lengths=lengths)[1][0]))(x)
        assert np.all(np.isfinite(ok))
        with pytest.raises(Exception, match="c_n"):
            jax.block_until_ready(jax.grad(
                lambda x: jnp.sum(lj.apply(p, x, state, cell=cell, norm=norm, lengths=lengths)[1][1]))(x))


@pytest.mark.parametrize("name", ["bn-lstm", "bn-rnn"])
def test_batchnorm_inference_and_statistics_like_flax(name):
    spec = cells.get(name)
    st = _stack(name)
    params, stats = lj.params_from_stack(st)
    _, _, x, state, _ = _args(name)
    layer_states = [tuple(np.asarray(a[k]) for a in state) for k in range(2)]
    st.forward(np.asarray(x), layer_states, training=True)  # moves the statistics
    (_, _), trained = lj.apply(params, x, _state_arg(spec, state), cell=spec.cell, norm=spec.norm, stats=stats,
                               mutable=True)
    y_l, _ = st.forward(np.asarray(x[:3]), layer_states, training=False)
    y, _ = lj.apply(params, x[:3], _state_arg(spec, state), cell=spec.cell, norm=spec.norm, stats=trained,
                    training=False)
    np.testing.assert_allclose(y, y_l, rtol=1e-12, atol=1e-14)
    y2, _ = lj.apply(params, x[:3], _state_arg(spec, state), cell=spec.cell, norm=spec.norm, stats=stats,
                     training=False)
    assert not np.allclose(y, y2)  # inference reads the statistics it is given
    with pytest.raises(ValueError, match="stats="):
        lj.apply(params, x, cell=spec.cell, norm=spec.norm, training=False)
    (_, _), grown = lj.apply(params, x, cell=spec.cell, norm=spec.norm,
                             stats=lj.init_stats(spec.cell, spec.norm, H, 2, 1, dtype=np.float64), mutable=True)
    assert {v.shape[0] for v in grown.values()} == {T}  # training grows them to the sequence


def test_batch_first_and_default_state():
    (cell, norm), p, x, state, lengths = _args("ln-rnn")
    y, h = lj.apply(p, x, None, lengths, cell, norm)
    yb, hb = lj.apply(p, jnp.swapaxes(x, 0, 1), jnp.zeros((2, B, H)), lengths, cell, norm, batch_first=True)
    np.testing.assert_array_equal(jnp.swapaxes(yb, 0, 1), y)
    np.testing.assert_array_equal(hb, h)
    assert np.all(np.asarray(y)[3:, 1] == 0) and np.all(np.asarray(y)[:, 2] == 0)  # padded steps read zero


def test_user_errors_are_one_sentence():
    (cell, norm), p, x, state, _ = _args("ln-lstm")
    with pytest.raises(ValueError, match="pass the cell and norm"):
        lj.apply(p, x, cell="lstm", norm=None)
    with pytest.raises(ValueError, match="unknown norm"):
        lj.apply(p, x, cell="lstm", norm="group")
    with pytest.raises(ValueError, match="lengths must lie in"):
        lj.apply(p, x, lengths=jnp.array([1, 2, 3, 9]), cell=cell, norm=norm)
    with pytest.raises(ValueError, match="lengths must be 4 integers"):
        lj.apply(p, x, lengths=jnp.array([1.0, 2, 3, 4]), cell=cell, norm=norm)
    with pytest.raises(ValueError, match="num_layers, B, H"):
        lj.apply(p, x, (state[0][:1], state[1][:1]), cell=cell, norm=norm)
    with pytest.raises(ValueError, match="state is \\(h0, c0\\)"):
        lj.apply(p, x, state[0], cell=cell, norm=norm)
    with pytest.raises(ValueError, match="weight_ih_l0 has shape"):
        lj.apply(p, x[:, :, :1], cell=cell, norm=norm)
    with pytest.raises(ValueError, match="no BatchNorm statistics"):
        lj.apply(p, x, cell=cell, norm=norm, stats={"a": 1})


def test_plain_lstm_params_are_a_torch_state_dict():
    if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
        import torch  # CI installs both extras
    else:
        torch = pytest.importorskip("torch")
    (cell, norm), p, x, (h0, c0), _ = _args("lstm")
    m = torch.nn.LSTM(I, H, num_layers=2).double()
    m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in p.items()}, strict=True)
    y_t, (h_t, c_t) = m(torch.from_numpy(np.array(x)), (torch.from_numpy(np.array(h0)), torch.from_numpy(np.array(c0))))
    y, (h, c) = lj.apply(p, x, (h0, c0), cell="lstm", norm=None)
    for a, b in ((y, y_t), (h, h_t), (c, c_t)):
        np.testing.assert_allclose(a, b.detach().numpy(), rtol=1e-10, atol=1e-12)


def test_load_export_round_trip(tmp_path):
    from lnrnn.interop.export import write_safetensors
    st = _stack("bn-lstm")
    params, stats = lj.params_from_stack(st)
    tensors = {"rnn." + k: np.asarray(v) for k, v in {**params, **stats}.items()}
    write_safetensors(str(tmp_path / "w.safetensors"), tensors, {"model_config": '{"cell": "lstm", "norm": "bn"}'})
    p2, s2, config = lj.load_export(tmp_path / "w.safetensors")
    assert config == {"cell": "lstm", "norm": "bn"}
    assert set(p2) == set(params) and set(s2) == set(stats)
    for k in params:
        np.testing.assert_array_equal(p2[k], params[k])


def test_import_lnrnn_does_not_import_jax():
    code = ("import sys, lnrnn, lnrnn.model.functional, lnrnn.model.layers; "
            "assert 'jax' not in sys.modules, 'jax imported'")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=testpaths.ROOT)
