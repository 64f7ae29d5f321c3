"""lnrnn.jax (lnrnn/interop/jax.py) against a plain jax.numpy stack written here and JAX's own autodiff of it.

The plain stack runs each row alone over its own valid steps (a backward direction over those steps reversed,
its outputs reversed back), one (layer, direction) at a time from the torch-named parameters, with the cell
equations written out (LayerNorm over the features, eps 1e-5; LN-LSTM: LN of x Wx and of h Wh, plus b, gates
[i|f|g|o], LN of c inside tanh; LN-RNN: LN of x Wx + h Wh with b as its bias); y is zero past a row's length,
its final state the one after its last step (its initial state for length 0). Against it: apply's y, h_n, c_n
and the gradients of the parameters, x and the initial state (with and without remat, one-way and
bidirectional, two layers), vmap of the gradient over examples, and the trees: init's and init_stats' names and
shapes, params_from_stack's, load_export of an export, a
bidirectional BatchNorm stack trained without stats as with init_stats', and the messages of a bad layer above
the first."""
import os
import re
from types import SimpleNamespace

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model import cells  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files: float64 states and parameters

T, B, I, H, L = 4, 3, 2, 2, 2
LENGTHS = [4, 2, 0]
EPS = 1e-5
NAME = re.compile(r"^(.*)_l(\d+)(_reverse)?$")


# ---- the plain stack ----
def _ln(a, g, b):
    m = a.mean(-1, keepdims=True)
    v = ((a - m) ** 2).mean(-1, keepdims=True)
    return (a - m) / jnp.sqrt(v + EPS) * g + b


def _step(cell, norm, q, x, h, c):
    """One step of one row: x (I_k,), h, c (H,) -> h, c."""
    xw, hw = q["weight_ih"] @ x, q["weight_hh"] @ h
    b = q["bias_ih"] + q["bias_hh"]
    if cell == "rnn":
        return jnp.tanh(_ln(xw + hw, q["norm_weight"], b) if norm == "ln" else xw + hw + b), c
    if norm == "ln":
        a = _ln(xw, q["norm_ih_weight"], q["norm_ih_bias"]) + _ln(hw, q["norm_hh_weight"], q["norm_hh_bias"]) + b
    else:
        a = xw + hw + b
    n = h.shape[0]
    i, f = jax.nn.sigmoid(a[:n]), jax.nn.sigmoid(a[n:2 * n])
    g, o = jnp.tanh(a[2 * n:3 * n]), jax.nn.sigmoid(a[3 * n:])
    c = f * c + i * g
    return o * jnp.tanh(_ln(c, q["norm_cell_weight"], q["norm_cell_bias"]) if norm == "ln" else c), c


_jstep = jax.jit(_step, static_argnums=(0, 1))   # one dispatch per step (eager jnp ops are slow one by one)


def _groups(params):
    """{(layer, direction): {stem: array}} from the torch-named flat dict."""
    out = {}
    for name, v in params.items():
        stem, k, rev = NAME.match(name).groups()
        out.setdefault((int(k), 1 if rev else 0), {})[stem] = v
    return out


def plain(params, x, h0, c0, lengths, cell, norm):
    """x (T,B,I), h0/c0 (L*D,B,H) -> y (T,B,D*H), h_n, c_n (L*D,B,H); each row over its own steps."""
    q = _groups(params)
    D = 2 if (0, 1) in q else 1
    nl = len(q) // D
    Tx, Bx = x.shape[:2]
    hid = h0.shape[-1]
    ys, hs, cs = [], [[None] * Bx for _ in range(nl * D)], [[None] * Bx for _ in range(nl * D)]
    for b in range(Bx):
        n = lengths[b]
        inp = [x[t, b] for t in range(n)]
        for k in range(nl):
            halves = []
            for d in range(D):
                j = k * D + d
                h, c = h0[j, b], c0[j, b]
                out = []
                for t in (reversed(range(n)) if d else range(n)):
                    h, c = _jstep(cell, norm, q[(k, d)], inp[t], h, c)
                    out.append(h)
                halves.append(out[::-1] if d else out)
                hs[j][b], cs[j][b] = h, c
            inp = [jnp.concatenate([hv[t] for hv in halves]) for t in range(n)]
        rows = inp + [jnp.zeros(D * hid, x.dtype)] * (Tx - n)
        ys.append(jnp.stack(rows))
    y = jnp.stack(ys, axis=1)
    return y, jnp.stack([jnp.stack(r) for r in hs]), jnp.stack([jnp.stack(r) for r in cs])


