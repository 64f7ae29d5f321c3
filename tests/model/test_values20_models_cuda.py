"""The device update (``SequenceModel.loss_and_grad_on_device``, the simulator in CI) under truncated BPTT
on a ragged batch with initial-state noise, equal to the CPU model's ``loss_and_grad`` with the same chunks:
a last-step head scores each row once, in the chunk that holds its last step, and a later chunk runs each
row only up to its own end (a BatchNorm cell's statistics count running rows only, so a row run past its end
shows in every other row)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model.models import build_model

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)

T, B, I, H, C = 6, 5, 2, 3, 3
LENGTHS = np.array([6, 2, 5, 1, 3])        # rows ending in each chunk of 2


def build(device, norm, per_step):
    cfg = dict(cell="lstm", norm=norm, input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, state_noise=0.3, head={"kind": "classifier", "outputs": C, "per_step": per_step})
    return build_model(cfg, seed=6, device=device, max_steps=T)


@pytest.mark.parametrize("norm,per_step", [("ln", False), ("bn", True), ("bn", False)])
def test_device_update_in_chunks_equals_the_cpu(norm, per_step):
    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(5)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, C, (B, T) if per_step else B)
    host, dev = build("cpu", norm, per_step), build("cuda", norm, per_step)
    host.loss_and_grad(x, y, LENGTHS, tbptt=2, noise_key=4)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, noise_key=4, lengths=LENGTHS, tbptt=2)
    assert count == host.last_count == (LENGTHS.sum() if per_step else B)
    got = sums.copy_to_host()
    assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-10) and got[1] == host.last_sums["acc"]
    np.testing.assert_allclose(dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data, rtol=1e-9,
                               atol=1e-12)
    if norm == "bn":
        dev.pull_params()
        for name, a in host.buffers.items():
            np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-10, atol=1e-13, err_msg=name)
