"""lnrnn train --config: a number in the file for an option whose type is an integer range (--eval-batch-size,
at least 1) is held to what an integer option is held to (lnrnn/training/runconfig.apply_config_file). Before,
infinity ended in an OverflowError traceback out of click's int() and 2.5 was taken silently as 2; now both are
one sentence naming the file, the key and the value, in JSON (Infinity) and TOML (inf) alike, with nothing
written, while 64.0, a whole number written as a float, is still the integer 64. A list or an object for an
option is refused in the same sentence."""
import json
import os

import pytest

from test_cli import assert_clean_error, assert_ok, invoke


EBS = "eval-batch-size"


@pytest.mark.parametrize("name, text, key, shown", [
    ("c.json", '{"eval-batch-size": Infinity}', EBS, "inf"), ("c.json", '{"eval-batch-size": -Infinity}', EBS, "-inf"),
    ("c.json", '{"eval-batch-size": NaN}', EBS, "nan"), ("c.json", '{"eval-batch-size": 2.5}', EBS, "2.5"),
    ("c.toml", "eval-batch-size = inf\n", EBS, "inf"), ("c.toml", "eval-batch-size = 2.5\n", EBS, "2.5"),
    ("c.json", '{"eval-batch-size": [64]}', EBS, "[64]"),
    ("c.json", '{"hidden": {"units": 3}}', "hidden", "{'units': 3}")])
def test_a_number_that_is_no_integer_is_one_sentence(tmp_path, name, text, key, shown):
    (tmp_path / name).write_text(text)
    kind = "integer range" if key == EBS else "integer"
    r = invoke("train", "--config", tmp_path / name, "--out", tmp_path / "run", "--max-steps", 1)
    line = assert_clean_error(r, f"--config {tmp_path / name}: bad value for '{key}': ")
    assert line.endswith(f"{shown} is not a valid {kind}."), line
    assert not os.path.exists(tmp_path / "run")


def test_a_whole_number_written_as_a_float_is_that_integer(tmp_path):
    (tmp_path / "c.json").write_text('{"eval-batch-size": 64.0, "hidden": 3.0}')
    assert_ok(invoke("train", "--config", tmp_path / "c.json", "--out", tmp_path / "run", "--task", "digits",
                     "--max-steps", 1, "-q"))
    saved = json.loads((tmp_path / "run" / "config.json").read_text())
    assert saved["eval-batch-size"] == 64 and isinstance(saved["eval-batch-size"], int)
    assert saved["hidden"] == 3 and isinstance(saved["hidden"], int)
