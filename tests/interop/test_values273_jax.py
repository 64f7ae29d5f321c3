"""lnrnn.jax's pytree, BatchNorm inference and remat, thirteenth pass, judged by definition, torch and the spec.

The judges: the key order of ``init``'s pytree against ``torch.nn.LSTM(..., bidirectional=True).state_dict()``
(bias_hh right after bias_ih, then the norm parameters, layer by layer, forward before reverse); a bidirectional
BN-LSTM in inference (training=False) with statistics of its own per direction, 2 rows for 3 steps, against
``lnrnn.reference.bn_lstm_forward`` run on x and on x reversed (population rows min(t, Ts - 1), nothing updated);
the central difference in float64 of a ragged bidirectional LN-RNN's loss with remat=True (its gradient
along one random direction); and the dtype refusal
word for word, naming the dtype by its name."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
    import torch
else:
    jax = pytest.importorskip("jax")
    torch = pytest.importorskip("torch")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn import reference  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files


@pytest.mark.parametrize("norm,extras", [(None, ()), ("ln", ("norm_ih_weight", "norm_ih_bias", "norm_hh_weight",
                                                              "norm_hh_bias", "norm_cell_weight", "norm_cell_bias"))])
def test_inits_pytree_keys_run_in_nn_lstms_state_dict_order(norm, extras):
    I, H, L = 3, 2, 2
    params = lj.init(jax.random.PRNGKey(0), "lstm", norm, I, H, L, dtype=jnp.float64, bidirectional=True)
    want = []
    for sfx in ("l0", "l0_reverse", "l1", "l1_reverse"):
        want += [f"weight_ih_{sfx}", f"weight_hh_{sfx}", f"bias_ih_{sfx}", f"bias_hh_{sfx}"]
        want += [f"{e}_{sfx}" for e in extras]
    assert list(params) == want
    if norm is None:  # the same names, in the same order, as torch's own module
        ref = torch.nn.LSTM(I, H, num_layers=L, bidirectional=True)
        assert list(params) == list(ref.state_dict())
        assert [tuple(v.shape) for v in params.values()] == [tuple(v.shape) for v in ref.state_dict().values()]


def test_float16_and_int32_are_refused_by_their_names():
    _raises(TypeError, "lnrnn.jax runs float32 or float64 only, got float16: cast x, the state and the parameters "
            "to float32 (or float64).", lambda: lj.init(jax.random.PRNGKey(0), "lstm", "ln", 3, 2, dtype=jnp.float16))
    _raises(TypeError, "lnrnn.jax runs float32 or float64 only, got int32: cast x, the state and the parameters "
            "to float32 (or float64).", lambda: lj.init_stats("lstm", "bn", 2, dtype=jnp.int32))


def test_bidirectional_batchnorm_inference_reads_each_directions_statistics_as_the_spec():
    T, B, I, H = 3, 4, 3, 2
    G = 4 * H
    rng = np.random.default_rng(273)
    params, stats, spec_args = {}, {}, {}
    for sfx in ("l0", "l0_reverse"):
        p = dict(Wx=rng.normal(size=(I, G)), Wh=rng.normal(size=(H, G)), b=rng.normal(size=G),
                 bias_hh=rng.normal(size=G), gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G),
                 gc=rng.uniform(0.5, 1.5, H), bc=rng.normal(size=H))
        s = dict(rmx=rng.normal(size=(2, G)), rvx=rng.uniform(0.5, 2.0, (2, G)), rmh=rng.normal(size=(2, G)),
                 rvh=rng.uniform(0.5, 2.0, (2, G)), rmc=rng.normal(size=(2, H)), rvc=rng.uniform(0.5, 2.0, (2, H)))
        params.update({f"weight_ih_{sfx}": p["Wx"].T, f"weight_hh_{sfx}": p["Wh"].T, f"bias_ih_{sfx}": p["b"],
                       f"bias_hh_{sfx}": p["bias_hh"], f"norm_ih_weight_{sfx}": p["gx"],
                       f"norm_hh_weight_{sfx}": p["gh"], f"norm_cell_weight_{sfx}": p["gc"],
                       f"norm_cell_bias_{sfx}": p["bc"]})
        for n, stem in (("x", "ih"), ("h", "hh"), ("c", "cell")):
            stats[f"norm_{stem}_running_mean_{sfx}"] = s["rm" + n]
            stats[f"norm_{stem}_running_var_{sfx}"] = s["rv" + n]
        spec_args[sfx] = (p, s)
    x = rng.normal(size=(T, B, I))
    h0, c0 = rng.normal(size=(2, B, H)), rng.normal(size=(2, B, H))
    as_jax = {k: jnp.asarray(v) for k, v in params.items()}
    (y, (h_n, c_n)), new_stats = lj.apply(as_jax, jnp.asarray(x), (jnp.asarray(h0), jnp.asarray(c0)), cell="lstm",
                                          norm="bn", stats={k: jnp.asarray(v) for k, v in stats.items()},
                                          training=False, mutable=True)
    for d, sfx in enumerate(("l0", "l0_reverse")):
        p, s = spec_args[sfx]
        xs = x[::-1] if d else x
        s = {k: v.copy() for k, v in s.items()}
        y_d, h_d, c_d, _ = reference.bn_lstm_forward(xs, h0[d], c0[d], p["Wx"], p["Wh"], p["b"] + p["bias_hh"],
                                                     p["gx"], p["gh"], p["gc"], p["bc"], s["rmx"], s["rvx"],
                                                     s["rmh"], s["rvh"], s["rmc"], s["rvc"], training=False)
        np.testing.assert_allclose(np.asarray(y)[:, :, d * H:(d + 1) * H], y_d[::-1] if d else y_d,
                                   rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.asarray(h_n)[d], h_d, rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.asarray(c_n)[d], c_d, rtol=0, atol=1e-12)
    assert set(new_stats) == set(stats)
    for k, v in stats.items():  # inference updates nothing
        np.testing.assert_array_equal(np.asarray(new_stats[k]), v)


def test_remat_of_a_ragged_bidirectional_ln_rnn_gives_the_central_difference():
    """remat=True (the backward reruns the forward): the gradient of every input along one random direction is
    the central difference of the loss, (f(p + eps v) - f(p - eps v)) / (2 eps), in float64."""
    T, B, I, H = 3, 3, 2, 2
    params = lj.init(jax.random.PRNGKey(5), "rnn", "ln", I, H, 1, dtype=jnp.float64, bidirectional=True)
    rng = np.random.default_rng(2731)
    args = (params, jnp.asarray(rng.normal(size=(T, B, I))), jnp.asarray(rng.normal(size=(2, B, H))))
    lengths = jnp.asarray([3, 1, 2])

    def f(params, x, h0):
        y, h_n = lj.apply(params, x, h0, lengths=lengths, cell="rnn", norm="ln", remat=True)
        return jnp.sum(y * jnp.arange(1.0, y.size + 1).reshape(y.shape)) + jnp.sum(h_n ** 2)

    grads = jax.grad(f, argnums=(0, 1, 2))(*args)
    v = jax.tree.map(lambda a: jnp.asarray(rng.normal(size=a.shape)), args)
    eps = 1e-6
    plus = f(*jax.tree.map(lambda a, d: a + eps * d, args, v))
    minus = f(*jax.tree.map(lambda a, d: a - eps * d, args, v))
    along = sum(float(jnp.vdot(g, d)) for g, d in zip(jax.tree.leaves(grads), jax.tree.leaves(v)))
    assert along == pytest.approx(float(plus - minus) / (2 * eps), rel=1e-6, abs=1e-6)