# ---- arguments ----
def _args(name, bidirectional, seed=0):
    spec = cells.get(name)
    p = lj.init(jax.random.key(seed), spec.cell, spec.norm, I, H, L, dtype=np.float64, bidirectional=bidirectional)
    rng = np.random.default_rng(seed + 1)
    p = {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape)) for k, v in p.items()}  # bias_hh counts too
    D = 2 if bidirectional else 1
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    h0, c0 = (jnp.asarray(rng.uniform(-0.5, 0.5, (L * D, B, H))) for _ in range(2))
    wy = jnp.asarray(rng.standard_normal((T, B, D * H)))
    wh = jnp.asarray(rng.standard_normal((L * D, B, H)))
    return spec, p, x, h0, c0, wy, wh


def _apply(spec, p, x, h0, c0, lengths, **kw):
    """apply with the cell's state -> y, h_n, c_n (c_n None for an RNN)."""
    y, s = lj.apply(p, x, (h0, c0) if spec.nstate == 2 else h0, lengths, spec.cell, spec.norm, **kw)
    return (y, s[0], s[1]) if spec.nstate == 2 else (y, s, None)


# ---- the trees ----
def _names(spec, bidirectional, nl=L, hidden=H, inputs=I):
    """{name: shape} of a stack's parameters by the documented torch naming."""
    G, D = spec.blocks * hidden, 2 if bidirectional else 1
    extra = {"ln-lstm": [("norm_ih_weight", G), ("norm_ih_bias", G), ("norm_hh_weight", G), ("norm_hh_bias", G),
                         ("norm_cell_weight", hidden), ("norm_cell_bias", hidden)],
             "ln-rnn": [("norm_weight", hidden)],
             "bn-lstm": [("norm_ih_weight", G), ("norm_hh_weight", G), ("norm_cell_weight", hidden),
                         ("norm_cell_bias", hidden)]}.get(spec.name, [])
    out = {}
    for k in range(nl):
        for sfx in ("", "_reverse")[:D]:
            out[f"weight_ih_l{k}{sfx}"] = (G, inputs if k == 0 else D * hidden)
            out[f"weight_hh_l{k}{sfx}"] = (G, hidden)
            out[f"bias_ih_l{k}{sfx}"] = out[f"bias_hh_l{k}{sfx}"] = (G,)
            for n, w in extra:
                out[f"{n}_l{k}{sfx}"] = (w,)
    return out


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "ln-rnn", "bn-lstm"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_init_names_and_shapes_are_the_documented_ones(name, bidirectional):
    spec = cells.get(name)
    p = lj.init(jax.random.key(1), spec.cell, spec.norm, I, 3, 2, dtype=np.float64, bidirectional=bidirectional)
    assert {k: tuple(v.shape) for k, v in p.items()} == _names(spec, bidirectional, 2, 3, I)
    assert all(not np.any(np.asarray(p[k])) for k in p if k.startswith("bias_hh"))


@pytest.mark.parametrize("bidirectional", [False, True])
def test_init_stats_holds_every_layer_and_direction(bidirectional):
    G, steps = 4 * H, 5
    st = lj.init_stats("lstm", "bn", H, L, steps, dtype=np.float64, bidirectional=bidirectional)
    want = {}
    for k in range(L):
        for sfx in ("", "_reverse")[:2 if bidirectional else 1]:
            for part, w in (("ih", G), ("hh", G), ("cell", H)):
                want[f"norm_{part}_running_mean_l{k}{sfx}"] = want[f"norm_{part}_running_var_l{k}{sfx}"] = (steps, w)
    assert {k: tuple(v.shape) for k, v in st.items()} == want
    for k, v in st.items():
        assert np.all(np.asarray(v) == (0.0 if "_mean_" in k else 1.0)), k


