"""What a model on device='cuda' (the simulator in CI) with a last-step head brings to the host when the stack's
outputs can stay on the device (one whole chunk, no lengths: lnrnn/model/models.py's ``_fast_last``): in training
and in evaluation, only the last step's rows (B,H) of the top layer's output come back, never a whole sequence
(T,B,H), nor dL/dx in training, which nothing reads; the losses and gradients equal the CPU model's (float64). A
model that copied y or dL/dx through the host would give the same numbers with a sequence-long copy each step on a
GPU. Every device-to-host copy is recorded by wrapping the device array type's ``copy_to_host``."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.model.models import build_model  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse fixture: several blocks run)

T, B, I, H, C = 7, 5, 2, 4, 3          # no parameter or state has a dimension T or (T,B) leading


def build(device, layers):
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": C, "per_step": False})
    return build_model(cfg, seed=468, device=device, max_steps=T)


@pytest.fixture
def copies(monkeypatch):
    """The shapes of the device arrays copied to the host, in order."""
    log = []
    kind = type(arrays_cuda.to_device(np.zeros(1)))
    plain = kind.copy_to_host

    def recorded(self, *args, **kwargs):
        log.append(tuple(self.shape))
        return plain(self, *args, **kwargs)

    monkeypatch.setattr(kind, "copy_to_host", recorded)
    return log


@pytest.mark.parametrize("layers", [1, 2])
def test_a_last_step_head_brings_only_the_last_rows_to_the_host(copies, layers):
    rng = np.random.default_rng(468)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, C, B)
    host, dev = build("cpu", layers), build("cuda", layers)
    assert dev._fast_last(None, False)
    want = host.loss_and_grad(x, y, noise_key=1)
    copies.clear()
    got = dev.loss_and_grad(x, y, noise_key=1)
    assert got == pytest.approx(want, rel=1e-10)
    np.testing.assert_allclose(dev.flat[1].data, host.flat[1].data, rtol=1e-9, atol=1e-12)
    assert (B, H) in copies                                             # the head's rows
    assert [s for s in copies if s[0] == T] == []                      # no y, no dL/dx

    (s0, c0) = host.loss_sums(x, y, noise_key=2)
    copies.clear()
    s1, c1 = dev.loss_sums(x, y, noise_key=2)
    assert copies == [(B, H)]                                           # evaluation: the last rows alone
    assert c1 == c0 == B
    for m in s0:
        assert s1[m] == pytest.approx(s0[m], rel=1e-10), m


def test_the_last_step_run_leaves_the_whole_output_on_the_device(copies):
    rng = np.random.default_rng(4680)
    x = rng.standard_normal((T, B, I))
    host, dev = build("cpu", 2), build("cuda", 2)
    want, _ = host.stack.forward(x, training=False)
    copies.clear()
    h, y_dev = dev._run_last_on_device(x, training=False)
    assert copies == [(B, H)]
    assert type(h) is np.ndarray and arrays_cuda.is_device(y_dev)
    np.testing.assert_allclose(h, want[T - 1], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(y_dev.copy_to_host(), want, rtol=1e-10, atol=1e-12)
