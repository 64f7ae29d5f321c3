"""One training update on the device: the optimizers' and clipping's CUDA twin (lnrnn/kernels/optim_cuda.py)
against the CPU optimizers of lnrnn/training/optim.py (whose arithmetic, lnrnn/kernels/optim.py, is the
spec), under Numba's simulator (or on a GPU with NUMBA_ENABLE_CUDASIM=0).

Blocks of 6 threads (not a power of two: the in-block sums take their odd branch) over 203 parameters
(not a multiple of 6), with the grid capped at 4 blocks so every thread strides over several elements,
and uncapped (34 blocks, the last one partly idle)."""
import math

import numpy as np
import pytest

from lnrnn.training.optim import OPTIMIZERS, clip_grad_norm, make_optimizer

P = 203          # parameters: not a multiple of any block size used here
KINDS = sorted(OPTIMIZERS)


GRIDS = {"strided": (6, 4), "one-element-per-thread": (6, 1024)}   # threads per block, most blocks


@pytest.fixture(params=["strided"])
def small_blocks(request, monkeypatch):
    from lnrnn import backend, config
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn.kernels import optim_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    tpb, max_blocks = GRIDS[request.param]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    monkeypatch.setattr(arrays_cuda, "GRID_MAX_BLOCKS", max_blocks)
    return optim_cuda


def _gradients(rng, dtype, steps=3):
    """Three gradients: the first and last well above the clipping limit, the second below it."""
    out = []
    for k in range(steps):
        g = rng.standard_normal(P)
        g *= (20.0 if k != 1 else 0.2) / np.linalg.norm(g)
        out.append(g.astype(dtype))
    return out


MAX_NORM = 1.0


@pytest.mark.parametrize("kind,small_blocks", [(k, "strided") for k in KINDS] + [("adam", "one-element-per-thread")],
                         indirect=["small_blocks"])
def test_three_updates_equal_the_cpu_optimizer(small_blocks, kind):
    """Parameters, every optimizer slot and the clipped norms after three clipped updates (float64)."""
    from lnrnn.kernels.cuda import arrays_cuda
    optim_cuda = small_blocks
    rng = np.random.default_rng(3)
    p_cpu = rng.standard_normal(P)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer(kind, 0.01), make_optimizer(kind, 0.01)
    norm = arrays_cuda.to_device(np.zeros(1))
    clipped = []
    for g in _gradients(rng, np.float64):
        g_cpu, g_dev = g.copy(), arrays_cuda.to_device(g)
        want = clip_grad_norm(g_cpu, MAX_NORM)
        optim_cuda.clip_grad_norm(g_dev, MAX_NORM, norm)
        got = norm.copy_to_host()[0]
        assert got == pytest.approx(want, rel=1e-13)
        np.testing.assert_allclose(g_dev.copy_to_host(), g_cpu, rtol=1e-13, atol=0)  # scaled alike (or not)
        clipped.append(want > MAX_NORM)
        cpu.step(p_cpu, g_cpu)
        dev.step(p_dev, g_dev)
    assert clipped == [True, False, True]
    got = p_dev.copy_to_host()
    assert np.abs(got - p_cpu).max() <= 1e-12 * np.abs(p_cpu).max()
    want_state, got_state = cpu.state_dict(), dev.state_dict()
    assert got_state["step"] == want_state["step"] == 3
    assert set(got_state["slots"]) == set(want_state["slots"])
    for slot, arrays in want_state["slots"].items():
        assert set(got_state["slots"][slot]) == set(arrays)
        for name, a in arrays.items():
            b = got_state["slots"][slot][name]
            assert isinstance(b, np.ndarray) and a.any()
            assert np.abs(b - a).max() <= 1e-12 * np.abs(a).max(), (slot, name)


