"""Rough edges a new user meets in the commands: a full disk or a read-only folder, files that are not what
their names say, labels out of range, a suffix that promises another format, a run with no evaluation yet,
long primes, and predictions of every head. Each ends in one line that names the real problem (or works)."""
import errno
import io
import json
import os

import numpy as np
import pytest
from click.testing import CliRunner

import lnrnn.files
from lnrnn.cli import main
from lnrnn.errors import CheckpointError
from lnrnn.training.checkpoint import load_checkpoint, save_checkpoint

from test_cli import mirror  # noqa: F401 - a fixture: a throw-away HTTP server
from test_commands_careful import _unprivileged, ce_records, classifier_run, one_error, run_with_curves


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


class FullDisk(io.FileIO):
    """A file on a disk with ``room`` bytes left: a write past them raises ENOSPC, as a full disk does."""
    room = 0

    def write(self, b):
        if self.tell() + len(b) > self.room:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return super().write(b)


@pytest.fixture
def full_disk(monkeypatch):
    """Every file lnrnn writes through lnrnn.files.atomic_write lands on a full disk (``room`` bytes left)."""
    def use(room=0):
        disk = type("Disk", (FullDisk,), {"room": room})
        monkeypatch.setattr(lnrnn.files, "_open_temp", lambda fd: io.BufferedWriter(disk(fd, "wb")))
    return use


def no_temp_files(folder):
    return [n for n in os.listdir(folder) if n.startswith(".tmp-")] == []


# ---------------------------------------------------------------------------------------------
# a full disk, a read-only folder
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("hidden_by", ["zlib", "attribute"])
def test_a_writer_that_hides_the_disk_error_still_reports_it(tmp_path, full_disk, hidden_by):
    """matplotlib's PDF writer, meeting a full disk, can raise zlib.error or AttributeError while it cleans
    up, with the disk's OSError only as their context: atomic_write raises the disk's OSError, naming the
    file, and keeps the old file."""
    import zlib

    def pdf_like(f):
        try:
            f.write(b"%PDF" * 5000)
        except OSError:
            if hidden_by == "zlib":
                raise zlib.error("Error -2 while flushing: inconsistent stream state")
            raise AttributeError("'Stream' object has no attribute 'pos'")

    out = tmp_path / "x.pdf"
    out.write_bytes(b"old")
    full_disk(100)
    with pytest.raises(OSError) as e:
        lnrnn.files.atomic_write(str(out), pdf_like)
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(out)
    assert out.read_bytes() == b"old" and no_temp_files(tmp_path)
    with pytest.raises(ValueError, match="a bug"):          # a writer's own bug stays itself
        lnrnn.files.atomic_write(str(out), lambda f: (_ for _ in ()).throw(ValueError("a bug")))
    assert out.read_bytes() == b"old"


@pytest.mark.parametrize("suffix", ["pdf", "png", "svg"])
def test_plot_onto_a_full_disk_is_one_line(tmp_path, full_disk, suffix):
    run = run_with_curves(tmp_path / "run", ce_records())
    out = tmp_path / f"c.{suffix}"
    for room in (0, 2000):
        full_disk(room)
        msg = one_error(invoke("plot", run, "--out", out), f"cannot write --out {out} (No space left on device)")
        assert "free some space" in msg and "nothing was written" in msg
        assert not out.exists() and no_temp_files(tmp_path)


def test_a_checkpoint_that_cannot_be_saved_keeps_the_previous_one(tmp_path, full_disk):
    folder = tmp_path / "run"
    first = {"a": np.arange(1000, dtype=np.float32)}
    save_checkpoint(str(folder), first, {"model": {}, "step": 7})
    before = sorted(os.listdir(folder))
    full_disk(100)
    with pytest.raises(CheckpointError) as e:
        save_checkpoint(str(folder), {"a": np.ones(1000, np.float32)}, {"model": {}, "step": 9})
    msg = str(e.value)
    assert f"cannot save the checkpoint of update 9 in {folder} (No space left on device" in msg
    assert "needs about 4 KB" in msg and "free some space" in msg
    assert "the checkpoint of update 7 there is kept whole" in msg
    assert sorted(os.listdir(folder)) == before
    meta, arrays = load_checkpoint(str(folder))
    assert meta["step"] == 7 and np.array_equal(arrays["a"], first["a"])
    with pytest.raises(CheckpointError, match="nothing was written there"):
        save_checkpoint(str(tmp_path / "new"), first, {"model": {}, "step": 1})


