"""Layers on device='cuda' (CUDA simulator in CI) equal device='cpu': outputs, final states, every
gradient and the BN population statistics, two stacked layers. Every kernel pair is compared on its own
in test_cuda_kernels.py; here two cell x norm pairs cover the layer's CPU/CUDA plumbing (the simulator
is slow: about 30 s a pair)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.layers import RecurrentStack

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "bn")])
def test_cuda_stack_equals_cpu_stack(cell, norm):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 3, 2))
    dy = rng.standard_normal((3, 3, 5))
    out = {}
    for device in ("cpu", "cuda"):
        s = RecurrentStack(cell, norm, 2, 5, num_layers=2, dtype=np.float64, seed=3, max_steps=3, device=device)
        y, states = s.forward(x, training=True)
        dx = s.backward(dy)
        out[device] = (y, states, dx, s.grads, s.buffers)
    (y0, s0, dx0, g0, b0), (y1, s1, dx1, g1, b1) = out["cpu"], out["cuda"]
    assert isinstance(y1, np.ndarray) and isinstance(dx1, np.ndarray)
    assert np.allclose(y0, y1, atol=1e-12) and np.allclose(dx0, dx1, atol=1e-12)
    for a, b in zip(s0, s1):
        for u, v in zip(a, b):
            assert np.allclose(u, v, atol=1e-12)
    for k in g0:
        assert np.allclose(g0[k], g1[k], atol=1e-11), k
    for k in b0:
        assert np.allclose(b0[k], b1[k], atol=1e-12), k
