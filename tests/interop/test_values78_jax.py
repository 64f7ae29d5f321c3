"""lnrnn.jax (lnrnn/interop/jax.py): a one-layer bidirectional stack, vmap over examples and over an ensemble of
parameters, float32 without 64-bit types, the trees of a bidirectional BatchNorm stack and of an export, and the
refusals at apply's boundary, word for word.

The judges: a plain LSTM written here in jax.numpy (gates [i|f|g|o], torch.nn.LSTM's equations and parameter
names), run row by row over each row's own valid steps (the backward direction over them reversed), and JAX's
autodiff of it; torch.nn.LSTM's state_dict for the names and shapes of a bidirectional stack; central differences
of the float64 loss for a float32 gradient taken without 64-bit types; the stack's own buffers for the statistics
params_from_stack names; the documented sentences for the refusals."""
import json
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.interop.jax as binding  # noqa: E402
import lnrnn.jax as lj  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 4, 3, 2, 2


# ---- the plain LSTM ----
def _cell(q, x, h, c):
    """One step of one row: x (I_k,), h, c (H,) -> h, c; torch.nn.LSTM's equations."""
    a = q["weight_ih"] @ x + q["bias_ih"] + q["weight_hh"] @ h + q["bias_hh"]
    n = h.shape[0]
    i, f, g, o = (jax.nn.sigmoid(a[:n]), jax.nn.sigmoid(a[n:2 * n]), jnp.tanh(a[2 * n:3 * n]),
                  jax.nn.sigmoid(a[3 * n:]))
    c = f * c + i * g
    return o * jnp.tanh(c), c