def test_a_description_that_cannot_be_saved_leaves_no_arrays_behind(tmp_path, monkeypatch):
    import lnrnn.training.checkpoint as ckpt

    folder = tmp_path / "run"
    save_checkpoint(str(folder), {"a": np.zeros(3)}, {"model": {}, "step": 7})
    before = sorted(os.listdir(folder))

    def full(path, text):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
    monkeypatch.setattr(ckpt, "atomic_write_text", full)  # the arrays file fits, its description does not
    with pytest.raises(CheckpointError, match="the checkpoint of update 7 there is kept whole"):
        save_checkpoint(str(folder), {"a": np.ones(3)}, {"model": {}, "step": 9})
    assert sorted(os.listdir(folder)) == before and load_checkpoint(str(folder))[0]["step"] == 7


def test_keeping_a_past_checkpoint_on_a_full_disk(tmp_path, full_disk):
    from lnrnn.training.checkpoint import PAST_DIR, keep_past

    folder = tmp_path / "run"
    save_checkpoint(str(folder), {"a": np.zeros(3)}, {"model": {}, "step": 4})
    full_disk(0)
    with pytest.raises(CheckpointError) as e:
        keep_past(str(folder), 2)
    assert "cannot keep a copy of the checkpoint of update 4" in str(e.value) and "--keep" in str(e.value)
    assert os.listdir(folder / PAST_DIR) == []                     # no half-made copy
    assert load_checkpoint(str(folder))[0]["step"] == 4


def test_train_onto_a_full_disk_is_one_line_and_keeps_the_run(tmp_path, full_disk):
    out = tmp_path / "run"
    tiny = ["--split", "64/32", "--hidden", "4", "--batch-size", "32", "--cell", "rnn", "-q", "--out", out]
    r = invoke("train", *tiny, "--max-steps", 1)
    assert r.exit_code == 0, r.output
    full_disk(0)
    r = invoke("train", *tiny, "--max-steps", 2, "--resume")
    msg = one_error(r, "(No space left on device)")
    assert str(out) in msg and "free some space" in msg and "--resume" in msg
    assert load_checkpoint(str(out))[0]["step"] == 1 and no_temp_files(out)


def test_a_failed_save_in_training_is_one_line(tmp_path, monkeypatch):
    """The save at the end of the run fails: the trainer's error is the checkpoint's one line."""
    import lnrnn.training.checkpoint as ckpt

    out = tmp_path / "run"
    tiny = ["--split", "64/32", "--hidden", "4", "--batch-size", "32", "--cell", "rnn", "-q", "--out", out]
    assert invoke("train", *tiny, "--max-steps", 1).exit_code == 0
    real = ckpt.atomic_write

    def full(path, write):
        if os.path.dirname(path) == str(out) and path.endswith(".npz"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
        return real(path, write)
    monkeypatch.setattr(ckpt, "atomic_write", full)
    msg = one_error(invoke("train", *tiny, "--max-steps", 2, "--resume"),
                    f"cannot save the checkpoint of update 2 in {out} (No space left on device")
    assert "the checkpoint of update 1 there is kept whole" in msg
    assert load_checkpoint(str(out))[0]["step"] == 1


def test_data_mnist_into_a_read_only_folder(tmp_path):
    import shutil
    import tempfile

    tmp = tempfile.mkdtemp(prefix="lnrnn-ro-")
    try:
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro)
        os.chmod(ro, 0o555)
        for dest in (ro, os.path.join(ro, "mnist")):
            code, stdout, stderr = _unprivileged(["data", "mnist", "--dest", dest, "--mirror", "http://127.0.0.1:9/",
                                                  "-q"])
            errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
            assert code == 2 and "Traceback" not in stderr and len(errors) == 1, stderr
            assert f"cannot write to {ro}" in errors[0] and "(Permission denied)" in errors[0], errors
            assert "--dest" in errors[0] and os.listdir(ro) == []
    finally:
        os.chmod(os.path.join(tmp, "ro"), 0o755)
        shutil.rmtree(tmp)
    (tmp_path / "f").write_text("x")
    one_error(invoke("data", "mnist", "--dest", tmp_path / "f" / "d", "--mirror", "http://127.0.0.1:9/"),
              "is a file, not a folder")


