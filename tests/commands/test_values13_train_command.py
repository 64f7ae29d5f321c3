"""lnrnn/commands/train.py's defaults by value: ``lnrnn train`` with no option hands the trainer (a stand-in
that records its TrainConfig) the settings of ``TrainConfig()`` field for field, the run folder apart; and
every option's declared default is the config field's own."""
import dataclasses

from lnrnn.commands.train import train as train_command
from lnrnn.training import train as train_mod
from lnrnn.training.runconfig import TrainConfig
from test_cli import invoke


def test_no_option_reaches_the_trainer_as_the_config_defaults(tmp_path, monkeypatch):
    given = []
    monkeypatch.setattr(train_mod, "train", lambda cfg, resume=False, **kw: given.append(cfg))
    r = invoke("train", "--out", tmp_path / "run", "-q")
    assert r.exit_code == 0, r.output
    (cfg,) = given
    want = dataclasses.replace(TrainConfig(), out=str(tmp_path / "run"))
    diff = {f.name: (getattr(cfg, f.name), getattr(want, f.name)) for f in dataclasses.fields(TrainConfig)
            if getattr(cfg, f.name) != getattr(want, f.name)}
    assert diff == {}


def test_every_options_default_is_the_config_fields():
    fields = {f.name for f in dataclasses.fields(TrainConfig)} - {"out"}
    params = {p.name: p for p in train_command.params}
    missing = fields - set(params)
    assert not missing
    assert {n: params[n].default for n in fields if params[n].default != getattr(TrainConfig(), n)} == {}
