"""The CLI's top level and lnrnn plot through click's CliRunner: `lnrnn --help` lists the ten commands of the
README's table, and `--version` prints the installed package's version; a folder without metrics.jsonl is refused
word for word with nothing written; the picture's title is the runs' shared configuration written out here, and
'learning curves' as soon as one run's config.json differs, whichever run it is."""
import importlib.metadata
import json
import re

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from test_values251_plot import _texts

COMMANDS = ["data", "eval", "export", "gradcheck", "info", "plot", "predict", "read", "sample", "train"]
CONFIG = {"cell": "ln-lstm", "task": "digits", "hidden": 64, "layers": 1, "optimizer": "adam", "lr": 0.003,
          "batch-size": 16, "seed": 0}
TITLE = "ln-lstm H=64 on digits (1 layer, adam lr 0.003, batch 16, seed 0)"


def test_help_lists_every_command_and_version_names_the_package():
    r = CliRunner().invoke(main, ["--help"])
    assert r.exit_code == 0
    listed = re.findall(r"^  (\w+)  ", r.output.split("Commands:\n", 1)[1], flags=re.M)
    assert listed == COMMANDS
    r = CliRunner().invoke(main, ["--version"])
    assert r.output == f"lnrnn, version {importlib.metadata.version('lnrnn')}\n"


def test_a_folder_without_metrics_is_refused_and_nothing_written(tmp_path):
    (tmp_path / "r").mkdir()
    out = tmp_path / "c.svg"
    r = CliRunner().invoke(main, ["plot", str(tmp_path / "r"), "--out", str(out)])
    assert r.exit_code == 2
    assert r.output == (f"Error: {tmp_path / 'r'} has no metrics.jsonl; point lnrnn plot at run folders (what "
                        "`lnrnn train --out` wrote).\n")
    assert not out.exists()


def _run(folder, config):
    folder.mkdir()
    (folder / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in (
        {"epoch": 1, "step": 10, "train_loss": 1.5, "val_loss": 1.25},
        {"epoch": 2, "step": 20, "train_loss": 1.0, "val_loss": 1.125})))
    if config is not None:
        (folder / "config.json").write_text(json.dumps(config))
    return str(folder)


@pytest.mark.parametrize("configs,title", [
    ((CONFIG, CONFIG), TITLE),
    ((dict(CONFIG, seed=1), CONFIG), "learning curves"),
    ((CONFIG, dict(CONFIG, hidden=32)), "learning curves"),
    ((None, CONFIG), "learning curves"),
])
def test_the_title_is_the_shared_configuration_or_learning_curves(tmp_path, configs, title):
    runs = [_run(tmp_path / name, c) for name, c in zip("ab", configs)]
    out = tmp_path / "c.svg"
    r = CliRunner().invoke(main, ["plot", *runs, "--out", str(out)])
    assert r.exit_code == 0, r.output
    assert r.output == f"Wrote {out} (2 runs, x = updates).\n"
    texts = _texts(out)
    assert title in texts
    assert [t for t in texts if " H=" in t or t == "learning curves"] == [title]
