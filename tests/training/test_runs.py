"""Runs nobody can lose: SIGTERM like Ctrl-C, a second signal during a save, periodic
checkpoints then kill -9, one run per folder, unwritable folders, sizes that cannot fit, blow-ups,
umask, nothing left to do, compile time apart, progress lines in logs.

Every failure case: exit code, exactly one `Error:` line, no traceback, nothing saved lost. The signal
and kill -9 tests run the real `lnrnn` CLI in a child process (CHILD below: the CLI with each update
slowed down, so that the parent can act mid-run) and resume in this process; `assert_same_run` then
compares every array and metric with the uninterrupted reference run.
"""
import io
import json
import os
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time

import numpy as np
import pytest

from lnrnn.compiling import CompileClock
from lnrnn.training import memory, progress
from lnrnn.model import cells
from lnrnn.training.plan import resolve_defaults
from lnrnn.training.runconfig import TrainConfig
from lnrnn.data.tasks import task_shape
from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.model.heads import ClassifierHead
from lnrnn.model.models import SequenceModel
from lnrnn.training.rundir import LOCK_FILE, RunLock

from test_cli import TINY, assert_clean_error, assert_ok, assert_same_run, invoke, reference_run  # noqa: F401

CHILD = r"""
import os, signal, sys, time
import numpy as np
from lnrnn.model.models import SequenceModel
slow = float(os.environ.get("CHILD_SLOW_S", "0"))       # seconds added to every update
term_at = int(os.environ.get("CHILD_TERM_AT", "0"))     # SIGTERM itself during this update (1-based)
calls = []
real = SequenceModel.loss_and_grad
def patched(self, *a, **k):
    calls.append(1)
    if len(calls) == term_at:
        os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(slow)
    return real(self, *a, **k)
SequenceModel.loss_and_grad = patched
if os.environ.get("CHILD_TERM_IN_SAVE"):                # and again in the middle of the save that follows
    real_savez = np.savez
    def savez(*a, **k):
        if term_at and len(calls) >= term_at:
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(0.2)                             # the handler runs here, half-way through the save
        return real_savez(*a, **k)
    np.savez = savez
from lnrnn.cli import main
main(sys.argv[1:], prog_name="lnrnn")
"""


def child(args, **env):
    return subprocess.Popen([sys.executable, "-c", CHILD, *map(str, args)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **{k: str(v) for k, v in env.items()}})


