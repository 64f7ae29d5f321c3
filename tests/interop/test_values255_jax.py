"""lnrnn.jax's options passed through, twelfth pass, judged against torch.nn.LSTM / nn.RNN and by definition.

The judges: ``torch.nn.LSTM`` and ``nn.RNN`` (float64, their own drawn weights, bias_hh nonzero, loaded by name
into the pytree: the documented layout is nn.LSTM's) run row by row on each row's valid steps for a two-layer
bidirectional batch_first LSTM with given (h0, c0) and lengths 0 and T (a length-0 row: zeros out, its h0 and
c0 back), and on the whole batch for apply's defaults (time-major, zero states); ``jax.test_util.check_grads``
of that bidirectional stack; ``params_from_stack``'s names and shapes written out (weight_ih (G, I)); and the
refusals word for word (a weight of the wrong shape named with the shape expected for its layer, an empty input
named as passed)."""
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
from jax.test_util import check_grads  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402
from test_values132_torch import _raises  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

F64 = torch.float64


def _torch_and_params(kind, I, H, L, seed, **kw):
    torch.manual_seed(seed)
    ref = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, dtype=F64, **kw)
    return ref, {k: jnp.asarray(v.numpy()) for k, v in ref.state_dict().items()}


def test_a_bidirectional_batch_first_lstm_with_states_and_lengths_0_and_t_is_nn_lstm_row_by_row():
    B, T, I, H, L = 3, 4, 3, 2, 2
    ref, p = _torch_and_params("lstm", I, H, L, 255, bidirectional=True, batch_first=True)
    rng = np.random.default_rng(5)
    x = rng.normal(size=(B, T, I))
    h0, c0 = rng.uniform(-0.5, 0.5, (2, 2 * L, B, H))
    lengths = [4, 0, 2]
    y, (h, c) = lj.apply(p, jnp.asarray(x), (jnp.asarray(h0), jnp.asarray(c0)), jnp.asarray(lengths), cell="lstm",
                         norm=None, batch_first=True)
    assert y.shape == (B, T, 2 * H) and h.shape == c.shape == (2 * L, B, H)
    want_y, want_h, want_c = np.zeros((B, T, 2 * H)), h0.copy(), c0.copy()
    with torch.no_grad():
        for b, n in enumerate(lengths):
            if n:
                yb, (hb, cb) = ref(torch.from_numpy(x[b:b + 1, :n]),
                                   (torch.from_numpy(h0[:, b:b + 1]), torch.from_numpy(c0[:, b:b + 1])))
                want_y[b, :n], want_h[:, b], want_c[:, b] = yb[0].numpy(), hb[:, 0].numpy(), cb[:, 0].numpy()
    np.testing.assert_allclose(np.asarray(y), want_y, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.asarray(h), want_h, rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.asarray(c), want_c, rtol=0, atol=1e-12)

    def f(p, x, h0, c0):
        y, (h, c) = lj.apply(p, x, (h0, c0), jnp.asarray(lengths), cell="lstm", norm=None, batch_first=True)
        return y, h

    check_grads(f, (p, jnp.asarray(x), jnp.asarray(h0), jnp.asarray(c0)), order=1, modes=("rev",))


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_applys_defaults_are_time_major_from_zero_states_as_nn_modules(kind):
    """x (T, B, I) = (5, 2, 3), no state, no lengths: nn.LSTM's / nn.RNN's out and final states."""
    T, B, I, H = 5, 2, 3, 4
    ref, p = _torch_and_params(kind, I, H, 1, 7)
    x = np.random.default_rng(6).normal(size=(T, B, I))
    y, final = lj.apply(p, jnp.asarray(x), cell=kind, norm=None)
    with torch.no_grad():
        want_y, want_final = ref(torch.from_numpy(x))
    np.testing.assert_allclose(np.asarray(y), want_y.numpy(), rtol=0, atol=1e-12)
    got = final if kind == "lstm" else (final,)
    want = want_final if kind == "lstm" else (want_final,)
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), b.numpy(), rtol=0, atol=1e-12)


def test_params_from_a_ln_rnn_stack_hold_its_weights_in_torchs_g_by_i_layout():
    """An RNN has G = H: weight_ih (2, 3) in layer 0, (2, 2) above, each the stack's Wx transposed."""
    stack = RecurrentStack("rnn", "ln", 3, 2, num_layers=2, dtype=np.float64, seed=9)
    params, stats = lj.params_from_stack(stack)
    assert stats == {}
    want = {}
    for k in range(2):
        want.update({f"weight_ih_l{k}": (2, 3 if k == 0 else 2), f"weight_hh_l{k}": (2, 2), f"bias_ih_l{k}": (2,),
                     f"bias_hh_l{k}": (2,), f"norm_weight_l{k}": (2,)})
    assert {k: tuple(v.shape) for k, v in params.items()} == want
    for k in range(2):
        np.testing.assert_array_equal(np.asarray(params[f"weight_ih_l{k}"]), stack.layers[k].params["Wx"].T)
        np.testing.assert_array_equal(np.asarray(params[f"weight_hh_l{k}"]), stack.layers[k].params["Wh"].T)


def test_a_weight_of_the_wrong_shape_is_refused_with_its_layers_expected_shape():
    """Layer 1 of a 2-layer LSTM with I = 3, H = 2 reads H: weight_ih_l1 must be (8, 2); given (8, 3)."""
    p = lj.init(jax.random.key(0), "lstm", None, 3, 2, 2, dtype=np.float64)
    p["weight_ih_l1"] = jnp.zeros((8, 3))
    _raises(ValueError, "weight_ih_l1 has shape (8, 3), expected (8, 2) for input size 2 and hidden size 2.",
            lambda: lj.apply(p, jnp.zeros((4, 2, 3)), norm=None))


def test_an_empty_batch_first_input_is_named_as_passed():
    """(B, T, I) = (2, 0, 3) with batch_first: no steps; the refusal names (2, 0, 3), not (0, 2, 3)."""
    p = lj.init(jax.random.key(0), "lstm", "ln", 3, 2, dtype=np.float64)
    _raises(ValueError, "x must hold at least one step and one sequence, got shape (2, 0, 3).",
            lambda: lj.apply(p, jnp.zeros((2, 0, 3)), batch_first=True))
