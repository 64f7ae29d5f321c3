"""``lnrnn train --config``, the run folder's config.json, default run folders, the per-update log and
``--help``. Each bad input ends in one ``Error:`` line, a non-zero exit and nothing lost."""
import json
import os

import numpy as np
import pytest

from lnrnn.training.checkpoint import load_checkpoint
from lnrnn.training.rundir import UPDATES_FILE, read_jsonl

from test_cli import TIME_KEYS, TINY, assert_clean_error, assert_ok, invoke


def arrays(out):
    return load_checkpoint(str(out))[1]


def same_arrays(a, b):
    x, y = arrays(a), arrays(b)
    return x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)


def updates(out):
    rows = read_jsonl(os.path.join(out, UPDATES_FILE))
    return [{k: v for k, v in r.items() if k not in TIME_KEYS} for r in rows]


@pytest.fixture(scope="module")
def ref(tmp_path_factory):
    """An uninterrupted tiny run, logging every 3 updates."""
    out = tmp_path_factory.mktemp("cfg") / "ref"
    assert_ok(invoke("train", *TINY, "--log-every", 3, "--out", out))
    return out


# ---- config files ----

def test_config_json_trains_the_same_run_again(ref, tmp_path):
    cfg = json.load(open(ref / "config.json"))
    assert cfg["hidden"] == 8 and cfg["batch-size"] == 32 and cfg["log-every"] == 3 and "out" not in cfg
    again = tmp_path / "again"
    assert_ok(invoke("train", "--config", ref / "config.json", "--out", again, "-q"))
    assert same_arrays(ref, again)
    assert json.load(open(again / "config.json")) == cfg


def test_toml_config_and_command_line_override(tmp_path):
    (tmp_path / "c.toml").write_text('task = "digits"\nsplit = "200/100"\nhidden = 8\nbatch_size = 32\n'
                                     'epochs = 5\nmax-steps = 2\ncell = "lstm"\nskip = false\n')
    out = tmp_path / "run"
    assert_ok(invoke("train", "--config", tmp_path / "c.toml", "--epochs", 1, "--out", out, "-q"))
    meta = load_checkpoint(str(out))[0]
    assert meta["train"]["cell"] == "lstm" and meta["train"]["hidden"] == 8 and meta["step"] == 2
    assert meta["train"]["epochs"] == 1                                   # the command line wins


def test_resume_with_a_config_file_takes_the_command_lines_options(tmp_path):
    """On --resume with --config, an option given on the command line still counts as given: --max-steps 4
    moves the run's limit on (without it, the limit it reached is lifted and the run trains to its end)."""
    (tmp_path / "c.toml").write_text('task = "digits"\nsplit = "200/100"\nhidden = 8\nbatch_size = 32\n'
                                     'epochs = 2\ncell = "rnn"\n')
    out = tmp_path / "run"
    assert_ok(invoke("train", "--config", tmp_path / "c.toml", "--max-steps", 2, "--out", out, "-q"))
    assert load_checkpoint(str(out))[0]["step"] == 2
    assert_ok(invoke("train", "--resume", "--config", tmp_path / "c.toml", "--max-steps", 4, "--out", out, "-q"))
    assert load_checkpoint(str(out))[0]["step"] == 4


@pytest.mark.parametrize("text,words", [
    ('{"hiden": 3}', "unknown key 'hiden'"),
    ('{"hidden": "many"}', "bad value for 'hidden'"),
    ('{"hidden": 3.5}', "bad value for 'hidden'"),
    ('{"cell": "gru"}', "bad value for 'cell'"),
    ('{"skip": "perhaps"}', "bad value for 'skip'"),
    ('{"lr": true}', "bad value for 'lr'"),
    ('{"hidden": ', "is not valid JSON"),
    ('[1, 2]', "must hold one table"),
])
def test_bad_config_files_name_the_key(tmp_path, text, words):
    (tmp_path / "c.json").write_text(text)
    assert_clean_error(invoke("train", "--config", tmp_path / "c.json", "--out", tmp_path / "run"), words)
    assert not os.path.exists(tmp_path / "run")