# ---------------------------------------------------------------------------------------------
# files that are not what their names say; labels out of range
# ---------------------------------------------------------------------------------------------
def test_a_huge_label_is_out_of_range_not_a_memory_problem(tmp_path):
    from lnrnn.data.arrays import MAX_CLASSES, check_arrays
    from lnrnn.errors import DataError

    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 40)
    y[5] = 10**9
    with pytest.raises(DataError) as e:
        check_arrays({"x": rng.random((40, 5)), "y": y}, "f.npz")
    msg = str(e.value)
    assert "y holds the label 1000000000, out of range" in msg and "1,000,000,001 classes" in msg
    assert "4 distinct labels" in msg and "memory" not in msg
    y[5] = MAX_CLASSES - 1                                   # the largest count allowed is allowed
    assert check_arrays({"x": rng.random((40, 5)), "y": y}, "f.npz")["num_classes"] == MAX_CLASSES
    np.savez(tmp_path / "big.npz", x=rng.random((40, 5)).astype(np.float32), y=np.where(y > 2, 10**9, y))
    one_error(invoke("train", "--task", "npz", "--data-dir", tmp_path / "big.npz", "--out", tmp_path / "run"),
              "holds the label 1000000000, out of range")


def _not_numpy(tmp_path):
    (tmp_path / "text.npz").write_text("hello world\n" * 10)
    (tmp_path / "empty.npy").write_bytes(b"")
    (tmp_path / "empty.npz").write_bytes(b"")
    return tmp_path


@pytest.mark.parametrize("task", ["npz", "strokes-npz"])
@pytest.mark.parametrize("name,words", [("text.npz", "is not a NumPy .npy or .npz (zip) file (text b'hello '"),
                                        ("empty.npy", "is empty (0 bytes)"), ("empty.npz", "is empty (0 bytes)")])
def test_train_names_what_a_data_file_is(tmp_path, task, name, words):
    path = _not_numpy(tmp_path) / name
    msg = one_error(invoke("train", "--task", task, "--data-dir", path, "--out", tmp_path / "run"), f"{path} {words}")
    assert "pickle" not in msg and "numpy.save" in msg


def test_predict_names_what_an_input_is(tmp_path):
    run = classifier_run(tmp_path / "run")
    _not_numpy(tmp_path)
    np.savez(tmp_path / "seq.npz", x=np.zeros((2, 64), np.float32))
    (tmp_path / "notes.csv").write_text("1,2,3\n")
    takes = "predict reads a .npy of sequences, (N,T) or (N,T,I)"
    out = tmp_path / "p.csv"
    cases = {"empty.npy": "empty.npy is empty (0 bytes)", "text.npz": "text.npz is not a NumPy .npy or .npz",
             "seq.npz": "seq.npz is an .npz file, which predict does not read", "notes.csv": "notes.csv is neither"}
    for name, words in cases.items():
        r = invoke("predict", "--checkpoint", run, "--input", tmp_path / name, "--out", out)
        msg = one_error(r, words)
        assert "Aborted" not in r.output and "magic number" not in msg and "IDX images file" in msg, msg
        assert takes in msg.replace("it reads", "predict reads")
    assert not out.exists()


