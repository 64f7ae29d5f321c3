"""lnrnn.jax's apply as a user sees it, against a plain LSTM written here in jax.numpy (torch.nn.LSTM's equations,
gates [i|f|g|o]) and JAX's autodiff of it: a two-layer batch_first stack with initial states given and
omitted (y (B,T,H), h_n and c_n (num_layers,B,H)) and its gradients (jax.test_util.check_grads too); a float32
stack under 64-bit JAX with the states omitted, in float32; rows of their own lengths when T > B (checked
against T, not B) and a length past T refused; an LSTM state of one array refused in one sentence;
init_stats(bidirectional=True) naming and shaping the statistics as the bidirectional torch module names its
buffers; and the running means a BN-LSTM's training writes, against 0.1 * the batch mean of x_t Wx per step
(lnrnn.config.BN_MOMENTUM, from means of 0)."""
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
from lnrnn.config import BN_MOMENTUM  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H, L = 4, 3, 2, 2, 2


def _layer(p, k, x, h, c, lengths=None, cell="lstm"):
    """Layer k of the plain LSTM (or tanh RNN: cell "rnn", c carried unchanged) over x (T,B,I_k) from h, c (B,H)
    -> y (T,B,H) (zero past each row's length), h_n, c_n (each row's state after its own last step)."""
    Wi, Wh = p[f"weight_ih_l{k}"], p[f"weight_hh_l{k}"]
    b = p[f"bias_ih_l{k}"] + p[f"bias_hh_l{k}"]
    n = h.shape[1]
    lengths = jnp.full(x.shape[1], x.shape[0]) if lengths is None else jnp.asarray(lengths)

    def step(carry, xt_t):
        h, c = carry
        xt, t = xt_t
        a = xt @ Wi.T + h @ Wh.T + b
        if cell == "lstm":
            i, f, g, o = (jax.nn.sigmoid(a[:, :n]), jax.nn.sigmoid(a[:, n:2 * n]), jnp.tanh(a[:, 2 * n:3 * n]),
                          jax.nn.sigmoid(a[:, 3 * n:]))
            c2 = f * c + i * g
            h2 = o * jnp.tanh(c2)
        else:
            h2, c2 = jnp.tanh(a), c
        run = (t < lengths)[:, None]
        return (jnp.where(run, h2, h), jnp.where(run, c2, c)), jnp.where(run, h2, 0.0)

    (h, c), y = jax.lax.scan(step, (h, c), (x, jnp.arange(x.shape[0])))
    return y, h, c


def plain_stack(p, x, h0, c0, lengths=None, cell="lstm"):
    """x (T,B,I), h0/c0 (L,B,H) -> y (T,B,H), h_n, c_n (L,B,H)."""
    hs, cs = [], []
    for k in range(h0.shape[0]):
        x, h, c = _layer(p, k, x, h0[k], c0[k], lengths, cell)
        hs.append(h)
        cs.append(c)
    return x, jnp.stack(hs), jnp.stack(cs)


def _problem(dtype=jnp.float64, seed=0):
    params = lj.init(jax.random.key(seed), "lstm", None, I, H, num_layers=L, dtype=dtype)
    r = np.random.default_rng(seed + 1)                           # bias_hh and the biases' blocks not zero
    params = {k: jnp.asarray(np.asarray(v) + 0.2 * r.standard_normal(v.shape), dtype) for k, v in params.items()}
    r = np.random.default_rng(seed + 2)
    x = jnp.asarray(r.standard_normal((T, B, I)), dtype)
    h0, c0 = (jnp.asarray(0.5 * r.standard_normal((L, B, H)), dtype) for _ in range(2))
    return params, x, h0, c0


@pytest.mark.parametrize("given", [True, False])
def test_batch_first_stack_is_the_plain_lstm_in_values_and_gradients(given):
    params, x, h0, c0 = _problem()
    if not given:
        h0, c0 = (jnp.zeros((L, B, H)),) * 2
    xb = jnp.asarray(np.swapaxes(np.asarray(x), 0, 1))           # (B,T,I)
    w = jnp.asarray(np.random.default_rng(9).standard_normal((B, T, H)))

    def ours(p, xb, h0, c0):
        y, (h_n, c_n) = lj.apply(p, xb, (h0, c0) if given else None, cell="lstm", norm=None, batch_first=True)
        return y, h_n, c_n

    def ref(p, xb, h0, c0):
        y, h_n, c_n = plain_stack(p, jnp.swapaxes(xb, 0, 1), h0, c0)
        return jnp.swapaxes(y, 0, 1), h_n, c_n

    def loss(fn):
        def f(p, xb, h0, c0):
            y, h, c = fn(p, xb, h0, c0)
            return jnp.sum(y * w) + jnp.sum(h * h0) + jnp.sum(c), (y, h, c)
        return f
    argn = (0, 1, 2, 3) if given else (0, 1)
    (_, got), g_ours = jax.jit(jax.value_and_grad(loss(ours), argnums=argn, has_aux=True))(params, xb, h0, c0)
    (_, want), g_ref = jax.jit(jax.value_and_grad(loss(ref), argnums=argn, has_aux=True))(params, xb, h0, c0)
    assert got[0].shape == (B, T, H) and got[1].shape == got[2].shape == (L, B, H)
    for a, e in zip(got, want):
        np.testing.assert_allclose(a, e, rtol=1e-10, atol=1e-12)
    for a, e in zip(jax.tree.leaves(g_ours), jax.tree.leaves(g_ref)):
        np.testing.assert_allclose(a, e, rtol=1e-9, atol=1e-11)
    if given:
        check_grads(jax.jit(lambda xb, h0: loss(ours)(params, xb, h0, c0)[0]), (xb, h0), order=1, modes=["rev"],
                    eps=1e-6, atol=1e-6, rtol=1e-6)


