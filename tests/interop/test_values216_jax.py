"""lnrnn.jax's LN-LSTM against the same network written here in jax.numpy with lax.scan (float64, every row at
once, a row's state held after its own last step; gates [i|f|g|o], LayerNorm of W_ih x, of W_hh h and of the new
cell, eps 1e-5, the two biases added): the options together on one two-layer bidirectional stack (batch_first,
ragged lengths, given initial states, bias_hh off zero, T != B, I != H, layer 1 reading 2H inputs), its
gradients by jax.test_util.check_grads with remat; jit(vmap(grad)) over x with the parameters shared (the folded
forward) against jax.grad of the scan, example by example. A bidirectional BN-LSTM's statistics by name and shape
after training (mutable=True), and in inference its backward half equal to the one-direction stack made of the
``*_reverse`` parameters and statistics run over x reversed."""
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
from test_values161_jax import _cell, ragged_stack  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 3, 4, 3, 2          # T != B, I != H and I != 2H: a size read off the wrong axis does not fit
LENGTHS = jnp.array([3, 1, 2, 3])


def _params(L, bidirectional, norm="ln", seed=0):
    p = lj.init(jax.random.key(seed), "lstm", norm, I, H, L, dtype=np.float64, bidirectional=bidirectional)
    rng = np.random.default_rng(seed + 1)  # gains and both biases off their initial values
    return {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape)) for k, v in p.items()}


def _rand(shape, seed):
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape))


@partial(jax.jit, static_argnums=(2, 3))
def _reference(p, x, L, D, lengths, h0, c0):
    """x (T,B,I), h0 and c0 (L*D,B,H) -> y (T,B,D*H), h_n, c_n (L*D,B,H): the LN-LSTM scan of test_values161_jax
    from the given states."""
    return ragged_stack(_cell, p, x, L, D, lengths, h0, c0)


def test_bidirectional_batch_first_ragged_stack_with_initial_states_equals_the_scan_and_checks_grads():
    p = _params(2, True)
    xb = _rand((B, T, I), 2)                                                # batch_first
    h0, c0 = _rand((4, B, H), 3), _rand((4, B, H), 4)
    y, (h, c) = lj.apply(p, xb, (h0, c0), LENGTHS, batch_first=True)
    y_ref, h_ref, c_ref = _reference(p, jnp.swapaxes(xb, 0, 1), 2, 2, LENGTHS, h0, c0)
    assert y.shape == (B, T, 2 * H) and h.shape == c.shape == (4, B, H)
    np.testing.assert_allclose(np.asarray(y), np.asarray(jnp.swapaxes(y_ref, 0, 1)), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(c), np.asarray(c_ref), rtol=1e-9, atol=1e-12)

    def loss(xb, p, h0):  # c_n of rows that end early takes no gradient: y and h_n only
        y, (h, _) = lj.apply(p, xb, (h0, c0), LENGTHS, batch_first=True, remat=True)
        return jnp.sum(y * jnp.sin(y)) + jnp.sum(h ** 3)

    check_grads(jax.jit(loss), (xb, p, h0), order=1, modes=["rev"], atol=1e-6, rtol=1e-6, eps=1e-6)


def test_jit_vmap_of_the_input_gradient_with_shared_parameters_is_each_examples_own():
    p = _params(1, False, seed=5)
    xs = _rand((2, T, B, I), 6)
    zeros = jnp.zeros((1, B, H))
    full = jnp.full(B, T)

    def ours(x):
        y, (h, _) = lj.apply(p, x)
        return jnp.sum(jnp.sin(y)) + jnp.sum(h ** 2)

    def ref(x):
        y, h, _ = _reference(p, x, 1, 1, full, zeros, zeros)
        return jnp.sum(jnp.sin(y)) + jnp.sum(h ** 2)

    vals, grads = jax.jit(jax.vmap(jax.value_and_grad(ours)))(xs)
    ref_grad = jax.jit(jax.value_and_grad(ref))
    for k in range(2):
        v_ref, g_ref = ref_grad(xs[k])
        np.testing.assert_allclose(float(vals[k]), float(v_ref), rtol=1e-9)
        np.testing.assert_allclose(np.asarray(grads[k]), np.asarray(g_ref), rtol=1e-8, atol=1e-11)


def test_bidirectional_batchnorm_statistics_and_the_backward_half_in_inference():
    p = _params(1, True, norm="bn", seed=7)
    x = _rand((T, B, I), 8)
    stats = lj.init_stats("lstm", "bn", H, 1, T, dtype=np.float64, bidirectional=True)
    widths = {"ih": 4 * H, "hh": 4 * H, "cell": H}
    want = {f"norm_{w}_running_{s}_l0{r}": (T, n) for w, n in widths.items() for s in ("mean", "var")
            for r in ("", "_reverse")}
    assert {k: tuple(v.shape) for k, v in stats.items()} == want
    _, new = lj.apply(p, x, cell="lstm", norm="bn", stats=stats, mutable=True)       # training: updated
    assert {k: tuple(v.shape) for k, v in new.items()} == want
    for k in want:
        assert not np.allclose(np.asarray(new[k]), np.asarray(stats[k])), k
    y, _ = lj.apply(p, x, cell="lstm", norm="bn", stats=new, training=False)
    assert y.shape == (T, B, 2 * H)
    back_p = {k[:-len("_reverse")]: v for k, v in p.items() if k.endswith("_reverse")}
    back_s = {k[:-len("_reverse")]: v for k, v in new.items() if k.endswith("_reverse")}
    fwd_p = {k: v for k, v in p.items() if not k.endswith("_reverse")}
    fwd_s = {k: v for k, v in new.items() if not k.endswith("_reverse")}
    yb, _ = lj.apply(back_p, x[::-1], cell="lstm", norm="bn", stats=back_s, training=False)
    yf, _ = lj.apply(fwd_p, x, cell="lstm", norm="bn", stats=fwd_s, training=False)
    np.testing.assert_allclose(np.asarray(y[:, :, H:]), np.asarray(yb[::-1]), rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.asarray(y[:, :, :H]), np.asarray(yf), rtol=1e-12, atol=1e-14)
