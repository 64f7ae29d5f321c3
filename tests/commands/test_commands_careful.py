"""The commands besides ``train`` are as careful as it: a destination that cannot be written is refused in
one line before any work (and a missing folder is created), input that cannot be what the model was
trained on is refused (or, with --force, warned about), long sampling has a cap and progress, Ctrl-C
ends every command with one line and exit 130, and the pictures say what their axes measure."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.cli import main
from lnrnn.model.models import build_model, head_config

from test_sample import mdn_run


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_error(result, words, code=2):
    """Exit ``code``, no traceback, exactly one ``Error:`` line, containing ``words``."""
    assert result.exit_code == code, result.output + repr(result.exception)
    assert isinstance(result.exception, SystemExit), repr(result.exception)
    assert "Traceback" not in result.output
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and words in errors[0], result.stderr
    return errors[0]


def classifier_run(folder, task=None, data=None, cell=("lstm", "ln"), input_size=1, train=None):
    """A checkpoint of an untrained sequence classifier (no training: quick), with ``data`` as the
    training-data record the trainer keeps (or none, as older runs)."""
    m = build_model(dict(cell=cell[0], norm=cell[1], input_size=input_size, hidden_size=4, num_layers=1,
                         dtype="float32", forget_bias=1.0, head=head_config("ce", 10)), seed=1)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    meta = {"model": m.config, "step": 3, "epoch": 1, "task": task or {"task": "digits"},
            "train": train or {"cell": "-".join(reversed(cell))}}
    if data is not None:
        meta["data"] = data
    save_checkpoint(str(folder), arrays, meta)
    return folder


def run_with_curves(folder, records, kind="classifier"):
    """A run folder holding metrics.jsonl and a checkpoint.json naming its head (what plot reads)."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "metrics.jsonl"), "w") as f:
        f.writelines(json.dumps(r) + "\n" for r in records)
    with open(os.path.join(folder, "checkpoint.json"), "w") as f:
        json.dump({"model": {"head": {"kind": kind}}}, f)
    return folder


def ce_records(n=3):
    return [{"epoch": e, "step": 10 * e, "time_s": e, "train_loss": 2.0 / e, "val_loss": 2.1 / e,
             "train_acc": 0.3 + 0.1 * e, "val_acc": 0.25 + 0.1 * e} for e in range(1, n + 1)]