@pytest.mark.parametrize("kind", ["adam", "rmsprop-graves"])
def test_float32_updates_stay_float32_and_close(small_blocks, kind):
    from lnrnn.kernels.cuda import arrays_cuda
    optim_cuda = small_blocks
    rng = np.random.default_rng(4)
    p_cpu = rng.standard_normal(P).astype(np.float32)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer(kind, 0.01), make_optimizer(kind, 0.01)
    norm = arrays_cuda.to_device(np.zeros(1))
    for g in _gradients(rng, np.float32):
        g_cpu, g_dev = g.copy(), arrays_cuda.to_device(g)
        clip_grad_norm(g_cpu, MAX_NORM)
        optim_cuda.clip_grad_norm(g_dev, MAX_NORM, norm)
        cpu.step(p_cpu, g_cpu)
        dev.step(p_dev, g_dev)
    got = p_dev.copy_to_host()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, p_cpu, rtol=2e-6, atol=2e-6)


def test_resumed_device_optimizer_continues_as_the_cpu_one(small_blocks):
    """A device optimizer's state_dict (host arrays) loaded into a fresh one goes back to the device and
    continues as the CPU optimizer does; loading a CPU optimizer's state works alike."""
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.model.flat import FlatArrays
    rng = np.random.default_rng(5)
    layout = FlatArrays(np.zeros(P), [("a", (100,), 0), ("b", (103,), 100)])
    p_cpu = rng.standard_normal(P)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer("adam", 0.01), make_optimizer("adam", 0.01)
    grads = _gradients(rng, np.float64, steps=4)
    for g in grads[:2]:
        cpu.step(p_cpu, g.copy())
        dev.step(p_dev, arrays_cuda.to_device(g))
    state = dev.state_dict(layout)
    assert set(state["slots"]["m"]) == {"a", "b"}
    fresh = make_optimizer("adam", 0.5)
    fresh.load_state_dict(state, layout)
    for g in grads[2:]:
        cpu.step(p_cpu, g.copy())
        fresh.step(p_dev, arrays_cuda.to_device(g))
    np.testing.assert_allclose(p_dev.copy_to_host(), p_cpu, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("small_blocks", list(GRIDS), indirect=True)
def test_clipping_of_a_gradient_that_is_not_finite_leaves_it(small_blocks):
    """A NaN gradient: the norm is NaN (the trainer stops on it) and nothing is scaled, as on the CPU;
    no clipping limit (0): the norm is reported and nothing is scaled."""
    from lnrnn.kernels.cuda import arrays_cuda
    optim_cuda = small_blocks
    norm = arrays_cuda.to_device(np.zeros(1))
    g = np.linspace(-3, 5, P)
    g[P - 2] = np.nan
    d = arrays_cuda.to_device(g)
    optim_cuda.clip_grad_norm(d, MAX_NORM, norm)
    assert math.isnan(norm.copy_to_host()[0])
    np.testing.assert_array_equal(d.copy_to_host(), g)
    g = np.linspace(-3, 5, P)
    d = arrays_cuda.to_device(g)
    optim_cuda.clip_grad_norm(d, 0.0, norm)
    assert norm.copy_to_host()[0] == pytest.approx(np.linalg.norm(g), rel=1e-13)
    np.testing.assert_array_equal(d.copy_to_host(), g)


def test_twins_share_names_and_arguments():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    import inspect

    from lnrnn.kernels import optim, optim_cuda
    for name in ("sgd_update", "rmsprop_update", "rmsprop_momentum_update", "adam_update", "clip_grad_norm"):
        cpu, gpu = getattr(optim, name), getattr(optim_cuda, name)
        assert list(inspect.signature(cpu).parameters) == list(inspect.signature(gpu).parameters)


# ---- the model's update on the device: stack, head, loss ----

@pytest.fixture
def small_tiles(monkeypatch):
    """Blocks of 4 threads and GEMM tiles of 3: several blocks and ragged tiles on every shape below. Under the
    simulator also its race-free shared-array lookup and a short GIL switch interval (test_cuda_kernels)."""
    from lnrnn import backend, config
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn.kernels.cuda import gemm_cuda
    from test_cuda_kernels import simulator_race_free
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def _model(head, device, cell="lstm", norm="none", state_noise=0.0):
    from lnrnn.model.models import build_model
    cfg = dict(cell=cell, norm=norm, input_size=2, hidden_size=3, num_layers=2, dtype="float64", forget_bias=1.0,
               head=head, state_noise=state_noise)
    return build_model(cfg, seed=4, device=device, max_steps=4)


HEADS = {"classifier": {"kind": "classifier", "outputs": 7, "per_step": False},
         "regression": {"kind": "regression", "outputs": 3, "per_step": False, "tolerance": 0.5},
         "classifier-per-step": {"kind": "classifier", "outputs": 7, "per_step": True},
         "mdn": {"kind": "mdn", "components": 2, "per_step": True}}


def _targets(kind, rng, B, T=3):
    if kind.startswith("classifier"):
        lab = rng.integers(0, 7, (B, T) if kind.endswith("per-step") else B)
        lab[1] = -1  # not scored
        return lab
    if kind == "mdn":
        y = rng.standard_normal((B, T, 3))
        y[:, :, 2] = rng.random((B, T)) < 0.3                                  # pen lifts
        return y
    return rng.standard_normal((B, 3))


@pytest.mark.parametrize("kind,spread", [("classifier", 1.0), ("classifier", 900.0), ("regression", 1.0)])
def test_head_objective_kernels_equal_the_host_heads(small_tiles, kind, spread):
    """losses_cuda against the host heads' forward and backward on the same logits: d, the per-row losses'
    sum and the accuracy count; logits of +-900 (exp overflows without the max shift), a row not scored."""
    from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda
    from lnrnn.model.heads import make_head
    rng = np.random.default_rng(8)
    B, H = 9, 4
    head = make_head(HEADS[kind], H, dtype="float64", seed=1)
    head.params["b"][:] = rng.standard_normal(head.O)
    h = rng.standard_normal((B, H)) * spread
    y = _targets(kind, rng, B)
    valid = np.ones(B, bool)
    valid[4] = False
    sums, count, cache = head.forward(h, y, valid)
    dh = head.backward(cache, 0.25)
    mask = arrays_cuda.to_device(valid.astype(np.float64))
    d = arrays_cuda.empty((B, head.O), np.float64)
    rows = arrays_cuda.empty((B, 2), np.float64)
    hw = gemm_cuda.matmul(arrays_cuda.to_device(h), arrays_cuda.to_device(head.params["W"]))
    head._device_objective(hw, arrays_cuda.to_device(head.params["b"]), y, mask, 0.25, d, rows)
    got = rows.copy_to_host()
    assert np.all(np.isfinite(got)) and got[4].tolist() == [0.0, 0.0]
    assert got[:, 0].sum() == pytest.approx(sums["loss"], rel=1e-12) and got[:, 1].sum() == sums["acc"]
    assert 0 < sums["acc"] < count or kind == "regression"
    d_host = d.copy_to_host()
    np.testing.assert_allclose(d_host @ head.params["W"].T, dh, rtol=1e-10, atol=1e-13)
    assert not d_host[4].any()


@pytest.mark.parametrize("kind", sorted(HEADS))
def test_model_update_on_device_equals_the_host_head(small_tiles, kind):
    """loss_and_grad_on_device (stack, head and loss on the device; sums left there) equals loss_and_grad
    with the head on the host (float64): every gradient, the sums and the count."""
    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(6)
    T, B = 3, 7
    x = rng.standard_normal((T, B, 2))
    y = _targets(kind, rng, B)
    host, dev = _model(HEADS[kind], "cuda"), _model(HEADS[kind], "cuda")
    assert dev.device_refusal() is None
    means = host.loss_and_grad(x, y)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums)
    per_row = {"classifier": B - 1, "regression": B, "classifier-per-step": T * B - T, "mdn": T * B}[kind]
    assert count == host.last_count == per_row
    got = sums.copy_to_host()
    for i, m in enumerate(dev.head.metrics):   # loss, acc; the mixture density's loss, nats_seq
        assert got[i] == pytest.approx(host.last_sums[m], rel=1e-12, abs=1e-12), m
    assert got[0] != 0 and means["loss"] == pytest.approx(got[0] / count, rel=1e-12)
    g_dev = dev.device_buffers()[1].data.copy_to_host()
    g_host = host.flat[1].data
    assert np.abs(g_host).min() >= 0 and np.count_nonzero(g_host) > 0.9 * g_host.size
    np.testing.assert_allclose(g_dev, g_host, rtol=1e-10, atol=1e-13)
    assert not dev.flat[1].data.any()  # the host gradients are not touched: they live on the device


