"""What lnrnn.jax's layer keeps (lnrnn/interop/jax.py, module docstring: how it is built): a call without a gradient
runs the forward once keeping nothing; under jax.grad the forward keeps its residuals for the backward; with
remat=True the differentiated forward keeps nothing and the backward reruns it keeping. Seen by recording the
``keep`` of every host forward the callbacks make (the kernels' results are those of the unrecorded call)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") != "1":  # CI requires the extras: a missing jax fails there
    pytest.importorskip("jax")

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

import lnrnn.interop.jax as lj  # noqa: E402

T, B, I, H = 3, 2, 2, 3


@pytest.fixture
def keeps(monkeypatch):
    """The keep flag of every host forward, in call order."""
    seen, plain = [], lj._forward_one

    def recorded(cfg, keep, *args):
        seen.append(bool(keep))
        return plain(cfg, keep, *args)
    monkeypatch.setattr(lj, "_forward_one", recorded)
    return seen


def problem():
    params = lj.init(jax.random.PRNGKey(0), "lstm", "ln", I, H)
    x = jnp.asarray(np.random.default_rng(0).standard_normal((T, B, I)), jnp.float32)
    return params, x


def test_a_call_without_a_gradient_keeps_nothing(keeps):
    params, x = problem()
    y, _ = lj.apply(params, x, cell="lstm", norm="ln")
    jax.block_until_ready(y)
    assert keeps == [False]


@pytest.mark.parametrize("remat, want", [(False, [True]), (True, [False, True])])
def test_a_differentiated_call_keeps_once_before_its_backward(keeps, remat, want):
    params, x = problem()

    def loss(p):
        y, _ = lj.apply(p, x, cell="lstm", norm="ln", remat=remat)
        return jnp.sum(y * y)
    grads = jax.grad(loss)(params)
    jax.block_until_ready(grads)
    assert keeps == want
    assert all(np.all(np.isfinite(np.asarray(g))) for g in grads.values())
