"""lnrnn/training/rundir.py: the default run folders as their docstrings define them: a new run gets the first of
runs/default, -2, -3, ... that holds no run (an existing empty folder is free); --resume without --out the
newest of those that hold a checkpoint (by its description's time), folders without one never counted and none
at all a one-line refusal; --out that is a file or lies under one is named as a file before anything is made."""
import os
import time

import pytest

from lnrnn.errors import UserError
from lnrnn.training import rundir
from lnrnn.training.checkpoint import DESCRIPTION


def hold_run(folder, mtime=None):
    """A folder holding a run by the definition: its checkpoint description file (content unread here)."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, DESCRIPTION)
    with open(path, "w") as f:
        f.write("{}")
    if mtime is not None:
        os.utime(path, (mtime, mtime))


@pytest.mark.parametrize("runs,empty,want", [
    ([], [1], 1),            # runs/default exists but holds nothing: it is free
    ([], [1, 2], 1),
    ([1], [2], 2),           # -2 left empty by a run that stopped before writing
    ([1, 3], [2], 2),
    ([2], [1, 3], 1),
    ([1, 2], [3, 4], 3),
])
def test_a_new_run_gets_the_first_default_folder_without_a_run(tmp_path, runs, empty, want):
    base = str(tmp_path / "runs" / "default")
    name = lambda n: base if n == 1 else f"{base}-{n}"  # noqa: E731
    for n in runs:
        hold_run(name(n))
    for n in empty:
        os.makedirs(name(n))
    assert rundir.fresh_default(base) == name(want)
    taken = set(runs)
    assert want not in taken and all(k in taken for k in range(1, want))


def test_resume_without_out_takes_the_newest_run_and_skips_folders_without_one(tmp_path):
    base = str(tmp_path / "default")
    now = time.time()
    hold_run(base, now - 300)
    hold_run(f"{base}-2", now - 100)    # the newest checkpoint
    hold_run(f"{base}-3", now - 200)
    os.makedirs(f"{base}-4")              # newer than every run, but holds none
    os.makedirs(f"{base}-5")
    (tmp_path / "default-5" / "config.json").write_text("{}")
    assert rundir.newest_default(base) == f"{base}-2"


def test_resume_without_out_and_only_empty_folders_is_one_line(tmp_path):
    base = str(tmp_path / "default")
    os.makedirs(base)
    os.makedirs(f"{base}-2")
    with pytest.raises(UserError) as e:
        rundir.newest_default(base)
    assert "--resume without --out" in str(e.value) and "--out RUN_FOLDER" in str(e.value)


def test_an_out_that_is_a_file_or_under_one_is_named_as_a_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("work")
    for out in ("taken", "taken/run", "taken/a/b"):
        with pytest.raises(UserError) as e:
            rundir.check_writable(out)
        assert "is a file, not a folder" in str(e.value) and "--out" in str(e.value)
        assert str(e.value).startswith("taken is a file" if out == "taken" else f"{tmp_path / 'taken'} (in the way")
    assert sorted(os.listdir(tmp_path)) == ["taken"] and (tmp_path / "taken").read_text() == "work"


def test_a_folder_is_never_probed_as_a_file(tmp_path, monkeypatch):
    """The probe for writing is the folder itself or the nearest existing one above it, and only a folder."""
    probed = []
    monkeypatch.setattr(rundir, "write_error", lambda folder: probed.append(folder))
    rundir.check_writable(str(tmp_path / "a" / "b"))
    (tmp_path / "f").write_text("x")
    with pytest.raises(UserError):
        rundir.check_writable(str(tmp_path / "f" / "b"))
    assert probed == [str(tmp_path)]
