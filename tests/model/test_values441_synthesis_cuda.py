"""A BatchNorm synthesis model's update on the device with truncated BPTT (``loss_and_grad_on_device``,
tbptt 2 over T 4: a second chunk from step t0 = 2) equals the host's: every parameter gradient, the loss's
sums, and the running statistics of the window layer and the LSTM layer above it, which the device keeps
and updates from row t0 of its own copies in the second chunk (fetched with ``pull_params``).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0); shapes of
tests/model/test_synthesis_cuda.py (blocks of 8, tiles of 4; T=4 B=3 H=5 K=2 C=5 U=4), float64.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from test_cuda_kernels import close, small_blocks  # noqa: E402,F401  (autouse fixture: blocks of 8, tiles of 4)
from test_synthesis_cuda import TOL, batch, model_pair  # noqa: E402


def chunked_updates(T, tbptt):
    """A BN synthesis model's update of batch(T) in chunks of ``tbptt`` steps on the host and on the device, the
    loss's sums and every parameter gradient checked equal -> host, device (its parameters and statistics
    pulled), the host's BN statistics before the update."""
    from lnrnn.kernels.cuda import arrays_cuda
    x, y, lengths, text = batch(T)
    _, host = model_pair("bn")
    _, dev = model_pair("bn")
    assert dev.device_refusal() is None
    assert [layer.norm for layer in dev.stack.layers] == ["bn", "bn"]
    before = {n: a.copy() for n, a in host.buffers.items()}
    host.loss_and_grad(x, y, lengths, tbptt=tbptt, text=text)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=lengths, tbptt=tbptt, text=text)
    assert count == host.last_count == lengths.sum()
    assert sums.copy_to_host()[0] == pytest.approx(host.last_sums["loss"], rel=1e-12)
    g_dev, g_host = dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data
    assert np.count_nonzero(g_host) > 0.8 * g_host.size and close(g_dev, g_host) < TOL
    dev.pull_params()
    assert host.buffers.keys() == dev.buffers.keys() == before.keys()
    return host, dev, before


def test_batchnorm_synthesis_update_in_chunks_on_the_device_equals_the_host():
    host, dev, before = chunked_updates(4, 2)
    window = [n for n in host.buffers if n.startswith(f"rnn.{dev.stack._name(0)}")]
    assert window  # the window layer's own statistics are among them
    for n, a in host.buffers.items():
        rows = np.flatnonzero(np.any(a != before[n], axis=tuple(range(1, a.ndim))))
        assert rows.min() < 2 <= rows.max(), n  # both chunks moved them: steps 0-1 and 2-3
        assert close(dev.buffers[n], a) < TOL, n
