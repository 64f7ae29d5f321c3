"""lnrnn/commands/train.py and options.py: lnrnn train with no options hands the trainer (a stand-in that records
what it gets) exactly TrainConfig's defaults, and every default --help shows is TrainConfig's; each option's
value arrives as given and of its type (a float where the option is one, an int where it counts); a value an
option's type refuses, and each range check's value one past its bound, is one `Error:` line naming the option,
exit 2, with nothing written and no task loaded, while the bound itself is taken; --task's help gives every
task's own description. Under an MPI launcher whose group cannot start, rank 0 reports it in one line and the
other ranks leave quietly with exit 2; neither trains."""
import dataclasses
import os
import re

import click
import pytest

from lnrnn.commands.train import train as train_command
from lnrnn.data.tasks import TASKS
from lnrnn.errors import UserError
from lnrnn.training import distributed, setup
from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig

from test_cli import assert_clean_error, invoke

DEFAULTS = TrainConfig()


@pytest.fixture
def trainer(monkeypatch):
    calls = []
    monkeypatch.setattr(train_mod, "train", lambda cfg, resume=False, **kw: calls.append((cfg, resume, kw)))
    return calls


def _squash(s):
    return " ".join(s.split())


def test_no_options_hand_the_trainer_train_configs_defaults(tmp_path, trainer):
    out = str(tmp_path / "run")
    r = invoke("train", "--out", out)
    assert r.exit_code == 0, r.output
    ((cfg, resume, kw),) = trainer
    assert resume is False and kw["quiet"] is False
    want = dataclasses.asdict(TrainConfig(out=out))
    got = dataclasses.asdict(cfg)
    assert got == want, {k: (got[k], want[k]) for k in want if got[k] != want[k]}


def test_every_default_help_shows_is_train_configs():
    ctx = click.Context(train_command, info_name="train")
    text = _squash(train_command.get_help(ctx))
    shown = 0
    for p in train_command.params:
        record = p.get_help_record(ctx)
        if record is None:
            continue
        m = re.search(r"\[default: ([^\]]+)\]", record[1])
        if m is None:
            continue
        assert _squash(record[0]) in text and f"[default: {m.group(1)}]" in text   # what --help prints
        want = getattr(DEFAULTS, p.name)
        assert m.group(1) == (str(want).lower() if isinstance(want, bool) else str(want)), p.name
        shown += 1
    assert shown >= 15


@pytest.mark.parametrize("flag,value,field,want", [
    ("--lr-decay", "0.5", "lr_decay", 0.5), ("--time-budget", "0.5", "time_budget", 0.5),
    ("--lr", "0.25", "lr", 0.25), ("--clip", "2.5", "clip", 2.5), ("--clip-output", "0.5", "clip_output", 0.5),
    ("--state-noise", "0.05", "state_noise", 0.05), ("--forget-bias", "-0.5", "forget_bias", -0.5),
    ("--steps", "7", "steps", 7), ("--hidden", "5", "hidden", 5), ("--log-every", "1", "log_every", 1),
    ("--init", "identity", "init", "identity"), ("--init", "orthogonal", "init", "orthogonal"),
    ("--eval-batch-size", "1", "eval_batch_size", 1), ("--bptt", "3", "tbptt", 3),
])
def test_each_value_arrives_as_given_and_of_its_type(tmp_path, trainer, flag, value, field, want):
    r = invoke("train", "--out", tmp_path / "run", flag, value, "-q")
    assert r.exit_code == 0, r.output
    got = getattr(trainer[0][0], field)
    assert got == want and type(got) is type(want)


@pytest.mark.parametrize("flag,value", [("--steps", "7.5"), ("--hidden", "2.0"), ("--lr-decay", "half"),
                                        ("--time-budget", "soon"), ("--init", "eye"), ("--eval-batch-size", "0"),
                                        ("--log-every", "1.5")])
def test_a_value_the_type_refuses_is_one_line_and_nothing_runs(tmp_path, trainer, flag, value):
    assert_clean_error(invoke("train", "--out", tmp_path / "run", flag, value, "-q"), flag)
    assert trainer == [] and not os.path.exists(tmp_path / "run")


def _no_task(*a, **k):
    raise AssertionError("the task was loaded before the options were checked")


# (option, one past its bound, the bound): each range check of lnrnn.training.plan.validate seen from the CLI
BOUNDS = [("--batch-size", "0", "1"), ("--epochs", "0", "1"), ("--hidden", "0", "1"), ("--layers", "0", "1"),
          ("--lr-decay", "0", "1e-9"), ("--clip", "-0.001", "0"), ("--block-rows", "0", "1"),
          ("--max-steps", "0", "1"), ("--time-budget", "0", "1e-9"), ("--seed", "-1", "0"), ("--tbptt", "0", "1")]


@pytest.mark.parametrize("flag,bad,ok", BOUNDS)
def test_one_past_a_bound_is_refused_before_any_work_and_the_bound_is_taken(tmp_path, monkeypatch, flag, bad, ok):
    monkeypatch.setattr(setup, "load_task", _no_task)
    out = tmp_path / "run"
    assert_clean_error(invoke("train", "--out", out, flag, bad, "-q"), flag)
    assert not os.path.exists(out)
    r = invoke("train", "--out", out, flag, ok, "-q")         # the bound passes the checks: the task is next
    assert isinstance(r.exception, AssertionError) and "task was loaded" in str(r.exception), r.output


def test_task_help_gives_every_tasks_description():
    ctx = click.Context(train_command, info_name="train")
    (task,) = [p for p in train_command.params if p.name == "task"]
    helptext = _squash(task.get_help_record(ctx)[1])
    for name, row in TASKS.items():
        assert _squash(f"{name}: {row.help}") in helptext, name


def _launcher_without_mpi(monkeypatch, rank):
    def init():
        raise UserError("launched by mpiexec but mpi4py is missing; pip install mpi4py.")
    monkeypatch.setattr(distributed, "init", init)
    monkeypatch.setattr(distributed, "launched_rank", lambda: rank)


def test_rank_0_says_the_group_cannot_start_and_trains_nothing(tmp_path, trainer, monkeypatch):
    _launcher_without_mpi(monkeypatch, 0)
    line = assert_clean_error(invoke("train", "--out", tmp_path / "run", "-q"), "mpi4py")
    assert line == "Error: launched by mpiexec but mpi4py is missing; pip install mpi4py."
    assert trainer == []


def test_other_ranks_leave_quietly_with_exit_2(tmp_path, trainer, monkeypatch):
    _launcher_without_mpi(monkeypatch, 1)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), r.output
    assert r.output == "" and trainer == []
