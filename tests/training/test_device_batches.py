"""Every batch kind of a training update on the device (``SequenceModel.loss_and_grad_on_device``, the trainer's
``lnrnn.training.update.DeviceUpdate``) against the host head's path, under Numba's simulator (or a GPU with
NUMBA_ENABLE_CUDASIM=0), float64: ragged batches (lengths: a last-step head at each row's last valid step,
per-step heads masked, the mixture density head through mdn_cuda with its mask), truncated BPTT (the state
carried between chunks on the device), the LN-LSTM's narrow-input backward (Wx centred on the device), and
`lnrnn train --device cuda` on a stroke task with ragged lengths: losses, parameters and optimizer slots of
--device cpu after 3 updates, and one copy to the host per update (the (3,) metrics).

Blocks of 4 threads and GEMM tiles of 3 (small_tiles): several blocks and ragged tiles on every shape."""
import numpy as np
import pytest

from test_device_update import HEADS, _model, _targets, small_tiles  # noqa: F401  (a fixture)

T, B = 4, 5
LENGTHS = np.array([4, 2, 0, 1, 4])   # ragged: a row of none, one of one step, rows of all T


def _copies(monkeypatch):
    """(copies, stop): a list that every device array's copy_to_host appends its shape to from now on, and a
    function that stops the counting (monkeypatch.undo would also undo the fixtures' block sizes)."""
    from numba import cuda
    DeviceArray = type(cuda.to_device(np.zeros(1)))
    copies, plain = [], DeviceArray.copy_to_host
    monkeypatch.setattr(DeviceArray, "copy_to_host", lambda self, *a, **k: copies.append(self.shape) or plain(
        self, *a, **k))
    return copies, lambda: monkeypatch.setattr(DeviceArray, "copy_to_host", plain)


def _compare(host, dev, sums, count, rel=1e-10):
    assert count == host.last_count > 0
    got = sums.copy_to_host()
    for i, m in enumerate(dev.head.metrics):
        assert got[i] == pytest.approx(host.last_sums[m], rel=1e-12, abs=1e-12), m
    assert got[0] != 0
    g_dev = dev.device_buffers()[1].data.copy_to_host()
    g_host = host.flat[1].data
    assert np.count_nonzero(g_host) > 0.8 * g_host.size
    np.testing.assert_allclose(g_dev, g_host, rtol=rel, atol=1e-13)


@pytest.mark.parametrize("kind,cell,norm,tbptt", [
    ("classifier", "lstm", "none", None), ("regression", "lstm", "ln", None), ("classifier-per-step", "rnn", "none", None),
    ("mdn", "lstm", "none", None), ("classifier", "lstm", "none", 2),
    ("mdn", "lstm", "ln", 2), ("regression", "lstm", "bn", 3)])
def test_ragged_and_chunked_updates_equal_the_host_head(small_tiles, monkeypatch, kind, cell, norm, tbptt):
    """loss_and_grad_on_device with lengths (and truncated BPTT) equals loss_and_grad with the head on the host:
    every gradient, the two sums and the count (float64), and copies nothing to the host."""
    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(11)
    x = rng.standard_normal((T, B, 2))
    y = _targets(kind, rng, B, T)
    host, dev = _model(HEADS[kind], "cpu", cell, norm), _model(HEADS[kind], "cuda", cell, norm)
    assert dev.device_refusal() is None
    host.loss_and_grad(x, y, LENGTHS, tbptt=tbptt)
    sums = arrays_cuda.zeros((2,), np.float64)
    copies, stop = _copies(monkeypatch)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=LENGTHS, tbptt=tbptt)
    assert copies == []
    stop()
    _compare(host, dev, sums, count)
    if norm == "bn":  # the running statistics, updated on the device step by step as on the host
        dev.pull_params()
        for name, a in host.buffers.items():
            np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-12, atol=1e-14, err_msg=name)


def test_skip_stack_update_equals_the_host_head(small_tiles, monkeypatch):
    """Graves's skip-connected stack (the stroke tasks' default: every layer reads [x | h_below], y = [h_1 | h_2]),
    ragged, the mixture density head: the host head's gradients and sums, nothing copied to the host."""
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.model.models import build_model
    rng = np.random.default_rng(17)
    x = rng.standard_normal((T, B, 2))
    y = _targets("mdn", rng, B, T)
    cfg = dict(cell="lstm", norm="none", input_size=2, hidden_size=3, num_layers=2, dtype="float64", forget_bias=1.0,
               head=HEADS["mdn"], skip=True)
    host, dev = (build_model(cfg, seed=4, device=d, max_steps=T) for d in ("cpu", "cuda"))
    assert dev.device_refusal() is None and dev.stack.output_size == 6
    host.loss_and_grad(x, y, LENGTHS)
    sums = arrays_cuda.zeros((2,), np.float64)
    copies, stop = _copies(monkeypatch)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=LENGTHS)
    assert copies == []
    stop()
    _compare(host, dev, sums, count)