# ---- `lnrnn train --device cuda`: the update on the device, one copy of the metrics ----

def _npz(tmp_path, kind, ragged=False):
    """A tiny task of one's own: 10 training and 3 validation sequences of 3 steps of 2 inputs."""
    rng = np.random.default_rng(9)
    x = rng.standard_normal((10, 3, 2)).astype(np.float32)
    y = rng.integers(0, 3, 10) if kind == "classifier" else rng.standard_normal(10).astype(np.float32)
    arrays = dict(x=x[:7], y=y[:7], x_val=x[7:], y_val=y[7:])
    if ragged:
        arrays["lengths"] = np.array([3, 2, 3, 1, 3, 3, 2])
    path = tmp_path / f"{kind}.npz"
    np.savez(path, **arrays)
    return path


def _train(tmp_path, device, data, extra=(), steps=2, name=None):
    from click.testing import CliRunner

    from lnrnn.cli import main
    out = tmp_path / (name or device)
    args = ["train", "--task", "npz", "--data-dir", str(data), "--cell", "lstm", "--hidden", "3", "--batch-size",
            "4", "--epochs", "1", "--max-steps", str(steps), "--clip", "0.05", "--dtype", "float64", "--device",
            device, "--out", str(out), "--log-every", "1", "-q", *extra]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output + repr(r.exception)
    return out


