"""The device update (``SequenceModel.loss_and_grad_on_device`` in lnrnn/model/models.py, the simulator in CI) of a
batch that scores a single unit, equal to the CPU model's ``loss_and_grad``: a last-step head over one row, or over
three rows of which one has steps, and a per-step head with one valid step in the batch. The gradients are the
mean over the scored units, so a count of 1 divides by 1; a batch that scores nothing gives zero gradients."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.model.models import build_model  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse fixture: several blocks run)

T, I, H, C = 4, 2, 3, 3


def build(device, per_step):
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": C, "per_step": per_step})
    return build_model(cfg, seed=471, device=device, max_steps=T)


CASES = {"one row": (False, None, 1), "one of three rows": (False, np.array([0, 3, 0]), 1),
         "one valid step": (True, np.array([0, 1, 0]), 1), "nothing scored": (False, np.array([0, 0]), 0)}


@pytest.mark.parametrize("case", list(CASES))
def test_a_batch_scoring_one_unit_updates_as_on_the_cpu(case):
    per_step, lengths, scored = CASES[case]
    B = 1 if lengths is None else len(lengths)
    rng = np.random.default_rng(4710)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, C, (B, T) if per_step else B)
    host, dev = build("cpu", per_step), build("cuda", per_step)
    host.loss_and_grad(x, y, lengths)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=lengths)
    assert count == host.last_count == scored
    got = sums.copy_to_host()
    assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-10)
    want = host.flat[1].data
    assert (np.abs(want).max() > 1e-3) == bool(scored)   # a scored unit moves the gradient; none leaves it zero
    np.testing.assert_allclose(dev.device_buffers()[1].data.copy_to_host(), want, rtol=1e-9, atol=1e-12)
