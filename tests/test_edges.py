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
@pytest.mark.parametrize("room", [0, 3000])
def test_a_writer_that_hides_the_disk_error_still_reports_it(tmp_path, full_disk, room):
    """matplotlib's PDF writer meets a full disk and raises zlib.error or AttributeError while it cleans up:
    atomic_write raises the disk's OSError, naming the file, and keeps the old file."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = tmp_path / "x.pdf"
    out.write_bytes(b"old")
    fig, ax = plt.subplots()
    ax.plot(np.random.default_rng(0).random(500))
    full_disk(room)
    with pytest.raises(OSError) as e:
        lnrnn.files.atomic_write(str(out), lambda f: fig.savefig(f, format="pdf"))
    plt.close(fig)
    assert e.value.errno == errno.ENOSPC and e.value.filename == str(out)
    assert out.read_bytes() == b"old" and no_temp_files(tmp_path)


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
