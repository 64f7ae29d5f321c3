"""lnrnn.jax's bidirectional stacks (parameters with ``*_l{k}_reverse``: ``init(..., bidirectional=True)``).

The judges: ``jax.test_util.check_grads`` (float64 finite differences) of two-layer LN and BN stacks on
ragged rows with initial states and h_n in the loss; lnrnn.torch's bidirectional modules
(tests/interop/test_torch_bidirectional.py judges them against torch.nn.LSTM and lnrnn's own stack) on the same
parameters: outputs, final states, BN statistics and gradients. Without jax (or torch) these tests skip,
except where LNRNN_REQUIRE_EXTRAS=1 (CI): they fail."""
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
import lnrnn.torch as lt  # noqa: E402
from lnrnn.model import cells  # noqa: E402

jax.config.update("jax_enable_x64", True)
T, B, I, H = 4, 3, 2, 2


def _args(name, seed=0):
    """(cell, norm), bidirectional params moved off their initial values, x, state (4,B,H) each, lengths."""
    spec = cells.get(name)
    p = lj.init(jax.random.key(seed), spec.cell, spec.norm, I, H, 2, dtype=np.float64, bidirectional=True)
    rng = np.random.default_rng(seed + 1)
    p = {k: v + jnp.asarray(rng.uniform(-0.2, 0.2, v.shape)) for k, v in p.items()}
    x = jnp.asarray(rng.standard_normal((T, B, I)))
    state = tuple(jnp.asarray(rng.uniform(-0.5, 0.5, (4, B, H))) for _ in range(spec.nstate))
    return (spec.cell, spec.norm), p, x, state, jnp.array([4, 2, 3])


@pytest.mark.parametrize("name", ["ln-lstm", "bn-lstm", "ln-rnn", "bn-rnn"])
def test_check_grads_two_bidirectional_layers_ragged(name):
    spec = cells.get(name)
    (cell, norm), p, x, state, lengths = _args(name)
    rng = np.random.default_rng(9)
    wy, wh = jnp.asarray(rng.standard_normal((T, B, 2 * H))), jnp.asarray(rng.standard_normal((4, B, H)))

    def loss(x, p, *st):
        y, final = lj.apply(p, x, st if spec.nstate == 2 else st[0], lengths, cell=cell, norm=norm)
        h_n = final[0] if spec.nstate == 2 else final
        return jnp.sum(wy * y) + jnp.sum(wh * h_n)

    check_grads(loss, (x, p, *state), order=1, modes=["rev"], eps=1e-6)


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "bn-rnn"])
def test_equals_the_torch_binding_on_the_same_parameters(name):
    """The params dict is the torch module's state_dict (nn.LSTM's names): y, h_n(, c_n), the updated BN
    statistics and the gradients of x, the states and every parameter, ragged rows, float64."""
    spec = cells.get(name)
    (cell, norm), p, x, state, lengths = _args(name, seed=3)
    m = (lt.LSTM if spec.cell == "lstm" else lt.RNN)(I, H, num_layers=2, norm=norm if norm != "none" else None,
                                                     bidirectional=True, dtype=torch.float64)
    m.load_state_dict({k: torch.from_numpy(np.array(v)) for k, v in p.items()}, strict=False)
    xt = torch.from_numpy(np.array(x)).requires_grad_()
    st = [torch.from_numpy(np.array(s)).requires_grad_() for s in state]
    out, final = m(xt, tuple(st) if spec.nstate == 2 else st[0], lengths=torch.from_numpy(np.array(lengths)))
    final = final if spec.nstate == 2 else (final,)
    (out.square().sum() + final[0].sum()).backward()
    stats = lj.init_stats(cell, norm, H, 2, T, dtype=np.float64, bidirectional=True)
    (y, fin), new_stats = lj.apply(p, x, state if spec.nstate == 2 else state[0], lengths, cell=cell, norm=norm,
                                   stats=stats or None, mutable=True)
    fin = fin if spec.nstate == 2 else (fin,)
    np.testing.assert_allclose(np.asarray(y), out.detach().numpy(), rtol=0, atol=1e-13)
    for a, b in zip(fin, final):
        np.testing.assert_allclose(np.asarray(a), b.detach().numpy(), rtol=0, atol=1e-13)
    for k, v in new_stats.items():
        np.testing.assert_allclose(np.asarray(v), m.get_buffer(k).numpy(), rtol=0, atol=1e-13)

    def loss(x, p, *s):
        y, f = lj.apply(p, x, s if spec.nstate == 2 else s[0], lengths, cell=cell, norm=norm)
        return jnp.sum(y ** 2) + jnp.sum(f[0] if spec.nstate == 2 else f)

    gx, gp, *gs = jax.grad(loss, argnums=tuple(range(2 + spec.nstate)))(x, p, *state)
    np.testing.assert_allclose(np.asarray(gx), xt.grad.numpy(), rtol=0, atol=1e-12)
    for a, b in zip(gs, st):
        np.testing.assert_allclose(np.asarray(a), b.grad.numpy(), rtol=0, atol=1e-12)
    for k, v in m.named_parameters():
        np.testing.assert_allclose(np.asarray(gp[k]), v.grad.numpy(), rtol=0, atol=1e-12)


def test_bad_bidirectional_arguments_are_refused_in_one_sentence_naming_them():
    (cell, norm), p, x, state, lengths = _args("ln-lstm")
    with pytest.raises(ValueError, match=r"^h0 must have shape \(num_layers \* 2, B, H\) = \(4, 3, 2\), got "
                                         r"\(2, 3, 2\)\.$"):
        lj.apply(p, x, tuple(s[:2] for s in state), cell=cell, norm=norm)
    with pytest.raises(ValueError, match=r"^lengths must lie in \[0, 4\]"):
        lj.apply(p, x, state, jnp.array([5, 1, 1]), cell=cell, norm=norm)
    with pytest.raises(ValueError, match=r"^lengths must be 3 integers"):
        lj.apply(p, x, state, jnp.array([4, 1]), cell=cell, norm=norm)
    q = dict(p)
    del q["weight_hh_l1_reverse"]
    with pytest.raises(ValueError, match=r"missing \['weight_hh_l1_reverse'\]"):
        lj.apply(q, x, state, cell=cell, norm=norm)
    with pytest.raises(ValueError, match=r"^weight_ih_l1_reverse has shape \(8, 2\), expected \(8, 4\)"):
        lj.apply({**p, "weight_ih_l1_reverse": p["weight_ih_l1_reverse"][:, :2]}, x, state, cell=cell, norm=norm)
    with pytest.raises(TypeError, match=r"^c0 is float32 but x is float64"):
        lj.apply(p, x, (state[0], state[1].astype(jnp.float32)), cell=cell, norm=norm)
