"""Values a command must refuse in one line, before any work, that used to get through: a negative --seed (NumPy's
generators take none: a traceback after the data were loaded), an empty --out or --dest (read as the current
folder: a traceback when the run folder was made, or a misleading "cannot write" line), and the same checks where
the Python API and the plan meet them (lnrnn.api.sample_run's seed, plan.validate's, files.check_output_file's
empty name); eval's --eval-batch-size below 1 named as the option; lnrnn plot of a run whose metrics.jsonl is
still empty (it drew empty axes)."""
import os

import pytest
from click.testing import CliRunner

from lnrnn import api
from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.files import check_output_file
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig


def refused(args, *words):
    """The command's exit 2 with its last stderr line the one error, naming words; no traceback."""
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output + repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("Error:"), r.stderr
    assert sum(ln.startswith("Error:") for ln in lines) == 1, r.stderr
    for w in words:
        assert w in lines[-1], (w, lines[-1])


@pytest.mark.parametrize("command", [["train", "--out", "r"], ["gradcheck", "-q"],
                                     ["sample", "--checkpoint", "r", "--out", "s.png"]])
def test_a_negative_seed_is_refused_by_every_command_that_takes_one(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    refused(command + ["--seed", "-1"], "--seed", "-1")
    assert os.listdir(tmp_path) == []


def test_seed_zero_and_up_are_taken_and_below_refused_by_the_plan_and_the_api():
    for seed in (0, 1, 2 ** 40):
        validate(resolve_defaults(TrainConfig(seed=seed)))
    with pytest.raises(UserError, match="--seed must be 0 or more, not -1"):
        validate(resolve_defaults(TrainConfig(seed=-1)))
    for seed in (-1, 1.5, True, "3"):  # checked before the run is looked at
        with pytest.raises(UserError, match="seed must be a whole number of at least 0"):
            api.sample_run(None, seed=seed)


@pytest.mark.parametrize("out", ["", "   "])
def test_an_empty_run_folder_is_refused_and_nothing_is_written(tmp_path, monkeypatch, out):
    monkeypatch.chdir(tmp_path)
    refused(["train", "--out", out], "--out", "names no folder")
    assert os.listdir(tmp_path) == []


def test_an_empty_download_folder_is_refused_before_any_download(tmp_path, monkeypatch):
    from lnrnn.commands import data

    def never(*a, **k):
        raise AssertionError("a download started")
    monkeypatch.setattr(data, "download", never)
    monkeypatch.chdir(tmp_path)
    refused(["data", "mnist", "--dest", ""], "--dest", "names no folder")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name,says", [("", "names no file"), ("  ", "names no file"), ("a" + os.sep, "names a folder")])
def test_an_output_file_needs_a_name(name, says):
    with pytest.raises(UserError, match=says):
        check_output_file(name, "--npz")


@pytest.mark.parametrize("command", [["eval", "--checkpoint", "r"], ["train", "--out", "r"]])
def test_an_evaluation_batch_below_one_is_refused_by_its_option(tmp_path, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    refused(command + ["--eval-batch-size", "0"], "--eval-batch-size", "0")
    assert os.listdir(tmp_path) == []


def test_plot_refuses_a_run_without_evaluations_and_draws_nothing(tmp_path):
    run = tmp_path / "young"
    run.mkdir()
    (run / "metrics.jsonl").write_text("")
    refused(["plot", str(run), "--out", str(tmp_path / "c.png")], f"the run in {run} has no evaluations yet",
            "--eval-every")
    assert sorted(os.listdir(tmp_path)) == ["young"]


@pytest.mark.parametrize("name,stem", [("pts", "pts"), ("pts.txt", "pts"), ("out/pts.json", "out/pts")])
def test_sample_refuses_an_npz_under_another_name_before_sampling(tmp_path, monkeypatch, name, stem):
    """lnrnn sample --npz writes an .npz archive whatever the name: a name without the suffix (which numpy's
    savez would have added) or with another one is refused, with the name to give, before the run is loaded."""
    from lnrnn import api as api_module

    def never(*a, **k):
        raise AssertionError("the run was loaded")
    monkeypatch.setattr(api_module, "load_run", never)
    monkeypatch.chdir(tmp_path)
    refused(["sample", "--checkpoint", "r", "--out", "s.png", "--npz", name], f"--npz {name}", f"name it {stem}.npz")
    assert os.listdir(tmp_path) == []


def test_complex_sequences_are_refused_not_cast():
    """A cast to the model's float dtype would drop the imaginary parts (NumPy warns and goes on)."""
    import numpy as np

    from lnrnn.predict_io import check_inputs
    for dt in (np.complex64, np.complex128):
        with pytest.raises(UserError, match=f"must be real numbers, not {np.dtype(dt)}"):
            check_inputs(np.zeros((2, 5), dt), 1)
    assert check_inputs(np.zeros((2, 5), np.int64), 1).shape == (2, 5, 1)


@pytest.mark.parametrize("name", ["notes.txt", "model.py", "checkpoint.npz"])
def test_a_file_that_is_not_a_run_is_named_as_such(tmp_path, monkeypatch, name):
    """--checkpoint given some other file (a checkpoint* file without a checkpoint.json beside it too): 'not a run
    folder', not 'corrupt'."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_bytes(b"\x00\x01 not json")
    refused(["eval", "--checkpoint", name], f"{name} is not a run folder or its checkpoint.json")
