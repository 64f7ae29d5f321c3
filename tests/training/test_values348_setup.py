"""lnrnn/training/setup.py over runs saved here (test_values321_setup's helper: lstm, hidden 4, batch 16):
an option a resume may change (--epochs 30) taken, one it may not (--batch-size 32) refused word for word with
its flag spelled as on the command line; --init-from given to a resume refused naming the run folder; and
build refusing a changed --hidden before any task is loaded, with nothing written."""
import os

import pytest

from lnrnn.errors import CheckpointError, UserError
from lnrnn.training.distributed import SINGLE
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import build, read_resume
from test_values321_setup import _save_run


def test_an_overridable_option_is_taken_on_resume(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)
    cfg, meta, _ = read_resume(TrainConfig(out=out, epochs=30, lr=0.5), ["epochs"])
    assert cfg.epochs == 30
    assert cfg.lr == TrainConfig().lr  # not given: the checkpoint's
    assert (cfg.cell, cfg.hidden) == ("lstm", 4)


def test_a_fixed_option_is_refused_with_its_flag(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)
    with pytest.raises(CheckpointError) as e:
        read_resume(TrainConfig(out=out, batch_size=32), ["batch_size"])
    assert str(e.value) == (f"the run in {out} was trained with --batch-size 16, not 32; drop --batch-size to "
                            "resume it, or start a new run with another --out.")


def test_init_from_on_a_resume_is_refused_naming_the_run(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)
    other = str(tmp_path / "other")
    with pytest.raises(UserError) as e:
        read_resume(TrainConfig(out=out, init_from=other), ["init_from"])
    assert str(e.value) == (f"--init-from starts a new run from another run's checkpoint; {out} holds a run of "
                            "its own: drop --init-from to resume it, or choose another --out.")


def test_build_refuses_a_changed_hidden_before_anything_else(tmp_path):
    out = str(tmp_path / "run")
    _save_run(out)
    before = sorted(os.listdir(out))
    with pytest.raises(CheckpointError) as e:
        build(TrainConfig(out=out, cell="lstm", hidden=8), True, {"hidden"}, SINGLE)
    assert str(e.value) == (f"the run in {out} was trained with --hidden 4, not 8; drop --hidden to resume it, "
                            "or start a new run with another --out.")
    assert sorted(os.listdir(out)) == before
