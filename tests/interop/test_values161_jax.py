"""lnrnn.jax against an LN-LSTM written here in jax.numpy with lax.scan (float64, every row at once, a row's
state held after its own last step: gates [i|f|g|o], LayerNorm of W_ih x, of W_hh h and of the new cell, eps
1e-5): a one-layer bidirectional stack with ragged lengths (the backward direction over each row's valid steps
reversed, y zero past each row's end, final states after each row's last step), its gradients by
jax.test_util.check_grads (reverse mode: each layer is a custom_vjp, which has no forward mode), and jit(vmap)
over the parameters (x not mapped) and over x (the parameters not mapped). A bidirectional BatchNorm stack's
statistics by their names (init_stats, and what apply(mutable=True) hands back), BatchNorm inference as a
function of each row alone (the population statistics, not the batch's), and the one-sentence refusals of
inference without statistics, of an x that is not three-dimensional and of params that are not init's dict."""
import os
from functools import partial

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 4, 3, 2, 2
EPS = 1e-5
LENGTHS = jnp.array([4, 2, 3])


def _params(L=1, bidirectional=False, norm="ln", seed=0):
    p = lj.init(jax.random.key(seed), "lstm", norm, I, H, L, dtype=np.float64, bidirectional=bidirectional)
    rng = np.random.default_rng(seed + 1)  # gains and biases off their initial 1 and 0
    return {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape)) for k, v in p.items()}


def _x(seed=2, shape=(T, B, I)):
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape))


def _ln(z, g, b):
    m = z.mean(-1, keepdims=True)
    v = ((z - m) ** 2).mean(-1, keepdims=True)
    return (z - m) / jnp.sqrt(v + EPS) * g + b


def _cell(p, sfx, xs, keep, h0=None, c0=None):
    """One direction of one layer over xs (S,B,I_k) from (h0, c0) (B,H), zeros where not given; a row's state
    stays put where keep (S,B) is False: ys (S,B,H), h, c (B,H)."""
    def step(carry, xm):
        h, c = carry
        x, m = xm
        a = (_ln(x @ p[f"weight_ih_{sfx}"].T, p[f"norm_ih_weight_{sfx}"], p[f"norm_ih_bias_{sfx}"])
             + _ln(h @ p[f"weight_hh_{sfx}"].T, p[f"norm_hh_weight_{sfx}"], p[f"norm_hh_bias_{sfx}"])
             + p[f"bias_ih_{sfx}"] + p[f"bias_hh_{sfx}"])
        i, f = jax.nn.sigmoid(a[:, :H]), jax.nn.sigmoid(a[:, H:2 * H])
        g, o = jnp.tanh(a[:, 2 * H:3 * H]), jax.nn.sigmoid(a[:, 3 * H:])
        c_new = f * c + i * g
        h_new = o * jnp.tanh(_ln(c_new, p[f"norm_cell_weight_{sfx}"], p[f"norm_cell_bias_{sfx}"]))
        m = m[:, None]
        return (jnp.where(m, h_new, h), jnp.where(m, c_new, c)), h_new
    zeros = jnp.zeros((xs.shape[1], H))
    start = (zeros if h0 is None else h0, zeros if c0 is None else c0)
    (h, c), ys = jax.lax.scan(step, start, (xs, keep))
    return ys, h, c


@partial(jax.jit, static_argnums=(2, 3))
def _reference(p, x, L, D, lengths):
    return ragged_stack(_cell, p, x, L, D, lengths)


def ragged_stack(cell, p, x, L, D, lengths, h0=None, c0=None):
    """y (T,B,D*H), h_n and c_n (L*D,B,H) from h0 and c0 (L*D,B,H) or zero states, each layer and direction
    run by cell(p, sfx, xs, keep[, h0_j, c0_j]) -> ys, h, c; row b runs its steps 0..n_b-1 forward and n_b-1..0
    backward, y zero past n_b."""
    t = jnp.arange(x.shape[0])[:, None]
    keep = t < lengths[None, :]                                             # (T,B)
    back = jnp.where(keep, lengths[None, :] - 1 - t, t)                     # (T,B) the step read backward
    rows = jnp.arange(x.shape[1])[None, :]
    inp, hn, cn = x, [], []
    for k in range(L):
        outs = []
        for d in range(D):
            sfx = f"l{k}_reverse" if d else f"l{k}"
            given = () if h0 is None else (h0[k * D + d], c0[k * D + d])
            y, h, c = cell(p, sfx, inp[back, rows] if d else inp, keep, *given)
            outs.append(y[back, rows] if d else y)                          # the same permutation undoes it
            hn.append(h)
            cn.append(c)
        inp = jnp.concatenate(outs, axis=2)
    return jnp.where(keep[:, :, None], inp, 0.0), jnp.stack(hn), jnp.stack(cn)


def _stat_names(L):
    return {f"norm_{w}_running_{s}_l{k}{r}" for k in range(L) for r in ("", "_reverse")
            for w in ("ih", "hh", "cell") for s in ("mean", "var")}


