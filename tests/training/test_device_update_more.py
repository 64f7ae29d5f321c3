"""A training update on the device for the models that used to run theirs on the host: the CTC head (its loss,
gradient and best-path edit distances on the device, ``CTCHead._device_loss``, ``losses_cuda.ctc_rows``) and
bidirectional stacks (both directions reversed and joined on the device, ``RecurrentStack``; a last-step head
reading the backward columns at step 0), with initial-state noise, against the host path
(``SequenceModel.loss_and_grad``) under Numba's simulator (or a GPU with NUMBA_ENABLE_CUDASIM=0), float64.

Blocks of 4 threads and GEMM tiles of 3 (small_tiles): several blocks and ragged tiles on every shape; ragged
rows (a row of no step, a row too short for its labels)."""
import numpy as np
import pytest

from test_device_update import small_tiles  # noqa: F401  (a fixture)

T, B = 6, 5
LENGTHS = np.array([6, 3, 0, 2, 5])
# row 0 needs 4 steps (a blank between the two 2s), row 2 has no step, row 3 needs 3 of its 2 (CTC's zero_infinity:
# loss 0, no gradient), row 4 is padded with -1
LABELS = np.array([[1, 2, 2], [3, -1, -1], [1, -1, -1], [2, 2, -1], [1, 3, -1]])
CTC = {"kind": "ctc", "outputs": 4, "per_step": True}


def _copies(monkeypatch):
    from test_device_batches import _copies as counting
    return counting(monkeypatch)


def _build(device, head=CTC, norm="bn", layers=1, skip=False, state_noise=0.2):
    from lnrnn.model.models import build_model
    cfg = dict(cell="lstm", norm=norm, input_size=3, hidden_size=3, num_layers=layers, dtype="float64",
               forget_bias=1.0, head=head, bidirectional=True, skip=skip, state_noise=state_noise)
    return build_model(cfg, seed=5, device=device, max_steps=T)


def test_ctc_objective_on_the_device_equals_the_host_head(small_tiles):
    """The head's device loss on given logits: each row's loss and best-path edit distance, and d, as the host
    head's forward and backward give them (an impossible row scores 0, a row of no step is left out)."""
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.model.decode import best_path_array
    from lnrnn.model.heads import make_head
    from lnrnn.model.functional import running_mask
    from lnrnn.textmetrics import label_edit_distances
    rng = np.random.default_rng(21)
    head = make_head(CTC, 2, dtype="float64", seed=1)
    hw = rng.standard_normal((T, B, 4)) * 3                                       # logits with a clear best path
    valid = running_mask(LENGTHS, T, bool)
    b = np.zeros(4)
    d_dev, rows = head._device_loss(arrays_cuda.to_device(hw.reshape(T * B, 4)), arrays_cuda.to_device(b), LABELS,
                                    valid, 0.25)
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    labels, il, ll = head._rows(LABELS, valid)
    loss, saved = ctc_forward(hw, labels, il, ll)
    edits = label_edit_distances(labels, ll, *best_path_array(saved[0], il))
    got = rows.copy_to_host()
    want = np.where(il > 0, 1, 0)[:, None] * np.column_stack([loss, edits])
    assert want[3, 0] == 0 and want[2].tolist() == [0, 0] and np.count_nonzero(want[:, 1]) >= 3
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
    d = ctc_backward(np.full(B, 0.25), saved, labels, il, ll)
    np.testing.assert_allclose(d_dev.copy_to_host(), d.reshape(T * B, 4), rtol=1e-10, atol=1e-13)
    assert head.host_sums(LABELS, valid) == {"chars": 3 + 1 + 2 + 2}


