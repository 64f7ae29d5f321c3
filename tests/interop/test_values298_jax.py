"""lnrnn.jax's pytree layout, layer loop and dtype refusals, fifteenth pass, judged by torch.nn.LSTM / nn.RNN.

The judges: the keys and shapes of ``init``'s pytree written out (torch's (G, I) weight layout, the LN vectors);
a two-layer bidirectional ``torch.nn.LSTM`` / ``nn.RNN`` (float64, I = 2 != H = 3, T = 5 != B = 3) whose
state_dict is passed to ``apply`` as it is, over ragged rows of lengths 1 and T with an initial state given:
y, the final states, and torch's gradients of one weighted loss over y and h_n with respect to x, h0 and every
weight; the float16 refusals of ``init``, ``init_stats`` and ``apply`` word for word."""
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
from test_values132_torch import _raises  # noqa: E402
from test_values291_jax import _jnp  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

F16 = ("lnrnn.jax runs float32 or float64 only, got float16: cast x, the state and the parameters to float32 "
       "(or float64).")


def test_inits_pytree_keys_and_shapes_written_out():
    """An LN-LSTM with I = 2, H = 3 (G = 12) and two layers: torch's layout, weight_ih (G, I) then (G, H)."""
    p = lj.init(jax.random.PRNGKey(0), "lstm", "ln", 2, 3, num_layers=2, dtype=jnp.float64)
    want = {}
    for k, I in ((0, 2), (1, 3)):
        want.update({f"weight_ih_l{k}": (12, I), f"weight_hh_l{k}": (12, 3), f"bias_ih_l{k}": (12,),
                     f"bias_hh_l{k}": (12,), f"norm_ih_weight_l{k}": (12,), f"norm_ih_bias_l{k}": (12,),
                     f"norm_hh_weight_l{k}": (12,), f"norm_hh_bias_l{k}": (12,), f"norm_cell_weight_l{k}": (3,),
                     f"norm_cell_bias_l{k}": (3,)})
    assert {k: tuple(v.shape) for k, v in p.items()} == want
    assert all(v.dtype == jnp.float64 for v in p.values())


@pytest.mark.parametrize("kind", ["lstm", "rnn"])
def test_a_two_layer_bidirectional_torch_stack_with_lengths_1_and_t_runs_as_torch(kind):
    """T = 5, B = 3, lengths [5, 1, 4]: y, h_n (and c_n), and the gradients of x, h0 and every weight."""
    T, B, I, H, L = 5, 3, 2, 3, 2
    lengths = [5, 1, 4]
    torch.manual_seed(298)
    m = (torch.nn.LSTM if kind == "lstm" else torch.nn.RNN)(I, H, num_layers=L, bidirectional=True,
                                                             dtype=torch.float64)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((T, B, I))
    hx = [rng.standard_normal((2 * L, B, H)) for _ in range(2 if kind == "lstm" else 1)]
    w_y, w_h = rng.standard_normal((T, B, 2 * H)), rng.standard_normal((2 * L, B, H))

    xt = torch.from_numpy(x).requires_grad_()
    st = [torch.from_numpy(s).requires_grad_() for s in hx]
    packed = torch.nn.utils.rnn.pack_padded_sequence(xt, torch.tensor(lengths), enforce_sorted=False)
    y_ref, s_ref = m(packed, tuple(st) if kind == "lstm" else st[0])
    y_ref, _ = torch.nn.utils.rnn.pad_packed_sequence(y_ref, total_length=T)
    s_ref = list(s_ref) if kind == "lstm" else [s_ref]
    ((y_ref * torch.from_numpy(w_y)).sum() + (s_ref[0] * torch.from_numpy(w_h)).sum()).backward()

    params = _jnp(m.state_dict())
    lens = jnp.asarray(lengths)

    def run(x, state, params):
        return lj.apply(params, x, tuple(state) if kind == "lstm" else state[0], lens, cell=kind, norm=None)

    y, s = run(jnp.asarray(x), [jnp.asarray(a) for a in hx], params)
    s = list(s) if kind == "lstm" else [s]
    assert y.shape == (T, B, 2 * H) and all(a.shape == (2 * L, B, H) for a in s)
    np.testing.assert_allclose(np.asarray(y), y_ref.detach().numpy(), rtol=0, atol=1e-11)
    for a, b in zip(s, s_ref):
        np.testing.assert_allclose(np.asarray(a), b.detach().numpy(), rtol=0, atol=1e-11)

    def loss(x, state, params):
        y, s = run(x, state, params)
        h_n = s[0] if kind == "lstm" else s
        return (y * w_y).sum() + (h_n * w_h).sum()

    gx, gs, gp = jax.grad(loss, argnums=(0, 1, 2))(jnp.asarray(x), [jnp.asarray(a) for a in hx], params)
    np.testing.assert_allclose(np.asarray(gx), xt.grad.numpy(), rtol=0, atol=1e-10)
    for a, b in zip(gs, st):
        np.testing.assert_allclose(np.asarray(a), b.grad.numpy(), rtol=0, atol=1e-10)
    for name, p in m.named_parameters():
        np.testing.assert_allclose(np.asarray(gp[name]), p.grad.numpy(), rtol=0, atol=1e-10, err_msg=name)


def test_float16_is_refused_by_init_init_stats_and_apply_word_for_word():
    """apply's x of float16 with float32 parameters: the dtype sentence, not the mixed-dtype one."""
    _raises(TypeError, F16, lambda: lj.init(jax.random.PRNGKey(1), "rnn", None, 2, 3, dtype=jnp.float16))
    _raises(TypeError, F16, lambda: lj.init_stats("lstm", "bn", 3, 2, 4, dtype=jnp.float16))
    p = lj.init(jax.random.PRNGKey(1), "rnn", None, 2, 3, dtype=jnp.float32)
    _raises(TypeError, F16, lambda: lj.apply(p, jnp.zeros((4, 2, 2), jnp.float16), cell="rnn", norm=None))
