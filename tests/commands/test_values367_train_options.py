"""``lnrnn train`` around the trainer (round 367 of the planted bugs, tests/mutants/mutants_values367.py),
with the training loop replaced by a stand-in (nothing trains). Started by an MPI launcher of 2 processes
without mpi4py: rank 0 says so in one 'Error:' line, word for word, and rank 1 exits with code 2 saying
nothing; the trainer is never reached. A file system's refusal met mid-run (a full disk) is one line naming the
file, the reason and the resume command, or the run folder when the error names no file. The run folder is
spelled RUN_FOLDER alike in train --out and in the --checkpoint of the commands that read a run."""
import errno
import importlib
import os
import sys

import pytest

from lnrnn.training import distributed
from test_cli import invoke
from test_values221_sample_cli import exact_error

TRAINER = importlib.import_module("lnrnn.training.train")


@pytest.fixture
def trainer(monkeypatch):
    """The training loop replaced by a recorder; ``raises`` (when set) is raised from it."""
    calls = {"cfg": [], "raises": None}

    def train(cfg, **kw):
        calls["cfg"].append(cfg)
        if calls["raises"] is not None:
            raise calls["raises"]

    monkeypatch.setattr(TRAINER, "train", train)
    return calls


def launched_as(monkeypatch, size, rank):
    for v in distributed.SIZE_VARS + distributed.RANK_VARS:
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv("OMPI_COMM_WORLD_SIZE", str(size))
    monkeypatch.setenv("OMPI_COMM_WORLD_RANK", str(rank))
    monkeypatch.setitem(sys.modules, "mpi4py", None)     # import mpi4py: ImportError


def test_rank_0_without_mpi4py_says_what_to_install(tmp_path, monkeypatch, trainer):
    launched_as(monkeypatch, 2, 0)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    exact_error(r, "lnrnn was started as 2 processes by an MPI launcher, but mpi4py is not installed; install it "
                   "with pip install 'lnrnn[mpi]' (or run one process, without the launcher).")
    assert trainer["cfg"] == [] and r.stdout == ""


def test_rank_1_without_mpi4py_exits_2_quietly(tmp_path, monkeypatch, trainer):
    launched_as(monkeypatch, 2, 1)
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit), repr(r.exception)
    assert r.output == "" and trainer["cfg"] == []


@pytest.mark.parametrize("filename", ["metrics.jsonl", None])
def test_a_full_disk_mid_run_is_one_line_with_the_resume_command(tmp_path, monkeypatch, trainer, filename):
    for v in distributed.SIZE_VARS:
        monkeypatch.delenv(v, raising=False)
    out = tmp_path / "run"
    path = None if filename is None else str(out / filename)
    trainer["raises"] = OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), path)
    r = invoke("train", "--out", out, "-q")
    where = path if path is not None else f"into the run folder {out}"
    exact_error(r, f"cannot write {where} ({os.strerror(errno.ENOSPC)}): free some space there, then continue "
                   f"with `lnrnn train --out {out} --resume` (its last checkpoint is kept).")
    assert [str(c.out) for c in trainer["cfg"]] == [str(out)]


def test_run_folder_is_one_spelling_in_train_and_sample(trainer):
    helped = {cmd: " ".join(invoke(cmd, "--help").stdout.split()) for cmd in ("train", "sample", "eval")}
    assert "--out RUN_FOLDER" in helped["train"]
    assert "--checkpoint RUN_FOLDER" in helped["sample"]
    assert "--checkpoint RUN_FOLDER" in helped["eval"]
