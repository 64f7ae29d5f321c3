"""Run folders (lnrnn/training/rundir.py) never lost: the update log is DIR/updates.jsonl, named here, and a
resumed run keeps the rows up to its checkpoint's update and appends after them (nothing in metrics.jsonl);
--resume without --out under a base of one's own names that base, not runs/default, and creates nothing; an
--out under a file names the file in the way and the --out asked for, word for word, with nothing written."""
import json
import os

import pytest

from lnrnn.errors import UserError
from lnrnn.training.rundir import UpdateLog, check_writable, newest_default


def _lines(path):
    with open(path) as f:
        return [json.loads(line) for line in f.read().splitlines()]


def test_the_update_log_is_updates_jsonl_and_a_resume_appends_after_its_step(tmp_path):
    log = UpdateLog(str(tmp_path)).start(0)
    first = [{"step": s, "train_loss": 1.0 / s} for s in (3, 6, 9, 12)]
    for r in first:
        log.append(r)
    log.close()
    assert sorted(os.listdir(tmp_path)) == ["updates.jsonl"]
    assert _lines(tmp_path / "updates.jsonl") == first

    # killed after the checkpoint at update 9: the row of update 12 goes, the run goes on from 9
    log = UpdateLog(str(tmp_path)).start(9)
    assert _lines(tmp_path / "updates.jsonl") == first[:3]
    again = [{"step": 12, "train_loss": 0.5}, {"step": 15, "train_loss": 0.25}]
    for r in again:
        log.append(r)
    log.close()
    assert _lines(tmp_path / "updates.jsonl") == first[:3] + again
    assert sorted(os.listdir(tmp_path)) == ["updates.jsonl"]


def test_resume_without_runs_names_the_base_asked_for_and_creates_nothing(tmp_path):
    base = str(tmp_path / "mine")
    with pytest.raises(UserError) as e:
        newest_default(base)
    assert str(e.value) == (f"--resume without --out resumes the newest run under {base}[-N], and there is none; "
                            "pass --out RUN_FOLDER to say which run to continue.")
    assert os.listdir(tmp_path) == []


def test_an_out_under_a_file_names_the_file_and_the_out(tmp_path):
    (tmp_path / "notes").write_text("x")
    out = str(tmp_path / "notes" / "run")
    with pytest.raises(UserError) as e:
        check_writable(out)
    assert str(e.value) == f"{tmp_path / 'notes'} (in the way of {out}) is a file, not a folder; choose another --out."
    assert os.listdir(tmp_path) == ["notes"] and (tmp_path / "notes").read_text() == "x"
