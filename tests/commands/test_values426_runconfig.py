"""A --config file's values where the command line gives the same option again (lnrnn/training/runconfig.py:
apply_config_file).

Found by giving a config file a bad value and the option again on the command line: {"lr": "abc"} with --lr 0.1
trained without a word, where the same file alone is refused; the file is wrong either way, and a user who later
drops the flag meets the refusal in another run. Now every value of the file is checked as its option checks it,
word for word the refusal the file alone gets, before anything is written; a good value still yields to the
command line (the run's config.json holds the command line's), and null still leaves an option to the command
line or its default."""
import json

import pytest

from test_cli import assert_clean_error, assert_ok, invoke

BASE = {"task": "digits", "split": "40/20", "hidden": 4, "batch-size": 16, "epochs": 1, "cell": "rnn"}


def config(tmp_path, **values):
    path = tmp_path / "c.json"
    path.write_text(json.dumps({**BASE, **values}))
    return path


@pytest.mark.parametrize("key, value, flag, given, words", [
    ("lr", "abc", "--lr", "0.1", "bad value for 'lr': Invalid value for '--lr': 'abc' is not a valid float."),
    ("hidden", 1.5, "--hidden", "8", "bad value for 'hidden': Invalid value: 1.5 is not a valid integer."),
    ("seed", True, "--seed", "3", "bad value for 'seed': Invalid value: True is not a valid integer."),
    ("cell", "gru", "--cell", "lstm", "bad value for 'cell': "),
    ("epochs", [1, 2], "--epochs", "1", "bad value for 'epochs': Invalid value: [1, 2] is not a valid integer."),
])
def test_a_bad_value_is_refused_also_where_the_command_line_gives_the_option(tmp_path, key, value, flag, given,
                                                                            words):
    path, out = config(tmp_path, **{key: value}), tmp_path / "run"
    alone = assert_clean_error(invoke("train", "--config", path, "--out", out, "-q"), words)
    again = assert_clean_error(invoke("train", "--config", path, flag, given, "--out", out, "-q"), words)
    assert again == alone == f"Error: --config {path}: " + alone.split(f"--config {path}: ", 1)[1]
    assert not out.exists()


def test_a_good_value_still_yields_to_the_command_line(tmp_path):
    path, out = config(tmp_path, lr=0.5, seed=4), tmp_path / "run"
    assert_ok(invoke("train", "--config", path, "--lr", "0.01", "--max-steps", 1, "--out", out, "-q"))
    saved = json.loads((out / "config.json").read_text())
    assert (saved["lr"], saved["seed"], saved["hidden"]) == (0.01, 4, 4)


def test_null_leaves_the_option_to_the_command_line_and_its_default(tmp_path):
    path, out = config(tmp_path, lr=None, seed=None), tmp_path / "run"
    assert_ok(invoke("train", "--config", path, "--lr", "0.02", "--max-steps", 1, "--out", out, "-q"))
    saved = json.loads((out / "config.json").read_text())
    assert (saved["lr"], saved["seed"]) == (0.02, 0)