def test_clip_output_on_the_device_equals_the_host_head(small_tiles):
    """The mixture density head's --clip-output (each point's dL/d(outputs) clipped to +-0.05, then normalized)
    on the device: the gradients of the host head's clip, on a ragged batch; the clip changes them."""
    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(16)
    x = rng.standard_normal((T, B, 2))
    y = _targets("mdn", rng, B, T)
    host, dev, free = (_model(HEADS["mdn"], d) for d in ("cpu", "cuda", "cpu"))
    host.head.clip_output = dev.head.clip_output = 0.05
    host.loss_and_grad(x, y, LENGTHS)
    free.loss_and_grad(x, y, LENGTHS)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=LENGTHS)
    _compare(host, dev, sums, count)
    assert np.abs(free.flat[1].data - host.flat[1].data).max() > 1e-3


def test_chunked_state_carries_on_the_device(small_tiles):
    """Truncated BPTT without lengths and with state noise: chunks of 2 of 5 steps, a last-step head (scored in
    the last chunk only), the noise of the update's key; the same gradients as the host's chunks."""
    from lnrnn.kernels.cuda import arrays_cuda
    rng = np.random.default_rng(12)
    x = rng.standard_normal((T, B, 2))
    y = _targets("classifier", rng, B, T)
    host = _model(HEADS["classifier"], "cpu", state_noise=0.3)
    dev = _model(HEADS["classifier"], "cuda", state_noise=0.3)
    host.loss_and_grad(x, y, tbptt=2, noise_key=4)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, noise_key=4, tbptt=2)
    _compare(host, dev, sums, count)
    whole = _model(HEADS["classifier"], "cpu", state_noise=0.3)
    whole.loss_and_grad(x, y, noise_key=4)
    assert np.abs(whole.flat[1].data - host.flat[1].data).max() > 1e-6   # the chunks cut the gradient's path


def test_centred_weights_on_the_device_equal_the_cpu_ones(small_tiles):
    """lstm_cuda.centered_device (the LN-LSTM's narrow-input backward) equals codes.centered to an ulp of the
    row's scale (the CPU twin's compiled float64 sum may run in another order, ``codes.centered``)."""
    from lnrnn.kernels import lstm_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.kernels.codes import centered
    rng = np.random.default_rng(13)
    for dtype in (np.float64, np.float32):
        W = (rng.standard_normal((5, 13)) * 3 + 1).astype(dtype)
        got = lstm_cuda.centered_device(arrays_cuda.to_device(W)).copy_to_host()
        want = centered(W)
        assert got.dtype == dtype and np.abs(want.mean(1)).max() < 1e-5 * np.abs(W).max()
        np.testing.assert_allclose(got, want, rtol=0, atol=2 * np.finfo(dtype).eps * np.abs(W).max())


def test_ragged_steps_moves_equal_numpy(small_tiles):
    """take_steps / put_steps / final_rows / mask_steps against their NumPy statements."""
    from lnrnn.kernels.cuda import arrays_cuda as a
    rng = np.random.default_rng(14)
    seq = rng.standard_normal((T, B, 3))
    steps = np.array([3, 2, 0, 0, 1])
    d_seq, d_steps, d_len = a.to_device(seq), a.to_device(steps), a.to_device(LENGTHS)
    rows = a.take_steps(d_seq, d_steps).copy_to_host()
    np.testing.assert_array_equal(rows, seq[steps, np.arange(B)])
    put = a.put_steps(a.to_device(rows), d_steps, T).copy_to_host()
    want = np.zeros_like(seq)
    want[steps, np.arange(B)] = rows
    np.testing.assert_array_equal(put, want)
    s_T, s0 = rng.standard_normal((B, 3)), rng.standard_normal((B, 3))
    fin = a.final_rows(a.to_device(s_T), d_seq, a.to_device(s0), d_len).copy_to_host()
    want = np.where((LENGTHS >= T)[:, None], s_T,
                    np.where((LENGTHS > 0)[:, None], seq[np.maximum(LENGTHS - 1, 0), np.arange(B)], s0))
    np.testing.assert_array_equal(fin, want)
    seq[3, 1, 0] = np.nan                                           # a padded step's NaN stays NaN, as on the host
    got = a.mask_steps(a.to_device(seq), d_len).copy_to_host()
    want = seq * (np.arange(T)[:, None] < LENGTHS[None, :])[:, :, None]
    np.testing.assert_array_equal(got, want)


# ---- `lnrnn train --device cuda` on a stroke task with ragged lengths ----

def _stroke_file(tmp_path):
    """9 training and 2 validation stroke-3 lines of 3..6 points (ragged batches of 4)."""
    from lnrnn.data import stroke_files
    rng = np.random.default_rng(15)

    def lines(n):
        out = []
        for _ in range(n):
            k = int(rng.integers(3, 7))
            s = np.column_stack([rng.integers(-20, 21, (k, 2)), rng.random(k) < 0.3]).astype(np.int16)
            s[-1, 2] = 1
            out.append(s)
        return out
    path = tmp_path / "lines.npz"
    stroke_files.save_npz(path, lines(9), lines(2))
    return path