def nll_records(n=3):
    return [{"epoch": e, "step": 10 * e, "time_s": e, "train_loss": -0.5 * e, "val_loss": -0.4 * e}
            for e in range(1, n + 1)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("careful")
    mdn_run(base / "mdn", "ln-lstm")
    classifier_run(base / "clf")
    np.save(base / "seq.npy", np.random.default_rng(0).random((5, 64)).astype(np.float32))
    run_with_curves(base / "curves", ce_records())
    return base


def commands(runs, out, option="--out"):
    """Each command writing ``out`` through ``option``: (name, argv)."""
    return {
        "sample": ["sample", "--checkpoint", runs / "mdn", "--steps", 5, "--count", 1,
                   *(["--out", out] if option == "--out" else ["--out", runs / "ok.png", "--npz", out])],
        "predict": ["predict", "--checkpoint", runs / "clf", "--input", runs / "seq.npy", "--out", out],
        "export": ["export", "--checkpoint", runs / "clf", "--out", out],
        "plot": ["plot", runs / "curves", "--out", out],
    }


NAMES = {"sample": "s.png", "predict": "p.csv", "export": "w.safetensors", "plot": "c.png", "npz": "s.npz"}
CASES = [("sample", "--out"), ("predict", "--out"), ("export", "--out"), ("plot", "--out"), ("sample", "--npz")]


def _argv(runs, command, option, out):
    return commands(runs, out, option)[command]


@pytest.fixture
def no_work(monkeypatch):
    """Any command that loads a run or reads curves after this fails the test: the destination must be
    checked first."""
    import lnrnn.api
    import lnrnn.commands.plot

    def refuse(*a, **k):
        raise AssertionError("the run was loaded before the destination was checked")
    monkeypatch.setattr(lnrnn.api, "load_run", refuse)
    monkeypatch.setattr(lnrnn.commands.plot, "read_run_curves", refuse)


# ---------------------------------------------------------------------------------------------
# destinations
# ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("command,option", CASES)
def test_missing_folders_are_created(runs, tmp_path, command, option):
    out = tmp_path / "new" / "deeper" / NAMES["npz" if option == "--npz" else command]
    r = invoke(*_argv(runs, command, option, out))
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.stat().st_size > 0
    assert [p for p in os.listdir(out.parent) if p.startswith(".tmp-")] == []  # written through a temp file


@pytest.mark.parametrize("command,option", CASES)
def test_a_file_in_the_way_is_refused_before_any_work(runs, tmp_path, no_work, command, option):
    (tmp_path / "f").write_text("x")
    out = tmp_path / "f" / "sub" / NAMES["npz" if option == "--npz" else command]
    msg = one_error(invoke(*_argv(runs, command, option, out)), "is a file, not a folder")
    assert option in msg and "choose another" in msg
    assert sorted(os.listdir(tmp_path)) == ["f"] and (tmp_path / "f").read_text() == "x"


@pytest.mark.parametrize("command,option", CASES)
def test_a_folder_as_the_file_is_refused(runs, tmp_path, no_work, command, option):
    (tmp_path / "d").mkdir()
    r = invoke(*_argv(runs, command, option, tmp_path / "d"))
    assert r.exit_code == 2 and "Traceback" not in r.output and "is a directory" in r.stderr, r.output
    assert os.listdir(tmp_path / "d") == []


def _unprivileged(args):
    """Run the CLI where folder permissions apply: as root (whom they do not stop), in a child without the
    capabilities that override them (util-linux setpriv). -> (code, stdout, stderr)."""
    argv = [sys.executable, "-m", "lnrnn.cli", *map(str, args)]
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv: folder permissions cannot be made to apply")
        argv = ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner"] + argv
    p = subprocess.run(argv, capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


@pytest.mark.parametrize("command,option", CASES)
def test_a_read_only_folder_is_refused_in_one_line(runs, command, option):
    tmp = tempfile.mkdtemp(prefix="lnrnn-ro-")
    try:
        ro = os.path.join(tmp, "ro")
        os.mkdir(ro)
        os.chmod(ro, 0o555)
        for out in (os.path.join(ro, NAMES["npz" if option == "--npz" else command]),
                    os.path.join(ro, "new", NAMES["npz" if option == "--npz" else command])):
            code, stdout, stderr = _unprivileged(_argv(runs, command, option, out))
            assert code == 2 and stdout == "" and "Traceback" not in stderr, stderr
            errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
            assert len(errors) == 1 and f"cannot write to {ro}" in errors[0], stderr
            assert "(Permission denied)" in errors[0] and option in errors[0]
            assert os.listdir(ro) == []
    finally:
        os.chmod(os.path.join(tmp, "ro"), 0o755)
        shutil.rmtree(tmp)


def test_an_existing_file_is_replaced_whole(runs, tmp_path):
    out = tmp_path / "w.safetensors"
    out.write_bytes(b"old")
    r = invoke("export", "--checkpoint", runs / "clf", "--out", out)
    assert r.exit_code == 0, r.output
    assert out.read_bytes()[:3] != b"old" and len(out.read_bytes()) > 100


# ---------------------------------------------------------------------------------------------
# predict: input that cannot be what the model was trained on
# ---------------------------------------------------------------------------------------------
def test_the_training_data_is_described_and_checked():
    from lnrnn.predict_io import check_like_training, describe_training_data

    x = np.random.default_rng(0).integers(0, 256, (20, 28, 28)).astype(np.uint8)
    rec = describe_training_data(x, scale=1 / 255)
    assert rec["steps"] == 28 and rec["min"] == 0.0 and rec["max"] == pytest.approx(1.0)
    assert json.loads(json.dumps(rec)) == rec                        # kept in the checkpoint's JSON
    ragged = describe_training_data(np.zeros((3, 9, 2)), lengths=np.array([4, 9, 7]))
    assert ragged["steps"] == [4, 9]
    ok = x[:5].astype(np.float32) / 255
    assert check_like_training(ok, rec) == []
    assert check_like_training(ok * 1.05, rec) == []                 # within the slack
    assert check_like_training(x[:5].astype(np.float32), rec) == [
        "their values span 0 to 255 where the training data's spanned 0 to 1"]
    assert check_like_training(ok[:, :20], rec) == ["they have 20 steps where the training sequences had 28"]
    assert check_like_training(np.zeros((1, 12, 2)), ragged) == [
        "they have 12 steps where the training sequences had 4 to 9"]
    assert check_like_training(np.zeros((1, 5, 2)), ragged) == []
    assert check_like_training(ok * 99, None) == []                  # nothing known: no check


def test_a_run_without_the_record_falls_back_to_its_task():
    from lnrnn.predict_io import training_record

    assert training_record({"task": {"task": "digits"}}) == {"steps": 64, "min": 0.0, "max": 1.0}
    assert training_record({"task": {"task": "copy", "steps": 5}})["steps"] == 25
    assert training_record({"task": {"task": "mnist", "data_dir": "nowhere"}}) == {"min": 0.0, "max": 1.0}
    assert training_record({"task": {"task": "strokes-synthetic"}}) is None
    kept = {"steps": 7, "min": -1.0, "max": 1.0}
    assert training_record({"task": {"task": "digits"}, "data": kept}) == kept   # the run's own record first


def _digits(n=6):
    from sklearn.datasets import load_digits
    return load_digits().images[:n].reshape(n, 64)                 # raw pixel values 0..16


@pytest.mark.parametrize("recorded", [True, False])
def test_predict_refuses_raw_values_and_other_lengths(runs, tmp_path, recorded):
    run = classifier_run(tmp_path / "run", data={"steps": 64, "min": 0.0, "max": 1.0} if recorded else None)
    np.save(tmp_path / "raw.npy", _digits())
    np.save(tmp_path / "short.npy", _digits()[:, :50] / 16)
    np.save(tmp_path / "good.npy", _digits() / 16)
    out = tmp_path / "p.csv"
    msg = one_error(invoke("predict", "--checkpoint", run, "--input", tmp_path / "raw.npy", "--out", out),
                    "their values span 0 to 16 where the training data's spanned 0 to 1")
    assert "raw.npy" in msg and "--force" in msg
    msg = one_error(invoke("predict", "--checkpoint", run, "--input", tmp_path / "short.npy", "--out", out),
                    "they have 50 steps where the training sequences had 64")
    assert not out.exists()
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "good.npy", "--out", out)
    assert r.exit_code == 0 and "Warning" not in r.stderr, r.output
    out.unlink()
    r = invoke("predict", "--checkpoint", run, "--data-dir", tmp_path / "raw.npy", "--out", out, "--force")
    assert r.exit_code == 0, r.output
    warnings = [line for line in r.stderr.splitlines() if line.startswith("Warning:")]
    assert len(warnings) == 1 and "values span 0 to 16" in warnings[0] and "(--force)" in warnings[0]
    assert len(out.read_text().splitlines()) == 7


def test_predict_shows_progress_unless_quiet(runs, tmp_path, monkeypatch):
    import lnrnn.training.progress
    monkeypatch.setattr(lnrnn.training.progress, "LOG_EVERY_S", 0.0)  # a line after every batch
    np.save(tmp_path / "x.npy", _digits(9) / 16)
    r = invoke("predict", "--checkpoint", runs / "clf", "--input", tmp_path / "x.npy", "--out", tmp_path / "p.csv",
               "--batch-size", 4)
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stderr.splitlines() if line.startswith("predict [")]
    assert [line.split("] ")[1].split()[0] for line in lines] == ["4/9", "8/9", "9/9"], r.stderr
    assert "sequences/s" in lines[-1]
    r = invoke("predict", "--checkpoint", runs / "clf", "--input", tmp_path / "x.npy", "--out", tmp_path / "q.csv",
               "--batch-size", 4, "--quiet")
    assert r.exit_code == 0 and r.stderr == "", r.stderr
    assert (tmp_path / "p.csv").read_text() == (tmp_path / "q.csv").read_text()


