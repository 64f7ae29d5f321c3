"""lnrnn train's and lnrnn data mnist's plumbing by value (round 245 of the planted bugs,
tests/mutants/mutants_values245.py), the trainer and the download replaced by recorders (nothing trains or
downloads): a --config file's values reach the trainer and the command line overrides them; the cell and the task
the command's docstring names as what it trains with no options are the help's defaults and what reaches the
trainer; --dest nested in folders that do not exist yet is made before the first download, and the last line
names --dest (not a file in it); a --dest under a folder where nothing may be created (the probe answers EACCES)
is refused naming that folder and where --dest would be made, nothing made and nothing downloaded. The MD5s in
the lines are the published content checksums (torchvision's list)."""
import os

import lnrnn.training.train
from test_cli import assert_clean_error, assert_ok, invoke
from test_values237_data import MIRROR, recorded  # noqa: F401 - recorded is a fixture
from test_values237_train_sample import option_help
from test_values245_output_checks import deny_writes


def trainer(monkeypatch):
    seen = []
    monkeypatch.setattr(lnrnn.training.train, "train", lambda cfg, **kw: seen.append(cfg))
    return seen


# ---- lnrnn train

def test_a_config_files_values_reach_the_trainer_and_the_command_line_wins(tmp_path, monkeypatch):
    seen = trainer(monkeypatch)
    cfg_file = tmp_path / "c.toml"
    cfg_file.write_text("batch-size = 7\nseed = 5\nlr = 0.25\n")
    assert_ok(invoke("train", "--out", tmp_path / "a", "-q", "--config", cfg_file, "--seed", 9))
    assert [(c.batch_size, c.seed, c.lr) for c in seen] == [(7, 9, 0.25)]
    assert not (tmp_path / "a").exists()


def test_the_docstrings_cell_and_task_are_the_defaults_in_help_and_call(tmp_path, monkeypatch):
    r = invoke("train", "--help")
    assert_ok(r)
    options = r.output.split("Options:", 1)[1]
    # the docstring: "With no options it trains an LN-LSTM ... (--task digits-binary, no download)"
    assert option_help(options, "--cell") == ("--cell [rnn|lstm|ln-rnn|ln-lstm|bn-rnn|bn-lstm] Recurrent cell: "
                                               "plain, layer-normalized (ln-) or batch-normalized (bn-) RNN or "
                                               "LSTM. [default: ln-lstm]")
    task = "".join(options[options.index("--task "):options.index("\n  --data-dir ")].split())  # blanks dropped
    assert task.endswith("[default:digits-binary]")
    seen = trainer(monkeypatch)
    assert_ok(invoke("train", "--out", tmp_path / "a", "-q"))
    assert_ok(invoke("train", "--out", tmp_path / "b", "-q", "--cell", "lstm", "--task", "digits"))
    assert [(c.cell, c.task) for c in seen] == [("ln-lstm", "digits-binary"), ("lstm", "digits")]


# ---- lnrnn data mnist

def test_a_nested_dest_is_made_before_the_downloads_and_named_at_the_end(tmp_path, recorded):
    dest = tmp_path / "a" / "b"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    assert_ok(r)
    images, labels = dest / "t10k-images-idx3-ubyte.gz", dest / "t10k-labels-idx1-ubyte.gz"
    assert r.stdout.splitlines() == [
        f"{images}: downloaded from {MIRROR}/t10k-images-idx3-ubyte.gz, content MD5 "
        "2646ac647ad5339dbf082846283269ea verified.",
        f"{labels}: downloaded from {MIRROR}/t10k-labels-idx1-ubyte.gz, content MD5 "
        "27ae3e4e09519cfbb04c329615203637 verified.",
        f"Use it with: lnrnn train --task mnist --data-dir {dest}",
    ]
    assert sorted(os.listdir(dest)) == ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]
    assert len(recorded) == 2


def test_a_dest_under_a_folder_where_nothing_may_be_created_names_that_folder(tmp_path, recorded, monkeypatch):
    top = tmp_path / "top"
    top.mkdir()
    asked = deny_writes(monkeypatch)
    dest = top / "a" / "b"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "-q")
    line = assert_clean_error(r, "cannot write")
    assert line == (f"Error: cannot write to {top}, where --dest {dest} would be created (Permission denied); "
                    "choose another --dest or make it writable.")
    assert asked == [str(top)] and recorded == [] and os.listdir(top) == []