def _direction(p, sfx):
    return {k: p[f"{k}{sfx}"] for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh")}


def plain_bidirectional(p, x, h0, c0, lengths):
    """One bidirectional layer: x (T,B,I), h0/c0 (2,B,H) -> y (T,B,2H) zero past each row's length, h_n, c_n."""
    qs = (_direction(p, "_l0"), _direction(p, "_l0_reverse"))
    ys, hs, cs = [], [[], []], [[], []]
    for b in range(x.shape[1]):
        n = int(lengths[b])
        halves = []
        for d in (0, 1):
            h, c = h0[d, b], c0[d, b]
            out = [None] * n
            for t in (range(n - 1, -1, -1) if d else range(n)):
                h, c = _cell(qs[d], x[t, b], h, c)
                out[t] = h
            halves.append(out)
            hs[d].append(h)
            cs[d].append(c)
        rows = [jnp.concatenate([halves[0][t], halves[1][t]]) for t in range(n)]
        ys.append(jnp.stack(rows + [jnp.zeros(2 * h0.shape[-1], x.dtype)] * (x.shape[0] - n)))
    return jnp.stack(ys, axis=1), jnp.stack([jnp.stack(r) for r in hs]), jnp.stack([jnp.stack(r) for r in cs])


def plain_one_way(p, x, h0, c0):
    """One one-way layer over every step: x (T,B,I), h0/c0 (B,H) -> y (T,B,H)."""
    q = _direction(p, "_l0")
    ys = []
    for b in range(x.shape[1]):
        h, c = h0[b], c0[b]
        out = []
        for t in range(x.shape[0]):
            h, c = _cell(q, x[t, b], h, c)
            out.append(h)
        ys.append(jnp.stack(out))
    return jnp.stack(ys, axis=1)


def _params(bidirectional, seed=0, num_layers=1, dtype=np.float64):
    p = lj.init(jax.random.key(seed), "lstm", None, I, H, num_layers, dtype=dtype, bidirectional=bidirectional)
    rng = np.random.default_rng(seed + 1)
    return {k: v + jnp.asarray(rng.uniform(-0.4, 0.4, v.shape), dtype) for k, v in p.items()}  # bias_hh too


# ---- refusals, word for word ----
def test_a_state_of_the_wrong_arity_is_explained_with_the_cells_own_state():
    x = jnp.zeros((T, B, I))
    s = jnp.zeros((1, B, H))
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^a rnn stack's state is h0, got 2 arrays\.$"):
        lj.apply(p, x, (s, s), cell="rnn", norm=None)
    p = lj.init(jax.random.key(0), "lstm", None, I, H, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^a lstm stack's state is \(h0, c0\), got 1 array\.$"):
        lj.apply(p, x, s, cell="lstm", norm=None)


@pytest.mark.parametrize("rows", [1, 3])
def test_a_state_with_another_count_of_layers_is_refused_in_one_sentence(rows):
    p = _params(False, num_layers=2)
    s = jnp.zeros((rows, B, H))
    with pytest.raises(ValueError, match=rf"^h0 must have shape \(num_layers, B, H\) = \(2, {B}, {H}\), got "
                                         rf"\({rows}, {B}, {H}\)\.$"):
        lj.apply(p, jnp.zeros((T, B, I)), (s, s), cell="lstm", norm=None)


def test_stats_for_a_stack_without_batchnorm_are_refused_naming_it():
    p = lj.init(jax.random.key(0), "lstm", "ln", I, H, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^a ln-lstm stack has no BatchNorm statistics, but stats were given\.$"):
        lj.apply(p, jnp.zeros((T, B, I)), cell="lstm", norm="ln", stats={"norm_ih_running_mean_l0": 0})


def test_a_missing_statistic_is_named_by_its_key():
    p = lj.init(jax.random.key(0), "lstm", "bn", I, H, dtype=np.float64)
    stats = lj.init_stats("lstm", "bn", H, 1, T, dtype=np.float64)
    del stats["norm_hh_running_var_l0"]
    with pytest.raises(ValueError, match=r"^stats lack norm_hh_running_var_l0: pass the dict lnrnn\.jax\.init_stats "
                                         r"returns for this stack\.$"):
        lj.apply(p, jnp.zeros((T, B, I)), cell="lstm", norm="bn", stats=stats)


def test_an_x_that_is_not_3d_is_explained_in_the_layout_asked_for():
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float64)
    with pytest.raises(ValueError, match=r"^x must be \(T, B, I\), got shape \(4, 2\)\.$"):
        lj.apply(p, jnp.zeros((4, 2)), cell="rnn", norm=None)
    with pytest.raises(ValueError, match=r"^x must be \(T, B, I\) with batch_first \(B, T, I\), got shape \(4, 2\)\.$"):
        lj.apply(p, jnp.zeros((4, 2)), cell="rnn", norm=None, batch_first=True)


def test_half_precision_is_refused_in_one_sentence():
    msg = (r"^lnrnn\.jax runs float32 or float64 only, got float16: cast x, the state and the parameters to float32 "
           r"\(or float64\)\.$")
    with pytest.raises(TypeError, match=msg):
        lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float16)
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float32)
    with pytest.raises(TypeError, match=msg):
        lj.apply({k: v.astype(jnp.float16) for k, v in p.items()}, jnp.zeros((T, B, I), jnp.float16), cell="rnn",
                 norm=None)


@pytest.mark.parametrize("x_dtype, p_dtype", [(np.float64, np.float32), (np.float32, np.float64)])
def test_a_parameter_in_another_dtype_than_x_is_refused_naming_it(x_dtype, p_dtype):
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=x_dtype)
    p["weight_hh_l0"] = p["weight_hh_l0"].astype(p_dtype)
    x_name, p_name = np.dtype(x_dtype).name, np.dtype(p_dtype).name
    with pytest.raises(TypeError, match=rf"^weight_hh_l0 is {p_name} but x is {x_name}: pass x, the state and the "
                                        r"parameters in one dtype\.$"):
        lj.apply(p, jnp.zeros((T, B, I), x_dtype), cell="rnn", norm=None)