@pytest.mark.parametrize("kind,optimizer,ragged", [("classifier", "adam", False), ("regression", "rmsprop-graves", True)])
def test_cli_train_on_device_equals_cpu(small_tiles, tmp_path, kind, optimizer, ragged):
    """Two clipped updates of `lnrnn train --device cuda` (the second batch ragged, on the device as well)
    record the losses, parameters and optimizer state of --device cpu (float64)."""
    from lnrnn.training.checkpoint import load_checkpoint
    from lnrnn.training.rundir import read_jsonl
    data = _npz(tmp_path, kind, ragged)
    runs = {}
    for device in ("cpu", "cuda"):
        out = _train(tmp_path, device, data, ("--optimizer", optimizer))
        updates = read_jsonl(out / "updates.jsonl")
        runs[device] = (updates, load_checkpoint(str(out)))
    (u0, (meta0, a0)), (u1, (meta1, a1)) = runs["cpu"], runs["cuda"]
    assert [r["step"] for r in u0] == [r["step"] for r in u1] == [1, 2]
    for r0, r1 in zip(u0, u1):
        assert r1["train_loss"] == pytest.approx(r0["train_loss"], rel=1e-12)
        assert r1["train_acc"] == r0["train_acc"]
    assert meta0["step"] == meta1["step"] == 2 and a0.keys() == a1.keys()
    moved = 0
    for k in a0:
        np.testing.assert_allclose(a1[k], a0[k], rtol=1e-10, atol=1e-13, err_msg=k)
        moved += k.startswith("optim/") and bool(np.any(a0[k]))
    assert moved > 0