def test_float32_with_the_states_omitted_runs_in_float32_from_zeros():
    params, x, h0, c0 = _problem(jnp.float32, seed=3)
    y, (h_n, c_n) = lj.apply(params, x, None, cell="lstm", norm=None)
    z = jnp.zeros((L, B, H), jnp.float32)
    y2, (h2, c2) = lj.apply(params, x, (z, z), cell="lstm", norm=None)
    want = plain_stack({k: v.astype(jnp.float64) for k, v in params.items()}, x.astype(jnp.float64),
                       z.astype(jnp.float64), z.astype(jnp.float64))
    for a, b, e in zip((y, h_n, c_n), (y2, h2, c2), want):
        assert a.dtype == jnp.float32
        np.testing.assert_array_equal(a, b)
        np.testing.assert_allclose(a, e, rtol=1e-5, atol=1e-6)


def test_lengths_are_checked_against_the_steps_and_rows_end_at_their_own_length():
    params, x, h0, c0 = _problem(seed=4)
    x2, h2, c2 = x[:, :2], h0[:, :2], c0[:, :2]                  # T = 4 > B = 2
    lengths = jnp.asarray([4, 1])
    y, (h_n, c_n) = lj.apply(params, x2, (h2, c2), lengths=lengths, cell="lstm", norm=None)
    for a, e in zip((y, h_n, c_n), plain_stack(params, x2, h2, c2, lengths=[4, 1])):
        np.testing.assert_allclose(a, e, rtol=1e-10, atol=1e-12)
    with pytest.raises(ValueError) as e:
        lj.apply(params, x2, (h2, c2), lengths=jnp.asarray([5, 1]), cell="lstm", norm=None)
    assert str(e.value) == "lengths must lie in [0, 4], got 1..5"


def test_an_lstm_state_of_one_array_is_refused():
    params, x, h0, c0 = _problem(seed=5)
    with pytest.raises(ValueError) as e:
        lj.apply(params, x, h0, cell="lstm", norm=None)
    assert str(e.value) == "a lstm stack's state is (h0, c0), got 1 array."
    with pytest.raises(ValueError) as e:
        lj.apply(params, x, (h0, c0, c0), cell="lstm", norm=None)
    assert str(e.value) == "a lstm stack's state is (h0, c0), got 3 arrays."


def test_bidirectional_init_stats_name_and_shape_what_the_torch_module_buffers_hold():
    torch = pytest.importorskip("torch")
    import lnrnn.torch as lt
    stats = lj.init_stats("lstm", "bn", H, num_layers=2, max_steps=1, dtype=jnp.float64, bidirectional=True)
    m = lt.LSTM(I, H, num_layers=2, norm="bn", bidirectional=True, dtype=torch.float64)
    want = {n: tuple(b.shape) for n, b in m.named_buffers()}
    assert {n: tuple(v.shape) for n, v in stats.items()} == want
    for n, v in stats.items():
        np.testing.assert_array_equal(v, np.zeros(want[n]) if "running_mean" in n else np.ones(want[n]))


def test_bn_training_writes_the_momentum_blend_of_each_steps_batch_mean_of_x_wx():
    params = lj.init(jax.random.key(6), "lstm", "bn", I, H, dtype=jnp.float64)
    x = jnp.asarray(np.random.default_rng(7).standard_normal((T, B, I)))
    stats = lj.init_stats("lstm", "bn", H, max_steps=1, dtype=jnp.float64)
    (_, _), new = lj.apply(params, x, None, cell="lstm", norm="bn", stats=stats, mutable=True)
    assert set(new) == set(stats)
    mean = [n for n in new if n.startswith("norm_ih_running_mean")]
    assert mean == ["norm_ih_running_mean_l0"]
    want = BN_MOMENTUM * np.einsum("tbi,gi->tg", np.asarray(x), np.asarray(params["weight_ih_l0"])) / B
    np.testing.assert_allclose(new[mean[0]], want, rtol=1e-10, atol=1e-12)
