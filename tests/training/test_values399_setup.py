"""lnrnn/training/setup.py's refusals and resumes, checked word for word and by value over runs saved here
(test_values321_setup's helper: lstm, hidden 4, on the default classifier task): a checkpoint whose settings
this lnrnn does not know is refused as such, naming the unknown setting; a new run into a folder that holds one
is told to pass --resume to continue it; a --best-metric the classifier head does not report (cer) is refused
listing what it reports and "none"; a resume inherits the seconds its budget already used (the checkpoint's
used_s), and a --time-budget given again starts afresh; and a run moved since it was saved, resumed without
--out being given, writes where it now is."""
import dataclasses
import os

import numpy as np
import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.checkpoint import save_checkpoint
from lnrnn.training.distributed import SINGLE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import build, read_resume
from test_values142_setup import whole_records
from test_values321_setup import _save_run


def test_settings_this_lnrnn_does_not_know_are_refused_as_unknown(tmp_path):
    out = str(tmp_path / "run")
    train = {**dataclasses.asdict(TrainConfig(cell="lstm", hidden=4, out=out)), "warp_factor": 9}
    meta = {"model": {"hidden_size": 4}, "train": train, **whole_records(1), "epoch": 0,
            "batch_in_epoch": 1, "step": 1, "train_time_s": 0.5, "metrics": []}
    save_checkpoint(out, {"w": np.ones(2)}, meta)
    with pytest.raises(CheckpointError) as e:
        read_resume(TrainConfig(out=out), [])
    msg = str(e.value)
    assert msg.startswith(f"the checkpoint in {out} holds training settings this lnrnn does not know (")
    assert "warp_factor" in msg and msg.endswith(").")


def test_a_new_run_into_a_folder_holding_one_is_told_to_resume_it(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)
    before = sorted(os.listdir(out))
    with pytest.raises(UserError) as e:
        build(TrainConfig(out=out, cell="lstm", hidden=4), False, set(), SINGLE)
    assert str(e.value) == (f"{out} already holds a run; pass --resume to continue it, or choose another --out.")
    assert sorted(os.listdir(out)) == before


def test_a_best_metric_the_head_does_not_report_is_refused_naming_none_too(tmp_path):
    out = str(tmp_path / "run")
    with pytest.raises(UserError) as e:
        build(TrainConfig(out=out, cell="lstm", hidden=4, best_metric="cer"), False, set(), SINGLE)
    assert str(e.value) == ("--best-metric cer: the classifier head of digits-binary reports loss, acc; "
                            "choose one of them, or none.")
    assert not os.path.exists(out)


def test_a_resume_inherits_the_seconds_its_budget_used(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out, budget={"max_steps": None, "time_budget": 60.0, "used_s": 12.5})
    setup = build(TrainConfig(out=out), True, set(), SINGLE)
    assert setup.cfg.time_budget == 60.0
    assert setup.budget_used == 12.5
    # the budget given again starts afresh
    again = build(TrainConfig(out=out, time_budget=30.0), True, {"time_budget"}, SINGLE)
    assert (again.cfg.time_budget, again.budget_used) == (30.0, 0.0)


def test_a_resume_without_a_budget_record_has_used_nothing(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)  # saved before budgets were kept
    assert build(TrainConfig(out=out), True, set(), SINGLE).budget_used == 0.0


def test_a_moved_run_resumed_without_out_given_writes_where_it_now_is(tmp_path):
    old, new = str(tmp_path / "old"), str(tmp_path / "moved" / "run")
    _save_run(old)
    os.makedirs(os.path.dirname(new))
    os.rename(old, new)
    cfg, meta, _ = read_resume(TrainConfig(out=new), [])  # --out not among the options given (the default run)
    assert meta["train"]["out"] == old
    assert cfg.out == new
    setup = build(TrainConfig(out=new), True, set(), SINGLE)
    assert setup.cfg.out == new
