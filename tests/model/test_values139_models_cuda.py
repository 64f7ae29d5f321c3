"""The model on device='cuda' (the simulator in CI) with every option on, equal to the CPU model in float64:
the device update (``loss_and_grad_on_device``) and the host-driven update of a CUDA stack (``loss_and_grad``)
under truncated BPTT in chunks that do not divide T, rows of unequal lengths with a row of length 1, keyed
initial-state noise, per-step and last-step heads and BatchNorm statistics over fewer rows than the batch has
steps (they grow); a bidirectional skip stack of two layers under a last-step head (forward columns at each
row's last step, backward ones at step 0); evaluation (``loss_sums``) in inference chunks; and the unmasked
last-step path that keeps the outputs on the device (``_fast_last``), in training and in evaluation. The CPU
model is the reference: its values are checked against NumPy and central differences elsewhere."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.model import models  # noqa: E402
from lnrnn.model.models import build_model  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse fixture: several blocks run)

I, H, C = 2, 3, 3


def build(device, norm, per_step, max_steps, noise=0.3, cell="lstm", **extra):
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=1, dtype="float64", forget_bias=1.0,
               state_noise=noise, head={"kind": "classifier", "outputs": C, "per_step": per_step}, **extra)
    return build_model(cfg, seed=13, device=device, max_steps=max_steps)


def targets(rng, B, T, per_step):
    return rng.integers(0, C, (B, T) if per_step else B)


def same_update(host, dev, sums, per_step, lengths, T):
    """The device update's count, sums, gradients and BN rows against the CPU model's."""
    B = len(lengths)
    want_count = int(lengths.sum()) if per_step else B
    assert host.last_count == want_count
    got = sums.copy_to_host()
    assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-10)
    assert got[1] == host.last_sums["acc"]
    np.testing.assert_allclose(dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data, rtol=1e-9,
                               atol=1e-12)
    dev.pull_params()
    np.testing.assert_allclose(dev.flat[0].data, host.flat[0].data, rtol=0, atol=0)
    for name, a in host.buffers.items():
        assert dev.buffers[name].shape[0] >= T, name
        np.testing.assert_allclose(dev.buffers[name][:a.shape[0]], a, rtol=1e-10, atol=1e-13, err_msg=name)


@pytest.mark.parametrize("per_step", [True, False])
def test_device_update_in_uneven_chunks_with_noise_equals_the_cpu(per_step):
    T, B = 5, 3
    lengths = np.array([5, 1, 3])                       # a row of length 1; chunks of 2 leave a last one of 1
    rng = np.random.default_rng(139)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, per_step)
    host, dev = build("cpu", "bn", per_step, T), build("cuda", "bn", per_step, T)
    host.loss_and_grad(x, y, lengths, tbptt=2, noise_key=4)
    sums = arrays_cuda.to_device(np.full(2, 7.0))      # stale sums: the update overwrites them
    count = dev.loss_and_grad_on_device(x, y, sums, noise_key=4, lengths=lengths, tbptt=2)
    assert count == host.last_count
    same_update(host, dev, sums, per_step, lengths, T)


def test_device_update_grows_short_batchnorm_rows_as_the_cpu():
    T, B = 5, 3
    lengths = np.array([2, 5, 1])
    rng = np.random.default_rng(1395)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, True)
    host, dev = build("cpu", "bn", True, 2, cell="rnn"), build("cuda", "bn", True, 2, cell="rnn")  # rows 2 -> 5
    host.loss_and_grad(x, y, lengths, noise_key=7)
    sums = arrays_cuda.zeros((2,), np.float64)
    dev.loss_and_grad_on_device(x, y, sums, noise_key=7, lengths=lengths)
    assert all(a.shape[0] == T for a in host.buffers.values())
    same_update(host, dev, sums, True, lengths, T)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_device_update_grows_batchnorm_rows_chunk_by_chunk_as_the_cpu(cell):
    """max_steps 2 under chunks of 2 over 5 steps: rows 2-3 are grown at the second chunk from row 1 as the first
    chunk left it, row 4 at the third from row 3 as the second left it (not all from row 1 before training)."""
    T, B = 5, 3
    lengths = np.array([5, 4, 2])
    rng = np.random.default_rng(13951)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, True)
    host, dev = build("cpu", "bn", True, 2, cell=cell), build("cuda", "bn", True, 2, cell=cell)
    host.loss_and_grad(x, y, lengths, tbptt=2, noise_key=3)
    sums = arrays_cuda.zeros((2,), np.float64)
    dev.loss_and_grad_on_device(x, y, sums, noise_key=3, lengths=lengths, tbptt=2)
    assert all(a.shape[0] == T for a in host.buffers.values())
    same_update(host, dev, sums, True, lengths, T)


def two_layer_bidirectional(device):
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, state_noise=0.3, head={"kind": "classifier", "outputs": C, "per_step": False},
               bidirectional=True, skip=True)
    return build_model(cfg, seed=13, device=device, max_steps=3)


def test_bidirectional_skip_two_layers_device_update_equals_the_cpu():
    T, B = 3, 3
    lengths = np.array([3, 1, 2])
    rng = np.random.default_rng(1392)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, False)
    host, dev = two_layer_bidirectional("cpu"), two_layer_bidirectional("cuda")
    assert len(host.stack.layers) == 4
    host.loss_and_grad(x, y, lengths, noise_key=2)
    sums = arrays_cuda.zeros((2,), np.float64)
    dev.loss_and_grad_on_device(x, y, sums, noise_key=2, lengths=lengths)
    same_update(host, dev, sums, False, lengths, T)


@pytest.mark.parametrize("per_step", [True, False])
def test_cuda_stack_host_update_and_chunked_evaluation_equal_the_cpu(per_step, monkeypatch):
    T, B = 5, 3
    lengths = np.array([1, 5, 4])
    rng = np.random.default_rng(1393)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, per_step)
    host, dev = build("cpu", "bn", per_step, T), build("cuda", "bn", per_step, T)
    want = host.loss_and_grad(x, y, lengths, tbptt=2, noise_key=3)
    got = dev.loss_and_grad(x, y, lengths, tbptt=2, noise_key=3)
    assert got == pytest.approx(want, rel=1e-10)
    np.testing.assert_allclose(dev.flat[1].data, host.flat[1].data, rtol=1e-9, atol=1e-12)
    for name, a in host.buffers.items():
        np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-10, atol=1e-13, err_msg=name)
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 2 * B)      # inference in chunks of 2 steps: 2 + 2 + 1
    assert models.infer_chunk_steps(B, T) == 2
    (s0, c0), (s1, c1) = host.loss_sums(x, y, lengths, noise_key=1), dev.loss_sums(x, y, lengths, noise_key=1)
    assert c1 == c0 == (lengths.sum() if per_step else B)
    for m in s0:
        assert s1[m] == pytest.approx(s0[m], rel=1e-10), m
    # evaluation reads the BN running rows and adds nothing to them
    for name, a in host.buffers.items():
        np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-10, atol=1e-13, err_msg=name)


def test_unmasked_last_step_path_on_the_device_equals_the_cpu():
    T, B = 4, 3                                            # T != B: a step read by the batch's size shows
    rng = np.random.default_rng(1394)
    x = rng.standard_normal((T, B, I))
    y = targets(rng, B, T, False)
    host, dev = build("cpu", "ln", False, T), build("cuda", "ln", False, T)
    assert dev._fast_last(None, False)
    want = host.loss_and_grad(x, y, noise_key=5)
    got = dev.loss_and_grad(x, y, noise_key=5)
    assert got == pytest.approx(want, rel=1e-10)
    np.testing.assert_allclose(dev.flat[1].data, host.flat[1].data, rtol=1e-9, atol=1e-12)
    (s0, c0), (s1, c1) = host.loss_sums(x, y, noise_key=6), dev.loss_sums(x, y, noise_key=6)
    assert c1 == c0 == B
    for m in s0:
        assert s1[m] == pytest.approx(s0[m], rel=1e-10), m
