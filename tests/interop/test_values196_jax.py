"""lnrnn.jax's plain LSTM and plain RNN (norm None) against the same networks written here in jax.numpy with
lax.scan (float64, every row at once, a row's state held after its own last step; the LSTM's gates [i|f|g|o] as
torch.nn.LSTM, the RNN h = tanh(W_ih x + b_ih + W_hh h + b_hh)): a two-layer bidirectional LSTM made by
init(bidirectional=True) (its parameter names and shapes written out here: layer 1 reads 2H inputs) over ragged
lengths with T == B and I != H, and a two-layer RNN whose final state comes back as the one array h_n, under
jit and vmap over x, its gradients over ragged lengths by jax.test_util.check_grads (reverse mode: each layer is
a custom_vjp);
and the one-sentence refusals of lengths of the wrong shape (one per sequence: B, not T) and of a bidirectional
stack's state with num_layers rows instead of num_layers * 2."""
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
from test_values161_jax import ragged_stack  # noqa: E402  (layers and directions over ragged rows)

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

T, B, I, H = 3, 3, 3, 2                    # T == B: a gather along the wrong axis still runs
LENGTHS = jnp.array([3, 1, 2])


def _params(cell, L, bidirectional=False, seed=0):
    p = lj.init(jax.random.key(seed), cell, None, I, H, L, dtype=np.float64, bidirectional=bidirectional)
    rng = np.random.default_rng(seed + 1)  # biases off their initial values
    return {k: v + jnp.asarray(rng.uniform(-0.3, 0.3, v.shape)) for k, v in p.items()}


def _x(seed=2, shape=(T, B, I)):
    return jnp.asarray(np.random.default_rng(seed).standard_normal(shape))


def _run(cell, p, sfx, xs, keep):
    """One direction of one layer over xs (S,B,I_k) from zeros; a row's state stays put where keep (S,B) is
    False: ys (S,B,H), h, c (B,H) (c zeros for the RNN)."""
    def step(carry, xm):
        h, c = carry
        x, m = xm
        a = x @ p[f"weight_ih_{sfx}"].T + p[f"bias_ih_{sfx}"] + h @ p[f"weight_hh_{sfx}"].T + p[f"bias_hh_{sfx}"]
        if cell == "rnn":
            h_new, c_new = jnp.tanh(a), c
        else:
            i, f = jax.nn.sigmoid(a[:, :H]), jax.nn.sigmoid(a[:, H:2 * H])
            g, o = jnp.tanh(a[:, 2 * H:3 * H]), jax.nn.sigmoid(a[:, 3 * H:])
            c_new = f * c + i * g
            h_new = o * jnp.tanh(c_new)
        m = m[:, None]
        return (jnp.where(m, h_new, h), jnp.where(m, c_new, c)), h_new
    zeros = jnp.zeros((xs.shape[1], H))
    (h, c), ys = jax.lax.scan(step, (zeros, zeros), (xs, keep))
    return ys, h, c


@partial(jax.jit, static_argnums=(0, 3, 4))
def _reference(cell, p, x, L, D, lengths):
    """y (T,B,D*H), h_n and c_n (L*D,B,H); row b runs steps 0..n_b-1 forward and n_b-1..0 backward, y zero
    past n_b."""
    return ragged_stack(partial(_run, cell), p, x, L, D, lengths)


def test_init_names_every_layer_and_direction():
    p = lj.init(jax.random.key(0), "lstm", None, I, H, 2, dtype=np.float64, bidirectional=True)
    want = {}
    for k, i_k in ((0, I), (1, 2 * H)):
        for r in ("", "_reverse"):
            want.update({f"weight_ih_l{k}{r}": (4 * H, i_k), f"weight_hh_l{k}{r}": (4 * H, H),
                         f"bias_ih_l{k}{r}": (4 * H,), f"bias_hh_l{k}{r}": (4 * H,)})
    assert {k: tuple(v.shape) for k, v in p.items()} == want


def test_two_layer_bidirectional_ragged_lstm_equals_the_scan():
    p, x = _params("lstm", 2, bidirectional=True), _x()
    y, (h, c) = lj.apply(p, x, lengths=LENGTHS, cell="lstm", norm=None)
    y_ref, h_ref, c_ref = _reference("lstm", p, x, 2, 2, LENGTHS)
    assert y.shape == (T, B, 2 * H) and h.shape == c.shape == (4, B, H)
    np.testing.assert_allclose(np.asarray(y), np.asarray(y_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(c), np.asarray(c_ref), rtol=1e-9, atol=1e-12)


def test_rnn_hands_back_h_n_alone_under_jit_and_vmap_and_its_gradients_check():
    p, x = _params("rnn", 2), _x()
    y, h = lj.apply(p, x, cell="rnn", norm=None)
    full = jnp.full(B, T)
    y_ref, h_ref, _ = _reference("rnn", p, x, 2, 1, full)
    assert isinstance(h, jax.Array) and h.shape == (2, B, H)
    np.testing.assert_allclose(np.asarray(y), np.asarray(y_ref), rtol=1e-9, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), np.asarray(h_ref), rtol=1e-9, atol=1e-12)
    xs = _x(seed=4, shape=(2, T, B, I))
    hs = jax.jit(jax.vmap(lambda x: lj.apply(p, x, cell="rnn", norm=None)[1]))(xs)
    assert hs.shape == (2, 2, B, H)
    for k in range(2):
        np.testing.assert_allclose(np.asarray(hs[k]), np.asarray(_reference("rnn", p, xs[k], 2, 1, full)[1]),
                                   rtol=1e-9, atol=1e-12)

    def loss(x, p):  # ragged rows: nothing past a row's end reaches the gradient
        y, h = lj.apply(p, x, lengths=LENGTHS, cell="rnn", norm=None)
        return jnp.sum(y * jnp.cos(y)) + jnp.sum(h ** 3)

    check_grads(loss, (x, p), order=1, modes=["rev"], atol=1e-6, rtol=1e-6, eps=1e-6)


def test_lengths_of_the_wrong_shape_are_refused_per_sequence():
    p = _params("lstm", 1)
    x = _x(shape=(T + 1, B, I))                                              # T != B here
    with pytest.raises(ValueError) as e:
        lj.apply(p, x, lengths=jnp.array([1, 2]), cell="lstm", norm=None)
    assert str(e.value) == f"lengths must be {B} integers (one per sequence), got int64 (2,)."


def test_a_bidirectional_state_with_num_layers_rows_is_refused():
    p = _params("lstm", 2, bidirectional=True)
    h0 = jnp.zeros((2, B, H))
    with pytest.raises(ValueError) as e:
        lj.apply(p, _x(), state=(h0, h0), cell="lstm", norm=None)
    assert str(e.value) == f"h0 must have shape (num_layers * 2, B, H) = (4, {B}, {H}), got (2, {B}, {H})."
