"""lnrnn/commands/train.py's choices before the trainer runs (a stand-in trainer records what it is given):
without --out a new run takes the first default folder that holds no run and --resume the one whose checkpoint
was written last; and when an MPI launcher started the command but the group cannot be made (mpi4py missing),
rank 0 says so in one line and every other rank exits quietly with status 2 (one message for the whole launch,
not one per rank)."""
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training import distributed
from lnrnn.training import train as train_mod
from test_cli import assert_clean_error, invoke

WHY = "started as 2 processes by an MPI launcher, but mpi4py is not installed"


@pytest.fixture
def no_group(monkeypatch):
    def init():
        raise UserError(f"lnrnn was {WHY}; install it.")
    monkeypatch.setattr(distributed, "init", init)
    return monkeypatch


def test_rank_zero_says_what_is_missing(no_group, tmp_path):
    no_group.setattr(distributed, "launched_rank", lambda: 0)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert_clean_error(r, WHY)
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize("rank", [1, 3])
def test_other_ranks_exit_quietly(no_group, tmp_path, rank):
    no_group.setattr(distributed, "launched_rank", lambda: rank)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit)
    assert r.output == "" and not (tmp_path / "run").exists()


def test_without_out_a_new_run_takes_a_free_default_folder_and_resume_the_newest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for k, name in enumerate(("default", "default-2")):             # two runs; default-2 saved last
        folder = tmp_path / "runs" / name
        folder.mkdir(parents=True)
        (folder / "checkpoint.json").write_text("{}")
        os.utime(folder / "checkpoint.json", (1_000_000 + k, 1_000_000 + k))
    given = []
    monkeypatch.setattr(train_mod, "train", lambda cfg, resume=False, **kw: given.append((cfg.out, resume)))
    assert invoke("train", "-q").exit_code == 0
    assert invoke("train", "--resume", "-q").exit_code == 0
    assert given == [(os.path.join("runs", "default-3"), False), (os.path.join("runs", "default-2"), True)]