def test_bad_config_paths(tmp_path):
    assert_clean_error(invoke("train", "--config", tmp_path / "none.json", "--out", tmp_path / "r"), "does not exist")
    (tmp_path / "c.yaml").write_text("hidden: 3\n")
    assert_clean_error(invoke("train", "--config", tmp_path / "c.yaml", "--out", tmp_path / "r"), ".toml or .json")
    (tmp_path / "c.toml").write_text("hidden = = 3\n")
    assert_clean_error(invoke("train", "--config", tmp_path / "c.toml", "--out", tmp_path / "r"), "not valid TOML")


# ---- default run folders ----

def test_default_folders_are_numbered_and_resume_takes_the_newest(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert_clean_error(invoke("train", "--resume"), "pass --out RUN_FOLDER")
    short = [*TINY[:-3], "--epochs", "1", "--max-steps", "2", "-q"]
    assert_ok(invoke("train", *short))
    assert_ok(invoke("train", *short, "--seed", 1))                      # no refusal: a fresh folder
    assert sorted(os.listdir("runs")) == ["default", "default-2"]
    assert load_checkpoint("runs/default-2")[0]["train"]["seed"] == 1
    r = invoke("train", "--resume")                                    # the newest: default-2
    assert_ok(r)
    assert load_checkpoint("runs/default-2")[0]["step"] == 7 and load_checkpoint("runs/default")[0]["step"] == 2
    assert "runs/default-2" in r.output


def test_resume_of_a_finished_run_says_nothing_was_left(ref):
    r = invoke("train", "--out", ref, "--resume", "--epochs", 1)
    assert_ok(r)
    assert "Nothing to do" in r.output and "finished 2 epochs" in r.output


# ---- the per-update log ----

def test_update_log_rows(ref):
    rows = updates(ref)
    assert [r["step"] for r in rows] == [3, 6, 9, 12]                 # 14 updates, a row every 3
    assert all(r["updates"] == 3 and 0 < r["train_acc"] <= 1 and r["train_loss"] > 0 for r in rows)
    assert rows[0]["epoch"] == pytest.approx(3 / 7, abs=1e-6) and rows[2]["lr"] < rows[0]["lr"]


def test_update_log_is_exact_after_a_stop_and_resume(ref, tmp_path):
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--log-every", 3, "--out", out, "--max-steps", 4))  # mid-window and mid-epoch
    assert [r["step"] for r in updates(out)] == [3]
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert updates(out) == updates(ref)
    assert same_arrays(ref, out)


def test_rows_written_after_the_last_checkpoint_are_not_kept_twice(ref, tmp_path):
    """kill -9 after rows past the checkpoint were appended (and one torn in half): resume drops them and
    writes them again."""
    out = tmp_path / "run"
    assert_ok(invoke("train", *TINY, "--log-every", 3, "--out", out, "--max-steps", 7))
    with open(out / UPDATES_FILE, "a") as f:
        f.write(json.dumps({"step": 9, "train_loss": 99.0}) + "\n" + '{"step": 12, "train_l')
    assert_ok(invoke("train", "--out", out, "--resume", "-q"))
    assert updates(out) == updates(ref)


def test_bad_log_every(tmp_path):
    assert_clean_error(invoke("train", *TINY, "--log-every", 0, "--out", tmp_path / "r"),
                       "--log-every must be at least 1")


# ---- --help ----

def test_help_cuts_nothing_and_says_what_omitted_options_do():
    r = invoke("--help")
    assert_ok(r)
    commands = r.output.split("Commands:")[1]
    assert "..." not in commands and all(c in commands for c in ("predict", "export", "train", "plot"))
    train = invoke("train", "--help").output
    for opt in ("--data-dir", "--split", "--steps", "--max-steps", "--time-budget", "--out"):
        block = train.split("\n  " + opt + " ", 1)[1].split("\n  -", 1)[0]
        assert "omitted" in block or "[default:" in block, opt
    for cmd in (["eval"], ["sample"], ["predict"], ["export"], ["plot"], ["train"]):
        assert "RUN_FOLDER" in invoke(*cmd, "--help").output, cmd