# ---------------------------------------------------------------------------------------------
# sample: a cap, progress; Ctrl-C everywhere
# ---------------------------------------------------------------------------------------------
def test_sample_steps_are_capped_unless_no_cap(runs, tmp_path, no_work):
    from lnrnn.config import SAMPLE_MAX_STEPS
    msg = one_error(invoke("sample", "--checkpoint", runs / "mdn", "--steps", 100_000_000, "--out", tmp_path / "s.png"),
                    f"--steps 100,000,000 is more than the {SAMPLE_MAX_STEPS:,} points")
    assert "--no-cap" in msg and os.listdir(tmp_path) == []
    assert "--no-cap" in invoke("sample", "--help").output


def test_sample_over_the_cap_with_no_cap_and_progress(runs, tmp_path, monkeypatch):
    import lnrnn.config
    import lnrnn.commands.sample
    import lnrnn.training.progress
    monkeypatch.setattr(lnrnn.commands.sample, "SAMPLE_MAX_STEPS", 10)
    monkeypatch.setattr(lnrnn.training.progress, "LOG_EVERY_S", 0.0)
    one_error(invoke("sample", "--checkpoint", runs / "mdn", "--steps", 11, "--out", tmp_path / "s.png"),
              "more than the 10 points")
    r = invoke("sample", "--checkpoint", runs / "mdn", "--steps", 11, "--count", 2, "--no-cap",
               "--out", tmp_path / "s.png", "--npz", tmp_path / "s.npz")
    assert r.exit_code == 0, r.output
    lines = [line for line in r.stderr.splitlines() if line.startswith("sample [")]
    assert lines[0].split("] ")[1].split()[0] == "2/22" and lines[-1].split("] ")[1].split()[0] == "22/22"
    assert "points/s" in lines[-1] and list(np.load(tmp_path / "s.npz")["lengths"]) == [11, 11]
    r = invoke("sample", "--checkpoint", runs / "mdn", "--steps", 11, "--no-cap", "-q", "--out", tmp_path / "t.png")
    assert r.exit_code == 0 and r.stderr == "", r.stderr


