"""--config and resumes (lnrnn/training/runconfig.py through `lnrnn train`): options a config file sets count as
given, so a resume whose file changes a setting the run cannot change is refused word for word, nothing written;
an unreadable file (a folder) and malformed JSON are each refused in one sentence quoting the reason, the JSON
fault as Python's json module words it (line and column)."""
import json
import os

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.training.runconfig import TrainConfig, read_config_file
from lnrnn.training.train import train


def test_a_resumes_config_file_that_changes_the_hidden_size_is_refused(tmp_path):
    out = tmp_path / "run"
    train(TrainConfig(task="digits", split="40/20", cell="rnn", hidden=4, layers=1, batch_size=16, epochs=2,
                      max_steps=2, save_every_seconds=0, out=str(out)), quiet=True, log=lambda msg: None)
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"hidden": 5}))
    before = (out / "checkpoint.json").read_text()
    r = CliRunner().invoke(main, ["train", "--out", str(out), "--resume", "--config", str(path), "-q"])
    assert r.exit_code != 0
    errors = [line for line in r.output.splitlines() if line.startswith("Error:")]
    assert errors == [f"Error: the run in {out} was trained with --hidden 4, not 5; drop --hidden to resume it, "
                      "or start a new run with another --out."]
    assert (out / "checkpoint.json").read_text() == before


def test_a_folder_named_as_a_config_file_is_refused_with_the_systems_reason(tmp_path):
    path = tmp_path / "c.json"
    os.mkdir(str(path))
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value) == f"--config {path} cannot be read (Is a directory)."


def test_malformed_json_is_refused_with_its_line_and_column(tmp_path):
    path = tmp_path / "c.json"
    text = '{\n  "hidden": 4,\n}\n'
    path.write_text(text)
    with pytest.raises(json.JSONDecodeError) as want:
        json.loads(text)
    assert "line 3 column 1" in str(want.value)
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value) == f"--config {path} is not valid JSON ({want.value})."
