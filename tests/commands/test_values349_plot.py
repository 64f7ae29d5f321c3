"""Round 349: lnrnn plot through click's CliRunner on run folders written here (test_values173_plot's fake_run):
no run folder refused by click word for word with exit 2 and no picture; the summary's axis 'updates' by default
and each --x's own name; the default title the runs' shared config.json only when every run shares it (two runs
whose configs differ get 'learning curves', whichever comes first); the head kind read from checkpoint.json even
beside a config.json; a run folder with a checkpoint and no metrics.jsonl, and one with an empty metrics.jsonl,
refused word for word with nothing written."""
import os

import pytest

from lnrnn.commands.plot import _config_title, head_kind

from test_cli import invoke
from test_values173_plot import CONFIG, fake_run


def test_no_run_folder_is_refused_by_click_and_nothing_drawn(tmp_path):
    out = tmp_path / "p.svg"
    r = invoke("plot", "--out", out)
    assert r.exit_code == 2
    assert r.stderr.splitlines()[-1] == ("Error: Missing argument 'RUN_FOLDER...'. "
                                        "('main plot --help' lists the options.)")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("x, name", [(None, "updates"), ("step", "updates"), ("epoch", "epoch"),
                                     ("time_s", "training time (s)")])
def test_the_summary_names_the_horizontal_axis(tmp_path, x, name):
    a, b = fake_run(tmp_path / "a"), fake_run(tmp_path / "b")
    out = tmp_path / "p.svg"
    r = invoke("plot", a, b, "--out", out, *([] if x is None else ["--x", x]))
    assert r.exit_code == 0, r.output
    assert r.stdout == f"Wrote {out} (2 runs, x = {name}).\n"
    assert out.stat().st_size > 0


def by_hand(c):
    return (f"{c['cell']} H={c['hidden']} on {c['task']} ({c['layers']} layer{'s' * (c['layers'] != 1)}, "
            f"{c['optimizer']} lr {c['lr']:g}, batch {c['batch-size']}, seed {c['seed']})")


def test_the_title_is_a_config_only_every_run_shares(tmp_path):
    other = dict(CONFIG, layers=2, lr=0.0125, seed=7)
    assert by_hand(other) == "ln-lstm H=64 on digits (2 layers, adam lr 0.0125, batch 16, seed 7)"
    a = fake_run(tmp_path / "a", config=other)
    b = fake_run(tmp_path / "b", config=CONFIG)
    c = fake_run(tmp_path / "c", config=other)
    assert _config_title([a, c]) == by_hand(other)
    assert _config_title([a, b]) is None and _config_title([b, a]) is None and _config_title([a, c, b]) is None
    out = tmp_path / "p.svg"
    r = invoke("plot", a, b, "--out", out)
    assert r.exit_code == 0, r.output
    svg = out.read_text(encoding="utf-8")
    assert "learning curves" in svg and by_hand(other) not in svg and by_hand(CONFIG) not in svg


def test_head_kind_is_the_checkpoints_beside_a_config(tmp_path):
    assert head_kind(fake_run(tmp_path / "a", kind="ctc", config=CONFIG)) == "ctc"
    assert head_kind(fake_run(tmp_path / "b", config=CONFIG)) is None


def test_a_checkpoint_without_metrics_is_refused_naming_resume(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "checkpoint.json").write_text('{"model": {"head": {"kind": "classifier"}}}')
    out = tmp_path / "p.svg"
    r = invoke("plot", run, "--out", out)
    assert r.exit_code != 0
    assert r.stderr.splitlines()[-1] == (
        f"Error: the run in {run} has no evaluations yet (it stopped before its first epoch ended, and "
        "metrics.jsonl holds one row per scheduled evaluation; an evaluation at the stop is kept in "
        f"checkpoint.json only); train it on with `lnrnn train --out {run} --resume`, or give --eval-every to "
        "evaluate sooner.")
    assert not out.exists()


def test_an_empty_metrics_file_is_refused_naming_it(tmp_path):
    run = tmp_path / "run"
    run.mkdir()
    (run / "metrics.jsonl").write_text("")
    out = tmp_path / "p.svg"
    r = invoke("plot", run, "--out", out)
    assert r.exit_code != 0
    assert r.stderr.splitlines()[-1] == (
        f"Error: the run in {run} has no evaluations yet (metrics.jsonl is empty: it gets one row per scheduled "
        "evaluation); plot it after its first, or give --eval-every to evaluate sooner.")
    assert sorted(os.listdir(tmp_path)) == ["run"]