def test_bidirectional_batchnorm_statistics_are_named_per_layer_and_direction():
    stats = lj.init_stats("lstm", "bn", H, 2, T, dtype=np.float64, bidirectional=True)
    assert set(stats) == _stat_names(2)
    p = _params(L=2, bidirectional=True, norm="bn")
    x = _x()
    _, new = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, mutable=True)
    assert set(new) == _stat_names(2)
    assert all(new[n].shape == stats[n].shape for n in new)
    # inference hands the statistics back as they were given
    _, same = lj.apply(p, x, cell="lstm", norm="bn", stats=new, training=False, mutable=True)
    for n in new:
        np.testing.assert_array_equal(np.asarray(same[n]), np.asarray(new[n]))


def test_batchnorm_inference_is_each_rows_own_function():
    p, x = _params(norm="bn"), _x()
    stats = lj.init_stats("lstm", "bn", H, 1, T, dtype=np.float64)
    _, stats = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, mutable=True)  # statistics off 0 and 1
    y3, _ = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, training=False)
    for b in range(B):
        y1, _ = lj.apply(p, x[:, b:b + 1], cell="lstm", norm="bn", stats=stats, training=False)
        np.testing.assert_allclose(np.asarray(y1[:, 0]), np.asarray(y3[:, b]), rtol=1e-12, atol=1e-14)
    yt, _ = lj.apply(p, x[:, :1], cell="lstm", norm="bn", stats=stats, training=True)  # a batch of one: not so
    assert not np.allclose(np.asarray(yt[:, 0]), np.asarray(y3[:, 0]))


def test_batchnorm_inference_without_statistics_is_refused():
    p = _params(norm="bn")
    with pytest.raises(ValueError) as e:
        lj.apply(p, _x(), cell="lstm", norm="bn", training=False)
    assert str(e.value) == ("BatchNorm inference (training=False) reads population statistics: pass stats= "
                            "(lnrnn.jax.init_stats, updated by training with mutable=True).")


@pytest.mark.parametrize("shape, batch_first", [((1, T, B, I), False), ((T, B), False), ((B, T, I, 1), True)])
def test_an_x_not_of_three_axes_is_refused(shape, batch_first):
    with pytest.raises(ValueError) as e:
        lj.apply(_params(), jnp.zeros(shape), batch_first=batch_first)
    said = " with batch_first (B, T, I)" if batch_first else ""
    assert str(e.value) == f"x must be (T, B, I){said}, got shape {shape}."


@pytest.mark.parametrize("params", [{"weight_hh_l0": np.zeros((8, 2))}, {}, [np.zeros(2)]])
def test_params_that_are_not_inits_dict_are_refused(params):
    with pytest.raises(ValueError) as e:
        lj.apply(params, _x())
    assert str(e.value) == "params must be the dict lnrnn.jax.init returns (it holds weight_ih_l0, ...)."


def test_bidirectional_ragged_stack_equals_the_scan_and_its_gradients_check():
    p, x = _params(L=1, bidirectional=True), _x()
    y, (h, c) = lj.apply(p, x, lengths=LENGTHS)
    y_ref, h_ref, c_ref = _reference(p, x, 1, 2, LENGTHS)
    assert y.shape == (T, B, 2 * H) and h.shape == (2, B, H)
    np.testing.assert_allclose(np.asarray(y), np.asarray(y_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(c), np.asarray(c_ref), rtol=1e-9, atol=1e-12)

    def loss(x, p):  # c_n of rows that end early takes no gradient: y and h_n only
        y, (h, _) = lj.apply(p, x, lengths=jnp.asarray(LENGTHS))
        return jnp.sum(y * jnp.sin(y)) + jnp.sum(h ** 3)

    check_grads(jax.jit(loss), (x, p), order=1, modes=["rev"], atol=1e-6, rtol=1e-6, eps=1e-6)


def test_jit_vmap_over_the_parameters_and_over_x_equal_the_scan():
    ps = [_params(seed=s) for s in (0, 5)]
    stacked = jax.tree.map(lambda *a: jnp.stack(a), *ps)
    x = _x()
    full = jnp.full(B, T)
    ys = jax.jit(jax.vmap(lambda p: lj.apply(p, x)[0]))(stacked)           # x not mapped
    for k, p in enumerate(ps):
        np.testing.assert_allclose(np.asarray(ys[k]), np.asarray(_reference(p, x, 1, 1, full)[0]),
                                   rtol=1e-9, atol=1e-12)
    xs = _x(seed=3, shape=(2, T, B, I))
    ys = jax.jit(jax.vmap(lambda x: lj.apply(ps[1], x)[0]))(xs)            # parameters not mapped
    for k in range(2):
        np.testing.assert_allclose(np.asarray(ys[k]), np.asarray(_reference(ps[1], xs[k], 1, 1, full)[0]),
                                   rtol=1e-9, atol=1e-12)