def _train(tmp_path, device, data, extra=(), name=None):
    from click.testing import CliRunner

    from lnrnn.cli import main
    out = tmp_path / (name or device)
    args = ["train", "--task", "strokes-npz", "--data-dir", str(data), "--cell", "lstm", "--hidden", "3",
            "--layers", "2", "--batch-size", "4", "--epochs", "1", "--max-steps", "3", "--clip",
            "0.05", "--dtype", "float64", "--device", device, "--out", str(out), "--log-every", "1", "-q", *extra]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output + repr(r.exception)
    return out


@pytest.mark.parametrize("extra", [("--optimizer", "adam"), ("--optimizer", "rmsprop-graves", "--tbptt", "2")],
                         ids=["ragged", "ragged-tbptt"])
def test_cli_stroke_training_on_device_equals_cpu(small_tiles, tmp_path, extra):
    """Three clipped updates of `lnrnn train --device cuda` on ragged stroke batches (MDN head; with truncated
    BPTT in chunks of 2) record the losses, parameters and optimizer slots of --device cpu (float64)."""
    from lnrnn.training.checkpoint import load_checkpoint
    from lnrnn.training.rundir import read_jsonl
    data = _stroke_file(tmp_path)
    runs = {}
    for device in ("cpu", "cuda"):
        out = _train(tmp_path, device, data, extra)
        updates = read_jsonl(out / "updates.jsonl")
        runs[device] = (updates, load_checkpoint(str(out)))
    (u0, (meta0, a0)), (u1, (meta1, a1)) = runs["cpu"], runs["cuda"]
    assert [r["step"] for r in u0] == [r["step"] for r in u1] == [1, 2, 3]
    for r0, r1 in zip(u0, u1):
        assert r1["train_loss"] == pytest.approx(r0["train_loss"], rel=1e-12)
        assert r1["train_nats_seq"] == pytest.approx(r0["train_nats_seq"], rel=1e-12)
    assert meta0["step"] == meta1["step"] == 3 and a0.keys() == a1.keys()
    moved = 0
    for k in a0:
        np.testing.assert_allclose(a1[k], a0[k], rtol=1e-10, atol=1e-13, err_msg=k)
        moved += k.startswith("optim/") and bool(np.any(a0[k]))
    assert moved > 0


@pytest.mark.parametrize("tbptt", [None, 2])
def test_a_ragged_update_copies_only_its_metrics(small_tiles, tmp_path, monkeypatch, tbptt):
    """A stroke batch with ragged lengths and a row of no step (LN-LSTM: its narrow-input backward centres Wx on
    the device; MDN head; with truncated BPTT): each device update copies one array to the host, the (3,)
    metrics."""
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import Trainer
    data = _stroke_file(tmp_path)
    (tmp_path / "run").mkdir()
    cfg = TrainConfig(task="strokes-npz", data_dir=str(data), cell="ln-lstm", hidden=3, layers=2,
                      batch_size=4, epochs=1, dtype="float64", device="cuda", out=str(tmp_path / "run"), clip=0.05,
                      tbptt=tbptt)
    trainer = Trainer(cfg, quiet=True)
    try:
        assert trainer.setup.on_device and trainer.model.stack.skip   # the stroke tasks' default: Graves's stack
        x, y, lengths = trainer.task.batch("train", np.arange(4), trainer.model.dtype)[:3]
        assert lengths is not None and len(set(lengths.tolist())) > 1
        lengths[3] = 0  # a row of no step: not a sequence of the batch's nats per sequence
        copies, stop = _copies(monkeypatch)
        for _ in range(2):
            trainer.update(x, y, lengths)
            trainer.step += 1
        assert copies == [(3,), (3,)]
        assert trainer.model.last_count == int(lengths.sum())
        assert trainer.model.last_sums["seqs"] == 3 and trainer.model.last_sums["loss"] > 0
    finally:
        trainer.close()


def test_a_batch_with_nan_on_the_device_is_the_datas_fault(small_tiles, tmp_path):
    """A NaN in a batch that reaches the device update ends as the host path's one-line DataError naming the
    task and the batch, not the layer's ValueError."""
    from lnrnn.errors import DataError
    from lnrnn.training.runconfig import TrainConfig
    from lnrnn.training.train import Trainer
    data = _stroke_file(tmp_path)
    (tmp_path / "run").mkdir()
    cfg = TrainConfig(task="strokes-npz", data_dir=str(data), cell="lstm", hidden=3, layers=1, batch_size=4,
                      epochs=1, dtype="float64", device="cuda", out=str(tmp_path / "run"))
    trainer = Trainer(cfg, quiet=True)
    try:
        assert trainer.setup.on_device
        x, y, lengths = trainer.task.batch("train", np.arange(4), trainer.model.dtype)[:3]
        x[0, 1, 0] = np.nan
        with pytest.raises(DataError, match="training data of strokes-npz hold NaN or infinite values"):
            trainer.update(x, y, lengths)
    finally:
        trainer.close()
