"""A BN model's statistics on the device (SequenceModel._stats_on_device, lnrnn/model/models.py) are uploaded once
and then stay there: device updates of as many steps as the statistics have rows, or fewer, use the arrays already
on the device, with nothing fetched or uploaded between them; a longer batch grows them (the host rows grown, new
device arrays of its steps); and after all of it, the statistics fetched to the host are those of the CPU model
that took the same updates. Float64, under Numba's CUDA simulator in CI (or on a GPU)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse fixture: several blocks run)
from test_values139_models_cuda import build, targets  # noqa: E402

T, B = 4, 3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_statistics_stay_on_the_device_until_a_longer_batch(cell, monkeypatch):
    host, dev = build("cpu", "bn", False, T, noise=0.0, cell=cell), build("cuda", "bn", False, T, noise=0.0, cell=cell)
    rng = np.random.default_rng(455)
    uploads = []
    real = arrays_cuda.to_device

    def counted(a, *args, **kw):
        uploads.append(np.shape(a))
        return real(a, *args, **kw)
    monkeypatch.setattr(arrays_cuda, "to_device", counted)
    first = None
    for steps in (T, T, T - 2, T + 2):
        x = rng.standard_normal((steps, B, 2))
        y = targets(rng, B, steps, False)
        host.loss_and_grad(x, y)
        rows = [a.shape for a in dev.buffers.values()]
        dev.loss_and_grad_on_device(x, y, arrays_cuda.zeros((2,), np.float64))
        stats = dev._device_stats
        arrays = [a for d in stats for a in d.values()]
        if first is None:
            first, n = arrays, len(arrays)
            assert sum(1 for s in uploads if s in rows) >= n            # uploaded at the first update
        elif steps <= T:
            assert all(a is b for a, b in zip(arrays, first)), steps   # the same device arrays, nothing re-uploaded
            assert not any(s in rows for s in uploads), steps
        else:
            assert all(a.shape[0] == steps for a in arrays)
            assert all(b.shape[0] == steps for b in dev.buffers.values())
        uploads.clear()
    dev.pull_params()
    for name, a in host.buffers.items():
        np.testing.assert_allclose(dev.buffers[name][:a.shape[0]], a, rtol=1e-10, atol=1e-13, err_msg=name)