def _ctrl_c(*a, **k):
    raise KeyboardInterrupt


@pytest.mark.parametrize("command", ["sample", "predict", "eval", "export", "plot"])
def test_ctrl_c_exits_130_with_one_line(runs, tmp_path, monkeypatch, command):
    import lnrnn.api
    import lnrnn.commands.plot
    import lnrnn.sample
    where = {"sample": (lnrnn.sample, "sample_strokes"), "predict": (lnrnn.api, "predict"),
             "eval": (lnrnn.api, "evaluate_run"), "export": (lnrnn.api, "export_run"),
             "plot": (lnrnn.commands.plot, "write_learning_curves")}[command]
    monkeypatch.setattr(*where, _ctrl_c)
    out = tmp_path / NAMES.get(command, "x")
    argv = commands(runs, out).get(command) or ["eval", "--checkpoint", runs / "clf"]
    r = invoke(*argv)
    msg = one_error(r, f"interrupted (Ctrl-C): lnrnn {command} stopped", code=130)
    assert "Aborted" not in r.output and not out.exists(), msg


def test_ctrl_c_in_a_real_sampling_process(runs, tmp_path):
    """SIGINT to a process drawing a long sample: exit 130, one line, no picture, no "Aborted!". The child
    restores Python's SIGINT handler: a test run as a background job of a non-interactive shell starts with
    SIGINT ignored, and the child would inherit that (lnrnn itself leaves it so: whoever ignored Ctrl-C for
    a background job meant it)."""
    import signal
    import time
    script = ("import signal, sys, lnrnn.training.progress; signal.signal(signal.SIGINT, signal.default_int_handler); "
              "lnrnn.training.progress.LOG_EVERY_S = 0.2; from lnrnn.cli import main; "
              "main(sys.argv[1:], prog_name='lnrnn')")
    out = tmp_path / "s.png"
    p = subprocess.Popen([sys.executable, "-c", script, "sample", "--checkpoint", str(runs / "mdn"), "--steps",
                          "10000000", "--no-cap", "--count", "1", "--out", str(out)],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = p.stderr.readline()          # the first progress line: sampling is under way
        assert first.startswith("sample ["), first
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        stdout, stderr = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
    errors = [line for line in stderr.splitlines() if line.startswith("Error:")]
    assert p.returncode == 130 and stdout == "" and "Traceback" not in stderr and "Aborted" not in stderr, stderr
    assert len(errors) == 1 and "interrupted (Ctrl-C): lnrnn sample stopped" in errors[0]
    assert os.listdir(tmp_path) == []


# ---------------------------------------------------------------------------------------------
# plot: losses that measure different things; one epoch
# ---------------------------------------------------------------------------------------------
def test_losses_of_different_heads_get_a_panel_each(tmp_path):
    from lnrnn.training.plot import COLORS, Curves, learning_curve_figure
    fig = learning_curve_figure([Curves("ce", ce_records(), kind="classifier"), Curves("nll", nll_records(), kind="mdn")])
    assert [ax.get_ylabel() for ax in fig.axes] == [
        "accuracy (%)", "cross-entropy loss (nats)", "negative log-likelihood (nats per point)"]
    colors = [{line.get_color() for line in ax.get_lines()} for ax in fig.axes]
    assert colors == [{COLORS[0]}, {COLORS[0]}, {COLORS[1]}]           # each run only where its metric is
    same = learning_curve_figure([Curves("a", ce_records(), kind="classifier"), Curves("b", ce_records(), kind="classifier")])
    assert [ax.get_ylabel() for ax in same.axes] == ["accuracy (%)", "cross-entropy loss (nats)"]


def test_plot_says_in_one_line_that_the_losses_are_apart(tmp_path):
    a = run_with_curves(tmp_path / "digits-run", ce_records())
    b = run_with_curves(tmp_path / "strokes-run", nll_records(), kind="mdn")
    r = invoke("plot", a, b, "--out", tmp_path / "c.svg")
    assert r.exit_code == 0, r.output
    assert len(r.stdout.splitlines()) == 1 and "each has its own panel" in r.stdout
    assert "cross-entropy loss (nats) (digits-run); negative log-likelihood (nats per point) (strokes-run)" in r.stdout
    svg = (tmp_path / "c.svg").read_text()
    assert "negative log-likelihood (nats per point)" in svg and "cross-entropy loss (nats)" in svg
    a2 = run_with_curves(tmp_path / "digits-run-2", ce_records())   # two runs of one kind of loss: one panel
    r = invoke("plot", a, a2, "--out", tmp_path / "d.svg")
    assert r.exit_code == 0 and "panel" not in r.stdout, r.output


def test_one_epoch_is_drawn_with_labelled_points(tmp_path):
    from lnrnn.training.plot import Curves, learning_curve_figure
    fig = learning_curve_figure([Curves("one", ce_records(1), kind="classifier")])
    acc, loss = fig.axes
    assert sorted(t.get_text() for t in acc.texts) == ["training 40.0%", "validation 35.0%"]
    assert sorted(t.get_text() for t in loss.texts) == ["training 2.0000", "validation 2.1000"]
    assert acc.get_xlim()[0] == 0 and acc.get_xlim()[1] > 10            # the one x is inside, not at an edge
    two = learning_curve_figure([Curves("two", ce_records(2), kind="classifier")])
    assert all(not ax.texts for ax in two.axes)                          # lines need no labels
