"""A run folder where a log the run rewrites is a folder (lnrnn/training/rundir.py: check_writable, RUN_LOGS):
found by resuming a run whose metrics.jsonl had become a folder, which trained to the epoch's end and ended there
in an IsADirectoryError traceback. Each of metrics.jsonl, updates.jsonl and learning_curve.svg that is a folder is
now refused word for word before anything runs, for a new run and a resume alike (nothing in the folder changes);
the files themselves, and a link where the run's write replaces the link, are taken."""
import os
import shutil

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import RUN_LOGS, check_writable
from lnrnn.training.train import train
from test_cli import assert_clean_error, invoke
from test_values202_train_run import cfg

NAMES = ("metrics.jsonl", "updates.jsonl", "learning_curve.svg")


def refusal(out, name):
    return (f"{os.path.join(out, name)} is a folder, where lnrnn train writes the run's {name}; remove or rename it, "
            "or choose another --out.")


def test_the_logs_checked_are_the_runs_own():
    assert set(RUN_LOGS) == set(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_a_log_that_is_a_folder_is_refused_word_for_word(tmp_path, name):
    out = tmp_path / "run"
    (out / name).mkdir(parents=True)
    with pytest.raises(UserError) as e:
        check_writable(str(out))
    assert str(e.value) == refusal(str(out), name)


def test_logs_that_are_files_or_links_are_taken(tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / NAMES[0]).write_text("")
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", out / NAMES[1])
    os.symlink(tmp_path / "missing", out / NAMES[2])
    check_writable(str(out))


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    out = tmp_path_factory.mktemp("v431") / "run"
    train(cfg(out, eval_every=None, max_steps=2), quiet=True, log=lambda m: None)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_a_resume_is_refused_before_it_trains_and_nothing_changes(stopped, tmp_path, name):
    out = shutil.copytree(stopped, tmp_path / "run")
    if (out / name).exists():
        (out / name).unlink()
    (out / name).mkdir()
    before = sorted((p.name, p.read_bytes() if p.is_file() else None) for p in out.iterdir())
    line = assert_clean_error(invoke("train", "--resume", "--out", out, "--max-steps", 5, "-q"), "is a folder")
    assert line == "Error: " + refusal(str(out), name)
    assert sorted((p.name, p.read_bytes() if p.is_file() else None) for p in out.iterdir()) == before