# ---- the trees ----
def test_params_from_a_bidirectional_batchnorm_stack_name_each_directions_statistics():
    st = RecurrentStack("lstm", "bn", I, H, num_layers=2, dtype=np.float64, seed=2, bidirectional=True)
    params, stats = lj.params_from_stack(st)
    assert set(stats) == set(lj.init_stats("lstm", "bn", H, 2, T, dtype=np.float64, bidirectional=True))
    for j, layer in enumerate(st.layers):   # [l0, l0 backward, l1, l1 backward]
        sfx = f"_l{j // 2}" + ("_reverse" if j % 2 else "")
        np.testing.assert_array_equal(stats["norm_ih_running_mean" + sfx], layer.buffers["rmx"])
        np.testing.assert_array_equal(stats["norm_cell_running_var" + sfx], layer.buffers["rvc"])
        np.testing.assert_array_equal(params["weight_hh" + sfx], layer.params["Wh"].T)


def test_load_export_returns_the_files_config_and_refuses_skip_connections(tmp_path):
    p = _params(False)
    tensors = {"rnn." + k: np.asarray(v) for k, v in p.items()}
    config = {"cell": "lstm", "norm": None, "input_size": I, "hidden_size": H, "skip": False}
    write_safetensors(str(tmp_path / "a.safetensors"), tensors, {"model_config": json.dumps(config)})
    params, stats, got = lj.load_export(tmp_path / "a.safetensors")
    assert got == config and stats == {} and set(params) == set(p)
    write_safetensors(str(tmp_path / "b.safetensors"), tensors, {"model_config": json.dumps({**config, "skip": True})})
    with pytest.raises(ValueError, match="holds a stack with skip connections"):
        lj.load_export(tmp_path / "b.safetensors")


