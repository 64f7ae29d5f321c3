"""lnrnn.jax with its options on, against the LN-LSTM written in jax.numpy with lax.scan in test_values161_jax
(float64): remat=True with ragged lengths, batch_first and an initial state given as a list [h0, c0] gives the
scan's gradients (and check_grads passes on it), and its forward keeps nothing while the backward reruns it
with residuals (the kernels' keep flags in that order), and so for a ragged BatchNorm batch, whose statistics
count the running rows only (check_grads); a bidirectional BatchNorm stack's backward direction
reads and updates its own statistics (the same as a one-direction stack of the reverse parameters over x
reversed); inference hands back population statistics of fewer rows than steps as it got them, reading row
min(t, Ts-1) (the statistics grown here by hand), where training grows them to T rows; refusals word for word:
a c0 of the wrong shape or dtype by its name, params of another cell naming the layer count, a bias_hh of one
element, BatchNorm inference without statistics and an empty stats dict."""
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
from lnrnn.model import functional  # noqa: E402
from test_values161_jax import B, H, I, LENGTHS, T, _cell, _params, _x, ragged_stack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

G = 4 * H


def _state(seed=225):
    rng = np.random.default_rng(seed)
    return [jnp.asarray(rng.uniform(-0.5, 0.5, (1, B, H))) for _ in range(2)]


def _ours(p, xb, h0, c0, remat):
    """batch_first x (B,T,I), the state as a list, ragged lengths: y and h_n in the loss."""
    y, (h, _) = lj.apply(p, xb, [h0, c0], LENGTHS, batch_first=True, remat=remat)
    return jnp.sum(y * jnp.sin(y)) + jnp.sum(h ** 3)


def _scan(p, xb, h0, c0):
    y, h, _ = ragged_stack(_cell, p, jnp.swapaxes(xb, 0, 1), 1, 1, LENGTHS, h0, c0)
    return jnp.sum(y * jnp.sin(y)) + jnp.sum(h ** 3)


def test_remat_with_lengths_batch_first_and_a_list_state_gives_the_scans_gradients(monkeypatch):
    p, xb = _params(), jnp.swapaxes(_x(), 0, 1)
    h0, c0 = _state()
    want = jax.grad(_scan, argnums=(0, 1, 2, 3))(p, xb, h0, c0)
    keeps = []
    forward = functional.layer_forward

    def counted(*a, **k):
        keeps.append(k.get("keep"))
        return forward(*a, **k)
    monkeypatch.setattr(functional, "layer_forward", counted)
    got = jax.grad(_ours, argnums=(0, 1, 2, 3))(p, xb, h0, c0, True)
    assert keeps == [False, True]                      # remat: the forward keeps nothing, the backward reruns it
    for a, b in zip(jax.tree.leaves(got), jax.tree.leaves(want)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-8, atol=1e-11)
    keeps.clear()
    jax.grad(_ours)(p, xb, h0, c0, False)
    assert keeps == [True]                             # without remat: one forward that keeps its residuals
    check_grads(lambda p, xb, h0, c0: _ours(p, xb, h0, c0, True), (p, xb, h0, c0), order=1, modes=["rev"],
                atol=1e-6, rtol=1e-6, eps=1e-6)



def test_remat_of_a_ragged_batchnorm_batch_passes_check_grads():
    """BatchNorm's batch statistics count the running rows only: remat's rerun must see the lengths too."""
    p, x = _params(norm="bn", seed=12), _x(seed=13)
    stats = lj.init_stats("lstm", "bn", H, 1, T, dtype=np.float64)
    lengths = jnp.array([4, 3, 4])                                          # two running rows at every step

    def loss(p, x):
        y, (h, _) = lj.apply(p, x, None, lengths, cell="lstm", norm="bn", stats=stats, remat=True)
        return jnp.sum(y * jnp.sin(y)) + jnp.sum(h ** 3)
    check_grads(loss, (p, x), order=1, modes=["rev"], atol=1e-6, rtol=1e-6, eps=1e-6)

def test_a_c0_of_the_wrong_shape_or_dtype_is_refused_by_its_name():
    p, x = _params(), _x()
    h0, c0 = _state()
    with pytest.raises(ValueError) as e:
        lj.apply(p, x, (h0, jnp.zeros((1, B, H + 2))))
    assert str(e.value) == f"c0 must have shape (num_layers, B, H) = (1, {B}, {H}), got (1, {B}, {H + 2})."
    with pytest.raises(TypeError) as e:
        lj.apply(p, x, (h0, c0.astype(jnp.float32)))
    assert str(e.value) == "c0 is float32 but x is float64: pass x, the state and the parameters in one dtype."