@pytest.mark.parametrize("bidirectional", [False, True])
def test_params_from_stack_are_the_layers_own_arrays_under_their_names(bidirectional):
    spec = cells.get("ln-lstm")
    st = RecurrentStack("lstm", "ln", I, H, num_layers=2, dtype=np.float64, seed=4, bidirectional=bidirectional)
    params, stats = lj.params_from_stack(st)
    assert stats == {}
    assert {k: tuple(v.shape) for k, v in params.items()} == _names(spec, bidirectional)
    D = 2 if bidirectional else 1
    for j, layer in enumerate(st.layers):   # [l0, l0 backward, l1, ...]
        sfx = f"_l{j // D}" + ("_reverse" if j % D else "")
        np.testing.assert_array_equal(params["weight_ih" + sfx], layer.params["Wx"].T)
        np.testing.assert_array_equal(params["weight_hh" + sfx], layer.params["Wh"].T)
        np.testing.assert_array_equal(params["bias_ih" + sfx], layer.params["b"])
        np.testing.assert_array_equal(params["norm_cell_weight" + sfx], layer.params["gc"])


def test_load_export_of_an_exported_batchnorm_model_splits_parameters_and_statistics(tmp_path):
    from lnrnn.interop.export import export_weights
    from lnrnn.model.models import build_model, head_config

    m = build_model(dict(cell="lstm", norm="bn", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", 3, False)), seed=1, max_steps=T)
    export_weights(SimpleNamespace(model=m, step=7), str(tmp_path / "w.safetensors"))
    params, stats, config = lj.load_export(tmp_path / "w.safetensors")
    spec = cells.get("bn-lstm")
    assert {k: tuple(v.shape) for k, v in params.items()} == _names(spec, False)
    assert set(stats) == set(lj.init_stats("lstm", "bn", H, L, T, dtype=np.float64))
    assert config == m.config
    np.testing.assert_array_equal(params["weight_ih_l1"], m.params["rnn.l1.Wx"].T)
    np.testing.assert_array_equal(stats["norm_cell_running_var_l1"], m.buffers["rnn.l1.rvc"])
    x = jnp.asarray(np.random.default_rng(0).standard_normal((T, B, I)))
    lj.apply(params, x, cell="lstm", norm="bn", stats=stats, training=False)   # the two dicts are apply's


def test_bidirectional_batchnorm_training_without_stats_starts_from_init_stats():
    p = lj.init(jax.random.key(2), "lstm", "bn", I, H, L, dtype=np.float64, bidirectional=True)
    x = jnp.asarray(np.random.default_rng(3).standard_normal((T, B, I)))
    (y, s), new = lj.apply(p, x, cell="lstm", norm="bn", mutable=True)
    (y0, s0), new0 = lj.apply(p, x, cell="lstm", norm="bn", mutable=True,
                              stats=lj.init_stats("lstm", "bn", H, L, T, dtype=np.float64, bidirectional=True))
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s[0], s0[0])
    assert set(new) == set(new0) and len(new) == 2 * L * 6   # (layer, direction) x (ih, hh, cell) x (mean, var)
    for k in new:
        np.testing.assert_array_equal(new[k], new0[k])


@pytest.mark.parametrize("bidirectional", [False, True])
def test_a_bad_layer_above_the_first_is_explained_with_its_own_input_size(bidirectional):
    spec = cells.get("ln-lstm")
    hid = 3
    p = lj.init(jax.random.key(0), "lstm", "ln", I, hid, 2, dtype=np.float64, bidirectional=bidirectional)
    D = 2 if bidirectional else 1
    p["weight_ih_l1"] = p["weight_ih_l1"][:, :1]
    x = jnp.zeros((T, B, I))
    with pytest.raises(ValueError) as e:
        lj.apply(p, x, cell="lstm", norm="ln")
    G = spec.blocks * hid
    assert str(e.value) == (f"weight_ih_l1 has shape ({G}, 1), expected ({G}, {D * hid}) for input size {D * hid} "
                            f"and hidden size {hid}.")


def test_lengths_above_t_are_refused_before_any_kernel_runs():
    spec, p, x, h0, c0, _, _ = _args("rnn", False)
    with pytest.raises(ValueError, match=rf"^lengths must lie in \[0, {T}\], got 1\.\.{T + 1}$"):
        _apply(spec, p, x, h0, c0, jnp.array([1, T + 1, 2]))


# ---- values and gradients against the plain stack ----
CASES = [("lstm", True, False), ("ln-lstm", False, False), ("ln-lstm", True, True), ("rnn", False, True),
         ("ln-rnn", True, False)]


@pytest.mark.parametrize("name, bidirectional, remat", CASES)
def test_stack_on_ragged_rows_equals_the_plain_stack_and_its_autodiff(name, bidirectional, remat):
    spec, p, x, h0, c0, wy, wh = _args(name, bidirectional)
    lengths = jnp.array(LENGTHS)
    y, h_n, c_n = _apply(spec, p, x, h0, c0, lengths, remat=remat)
    y0, h0_, c0_ = plain(p, x, h0, c0, LENGTHS, spec.cell, spec.norm)
    np.testing.assert_allclose(y, y0, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h_n, h0_, rtol=1e-10, atol=1e-12)
    if spec.nstate == 2:
        np.testing.assert_allclose(c_n, c0_, rtol=1e-10, atol=1e-12)
    assert y.shape == (T, B, (2 if bidirectional else 1) * H)

    def loss(p, x, h0, c0):   # y and h_n (c_n of a row ending inside takes no gradient in the kernels)
        y, h_n, _ = _apply(spec, p, x, h0, c0, lengths, remat=remat)
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    def loss0(p, x, h0, c0):
        y, h_n, _ = plain(p, x, h0, c0, LENGTHS, spec.cell, spec.norm)
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    got = jax.grad(loss, argnums=(0, 1, 2, 3))(p, x, h0, c0)
    want = jax.grad(loss0, argnums=(0, 1, 2, 3))(p, x, h0, c0)
    for k in p:
        np.testing.assert_allclose(got[0][k], want[0][k], rtol=1e-8, atol=1e-10, err_msg=k)
    for a, b, what in zip(got[1:], want[1:], ("x", "h0", "c0")):
        if what == "c0" and spec.nstate == 1:
            continue
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10, err_msg=what)