def test_blstm_ctc_updates_equal_the_host_path(small_tiles, monkeypatch):
    """Two clipped RMSProp updates of a bidirectional BN-LSTM reader with state noise on ragged batches: per update
    the sums (loss, edit distances), the count, the label count kept for last_sums and the gradients, with nothing
    copied to the host; then the parameters and the BatchNorm statistics of both directions."""
    from lnrnn.kernels import optim_cuda
    from lnrnn.kernels.cuda import arrays_cuda
    from lnrnn.training.optim import clip_grad_norm, make_optimizer
    rng = np.random.default_rng(22)
    host, dev = _build("cpu"), _build("cuda")
    assert dev.device_refusal() is None
    opt_h, opt_d = make_optimizer("rmsprop-graves", 0.01), make_optimizer("rmsprop-graves", 0.01)
    p, g = dev.device_buffers()
    sums, norm = arrays_cuda.zeros((2,), np.float64), arrays_cuda.zeros((1,), np.float64)
    for step in range(2):
        x = rng.standard_normal((T, B, 3))
        host.loss_and_grad(x, LABELS, LENGTHS, noise_key=step)
        copies, stop = _copies(monkeypatch)
        count = dev.loss_and_grad_on_device(x, LABELS, sums, noise_key=step, lengths=LENGTHS)
        assert copies == []
        stop()
        assert count == host.last_count == 4
        got = sums.copy_to_host()
        assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-12) and got[0] > 0
        assert got[1] == host.last_sums["cer"] > 0
        fetched = {"loss": got[0], "cer": got[1], "seqs": 4.0}                   # the trainer joins the host's
        assert {**fetched, **dev.last_host_sums} == pytest.approx(host.last_sums, rel=1e-12)
        g_host = host.flat[1].data
        assert np.count_nonzero(g_host) > 0.9 * g_host.size
        np.testing.assert_allclose(g.data.copy_to_host(), g_host, rtol=1e-10, atol=1e-13)
        clip_grad_norm(g_host, 0.1)
        optim_cuda.clip_grad_norm(g.data, 0.1, norm)
        opt_h.step(host.flat[0].data, g_host)
        opt_d.step(p.data, g.data)
        np.testing.assert_allclose(p.data.copy_to_host(), host.flat[0].data, rtol=1e-10, atol=1e-13)
    dev.pull_params()
    moved = 0
    for name, a in host.buffers.items():
        np.testing.assert_allclose(dev.buffers[name], a, rtol=1e-12, atol=1e-14, err_msg=name)
        moved += "reverse" in name and not np.all((a == 0) | (a == 1))
    assert moved == len(host.buffers) // 2


@pytest.mark.parametrize("skip", [False, True], ids=["stacked", "skip"])
def test_bidirectional_last_step_head_update_equals_the_host_path(small_tiles, skip):
    """Two bidirectional layers (each reading the one below, or Graves's skip connections), a last-step classifier
    on a ragged batch: forward columns at each row's last step, backward ones at step 0, gradients back through both
    directions' reversals into every layer."""
    from lnrnn.kernels.cuda import arrays_cuda
    head = {"kind": "classifier", "outputs": 3, "per_step": False}
    host, dev = (_build(d, head, norm="none", layers=2, skip=skip, state_noise=0.0) for d in ("cpu", "cuda"))
    rng = np.random.default_rng(23)
    x = rng.standard_normal((T, B, 3))
    y = rng.integers(0, 3, B)
    host.loss_and_grad(x, y, LENGTHS)
    sums = arrays_cuda.zeros((2,), np.float64)
    count = dev.loss_and_grad_on_device(x, y, sums, lengths=LENGTHS)
    assert count == host.last_count == 4
    got = sums.copy_to_host()
    assert got[0] == pytest.approx(host.last_sums["loss"], rel=1e-12) and got[1] == host.last_sums["acc"]
    g_host = host.flat[1].data
    assert np.count_nonzero(g_host) > 0.9 * g_host.size
    np.testing.assert_allclose(dev.device_buffers()[1].data.copy_to_host(), g_host, rtol=1e-10, atol=1e-13)


def test_device_update_refuses_chunks_of_whole_sequence_models(small_tiles):
    """Truncated BPTT is refused on the device as on the host, for the CTC head and for a bidirectional stack."""
    from lnrnn.kernels.cuda import arrays_cuda
    dev = _build("cuda")
    sums = arrays_cuda.zeros((2,), np.float64)
    x = np.zeros((T, B, 3))
    with pytest.raises(ValueError, match="scores whole sequences"):
        dev.loss_and_grad_on_device(x, LABELS, sums, lengths=LENGTHS, tbptt=2)
    dev.head.whole_sequence = False    # the bidirectional stack's own refusal
    with pytest.raises(ValueError, match="bidirectional stack reads whole sequences; run it without truncated BPTT"):
        dev.loss_and_grad_on_device(x, LABELS, sums, lengths=LENGTHS, tbptt=2)


