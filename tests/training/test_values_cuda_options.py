"""The CUDA twins (the simulator in CI) with the options on that the plain comparisons leave off, equal to
the CPU path: the initial-state noise of training (the update's key) and of evaluation (each batch's
key), a last-step head evaluated both on the device-resident path (no lengths: only y[T-1] comes back)
and through the chunked inference with lengths (each row's own last step, an empty row), a per-step
BatchNorm head evaluated in several time chunks past the steps its statistics hold, truncated BPTT, and
an inference step. The noise is checked to matter (the figures without it differ), so a path that drops
it on one device shows."""
import numpy as np
import pytest

from lnrnn import backend
from lnrnn.model import models

ok, why = backend.cuda_usable()
pytestmark = pytest.mark.skipif(not ok, reason=f"CUDA not usable: {why}")

if ok:  # small launch geometry and the simulator's race-free shared arrays, as for the kernel tests
    from test_cuda_kernels import small_blocks  # noqa: F401  (autouse fixture)

T, B, I, H, C = 4, 3, 2, 3, 3


def build(device, cell, norm, per_step, noise, Ts=T):
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=2, dtype="float64", forget_bias=1.0,
               state_noise=noise, head={"kind": "classifier", "outputs": C, "per_step": per_step})
    return models.build_model(cfg, seed=6, device=device, max_steps=Ts)


def data(per_step, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, C, (B, T) if per_step else B)
    return x, y


def run_last_step(device, noise):
    """LN-LSTM, last-step head: an update without lengths (the device-resident path on 'cuda'), and the
    evaluation sums of two batches (the first without lengths, the second with) under their keys."""
    m = build(device, "lstm", "ln", False, noise)
    x, y = data(False)
    means = m.loss_and_grad(x, y, noise_key=3)
    grads = m.flat[1].data.copy()
    lengths = np.array([4, 0, 2])
    batches = [(x, y, None), (x[:, ::-1].copy(), y[::-1].copy(), lengths)]
    sums = [m.loss_sums(bx, by, bl, noise_key=i) for i, (bx, by, bl) in enumerate(batches)]
    return means, grads, sums


def test_last_step_head_with_state_noise_on_both_devices():
    cpu, cuda = run_last_step("cpu", 0.4), run_last_step("cuda", 0.4)
    (m0, g0, s0), (m1, g1, s1) = cpu, cuda
    assert m1["loss"] == pytest.approx(m0["loss"], rel=1e-12) and m1["acc"] == m0["acc"]
    np.testing.assert_allclose(g1, g0, rtol=1e-10, atol=1e-12)
    for (a, ca), (b, cb) in zip(s0, s1):
        assert ca == cb and all(b[k] == pytest.approx(a[k], rel=1e-12, abs=1e-14) for k in a)
    assert s0[1][1] == 2                                        # the empty row is not scored
    quiet = run_last_step("cpu", 0.0)
    assert quiet[0]["loss"] != pytest.approx(m0["loss"], rel=1e-6)              # the noise matters...
    assert quiet[2][0][0]["loss"] != pytest.approx(s0[0][0]["loss"], rel=1e-6)  # ...in both evaluations
    assert quiet[2][1][0]["loss"] != pytest.approx(s0[1][0]["loss"], rel=1e-6)


def run_per_step(device, monkeypatch):
    """BN-RNN, per-step head, statistics for 2 steps: an update in chunks of 3 steps (truncated BPTT) with
    lengths, an evaluation in time chunks of 1 step (past the statistics' steps), one inference step."""
    m = build(device, "rnn", "bn", True, 0.4, Ts=2)
    rng = np.random.default_rng(1)
    for k, v in m.buffers.items():   # population statistics whose rows differ from step to step
        m.buffers[k][...] = (rng.uniform(0.5, 2.0, v.shape) if k.rsplit(".", 1)[-1].startswith("rv")
                          else rng.normal(0, 0.5, v.shape))
    x, y = data(True, seed=2)
    lengths = np.array([4, 1, 3])
    means = m.loss_and_grad(x, y, lengths, tbptt=3, noise_key=5)
    grads = m.flat[1].data.copy()
    buffers = {k: np.array(v) for k, v in m.buffers.items()}
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", B)          # one step a chunk
    sums = m.loss_sums(x, y, lengths, noise_key=1)
    o, _ = m.step(x[0], m.noise_state(B, (3, 0)), t=3)
    return means, grads, buffers, sums, o


def test_per_step_batchnorm_head_with_noise_lengths_and_chunks_on_both_devices(monkeypatch):
    (m0, g0, b0, s0, o0), (m1, g1, b1, s1, o1) = run_per_step("cpu", monkeypatch), run_per_step("cuda", monkeypatch)
    assert m1["loss"] == pytest.approx(m0["loss"], rel=1e-12) and m1["acc"] == m0["acc"]
    np.testing.assert_allclose(g1, g0, rtol=1e-10, atol=1e-12)
    for k in b0:
        np.testing.assert_allclose(b1[k], b0[k], rtol=1e-12, atol=1e-12, err_msg=k)
    assert s1[1] == s0[1] == int(np.sum(np.array([4, 1, 3])))
    assert all(s1[0][k] == pytest.approx(s0[0][k], rel=1e-12, abs=1e-14) for k in s0[0])
    np.testing.assert_allclose(o1, o0, rtol=1e-12, atol=1e-12)


def run_bidirectional_skip(device):
    """A bidirectional BN-LSTM skip stack (two layers, both directions, x fed to each) with a last-step head
    and state noise: an update without lengths (each direction's BN statistics of every step move), then
    two evaluations under their keys: without lengths (the device reversal reads every row as T long) and
    with them (a row of no step, a short one)."""
    cfg = dict(cell="lstm", norm="bn", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, state_noise=0.4, bidirectional=True, skip=True,
               head={"kind": "classifier", "outputs": C, "per_step": False})
    m = models.build_model(cfg, seed=7, device=device, max_steps=T)
    x, y = data(False, seed=3)
    means = m.loss_and_grad(x, y, noise_key=2)
    grads = m.flat[1].data.copy()
    buffers = {k: np.array(v) for k, v in m.buffers.items()}
    sums = [m.loss_sums(x, y, None, noise_key=1), m.loss_sums(x[::-1].copy(), y, np.array([3, 0, 2]), noise_key=4)]
    return means, grads, buffers, sums


def test_bidirectional_skip_stack_with_noise_and_statistics_on_both_devices():
    (m0, g0, b0, s0), (m1, g1, b1, s1) = run_bidirectional_skip("cpu"), run_bidirectional_skip("cuda")
    assert m1["loss"] == pytest.approx(m0["loss"], rel=1e-12) and m1["acc"] == m0["acc"]
    np.testing.assert_allclose(g1, g0, rtol=1e-10, atol=1e-12)
    assert any("reverse" in k for k in b0)
    for k in b0:
        np.testing.assert_allclose(b1[k], b0[k], rtol=1e-12, atol=1e-12, err_msg=k)
    for (a, ca), (b, cb) in zip(s0, s1):
        assert ca == cb and all(b[k] == pytest.approx(a[k], rel=1e-12, abs=1e-14) for k in a)
    assert s0[1][1] == 2                                        # the empty row is not scored