def test_params_of_another_cell_are_refused_with_the_stacks_layer_count():
    p = _params(L=1, bidirectional=True)                                    # an LN-LSTM's, passed as a plain one
    with pytest.raises(ValueError) as e:
        lj.apply(p, _x(), cell="lstm", norm=None)
    extra = sorted(f"norm_{w}_{s}_l0{r}" for w in ("ih", "hh", "cell") for s in ("weight", "bias")
                   for r in ("", "_reverse"))
    assert str(e.value) == (f"params do not match a 1-layer lstm stack (missing none, unexpected {extra}): pass "
                            "the cell and norm the parameters were made for.")


def test_a_bias_hh_of_one_element_is_refused_not_broadcast():
    p = dict(_params())
    p["bias_hh_l0"] = jnp.zeros((1,))
    with pytest.raises(ValueError) as e:
        lj.apply(p, _x())
    assert str(e.value) == f"bias_hh_l0 has shape (1,), expected ({G},) for input size {I} and hidden size {H}."


@pytest.mark.parametrize("training", [True, False])
def test_batchnorm_without_statistics_or_with_an_empty_dict_is_refused(training):
    p, x = _params(norm="bn"), _x()
    with pytest.raises(ValueError) as e:
        lj.apply(p, x, cell="lstm", norm="bn", stats={}, training=training)
    assert str(e.value) == ("stats lack norm_ih_running_mean_l0: pass the dict lnrnn.jax.init_stats returns for "
                            "this stack.")
    if not training:
        with pytest.raises(ValueError) as e:
            lj.apply(p, x, cell="lstm", norm="bn", training=False)
        assert str(e.value) == ("BatchNorm inference (training=False) reads population statistics: pass stats= "
                                "(lnrnn.jax.init_stats, updated by training with mutable=True).")


def _short_stats(Ts, seed, bidirectional=False):
    """Statistics of Ts rows, every entry distinct (variances positive)."""
    s = lj.init_stats("lstm", "bn", H, 1, Ts, dtype=np.float64, bidirectional=bidirectional)
    rng = np.random.default_rng(seed)
    return {k: jnp.asarray(rng.uniform(0.5, 1.5, v.shape) if "_var_" in k else rng.uniform(-0.4, 0.4, v.shape))
            for k, v in s.items()}


def test_inference_hands_back_fewer_rows_than_steps_as_given_and_reads_the_last_one_on():
    p, x = _params(norm="bn", seed=4), _x(seed=5)
    stats = _short_stats(2, 6)                                              # 2 rows, T = 4 steps
    (y, _), back = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, training=False, mutable=True)
    assert set(back) == set(stats)
    for k, v in stats.items():
        assert back[k].shape == (2, v.shape[1])
        np.testing.assert_array_equal(np.asarray(back[k]), np.asarray(v))
    grown = {k: jnp.concatenate([v, v[-1:], v[-1:]]) for k, v in stats.items()}   # rows 0, 1, 1, 1
    y4, _ = lj.apply(p, x, cell="lstm", norm="bn", stats=grown, training=False)
    np.testing.assert_allclose(np.asarray(y), np.asarray(y4), rtol=1e-13, atol=1e-15)
    _, trained = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, mutable=True)
    assert all(trained[k].shape == (T, v.shape[1]) for k, v in stats.items())


def test_a_bidirectional_batchnorm_stacks_backward_direction_has_its_own_statistics():
    p = _params(L=1, bidirectional=True, norm="bn", seed=8)
    x = _x(seed=9)
    stats = _short_stats(T, 10, bidirectional=True)                         # forward and backward ones differ
    rev = {k[:-len("_reverse")]: v for k, v in p.items() if k.endswith("_reverse")}
    rev_stats = {k[:-len("_reverse")]: v for k, v in stats.items() if k.endswith("_reverse")}
    y, _ = lj.apply(p, jnp.swapaxes(x, 0, 1), cell="lstm", norm="bn", stats=stats, training=False,
                    batch_first=True)
    yb, _ = lj.apply(rev, x[::-1], cell="lstm", norm="bn", stats=rev_stats, training=False)
    np.testing.assert_allclose(np.asarray(y[:, :, H:]), np.asarray(jnp.swapaxes(yb[::-1], 0, 1)), rtol=1e-12,
                               atol=1e-14)
    _, new = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, mutable=True)        # training: the updates
    _, new_rev = lj.apply(rev, x[::-1], cell="lstm", norm="bn", stats=rev_stats, mutable=True)
    for k, v in new_rev.items():
        np.testing.assert_allclose(np.asarray(new[k + "_reverse"]), np.asarray(v), rtol=1e-12, atol=1e-14)
