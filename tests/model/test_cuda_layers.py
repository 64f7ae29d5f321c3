"""Layers on device='cuda' (CUDA simulator in CI) equal device='cpu': outputs, final states, every
gradient and the BN population statistics, two stacked layers. Every kernel pair is compared on its own
in test_cuda_kernels.py; here two cell x norm pairs cover the layer's CPU/CUDA plumbing, and a whole
model step covers the device-resident path (activations stay on the device between layers)."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model.layers import RecurrentStack

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)


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


@pytest.mark.parametrize("per_step", [False, True])
def test_cuda_model_step_equals_cpu(per_step):
    """A whole training step of the model on 'cuda' (activations between layers and the stack's output
    stay on the device; a last-step head copies back only y[T-1]) equals the CPU step: loss, accuracy
    and every gradient, head included; and the device path really keeps y there."""
    from lnrnn.model.models import SequenceClassifier, batches_of

    rng = np.random.default_rng(1)
    T, B, I, H, C = 4, 3, 2, 5, 3
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T) if per_step else B)
    out = {}
    for device in ("cpu", "cuda"):
        m = SequenceClassifier("lstm", "ln", I, H, num_layers=2, num_classes=C, per_step=per_step,
                               dtype="float64", seed=2, device=device)
        means = m.loss_and_grad(x, labels)
        loss, acc = means["loss"], means["acc"]
        out[device] = (loss, acc, {k: v.copy() for k, v in m.grads.items()}, list(m.evaluate(batches_of(x, labels)).values()))
        if device == "cuda":
            y, _ = m.stack.forward(x, on_device=True)
            assert backend.kernels("cuda").is_device(y)
    (l0, a0, g0, e0), (l1, a1, g1, e1) = out["cpu"], out["cuda"]
    assert abs(l0 - l1) < 1e-12 and a0 == a1 and np.allclose(e0, e1, rtol=1e-12)
    assert g0.keys() == g1.keys()
    for k in g0:
        assert np.allclose(g0[k], g1[k], rtol=1e-10, atol=1e-12), k


@pytest.mark.skipif(ok and backend.simulator_enabled(), reason="a real GPU only: 6 min under the simulator "
                    "(test_cuda_model_step_equals_cpu covers the same path on one step)")
def test_cli_train_on_cuda_matches_cpu(tmp_path):
    """`lnrnn train --device cuda` runs end to end on a GPU and, in float64 with the same seed, records
    the same learning curve as --device cpu."""
    from click.testing import CliRunner

    from lnrnn.cli import main
    from lnrnn.training.rundir import read_jsonl

    args = ["train", "--task", "digits", "--split", "64/32", "--hidden", "6", "--batch-size", "16", "--epochs", "1",
            "--dtype", "float64", "-q"]
    hist = {}
    for device in ("cpu", "cuda"):
        r = CliRunner().invoke(main, args + ["--device", device, "--out", str(tmp_path / device)])
        assert r.exit_code == 0, r.output + repr(r.exception)
        hist[device] = read_jsonl(tmp_path / device / "metrics.jsonl")
    a, b = hist["cpu"], hist["cuda"]
    assert a and len(a) == len(b)
    for ra, rb in zip(a, b):
        for key in ("train_loss", "val_loss", "val_acc"):
            assert abs(ra[key] - rb[key]) <= 1e-9 * max(1.0, abs(ra[key])), key


@pytest.mark.parametrize("cell,norm,per_step", [("lstm", "ln", True), ("lstm", "bn", False), ("rnn", "bn", True)])
def test_cuda_masked_chunked_model_equals_cpu(cell, norm, per_step):
    """A padded batch (lengths) trained in two chunks (truncated BPTT) from a carried state, then one
    inference step: the same loss, gradients, BN statistics and step output on 'cuda' as on 'cpu'."""
    from lnrnn.model.models import build_model

    rng = np.random.default_rng(4)
    T, B, I, H, C = 5, 5, 2, 3, 3
    x = rng.standard_normal((T, B, I))
    lengths = np.array([5, 2, 4, 5, 3])
    labels = rng.integers(0, C, (B, T) if per_step else B)
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64", forget_bias=1.0,
               head={"kind": "classifier", "outputs": C, "per_step": per_step})
    out = {}
    for device in ("cpu", "cuda"):
        m = build_model(cfg, seed=5, device=device, max_steps=T)
        means = m.loss_and_grad(x, labels, lengths, tbptt=3)
        o, _ = m.step(x[0], None, t=0)
        out[device] = (means, m.flat[1].data.copy(), {k: v.copy() for k, v in m.buffers.items()}, o)
    (m0, g0, b0, o0), (m1, g1, b1, o1) = out["cpu"], out["cuda"]
    assert abs(m0["loss"] - m1["loss"]) < 1e-12 and m0["acc"] == m1["acc"]
    np.testing.assert_allclose(g1, g0, rtol=1e-10, atol=1e-12)
    for k in b0:
        np.testing.assert_allclose(b1[k], b0[k], rtol=1e-12, atol=1e-12, err_msg=k)
    np.testing.assert_allclose(o1, o0, rtol=1e-12, atol=1e-12)
