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

from lnrnn.checkpoint import save_checkpoint
from lnrnn.cli import main
from lnrnn.models import build_model, head_config

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