# ---------------------------------------------------------------------------------------------
# export: the suffix says the format
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("name,said", [("w.pt", "ends in .pt"), ("w.pth", "ends in .pth"),
                                       ("weights", "has no suffix")])
def test_export_refuses_a_suffix_that_promises_another_format(tmp_path, name, said):
    import lnrnn.api

    run = classifier_run(tmp_path / "run")
    out = tmp_path / name
    msg = one_error(invoke("export", "--checkpoint", run, "--out", out), f"--out {out} {said}")
    assert f"name it {tmp_path / 'w'}{'eights' * (name == 'weights')}.safetensors" in msg and "torch.load" in msg
    assert not out.exists()
    from lnrnn.errors import UserError
    with pytest.raises(UserError, match="lnrnn export writes safetensors"):
        lnrnn.api.export_run(lnrnn.api.load_run(run), out)
    assert not out.exists()
    r = invoke("export", "--checkpoint", run, "--out", tmp_path / "W.SafeTensors")
    assert r.exit_code == 0 and (tmp_path / "W.SafeTensors").stat().st_size > 0, r.output
    assert ".safetensors" in invoke("export", "--help").output


# ---------------------------------------------------------------------------------------------
# a run stopped before its first evaluation
# ---------------------------------------------------------------------------------------------
def test_a_run_stopped_in_its_first_epoch_names_only_its_files_and_plot_says_why(tmp_path):
    out = tmp_path / "run"
    r = invoke("train", "--split", "64/32", "--hidden", "4", "--batch-size", "32", "--cell", "rnn", "-q",
               "--out", out, "--max-steps", 1)
    assert r.exit_code == 0, r.output
    summary = r.stdout.splitlines()[-1]
    assert f"checkpoint {out / 'checkpoint.json'}" in summary
    assert not (out / "metrics.jsonl").exists() and "metrics.jsonl" not in summary
    assert not (out / "learning_curve.svg").exists() and "learning_curve.svg" not in summary
    # the validation figure it prints is the stop's own evaluation, and it says where that is kept
    assert "at update 1 (epoch 0.50) (evaluated at the stop, kept in checkpoint.json only)" in summary
    assert json.loads((out / "checkpoint.json").read_text())["stop_eval"]["step"] == 1
    msg = one_error(invoke("plot", out, "--out", tmp_path / "c.png"), f"the run in {out} has no evaluations yet")
    assert "--resume" in msg and "--eval-every" in msg and "checkpoint.json only" in msg and not (tmp_path / "c.png").exists()
    (out / "metrics.jsonl").write_text("")                  # an empty log says the same
    one_error(invoke("plot", out, "--out", tmp_path / "c.png"), "has no evaluations yet")
    other = tmp_path / "other"
    other.mkdir()
    one_error(invoke("plot", other, "--out", tmp_path / "c.png"), f"{other} has no metrics.jsonl")


# ---------------------------------------------------------------------------------------------
# sample: a long prime is capped; long captions keep their notes; one scale for every row
# ---------------------------------------------------------------------------------------------
def test_a_prime_longer_than_the_cap_is_refused_before_any_work(tmp_path, monkeypatch):
    import lnrnn.api
    import lnrnn.commands.sample
    from lnrnn.config import SAMPLE_MAX_STEPS

    monkeypatch.setattr(lnrnn.commands.sample, "SAMPLE_MAX_STEPS", 10)
    monkeypatch.setattr(lnrnn.api, "load_run", lambda *a, **k: pytest.fail("the run was loaded before the check"))
    prime = tmp_path / "prime.npy"
    np.save(prime, np.tile([[1.0, 0.0, 0.0]], (11, 1)))
    out = tmp_path / "s.png"
    msg = one_error(invoke("sample", "--checkpoint", tmp_path, "--text", "ab", "--prime-strokes", prime,
                           "--prime-text", "ab", "--steps", 5, "--out", out),
                    f"--prime-strokes {prime} holds 11 points, more than the 10")
    assert "--no-cap" in msg and not out.exists()
    np.save(prime, np.tile([[1.0, 0.0, 0.0]], (10, 1)))     # at the cap: on to loading the run
    with pytest.raises(BaseException, match="the run was loaded"):
        CliRunner().invoke(main, ["sample", "--checkpoint", str(tmp_path), "--text", "ab", "--prime-strokes",
                                  str(prime), "--prime-text", "ab", "--steps", "5", "--out", str(out)],
                           catch_exceptions=False)
    help_text = " ".join(invoke("sample", "--help").output.split())
    assert f"at most {SAMPLE_MAX_STEPS:,} points unless --no-cap" in help_text