def wait_for_step(out, done, proc, timeout=120):
    """Poll the child's checkpoint until done(meta) -> meta."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        try:
            meta = json.loads(open(os.path.join(out, "checkpoint.json")).read())
            if done(meta):
                return meta
        except (OSError, ValueError):
            pass
        if proc.poll() is not None:
            raise AssertionError("the child ended early: " + proc.stderr.read())
        time.sleep(0.02)
    raise AssertionError("timed out waiting for the child's checkpoint")


def one_error_line(stderr, words):
    assert "Traceback" not in stderr, stderr
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], stderr
    return errors[0]


def step_of(out):
    return load_checkpoint(str(out))[0]["step"]


# ---------------------------------------------------------------------------------------------
# signals
# ---------------------------------------------------------------------------------------------
def test_sigterm_saves_and_resume_is_exact_and_the_folder_is_locked(tmp_path, reference_run):
    """`kill -TERM` from outside (what Slurm, Kubernetes, docker stop and timeout send) saves the state
    reached, exits 143 with one line; meanwhile a second run on the same folder fails at once naming
    the holder; --resume then ends bit-identical to the uninterrupted run."""
    out = tmp_path / "run"
    p = child(["train", *TINY, "--out", out, "--save-every", 1], CHILD_SLOW_S=0.3)
    wait_for_step(out, lambda m: m["step"] >= 2, p)
    for args in (["train", *TINY, "--out", out], ["train", "--out", out, "--resume"]):
        t0 = time.time()
        msg = assert_clean_error(invoke(*args), "is in use by another lnrnn run")
        assert f"pid {p.pid} on host {socket.gethostname()}" in msg and time.time() - t0 < 5
    p.send_signal(signal.SIGTERM)
    _, stderr = p.communicate(timeout=120)
    assert p.returncode == 143, stderr
    msg = one_error_line(stderr, "interrupted (SIGTERM) at epoch")
    step = step_of(out)
    assert f"update {step};" in msg and "the state reached is saved" in msg and 2 <= step < 14
    assert not os.path.exists(out / LOCK_FILE)
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(reference_run, out)


def test_second_signal_during_the_save_waits_for_it(tmp_path, reference_run):
    """SIGTERM during update 4, then SIGTERM again half-way through the checkpoint it causes: the save
    completes (the checkpoint of update 4 is whole), then the run stops with one line; resume is exact."""
    out = tmp_path / "run"
    p = child(["train", *TINY, "--out", out], CHILD_TERM_AT=4, CHILD_TERM_IN_SAVE=1)
    _, stderr = p.communicate(timeout=120)
    assert p.returncode == 143, stderr
    msg = one_error_line(stderr, "stopped by a second SIGTERM at epoch 1, update 4")
    assert "the state reached is saved" in msg
    meta, _ = load_checkpoint(str(out))  # verifies the arrays' hash, names, shapes
    assert meta["step"] == 4 and meta["batch_in_epoch"] == 4
    assert sorted(f for f in os.listdir(out) if f.startswith((".tmp", "checkpoint-"))) == [meta["arrays_file"]]
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(reference_run, out)


def test_second_ctrl_c_outside_a_save_stops_at_once(tmp_path, monkeypatch, reference_run):
    original = SequenceModel.loss_and_grad
    calls = []

    def twice(self, *args, **kw):
        calls.append(1)
        if len(calls) == 4:
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)  # the second one lands inside this update
        return original(self, *args, **kw)

    monkeypatch.setattr(SequenceModel, "loss_and_grad", twice)
    out = tmp_path / "run"
    msg = assert_clean_error(invoke("train", *TINY, "--out", out), "stopped at once by a second SIGINT", code=130)
    assert "during update 4 of epoch 1" in msg and "the last checkpoint (update 0) is kept" in msg
    assert step_of(out) == 0
    monkeypatch.setattr(SequenceModel, "loss_and_grad", original)
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(reference_run, out)


# ---------------------------------------------------------------------------------------------
# periodic checkpoints
# ---------------------------------------------------------------------------------------------
def test_save_every_then_kill_9_resumes_exactly(tmp_path, reference_run):
    """--save-every 3: kill -9 (nothing runs in the child after it) once a mid-epoch checkpoint is on
    disk; the resumed run takes over the dead run's lock with a note and ends bit-identical."""
    out = tmp_path / "run"
    p = child(["train", *TINY, "--out", out, "--save-every", 3], CHILD_SLOW_S=0.3)
    wait_for_step(out, lambda m: m["batch_in_epoch"] > 0, p)
    p.kill()
    p.communicate(timeout=60)
    meta, _ = load_checkpoint(str(out))
    assert meta["batch_in_epoch"] > 0 and meta["step"] % 3 == 0
    assert open(out / LOCK_FILE).read().split()[0] == str(p.pid)  # left behind by the dead run
    r = invoke("train", "--out", out, "--resume", "-q")
    assert_ok(r)
    assert f"took over the lock of a run in {out} that is no longer running (pid {p.pid}" in r.stdout
    assert not os.path.exists(out / LOCK_FILE)
    assert_same_run(reference_run, out)


def test_save_every_updates_and_seconds(tmp_path, reference_run):
    """Which update each checkpoint on disk belongs to, seen after every update: --save-every 3 saves
    at 3, 6, 9, 12 (and at the epoch ends 7, 14); --save-every-seconds 1e-9 after every update."""
    for extra, expected in ((["--save-every", 3, "--save-every-seconds", 0], [0, 0, 3, 3, 3, 6, 7, 7, 9, 9, 9, 12, 12]),
                            (["--save-every-seconds", 1e-9], list(range(1, 14)))):
        out = tmp_path / f"run{len(extra)}"
        seen = []
        original = SequenceModel.loss_and_grad

        def spy(self, *args, **kw):
            seen.append(step_of(out))
            return original(self, *args, **kw)

        SequenceModel.loss_and_grad = spy
        try:
            assert_ok(invoke("train", *TINY, "--out", out, *extra))
        finally:
            SequenceModel.loss_and_grad = original
        assert seen[1:] == expected, (extra, seen)
        assert_same_run(reference_run, out)
    r = invoke("train", "--help")
    assert "--save-every-seconds" in r.output and "[default: 600.0]" in r.output


