"""What a stack of three layers on device='cuda' (the simulator in CI) copies to the host, for every way
RecurrentStack runs its layers (one way, Graves's skip, bidirectional, bidirectional with skip;
lnrnn/model/layers.py): the sequence passes from layer to layer on the device, forward and backward, so with
on_device=True no sequence-long array (T,...) comes to the host at all, and with on_device=False exactly one, the
top's y forward or the bottom's dL/dx backward; the values equal the CPU stack's (float64). A stack whose middle
layer handed its output or its dL/dx through the host would give the same numbers with a copy each way per layer on
a GPU; two layers have no middle one. Every device-to-host copy is recorded as in test_values468."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda.arrays_cuda import is_device, to_device  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse fixture: several blocks run)
from test_values466_stack_residence_cuda import IDS, WAYS  # noqa: E402  (every way a stack runs)
from test_values468_last_step_residence_cuda import copies  # noqa: E402,F401  (fixture: the copies' shapes)

T, B, I, H, L = 7, 3, 2, 4, 3          # T is no other array's first dimension


def _stack(device, way):
    return RecurrentStack("lstm", "ln", I, H, num_layers=L, dtype=np.float64, seed=469, max_steps=T, device=device,
                          **way)


def _sequences(shapes):
    return [s for s in shapes if s[0] == T]


@pytest.mark.parametrize("way", WAYS, ids=IDS)
def test_three_layers_pass_the_sequence_on_the_device(copies, way):
    rng = np.random.default_rng(469)
    x = rng.standard_normal((T, B, I))
    cpu = _stack("cpu", way)
    y0, _ = cpu.forward(x)
    dy = rng.standard_normal(y0.shape)
    dx0 = cpu.backward(dy)

    dev = _stack("cuda", way)
    copies.clear()
    y1, _ = dev.forward(to_device(x), on_device=True)
    dx1 = dev.backward(to_device(dy), on_device=True)
    assert is_device(y1) and is_device(dx1)
    assert _sequences(copies) == []
    np.testing.assert_allclose(y1.copy_to_host(), y0, atol=1e-12)
    np.testing.assert_allclose(dx1.copy_to_host(), dx0, atol=1e-12)

    copies.clear()
    y2, _ = dev.forward(to_device(x))
    assert _sequences(copies) == [y0.shape]                          # the top's y, once
    copies.clear()
    dx2 = dev.backward(to_device(dy))
    assert _sequences(copies) == [x.shape]                           # the bottom's dL/dx, once
    np.testing.assert_allclose(y2, y0, atol=1e-12)
    np.testing.assert_allclose(dx2, dx0, atol=1e-12)
