"""lnrnn plot's reading of run folders: the head kind comes from checkpoint.json's model.head.kind (None without
one), so a classifier run and a CTC run get a loss panel each, named by their heads' loss labels; without
--title the picture is titled by the runs' shared config.json, written here by the format the command's
docstring gives ('ln-lstm H=64 on digits (1 layer, adam lr 0.003, batch 16, seed 0)')."""
import json
import os

from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.commands.plot import head_kind
from lnrnn.training.plot import LOSS_LABELS

CONFIG = {"cell": "ln-lstm", "hidden": 64, "task": "digits", "layers": 1, "optimizer": "adam", "lr": 0.003,
          "batch-size": 16, "seed": 0}


def fake_run(folder, kind=None, config=None):
    os.makedirs(folder)
    rows = [{"epoch": e, "step": 10 * e, "samples": 100 * e, "lr": 0.003, "train_loss": 1.0 / e,
             "val_loss": 1.1 / e, "time_s": float(e)} for e in (1, 2)]
    with open(os.path.join(folder, "metrics.jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))
    if kind is not None:
        with open(os.path.join(folder, "checkpoint.json"), "w") as f:
            json.dump({"model": {"cell": "lstm", "head": {"kind": kind}}}, f)
    if config is not None:
        with open(os.path.join(folder, "config.json"), "w") as f:
            json.dump(config, f)
    return str(folder)


def test_head_kind_is_the_checkpoints_head(tmp_path):
    assert head_kind(fake_run(tmp_path / "a", kind="ctc")) == "ctc"
    assert head_kind(fake_run(tmp_path / "b")) is None


def test_runs_of_different_heads_get_a_loss_panel_each(tmp_path):
    a = fake_run(tmp_path / "clf", kind="classifier")
    b = fake_run(tmp_path / "reader", kind="ctc")
    r = CliRunner().invoke(main, ["plot", a, b, "--out", str(tmp_path / "p.svg")])
    assert r.exit_code == 0, r.output
    assert "each has its own panel" in r.stdout
    assert f"{LOSS_LABELS['classifier']} (clf)" in r.stdout and f"{LOSS_LABELS['ctc']} (reader)" in r.stdout


def test_default_title_is_the_shared_config(tmp_path):
    runs = [fake_run(tmp_path / n, config=CONFIG) for n in ("s0", "s1")]
    out = tmp_path / "p.svg"
    r = CliRunner().invoke(main, ["plot", *runs, "--out", str(out)])
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    assert "ln-lstm H=64 on digits (1 layer, adam lr 0.003, batch 16, seed 0)" in svg
    other = fake_run(tmp_path / "s2", config=dict(CONFIG, seed=1))
    r = CliRunner().invoke(main, ["plot", runs[0], other, "--out", str(tmp_path / "q.svg")])
    assert r.exit_code == 0, r.output
    assert "learning curves" in (tmp_path / "q.svg").read_text(encoding="utf-8")