# ---- a one-layer bidirectional stack ----
def test_one_layer_bidirectional_names_are_torch_lstms_and_its_values_the_plain_ones():
    torch = pytest.importorskip("torch")
    p = _params(True, seed=3)
    want = {k: tuple(v.shape) for k, v in torch.nn.LSTM(I, H, num_layers=1, bidirectional=True).state_dict().items()}
    assert {k: tuple(v.shape) for k, v in p.items()} == want
    rng = np.random.default_rng(4)
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    h0, c0 = (jnp.asarray(rng.uniform(-0.5, 0.5, (2, B, H))) for _ in range(2))
    lengths = [4, 2, 3]                         # ragged: the backward direction starts at each row's own end
    y, (h_n, c_n) = lj.apply(p, x, (h0, c0), jnp.array(lengths), "lstm", None)
    ref = jax.jit(lambda p, x: plain_bidirectional(p, x, h0, c0, lengths))
    y0, h_0, c_0 = ref(p, x)
    np.testing.assert_allclose(y, y0, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(h_n, h_0, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(c_n, c_0, rtol=1e-10, atol=1e-12)
    w = jnp.asarray(rng.standard_normal((T, B, 2 * H)))

    def loss(p, x):
        return jnp.sum(w * lj.apply(p, x, (h0, c0), jnp.array(lengths), "lstm", None)[0])

    def loss0(p, x):
        return jnp.sum(w * ref(p, x)[0])

    got, want_g = jax.grad(loss, argnums=(0, 1))(p, x), jax.jit(jax.grad(loss0, argnums=(0, 1)))(p, x)
    np.testing.assert_allclose(got[1], want_g[1], rtol=1e-8, atol=1e-10)
    for k in p:
        np.testing.assert_allclose(got[0][k], want_g[0][k], rtol=1e-8, atol=1e-10, err_msg=k)


# ---- vmap: examples folded into one batch, an ensemble of parameters ----
def test_vmap_of_the_gradient_over_examples_is_each_examples_plain_gradient():
    p = _params(False, seed=5)
    rng = np.random.default_rng(6)
    V = 2
    xs = jnp.asarray(rng.standard_normal((V, T, B, I)))
    h0, c0 = (jnp.asarray(rng.uniform(-0.5, 0.5, (B, H))) for _ in range(2))
    w = jnp.asarray(rng.standard_normal((T, B, H)))

    def loss(p, x):
        return jnp.sum(w * lj.apply(p, x, (h0[None], c0[None]), None, "lstm", None)[0])

    def loss0(p, x):
        return jnp.sum(w * plain_one_way(p, x, h0, c0))

    gp, gx = jax.jit(jax.vmap(jax.grad(loss, argnums=(0, 1)), in_axes=(None, 0)))(p, xs)
    grad0 = jax.jit(jax.grad(loss0, argnums=(0, 1)))
    for v in range(V):
        wp, wx = grad0(p, xs[v])
        np.testing.assert_allclose(gx[v], wx, rtol=1e-8, atol=1e-10)
        for k in p:
            np.testing.assert_allclose(gp[k][v], wp[k], rtol=1e-8, atol=1e-10, err_msg=k)


def test_vmap_over_an_ensemble_of_parameters_runs_every_member():
    members = [_params(False, seed=s) for s in (7, 8, 9)]
    ps = jax.tree.map(lambda *v: jnp.stack(v), *members)
    rng = np.random.default_rng(10)
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    h0, c0 = (jnp.asarray(rng.uniform(-0.5, 0.5, (B, H))) for _ in range(2))
    ys = jax.vmap(lambda p: lj.apply(p, x, (h0[None], c0[None]), None, "lstm", None)[0])(ps)
    assert ys.shape == (3, T, B, H)
    ref = jax.jit(lambda p: plain_one_way(p, x, h0, c0))
    for m, p in enumerate(members):
        np.testing.assert_allclose(ys[m], ref(p), rtol=1e-10, atol=1e-12, err_msg=str(m))


# ---- float32 without 64-bit types: BatchNorm's float64 and int64 residuals travel as uint32 words ----
def test_float32_gradient_without_x64_matches_central_differences_of_the_float64_loss():
    p = lj.init(jax.random.key(11), "lstm", "bn", I, H, 1, dtype=np.float64)
    rng = np.random.default_rng(12)
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    w = jnp.asarray(rng.standard_normal((T, B, H)))
    lengths = np.array([4, 3, 4])              # BN: two running rows at every step
    u = {k: jnp.asarray(rng.standard_normal(v.shape)) for k, v in p.items()}

    def loss(p, x, w, lengths):
        return jnp.sum(w * lj.apply(p, x, None, lengths, "lstm", "bn")[0])

    eps = 1e-6
    shift = {s: {k: p[k] + s * eps * u[k] for k in p} for s in (1, -1)}
    want = (loss(shift[1], x, w, jnp.asarray(lengths)) - loss(shift[-1], x, w, jnp.asarray(lengths))) / (2 * eps)
    with jax.enable_x64(False):
        p32, x32, w32 = jax.tree.map(lambda v: jnp.asarray(np.asarray(v, np.float32)), (p, x, w))
        g32 = jax.jit(jax.grad(loss))(p32, x32, w32, jnp.asarray(lengths.astype(np.int32)))
        assert {np.dtype(v.dtype) for v in g32.values()} == {np.dtype(np.float32)}
    got = sum(float(np.sum(np.asarray(g32[k], np.float64) * np.asarray(u[k]))) for k in p)
    np.testing.assert_allclose(got, float(want), rtol=2e-3, atol=2e-4)


def test_x64_for_a_context_only_is_refused_for_float64_and_not_for_float32(monkeypatch):
    monkeypatch.setattr(binding, "_x64_everywhere", lambda: False)   # as inside a jax.enable_x64 context
    p = lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float32)
    assert {np.dtype(v.dtype) for v in p.values()} == {np.dtype(np.float32)}
    with pytest.raises(TypeError, match="^float64 inside a jax.enable_x64 context does not reach the callbacks"):
        lj.init(jax.random.key(0), "rnn", None, I, H, dtype=np.float64)