def _written(text, n, capped, prime=None, seed=0):
    from lnrnn.sample import Written

    pts = np.random.default_rng(seed).normal(0, 1, (n, 3))
    pts[:, 2] = 0
    return Written(points=pts, phi=np.full((n, len(text)), 1.0 / len(text)), capped=capped, text=text,
                   chars=list(text), codes=np.zeros(len(text), np.int64), prime=prime)


def test_a_long_text_is_shortened_in_its_caption_and_the_cap_note_stays(tmp_path):
    from lnrnn.sample import CAPTION_CHARS, _pyplot, written_figure, written_label

    text = "the quick brown fox jumps over the lazy dog " * 46
    row = _written(text[:2000], 700, capped=True)
    label = written_label(row)
    assert len(label) <= CAPTION_CHARS and label.endswith("(2,000 characters; stopped at the 700-point cap)")
    assert label.startswith("'the quick brown") and "\u2026" in label
    assert written_label(_written("ab", 5, capped=True)) == "'ab' (stopped at the 5-point cap)"
    assert written_label(_written("ab", 5, capped=False, prime=np.zeros((2, 3)))) == "'ab' after the prime (grey)"
    plt = _pyplot()
    fig = written_figure(plt, [row], title="ln-lstm on strokes, update 9, bias 0, seed 0")
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    caption = fig.axes[0].title if fig.axes[0].title.get_text() else fig.axes[0]._left_title
    box, title = caption.get_window_extent(r), fig._suptitle.get_window_extent(r)
    assert 0 <= box.x0 and box.x1 <= fig.bbox.width                   # inside the picture
    assert box.y1 <= title.y0 or box.x1 <= title.x0 or box.x0 >= title.x1   # not over the title
    plt.close(fig)


def _row_scales(fig, axes):
    """Display pixels per data unit, across and up, of each axis (after drawing)."""
    fig.canvas.draw()
    out = []
    for ax in axes:
        b = ax.get_window_extent()
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        out.append((b.width / abs(x1 - x0), b.height / abs(y1 - y0)))
    return np.array(out)


def test_every_row_is_drawn_at_one_scale():
    from lnrnn.sample import _pyplot, strokes_figure, written_figure

    plt = _pyplot()
    rows = [_written("ab", 7, False, seed=1), _written("abcdeabcdeabcde", 60, False, seed=2),
            _written("abc", 20, True, prime=np.tile([[0.5, 0.2, 0.0]], (30, 1)), seed=3)]
    for fig, axes in ((written_figure(plt, rows, title="t"), None),
                      (written_figure(plt, rows, attention=True), "ink"),
                      (strokes_figure(plt, [r.points for r in rows], title="t"), None)):
        ink = [ax for ax in fig.axes if not ax.get_xlabel() and not ax.get_ylabel() and ax.get_label() != "<colorbar>"]
        assert len(ink) == 3
        s = _row_scales(fig, ink)
        assert np.allclose(s, s[0], rtol=1e-3), s                    # one scale, across and up, in every row
        assert np.allclose(s[:, 0], s[:, 1], rtol=1e-3), s           # and equal aspect
        for ax, r in zip(ink, rows):                                 # every row's ink inside its axis
            drawn = np.concatenate([line.get_xydata() for line in ax.get_lines()])
            (x0, x1), (y0, y1) = sorted(ax.get_xlim()), sorted(ax.get_ylim())
            assert drawn[:, 0].min() >= x0 and drawn[:, 0].max() <= x1
            assert drawn[:, 1].min() >= y0 and drawn[:, 1].max() <= y1
        plt.close(fig)


