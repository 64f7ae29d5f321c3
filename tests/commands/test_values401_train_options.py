"""``lnrnn train``'s options as the trainer receives them, with the training loop replaced by a recorder (nothing
trains). Each option's type against what its help promises: a time budget and a save interval of 0.5 or 90.5
seconds, a forget-gate bias of 0.5, --data-dir naming a file (the npz tasks read one .npz), --skip and --no-skip
each reaching the config (None when neither is given: the task decides), -q as short for --quiet in every command
that has it. The choices of --best-metric and --head are the trainer's own lists (lnrnn.training.plan.BEST_METRICS,
HEADS), each one accepted. Every option left out arrives as TrainConfig's field, named one by one (state noise,
head, reproducible, keep, eval-every, clip among them). A write the file system refuses mid-run is one line for
each refusal the command documents (no space, quota, file too large, no permission, read-only, an I/O error) with
the advice lnrnn.files.space_hint gives for it, word for word."""
import dataclasses
import errno
import os

import pytest

from lnrnn.training import plan
from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig

from test_cli import invoke
from test_values143_train_cli import trainer  # noqa: F401  (fixture: train patched to record its calls)
from test_values221_sample_cli import exact_error


def train_with(tmp_path, trainer, *argv):
    r = invoke("train", "--out", tmp_path / "run", *argv)
    assert r.exit_code == 0, r.output + repr(r.exception)
    (cfg, kw), = trainer
    return cfg, kw


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(TrainConfig) if f.name != "out"])
def test_an_option_left_out_is_trainconfigs_field(tmp_path, trainer, field):
    cfg, kw = train_with(tmp_path, trainer)
    assert getattr(cfg, field) == getattr(TrainConfig(), field), field
    assert kw["explicit"] == {"out"}


@pytest.mark.parametrize("argv, field, value", [
    (["--time-budget", "0.5"], "time_budget", 0.5),
    (["--time-budget", "90.5"], "time_budget", 90.5),
    (["--save-every-seconds", "0.5"], "save_every_seconds", 0.5),
    (["--save-every-seconds", "90.5"], "save_every_seconds", 90.5),
    (["--forget-bias", "0.5"], "forget_bias", 0.5),
    (["--forget-bias", "-1.5"], "forget_bias", -1.5),
    (["--skip"], "skip", True),
    (["--no-skip"], "skip", False),
])
def test_an_option_arrives_with_the_value_its_help_promises(tmp_path, trainer, argv, field, value):
    cfg, kw = train_with(tmp_path, trainer, *argv)
    assert getattr(cfg, field) == value and type(getattr(cfg, field)) is type(value)
    assert kw["explicit"] == {"out", field}


@pytest.mark.parametrize("name", ["x.npz", "strokes.npy"])
def test_data_dir_may_name_a_file(tmp_path, trainer, name):
    data = tmp_path / name
    data.write_bytes(b"")
    cfg, _ = train_with(tmp_path, trainer, "--task", "npz", "--data-dir", data)
    assert cfg.data_dir == str(data)


@pytest.mark.parametrize("metric", plan.BEST_METRICS)
def test_every_best_metric_of_the_trainer_is_a_choice(tmp_path, trainer, metric):
    cfg, _ = train_with(tmp_path, trainer, "--best-metric", metric)
    assert cfg.best_metric == metric


@pytest.mark.parametrize("head", plan.HEADS)
def test_every_head_of_the_trainer_is_a_choice(tmp_path, trainer, head):
    cfg, _ = train_with(tmp_path, trainer, "--head", head, "--task", "strokes-synthetic")
    assert cfg.head == head


@pytest.mark.parametrize("flag, quiet", [([], False), (["-q"], True), (["--quiet"], True)])
def test_q_is_short_for_quiet(tmp_path, trainer, flag, quiet):
    _, kw = train_with(tmp_path, trainer, *flag)
    assert kw["quiet"] is quiet


@pytest.mark.parametrize("command", ["train", "sample", "predict", "read", "gradcheck"])
def test_every_quiet_command_lists_q(command):
    helped = invoke(command, "--help").stdout
    assert "-q, --quiet" in helped, helped


@pytest.mark.parametrize("code, advice", [
    (errno.ENOSPC, "free some space there"), (errno.EDQUOT, "free some space there"),
    (errno.EFBIG, "free some space there"), (errno.EACCES, "make the folder writable"),
    (errno.EPERM, "make the folder writable"), (errno.EROFS, "make the folder writable"),
    (errno.EIO, "check that file system"),
])
def test_each_documented_refusal_is_one_line_with_its_advice(tmp_path, monkeypatch, code, advice):
    out = tmp_path / "run"
    path = str(out / "updates.jsonl")

    def refused(cfg, **kw):
        raise OSError(code, os.strerror(code), path)
    monkeypatch.setattr(train_mod, "train", refused)
    r = invoke("train", "--out", out, "-q")
    exact_error(r, f"cannot write {path} ({os.strerror(code)}): {advice}, then continue with "
                   f"`lnrnn train --out {out} --resume` (its last checkpoint is kept).")
