"""Graves's skip stack (every layer reads [x | h_below], y = [h_0 | ... ]) on device='cuda' (the simulator)
equals the CPU stack: output, final states, dL/dx (every layer's x columns added), every parameter gradient
(the upper layers' dL/dh sent back into the layers below them) and the BN rows, three layers, with lengths;
and the CPU stack's dL/dx and a bottom-layer gradient equal central differences (float64)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model.layers import RecurrentStack

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)

T, B, I, H, L = 3, 3, 2, 3, 3


def run(device, cell, norm, x, dy, lengths):
    s = RecurrentStack(cell, norm, I, H, num_layers=L, dtype=np.float64, seed=5, max_steps=T, device=device,
                       skip=True)
    y, states = s.forward(x, training=True, lengths=lengths)
    dx = s.backward(dy)
    return s, y, states, dx


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "bn")])
def test_cuda_skip_stack_equals_cpu_and_central_differences(cell, norm):
    rng = np.random.default_rng(2251)
    x = rng.standard_normal((T, B, I))
    dy = rng.standard_normal((T, B, L * H))
    lengths = np.array([T, 2, T])
    s0, y0, st0, dx0 = run("cpu", cell, norm, x, dy, lengths)
    s1, y1, st1, dx1 = run("cuda", cell, norm, x, dy, lengths)
    assert y1.shape == (T, B, L * H)
    np.testing.assert_allclose(y1, y0, atol=1e-12)
    np.testing.assert_allclose(dx1, dx0, atol=1e-12)
    for a, b in zip(st0, st1):
        for u, v in zip(a, b):
            np.testing.assert_allclose(v, u, atol=1e-12)
    g0, g1 = s0.grads, s1.grads
    for k in g0:
        np.testing.assert_allclose(g1[k], g0[k], atol=1e-11, err_msg=k)
    for k, v in s0.buffers.items():
        np.testing.assert_allclose(s1.buffers[k], v, atol=1e-12, err_msg=k)
    if norm == "bn":
        return  # training BN rows move with every forward: the central differences below are the LN stack's

    def loss(xx, stack):
        y, _ = stack.forward(xx, training=True, lengths=lengths, keep=False)
        mask = (np.arange(T)[:, None] < lengths[None, :])[:, :, None]
        return float(np.sum(dy * y * mask))

    h = 1e-6
    num = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, dn = x.copy(), x.copy()
        up[i] += h
        dn[i] -= h
        num[i] = (loss(up, s0) - loss(dn, s0)) / (2 * h)
    np.testing.assert_allclose(dx0, num, atol=1e-7)
    W = s0.layers[0].params["Wh"]
    num = np.zeros_like(W)
    for i in np.ndindex(W.shape):
        keep = W[i]
        W[i] = keep + h
        up = loss(x, s0)
        W[i] = keep - h
        dn = loss(x, s0)
        W[i] = keep
        num[i] = (up - dn) / (2 * h)
    np.testing.assert_allclose(g0["l0.Wh"], num, atol=1e-7)