# ---------------------------------------------------------------------------------------------
# predict: every head's outputs
# ---------------------------------------------------------------------------------------------
def head_run(folder, head, input_size=2):
    """A checkpoint of an untrained model with ``head`` (a head config), on the npz task (no training-data
    record: predict takes any length)."""
    from lnrnn.model.models import build_model

    m = build_model(dict(cell="lstm", norm="ln", input_size=input_size, hidden_size=4, num_layers=1,
                         dtype="float64", forget_bias=1.0, head=head), seed=3)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 5, "epoch": 1, "task": {"task": "npz"},
                                          "train": {"cell": "ln-lstm"}})
    return folder


HEADS = {"clf": {"kind": "classifier", "outputs": 3, "per_step": False},
         "clf-step": {"kind": "classifier", "outputs": 3, "per_step": True},
         "reg": {"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.04},
         "reg-step": {"kind": "regression", "outputs": 2, "per_step": True, "tolerance": 0.04},
         "ctc": {"kind": "ctc", "outputs": 3, "per_step": True}}


@pytest.fixture(scope="module")
def head_runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("heads")
    return {k: head_run(base / k, h) for k, h in HEADS.items()}


def test_predict_gives_every_heads_outputs_and_they_agree(head_runs):
    """The heads share their weights (one seed), so a last-step head's outputs are its per-step twin's at
    each sequence's last step, and a CTC head's labels are the per-step classes, collapsed."""
    import lnrnn
    from lnrnn.api import Predictions, StepPredictions, Values
    from lnrnn.model.decode import collapse

    x = np.random.default_rng(1).normal(0, 1, (5, 6, 2))
    L = np.array([6, 3, 1, 6, 4])
    out = {k: lnrnn.predict(run, x, lengths=L, batch_size=2) for k, run in head_runs.items()}
    clf, step, reg, reg_step = out["clf"], out["clf-step"], out["reg"], out["reg-step"]
    assert isinstance(clf, Predictions) and isinstance(step, StepPredictions) and isinstance(reg, Values)
    last = (np.arange(5), L - 1)
    assert reg.values.shape == (5, 2) and reg_step.values.shape == (5, 6, 2)
    np.testing.assert_allclose(reg_step.values[last], reg.values, rtol=1e-10)
    assert np.isnan(reg_step.values[1, 3:]).all() and not np.isnan(reg_step.values[1, :3]).any()
    np.testing.assert_allclose(step.probabilities[last], clf.probabilities, rtol=1e-10)
    assert (step.classes[last] == clf.classes).all() and (step.classes[1, 3:] == -1).all()
    assert np.isnan(step.probability[2, 1:]).all() and (step.probability[2, :1] > 0).all()
    assert out["ctc"].labels == [collapse(list(step.classes[n, :L[n]])) for n in range(5)]
    assert any(out["ctc"].labels)                                    # not all blanks: the check can fail
    from lnrnn.predict_io import prediction_columns
    for p in (step, reg_step):                                       # tables: a row per step up to each length
        cols = {name: a for name, _, a in prediction_columns(p)}
        assert len(cols["index"]) == L.sum() and (cols["step"] < L[cols["index"]]).all()
    # a sequence alone, cut to its length, gives what it gave padded in a batch
    alone = lnrnn.predict(head_runs["reg-step"], x[1:2, :3])
    np.testing.assert_allclose(alone.values[0], reg_step.values[1, :3], rtol=1e-10)


def test_predict_writes_every_heads_table(head_runs, tmp_path):
    import csv

    np.save(tmp_path / "x.npy", np.random.default_rng(2).normal(0, 1, (4, 5, 2)))
    want = {"clf": (["index", "class", "probability"], 4), "clf-step": (["index", "step", "class", "probability"], 20),
            "reg": (["index", "value_0", "value_1"], 4), "reg-step": (["index", "step", "value_0", "value_1"], 20),
            "ctc": (["index", "labels"], 4)}
    for kind, run in head_runs.items():
        for suffix in ("csv", "npy"):
            out = tmp_path / f"{kind}.{suffix}"
            r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", out, "-q")
            assert r.exit_code == 0, (kind, r.output)
            fields, rows = want[kind]
            if suffix == "csv":
                table = list(csv.reader(open(out)))
                assert table[0] == fields and len(table) == rows + 1, (kind, table[:3])
            else:
                table = np.load(out, allow_pickle=False)
                assert list(table.dtype.names) == fields and len(table) == rows, kind
        assert "of 4 sequences" in r.stdout and ("one per step" in r.stdout) == (rows == 20), r.stdout
    steps = np.load(tmp_path / "reg-step.npy")
    assert steps["index"].tolist() == [n for n in range(4) for _ in range(5)]
    assert steps["step"].tolist() == list(range(5)) * 4
    help_text = " ".join(invoke("predict", "--help").output.split())
    assert "index, step, class, probability (a per-step classifier" in help_text
    assert "index, value (regression" in help_text


def test_predict_sends_a_handwriting_run_to_sample(tmp_path):
    from test_sample import mdn_run

    mdn_run(tmp_path / "mdn")
    np.save(tmp_path / "x.npy", np.zeros((2, 5, 3), np.float32))
    msg = one_error(invoke("predict", "--checkpoint", tmp_path / "mdn", "--input", tmp_path / "x.npy", "--out",
                           tmp_path / "p.csv"), "draws handwriting")
    assert "use lnrnn sample" in msg and not (tmp_path / "p.csv").exists()


# ---------------------------------------------------------------------------------------------
# the Hershey corpus covers the alphabet
# ---------------------------------------------------------------------------------------------
def test_the_hershey_training_texts_hold_every_letter_digit_and_mark():
    import string

    from lnrnn.data import hershey, strokes as S

    texts = hershey.line_texts(np.random.default_rng([S.DATA_SEED, 0]), S.split_counts({})[0])
    need = set(string.ascii_letters + string.digits + ".,;:!?'\"-()")
    assert need - set("".join(texts)) == set()
    assert all(1 <= len(t) <= hershey.MAX_CHARS and t == t.strip() and "  " not in t for t in texts)
    assert set("".join(texts)) <= need | {" "}


def test_the_hershey_task_reads_its_texts_from_their_own_stream():
    from lnrnn.data import hershey, strokes as S
    from lnrnn.data.tasks import load_task, task_spec

    pytest.importorskip("HersheyFonts")
    t = load_task(task_spec("strokes-hershey", split="12/3"))
    assert t.texts_train == hershey.line_texts(np.random.default_rng([S.DATA_SEED, 0]), 12)
    assert t.texts_val == hershey.line_texts(np.random.default_rng([S.DATA_SEED, 1]), 3)


def test_data_mnist_onto_a_full_disk(tmp_path, monkeypatch, mirror):
    """The disk fills while a file downloads: one line naming the file and what is needed (not "the download
    broke off"), nothing kept."""
    root, url = mirror
    for name in ("t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"):
        (root / name).write_bytes(os.urandom(200_000))
    disk = type("Disk", (FullDisk,), {"room": 1000})
    real = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: io.BufferedWriter(disk(fd, "wb"))
                        if "w" in mode else real(fd, mode, *a, **k))
    dest = tmp_path / "dest"
    msg = one_error(invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q"),
                    f"cannot write {dest / 't10k-images-idx3-ubyte.gz'} (No space left on device)")
    assert "free some space" in msg and "--dest" in msg and "broke off" not in msg
    assert os.listdir(dest) == []