# ---- `lnrnn train --device cuda --bidirectional --head ctc`: a reader's updates on the device ----

def _iam(path):
    """A tiny IAM-OnDB tree: 5 forms of 2 lines, each line one stroke of 4 to 7 points, its text 1 or 2 characters
    (so that most lines can be aligned: CTC scores them)."""
    import os

    from test_strokes_data import iam_xml
    rng = np.random.default_rng(24)
    for f, form in enumerate(("a01-000u", "a01-000x", "a02-004", "b05-123z", "c01-009")):
        sub = os.path.join(form[:3], form[:7])
        os.makedirs(path / "lineStrokes" / sub, exist_ok=True)
        os.makedirs(path / "ascii" / sub, exist_ok=True)
        for k in (1, 2):
            pts = 1000 + np.cumsum(rng.integers(-20, 21, (int(rng.integers(4, 8)), 2)), 0)
            (path / "lineStrokes" / sub / f"{form}-{k:02d}.xml").write_bytes(iam_xml([pts]))
        texts = ("ab", "c") if f % 2 else ("b", "ca")
        (path / "ascii" / sub / f"{form}.txt").write_bytes(("OCR:\n\nx\n\nCSR:\n\n" + "\n".join(texts) + "\n\n").encode())
    return path


def test_cli_reader_training_on_device_equals_cpu(small_tiles, tmp_path):
    """Two clipped Adam updates of `lnrnn train --device cuda` for a bidirectional BN-LSTM reader (CTC head, ragged
    lines): the losses and character error rates each update logs, and the parameters, BatchNorm statistics and
    optimizer slots saved after them, as --device cpu records them (float64)."""
    from click.testing import CliRunner

    from lnrnn.cli import main
    from lnrnn.training.checkpoint import load_checkpoint
    from lnrnn.training.rundir import read_jsonl
    data = _iam(tmp_path / "iam")
    runs = {}
    for device in ("cpu", "cuda"):
        out = tmp_path / device
        r = CliRunner().invoke(main, [
            "train", "--task", "strokes", "--data-dir", str(data), "--head", "ctc", "--bidirectional", "--cell",
            "bn-lstm", "--hidden", "3", "--layers", "1", "--batch-size", "4", "--epochs", "1", "--max-steps", "2",
            "--clip", "0.05", "--optimizer", "adam", "--dtype", "float64", "--device", device, "--out", str(out),
            "--log-every", "1", "-q"])
        assert r.exit_code == 0, r.output + repr(r.exception)
        updates = read_jsonl(out / "updates.jsonl")
        runs[device] = (updates, load_checkpoint(str(out)))
    (u0, (meta0, a0)), (u1, (meta1, a1)) = runs["cpu"], runs["cuda"]
    assert [r["step"] for r in u0] == [r["step"] for r in u1] == [1, 2]
    for r0, r1 in zip(u0, u1):
        assert r1["train_loss"] == pytest.approx(r0["train_loss"], rel=1e-12) and r0["train_loss"] > 0
        assert r1["train_cer"] == pytest.approx(r0["train_cer"], rel=1e-12) and 0 < r0["train_cer"]
    assert meta0["step"] == meta1["step"] == 2 and a0.keys() == a1.keys()
    moved = {"optim": 0, "buffer": 0}
    for k in a0:
        np.testing.assert_allclose(a1[k], a0[k], rtol=1e-10, atol=1e-13, err_msg=k)
        for what in moved:
            moved[what] += k.startswith(what) and "reverse" in k and not np.all((a0[k] == 0) | (a0[k] == 1))
    assert moved["optim"] > 0 and moved["buffer"] > 0, (moved, sorted(a0)[:8])