def test_an_update_on_the_device_copies_only_its_metrics_to_the_host(small_tiles, tmp_path, monkeypatch):
    """Between the batch's upload and the next update, a device update copies one array to the host: the
    metrics (the copies are counted on the device arrays' copy_to_host); the host parameters are fetched
    when read (a checkpoint). The plain LSTM here; the LN-LSTM's (whose narrow-input backward centres Wx on the
    device) and the other batch kinds' counts: tests/training/test_device_batches.py."""
    from numba import cuda

    from lnrnn.training.checkpoint import load_checkpoint
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import Trainer
    data = _npz(tmp_path, "classifier")
    (tmp_path / "run").mkdir()
    cfg = TrainConfig(task="npz", data_dir=str(data), cell="lstm", hidden=3, batch_size=4, epochs=1,
                      dtype="float64", device="cuda", out=str(tmp_path / "run"), clip=0.05)
    trainer = Trainer(cfg, quiet=True)
    try:
        assert trainer.setup.on_device
        x, y = trainer.task.batch("train", np.arange(4), trainer.model.dtype)[:2]
        DeviceArray = type(cuda.to_device(np.zeros(1)))
        copies = []
        plain = DeviceArray.copy_to_host
        monkeypatch.setattr(DeviceArray, "copy_to_host",
                            lambda self, *a, **k: copies.append(self.shape) or plain(self, *a, **k))
        for step in range(2):
            trainer.update(x, y, None)
            trainer.step += 1
        assert copies == [(3,), (3,)]
        assert trainer.model.last_count == 4 and set(trainer.model.last_sums) == {"loss", "acc", "seqs"}
        stale = trainer.model.flat[0].data.copy()
        want = trainer.model.device_buffers()[0].data.copy_to_host()
        assert not np.array_equal(stale, want)
        trainer.save()            # a checkpoint between evaluations (--save-every) fetches the device's first
        _, arrays = load_checkpoint(cfg.out)
        got = trainer.model.flat[0].join({k[len("param/"):]: v for k, v in arrays.items() if k.startswith("param/")})
        np.testing.assert_array_equal(got, want)
    finally:
        trainer.close()


def test_resumed_run_on_device_equals_an_uninterrupted_cpu_run(small_tiles, tmp_path):
    """One update on the device, saved (parameters fetched, optimizer slots copied back), resumed on the
    device (slots sent up again) for a second: the checkpoint of two uninterrupted CPU updates."""
    from lnrnn.training.checkpoint import load_checkpoint
    data = _npz(tmp_path, "classifier")
    _, want = load_checkpoint(str(_train(tmp_path, "cpu", data, ("--optimizer", "rmsprop-momentum"))))
    _train(tmp_path, "cuda", data, ("--optimizer", "rmsprop-momentum"), steps=1, name="resumed")
    meta, got = load_checkpoint(str(_train(tmp_path, "cuda", data, ("--optimizer", "rmsprop-momentum", "--resume"),
                                           name="resumed")))
    assert meta["step"] == 2 and got.keys() == want.keys()
    for k in want:
        np.testing.assert_allclose(got[k], want[k], rtol=1e-10, atol=1e-13, err_msg=k)


def test_batchnorm_statistics_stay_on_the_device(small_tiles, tmp_path, monkeypatch):
    """A BN-LSTM's running statistics: two device updates update them on the device as two host ones do
    (fetched with the parameters, equal to rounding), and no update copies them to the host."""
    from numba import cuda

    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(10)
    T, B = 3, 5
    host, dev = _model(HEADS["classifier"], "cuda", norm="bn"), _model(HEADS["classifier"], "cuda", norm="bn")
    sums = arrays_cuda.zeros((2,), np.float64)
    DeviceArray = type(cuda.to_device(np.zeros(1)))
    copies = []
    plain = DeviceArray.copy_to_host
    for k in range(2):
        x, y = rng.standard_normal((T, B, 2)), _targets("classifier", rng, B)
        host.loss_and_grad(x, y)
        monkeypatch.setattr(DeviceArray, "copy_to_host", lambda self, *a, **kw: copies.append(self.shape) or plain(
            self, *a, **kw))
        dev.loss_and_grad_on_device(x, y, sums)
        monkeypatch.setattr(DeviceArray, "copy_to_host", plain)
    assert copies == []
    np.testing.assert_allclose(dev.device_buffers()[1].data.copy_to_host(), host.flat[1].data, rtol=1e-10,
                               atol=1e-13)
    dev.pull_params()
    moved = 0
    for name, a in host.buffers.items():
        np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-12, atol=1e-14, err_msg=name)
        moved += not np.all((a == 0) | (a == 1))
    assert moved == len(host.buffers)
