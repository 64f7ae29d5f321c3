"""Where a stack's results live on device='cuda' (the simulator), for every way RecurrentStack runs its layers (one
way, Graves's skip, bidirectional, bidirectional with skip; lnrnn/model/layers.py): forward and backward take a
device array as they take a NumPy one; on_device=True leaves y, every final state and dL/dx on the device, and
on_device=False hands them back as NumPy arrays (a one-way stack's lower layers' states too); the initial-state
gradients come to the host either way; every value equals the CPU stack's (float64, a ragged batch). The
device update and the bindings keep a whole step on the device through these calls: a stack that copied y through
the host would give the same numbers with a copy each way, and refuse a device input."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model.layers import RecurrentStack

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")
if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)
    from lnrnn.kernels.cuda.arrays_cuda import is_device, to_device

T, B, I, H, L = 3, 3, 2, 3, 2
WAYS = [dict(), dict(skip=True), dict(bidirectional=True), dict(bidirectional=True, skip=True)]
IDS = ["one-way", "skip", "bidirectional", "bidirectional-skip"]


def _stack(device, way):
    return RecurrentStack("lstm", "ln", I, H, num_layers=L, dtype=np.float64, seed=3, max_steps=T, device=device,
                          **way)


def _leaves(states):
    return [a for s in states for a in s]


@pytest.mark.parametrize("way", WAYS, ids=IDS)
def test_on_device_leaves_results_on_the_device_and_off_it_hands_back_numpy(way):
    rng = np.random.default_rng(466)
    x = rng.standard_normal((T, B, I))
    lengths = np.array([T, 2, 1])
    cpu = _stack("cpu", way)
    y0, st0 = cpu.forward(x, lengths=lengths)
    dy = rng.standard_normal(y0.shape)
    dx0 = cpu.backward(dy)

    dev = _stack("cuda", way)
    y1, st1 = dev.forward(to_device(x), lengths=lengths, on_device=True)
    assert is_device(y1) and y1.shape == y0.shape
    assert all(is_device(a) for a in _leaves(st1))
    dx1 = dev.backward(to_device(dy), on_device=True)
    assert is_device(dx1) and dx1.shape == x.shape
    assert all(type(a) is np.ndarray for d in dev.dstate0 for a in d)   # initial-state gradients: the host's
    np.testing.assert_allclose(y1.copy_to_host(), y0, atol=1e-12)
    for a, b in zip(_leaves(st1), _leaves(st0)):
        np.testing.assert_allclose(a.copy_to_host(), b, atol=1e-12)
    np.testing.assert_allclose(dx1.copy_to_host(), dx0, atol=1e-12)

    y2, st2 = dev.forward(to_device(x), lengths=lengths)       # a device input, results asked for on the host
    assert type(y2) is np.ndarray and all(type(a) is np.ndarray for a in _leaves(st2))
    dx2 = dev.backward(to_device(dy))
    assert type(dx2) is np.ndarray
    np.testing.assert_allclose(y2, y0, atol=1e-12)
    np.testing.assert_allclose(dx2, dx0, atol=1e-12)
    for k, g in cpu.grads.items():                              # two backwards on the device: twice the CPU's one
        np.testing.assert_allclose(dev.grads[k], 2 * g, atol=1e-11, err_msg=k)