def test_batch_first_bidirectional_with_c_n_in_the_loss_equals_the_plain_stack():
    """Full rows (c_n takes a gradient there), (B,T,I) in and (B,T,2H) out."""
    spec, p, x, h0, c0, wy, wh = _args("ln-lstm", True, seed=5)
    full = [T] * B

    def loss(p, xb, h0, c0):
        (y, (h_n, c_n)) = lj.apply(p, xb, (h0, c0), None, "lstm", "ln", batch_first=True)
        return jnp.sum(jnp.swapaxes(wy, 0, 1) * y) + jnp.sum(wh * h_n) + jnp.sum(wh * c_n ** 2)

    def loss0(p, xb, h0, c0):
        y, h_n, c_n = plain(p, jnp.swapaxes(xb, 0, 1), h0, c0, full, "lstm", "ln")
        return jnp.sum(wy * y) + jnp.sum(wh * h_n) + jnp.sum(wh * c_n ** 2)

    xb = jnp.swapaxes(x, 0, 1)
    np.testing.assert_allclose(loss(p, xb, h0, c0), loss0(p, xb, h0, c0), rtol=1e-12)
    got = jax.grad(loss, argnums=(0, 1, 2, 3))(p, xb, h0, c0)
    want = jax.grad(loss0, argnums=(0, 1, 2, 3))(p, xb, h0, c0)
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(a, b, rtol=1e-8, atol=1e-10)


def test_vmap_of_the_gradient_over_examples_is_each_examples_plain_gradient():
    """Unmapped parameters: the forward folds the examples into one batch; each example's backward must
    receive its own rows' residuals."""
    spec, p, x, h0, c0, wy, wh = _args("ln-lstm", False, seed=2)
    V = 2
    xs = jnp.stack([x, jnp.asarray(np.random.default_rng(8).standard_normal(x.shape))])   # (V,T,B,I)
    lengths = jnp.array([3, 4, 1])

    def loss(p, x):
        y, h_n, _ = _apply(spec, p, x, h0, c0, lengths)
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    def loss0(p, x):
        y, h_n, _ = plain(p, x, h0, c0, [3, 4, 1], spec.cell, spec.norm)
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    ys = jax.vmap(lambda x: _apply(spec, p, x, h0, c0, lengths)[0])(xs)
    gp, gx = jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, 0))(p, xs)
    for v in range(V):
        np.testing.assert_allclose(ys[v], plain(p, xs[v], h0, c0, [3, 4, 1], spec.cell, spec.norm)[0],
                                   rtol=1e-10, atol=1e-12)
        wp, wx = jax.grad(loss0, argnums=(0, 1))(p, xs[v])
        np.testing.assert_allclose(gx[v], wx, rtol=1e-8, atol=1e-10)
        for k in p:
            np.testing.assert_allclose(gp[k][v], wp[k], rtol=1e-8, atol=1e-10, err_msg=k)