# ---------------------------------------------------------------------------------------------
# the run folder: one run at a time, writable
# ---------------------------------------------------------------------------------------------
def test_a_held_folder_is_refused_and_a_stale_lock_taken_over(tmp_path, reference_run):
    out = tmp_path / "run"
    shutil.copytree(reference_run, out)
    before = (out / "checkpoint.json").read_bytes()
    held = RunLock(str(out)).acquire()
    try:
        msg = assert_clean_error(invoke("train", "--out", out, "--resume", "--epochs", 3),
                                 f"the run folder {out} is in use by another lnrnn run (pid {os.getpid()} on host")
        assert "wait for it to end, or choose another --out" in msg
    finally:
        held.release()
    assert (out / "checkpoint.json").read_bytes() == before
    # a lock file left by a process that is gone (no flock on it any more)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    (out / LOCK_FILE).write_text(f"{dead.stdout.strip()} {socket.gethostname()} 2026-01-01T00:00:00\n")
    r = invoke("train", "--out", out, "--resume", "--epochs", 3, "-q")
    assert_ok(r)
    assert r.stdout.splitlines()[0] == (f"Note: took over the lock of a run in {out} that is no longer running "
                                        f"(pid {dead.stdout.strip()} on host {socket.gethostname()}, "
                                        "started 2026-01-01T00:00:00).")
    assert step_of(out) == 21 and not os.path.exists(out / LOCK_FILE)


