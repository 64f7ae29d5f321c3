"""lnrnn/commands/train.py and options.py against TrainConfig, the definition of every default: lnrnn train
with only --out hands the trainer (a stand-in that records what it gets) a config equal, field by field, to
TrainConfig(out=...), with no option counted as given but --out (so --hidden and --layers stay the task's to
choose and strokes-npz never unpickles unless --allow-pickle is given); a write the file system refuses
mid-run (no space, read-only, no permission) is one 'Error:' line naming the file and the resume command,
exit 2, while any other OSError (a missing file: a bug) keeps its own exception."""
import dataclasses
import errno

import pytest

from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig

from test_cli import assert_clean_error, invoke


@pytest.fixture
def trainer(monkeypatch):
    calls = []
    monkeypatch.setattr(train_mod, "train", lambda cfg, **kw: calls.append((cfg, kw)))
    return calls


def test_no_options_are_trainconfigs_defaults(tmp_path, trainer):
    out = str(tmp_path / "run")
    r = invoke("train", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    (cfg, kw), = trainer
    assert dataclasses.asdict(cfg) == dataclasses.asdict(TrainConfig(out=out))
    assert (cfg.hidden, cfg.layers, cfg.allow_pickle) == (TrainConfig.hidden, TrainConfig.layers, False)
    assert kw["explicit"] == {"out"} and kw["resume"] is False


@pytest.mark.parametrize("argv, field, value", [
    (["--allow-pickle"], "allow_pickle", True),
    (["--hidden", "7"], "hidden", 7),
    (["--layers", "2"], "layers", 2),
    (["--bidirectional"], "bidirectional", True),
    (["--split", "100/50"], "split", "100/50"),
])
def test_a_given_option_arrives_and_is_counted_as_given(tmp_path, trainer, argv, field, value):
    out = str(tmp_path / "run")
    r = invoke("train", "--out", out, *argv)
    assert r.exit_code == 0, r.output + repr(r.exception)
    (cfg, kw), = trainer
    assert getattr(cfg, field) == value
    assert kw["explicit"] == {"out", field}
    want = dataclasses.asdict(TrainConfig(out=out))
    want[field] = value
    assert dataclasses.asdict(cfg) == want


@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EROFS, errno.EACCES])
def test_a_refused_write_is_one_line_with_the_resume_command(tmp_path, monkeypatch, code):
    out = str(tmp_path / "run")

    def full(cfg, **kw):
        raise OSError(code, "refused", str(tmp_path / "run" / "metrics.jsonl"))
    monkeypatch.setattr(train_mod, "train", full)
    r = invoke("train", "--out", out)
    line = assert_clean_error(r, f"cannot write {tmp_path / 'run' / 'metrics.jsonl'} (refused)")
    assert f"lnrnn train --out {out} --resume" in line


@pytest.mark.parametrize("code", [errno.ENOENT, errno.EINVAL])
def test_any_other_oserror_stays_its_own(tmp_path, monkeypatch, code):
    def bug(cfg, **kw):
        raise OSError(code, "not a refusal", "x")
    monkeypatch.setattr(train_mod, "train", bug)
    r = invoke("train", "--out", str(tmp_path / "run"))
    assert r.exit_code != 0
    assert isinstance(r.exception, OSError) and r.exception.errno == code, repr(r.exception)
    assert "Error: cannot write" not in r.output
