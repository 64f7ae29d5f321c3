"""Flags are off until given (lnrnn/training/runconfig.py, whose TrainConfig defaults are ``lnrnn train``'s): every
yes/no field of TrainConfig defaults to False (skip to None, the task's choice), and every flag of every lnrnn
command (an option given alone, no --no- twin) is off when left out, so ``lnrnn train`` reads no pickled file, runs
no backward direction and does not split its batches into reproducible blocks unless asked: a default run on
'cuda' is not refused for --reproducible, and the run folder's config.json records the flags off."""
import dataclasses
import json
import typing

import click

from lnrnn.cli import main
from lnrnn.training.plan import resolve_defaults, validate
from lnrnn.training.runconfig import TrainConfig

from test_cli import invoke


def test_every_yes_no_setting_is_off_by_default():
    flags = {f.name: f.default for f in dataclasses.fields(TrainConfig)
             if f.type in (bool, typing.Optional[bool])}
    assert flags == {"skip": None, "bidirectional": False, "reproducible": False, "allow_pickle": False}


def test_every_flag_of_every_command_is_off_when_left_out():
    seen = []
    for name, command in main.commands.items():
        for p in command.params:
            if isinstance(p, click.Option) and p.is_flag and not p.secondary_opts:
                seen.append((name, p.opts[0]))
                assert p.default is False, (name, p.opts)
    assert ("train", "--reproducible") in seen and ("train", "--allow-pickle") in seen and len(seen) >= 10


def test_a_default_run_on_cuda_is_not_refused_for_reproducible_blocks():
    validate(resolve_defaults(TrainConfig(task="digits", device="cuda")))


def test_a_default_run_records_its_flags_off(tmp_path):
    out = tmp_path / "run"
    r = invoke("train", "--task", "digits", "--cell", "lstm", "--hidden", 4, "--max-steps", 1, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    saved = json.loads((out / "config.json").read_text())
    assert saved["reproducible"] is False and saved["bidirectional"] is False and saved["allow-pickle"] is False