def test_new_run_in_a_held_empty_folder(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    held = RunLock(str(out)).acquire()
    try:
        assert_clean_error(invoke("train", *TINY, "--out", out), "is in use by another lnrnn run")
    finally:
        held.release()
    assert os.listdir(out) == []


def _unwritable_run(args):
    """Run the CLI where folder permissions apply: in this process, or, as root (whom they do not stop),
    in a child without the capabilities that override them (util-linux setpriv). -> (code, stdout, stderr)."""
    if os.geteuid() != 0:
        r = invoke(*args)
        return r.exit_code, r.stdout, r.stderr
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: folder permissions cannot be made to apply")
    p = subprocess.run(["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", sys.executable,
                        "-m", "lnrnn.cli", *map(str, args)], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def test_unwritable_run_folder_is_refused_before_any_work(reference_run):
    tmp = tempfile.mkdtemp(prefix="lnrnn-ro-")
    try:
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro)
        run = os.path.join(ro, "run")
        shutil.copytree(reference_run, run)
        for root in (ro, run):
            os.chmod(root, 0o555)
        before = open(os.path.join(run, "checkpoint.json"), "rb").read()
        # resume: refused before anything is loaded or trained
        t0 = time.time()
        code, stdout, stderr = _unwritable_run(["train", "--out", run, "--resume", "--epochs", 4])
        assert code == 2 and stdout == "", stderr
        msg = one_error_line(stderr, f"cannot write to the run folder {run} (Permission denied)")
        assert "choose another --out" in msg and time.time() - t0 < 60
        assert open(os.path.join(run, "checkpoint.json"), "rb").read() == before
        # a new run whose folder would be created inside a read-only one
        new = os.path.join(ro, "new")
        code, stdout, stderr = _unwritable_run(["train", *TINY, "--out", new])
        assert code == 2 and stdout == "", stderr
        one_error_line(stderr, f"cannot write to {ro}, where the run folder {new} would be created,")
        assert not os.path.exists(new)
    finally:
        for root, dirs, _ in os.walk(tmp):
            os.chmod(root, 0o755)
        shutil.rmtree(tmp)


def test_out_is_a_file(tmp_path):
    (tmp_path / "f").write_text("x")
    assert_clean_error(invoke("train", *TINY, "--out", tmp_path / "f"), "is a file")  # click's own check
    assert_clean_error(invoke("train", *TINY, "--out", tmp_path / "f" / "run"), "is a file, not a folder")


# ---------------------------------------------------------------------------------------------
# sizes that cannot fit
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("args,hint", [
    (["--hidden", 1000000], "try a smaller --hidden or --layers"),
    (["--task", "adding", "--steps", 10000000], "--steps"),
    (["--task", "copy", "--steps", 10000000], "--steps"),
])
def test_sizes_that_cannot_fit_are_refused(tmp_path, args, hint):
    t0 = time.time()
    msg = assert_clean_error(invoke("train", *args, "--out", tmp_path / "r"), "this run needs about")
    assert " TB of memory (" in msg and " available; " in msg and hint in msg
    assert time.time() - t0 < 30 and not os.path.exists(tmp_path / "r")


def test_the_estimate_names_the_machine_and_spares_the_readme_runs(tmp_path, monkeypatch):
    cfg = resolve_defaults(TrainConfig(task="mnist", hidden=128, batch_size=64))  # README: pixel MNIST H128 B64 T784
    parts = memory.estimate(cfg, cells.get(cfg.cell), 784, 1, 10, False,
                            task_shape({"task": "mnist", "split": "8000/2000"}).data_bytes)
    total = memory.check_fits(parts, available=8 << 30)
    assert 0.5 < parts["activations"] / (411 << 20) < 2      # saved LN-LSTM arrays: 784*64*(16*128+3) floats
    assert total < 5 << 30                                   # measured peak of its evaluation (500 rows): 3.3 GB
    monkeypatch.setattr(memory, "available_bytes", lambda: 100 << 20)
    msg = assert_clean_error(invoke("train", *TINY, "--eval-batch-size", 100000, "--out", tmp_path / "r"),
                             "only 100.0 MB is available")
    assert "try a smaller --eval-batch-size" in msg
    monkeypatch.setenv("LNRNN_NO_MEMORY_CHECK", "1")
    assert_ok(invoke("train", *TINY, "--epochs", 1, "--out", tmp_path / "r"))


# ---------------------------------------------------------------------------------------------
# divergence
# ---------------------------------------------------------------------------------------------
def test_infinite_gradient_from_the_head_is_a_clean_diverged_stop(tmp_path, monkeypatch):
    original = ClassifierHead.backward
    calls = []

    def infinite(self, cache, scale):
        calls.append(1)
        dh = original(self, cache, scale)
        if len(calls) == 10:
            dh[0, 0] = np.inf
        return dh

    monkeypatch.setattr(ClassifierHead, "backward", infinite)
    out = tmp_path / "run"
    msg = assert_clean_error(invoke("train", *TINY, "--out", out),
                             "the gradient from the head became NaN or infinite at epoch 2, update 10", code=3)
    assert "the last good checkpoint (update 7) is kept" in msg and "--lr" in msg
    assert step_of(out) == 7


@pytest.mark.parametrize("lr", ["1e6", "1e30"])
def test_absurd_learning_rates_stop_with_the_last_good_checkpoint(tmp_path, lr):
    out = tmp_path / "run"
    r = invoke("train", *TINY, "--epochs", 6, "--lr", lr, "--out", out)
    msg = assert_clean_error(r, "training stopped and the last good checkpoint (update 0) is kept", code=3)
    assert "--lr" in msg
    meta, arrays = load_checkpoint(str(out))
    assert meta["step"] == 0 and all(np.all(np.isfinite(a)) for a in arrays.values())
    assert "Done" not in r.stdout


def test_a_loss_that_rises_for_a_while_delays_saves_and_then_saves(tmp_path, monkeypatch, reference_run):
    """Updates 5-9 report a loss 100x the first (a stretch shorter than BLOWUP_UPDATES, over the end of
    epoch 1 at update 7): no checkpoint is written while it lasts, the epoch's waits and is written
    after update 10; the run ends as the reference run (the reported loss feeds only the watch)."""
    original = SequenceModel.loss_and_grad
    calls, seen = [], []

    def high(self, *args, **kw):
        calls.append(1)
        seen.append(step_of(out))
        means = original(self, *args, **kw)
        return {**means, "loss": means["loss"] * 100} if 5 <= len(calls) <= 9 else means

    monkeypatch.setattr(SequenceModel, "loss_and_grad", high)
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--out", out, "--save-every", 2))
    # checkpoint on disk before update k (1-based): saves at 2, 4; none during 5-9 (6, 7, 8 wait); 10, 12, 14
    assert seen == [0, 0, 2, 2, 4, 4, 4, 4, 4, 4, 10, 10, 12, 12]
    assert_same_run(reference_run, out)


# ---------------------------------------------------------------------------------------------
# files, resume with nothing left, compile time, progress lines
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mask,mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_run_files_respect_the_umask(tmp_path, mask, mode):
    old = os.umask(mask)
    try:
        out = tmp_path / "run"
        assert_ok(invoke("train", *TINY, "--epochs", 1, "--out", out))
    finally:
        os.umask(old)
    files = [f for f in os.listdir(out) if f != "best"] + [os.path.join("best", f) for f in os.listdir(out / "best")]
    # checkpoint .json + .npz, config.json, metrics.jsonl + .csv, updates.jsonl, learning_curve.svg; best/'s two
    assert len(files) == 9
    for f in files:
        assert stat.S_IMODE(os.stat(out / f).st_mode) == mode, f
    assert stat.S_IMODE(os.stat(out / "best").st_mode) == 0o777 & ~mask


def test_resume_with_nothing_left_to_do(tmp_path, reference_run):
    out = tmp_path / "run"
    shutil.copytree(reference_run, out)
    before = (out / "checkpoint.json").read_bytes()
    for extra, words in ((["--epochs", 1], "has finished 2 epochs (--epochs 1); pass a larger --epochs"),
                         (["--epochs", 2], "has finished 2 epochs (--epochs 2)"),
                         ([], "has finished 2 epochs (--epochs 2)")):
        r = invoke("train", "--out", out, "--resume", *extra)
        assert_ok(r)
        assert r.stdout == f"Nothing to do: the run in {out} {words}" + r.stdout.split(words)[1]
        assert len(r.stdout.splitlines()) == 1 and r.stderr == ""
    mid = tmp_path / "mid"
    assert_ok(invoke("train", *TINY, "--out", mid, "--max-steps", 5))
    r = invoke("train", "--out", mid, "--resume", "--max-steps", 5)
    assert_ok(r)
    assert r.stdout.startswith(f"Nothing to do: the run in {mid} has made 5 updates (--max-steps 5)")
    assert (out / "checkpoint.json").read_bytes() == before and step_of(mid) == 5


def test_compile_time_is_recorded_apart(tmp_path, monkeypatch):
    """A kernel compiled inside the first update (a fresh njit function, never cached) is counted in
    compile_s (metrics.jsonl, checkpoint) and left out of time_s; a slow compile is announced."""
    from numba import njit
    original = SequenceModel.loss_and_grad
    state = {}

    def compiling(self, *args, **kw):
        if not state:
            @njit(cache=False)
            def fresh(a):
                s = 0.0
                for i in range(a.shape[0]):
                    s += np.sin(a[i]) * np.cos(a[i] / 3.0)
                return s
            t0 = time.perf_counter()
            fresh(np.ones(3))
            fresh(np.ones(3, np.float32))
            fresh(np.ones(3, np.int64))  # three compilations: several times this tiny run's training time
            state["compile"] = time.perf_counter() - t0
        return original(self, *args, **kw)

    monkeypatch.setattr(SequenceModel, "loss_and_grad", compiling)
    monkeypatch.setattr(progress, "COMPILE_NOTE_AFTER_S", 0.0)
    monkeypatch.setattr(CompileClock, "busy", property(lambda self: True))  # still compiling then
    out = tmp_path / "run"
    r = invoke("train", *TINY[:-1], "--epochs", 1, "--out", out)
    assert_ok(r)
    assert "Compiling kernels (once per install; later runs load them from Numba's cache)..." in r.stderr
    rec = json.loads(open(out / "metrics.jsonl").readline())
    assert 0.5 * state["compile"] < rec["compile_s"] <= state["compile"] + 0.05
    assert rec["time_s"] < 0.5 * state["compile"]  # 7 updates and an evaluation of 100 images, no compiling
    assert load_checkpoint(str(out))[0]["compile_time_s"] == pytest.approx(rec["compile_s"], abs=1e-3)
    q = invoke("train", *TINY, "--epochs", 1, "--out", tmp_path / "quiet")
    assert_ok(q)
    assert q.stderr == ""


def test_compile_clock_counts_nested_compiles_once():
    from numba import njit

    @njit(cache=False)
    def inner(x):
        return x * 2.0 + 1.0

    @njit(cache=False)
    def outer(x):
        return inner(x) - 1.0

    with CompileClock() as clock:
        t0 = time.perf_counter()
        outer(1.0)
        wall = time.perf_counter() - t0
        first = clock.seconds()
        outer(2.0)
    assert 0 < first <= wall and clock.seconds() == first and not clock.busy


def test_progress_lines_when_stderr_is_not_a_terminal(tmp_path, monkeypatch):
    s = io.StringIO()
    bar = progress.Progress(100, "epoch 1/2", stream=s, log_every=0)
    for _ in range(4):
        bar.update(20, loss=1.5)
    bar.close("| val loss 1.2")
    lines = s.getvalue().splitlines()
    assert len(lines) == 5 and all(line.startswith("epoch 1/2 [") and "\r" not in line for line in lines)
    assert "ETA" in lines[0] and "samples/s" in lines[0] and lines[-1].endswith("| val loss 1.2")
    s = io.StringIO()
    bar = progress.Progress(100, "x", stream=s)  # the default: a line every LOG_EVERY_S seconds
    bar.update(50, loss=1.0)
    assert s.getvalue() == "" and progress.LOG_EVERY_S == 30
    monkeypatch.setattr(progress, "LOG_EVERY_S", 0.0)
    r = invoke("train", *TINY[:-1], "--epochs", 1, "--out", tmp_path / "run")
    assert_ok(r)
    assert sum(line.startswith("epoch 1/1 [") for line in r.stderr.splitlines()) == 7  # 6 progress lines + final


def test_a_run_keeps_its_training_data_record_and_predict_refuses_raw_pixels(tmp_path):
    """The trainer writes the training set's length and value range into every checkpoint ("data"),
    recomputed here from the task itself, and `lnrnn predict` refuses the digits' raw 0..16 values."""
    from lnrnn.data.tasks import load_task
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--epochs", "1", "--out", out))
    meta, _ = load_checkpoint(str(out))
    task = load_task(meta["task"])
    x = task.x_train.astype(np.float64) * task.scale
    assert meta["data"] == {"steps": 64, "min": float(x.min()), "max": float(x.max())}
    assert meta["data"]["max"] <= 1.0
    raw = tmp_path / "raw.npy"
    np.save(raw, (task.x_val[:5] * 16).astype(np.float32))   # 0..16, as scikit-learn gives them
    res = invoke("predict", "--checkpoint", out, "--input", raw, "--out", tmp_path / "p.csv")
    assert res.exit_code != 0 and "Traceback" not in res.output
    assert "span 0 to 16" in res.output and "--force" in res.output, res.output
    assert not (tmp_path / "p.csv").exists()


def test_kill_9_with_evaluations_best_and_kept_checkpoints_resumes_exactly(tmp_path):
    """--eval-every 2 --keep 3 --patience 50 --save-every 3, kill -9 mid-epoch: the resumed run's arrays,
    metrics (evaluation rows included), best checkpoint and kept checkpoints equal an uninterrupted run's."""
    opts = ["--eval-every", 2, "--keep", 3, "--patience", 50, "--save-every", 3]
    ref = tmp_path / "ref"
    assert_ok(invoke("train", *TINY, *opts, "--out", ref))
    out = tmp_path / "run"
    p = child(["train", *TINY, *opts, "--out", out], CHILD_SLOW_S=0.3)
    wait_for_step(out, lambda m: m["batch_in_epoch"] > 0 and m["step"] >= 3, p)
    p.kill()
    p.communicate(timeout=60)
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert_same_run(ref, out)
    for sub in ["best"] + [os.path.join("checkpoints", d) for d in sorted(os.listdir(ref / "checkpoints"))]:
        (ma, a), (mb, b) = load_checkpoint(str(ref / sub)), load_checkpoint(str(out / sub))
        assert ma.get("best") == mb.get("best") and ma["step"] == mb["step"], sub
        assert all(np.array_equal(a[k], b[k]) for k in a), sub
    assert sorted(os.listdir(out / "checkpoints")) == sorted(os.listdir(ref / "checkpoints"))
