"""lnrnn/commands/plot.py and info.py: a run whose checkpoint.json has no model head (or no model) is still drawn,
its curves by metrics.jsonl; runs sharing one config.json setting are titled by it, the layer count and
every value read back as config.json holds them (written here by write_run_config from a TrainConfig); lnrnn
info shows each thread variable that sets a BLAS or OpenMP pool, as set or 'unset'."""
import json
import os
from xml.sax.saxutils import escape

import pytest

from lnrnn.commands.info import info_lines
from lnrnn.training.runconfig import TrainConfig, write_run_config

from test_cli import assert_ok, invoke
from test_values46_plot_runs import fake_run


@pytest.mark.parametrize("checkpoint", [{"step": 3}, {"model": {"head": {}}}])
def test_a_checkpoint_without_a_head_is_still_drawn(tmp_path, checkpoint):
    fake_run(tmp_path / "r", 0.5)
    (tmp_path / "r" / "checkpoint.json").write_text(json.dumps(checkpoint))
    r = invoke("plot", tmp_path / "r", "--out", tmp_path / "c.svg")
    assert_ok(r)
    assert "<svg" in (tmp_path / "c.svg").read_text()[:2000]


@pytest.mark.parametrize("layers", [1, 2])
def test_the_title_says_the_runs_shared_settings(tmp_path, layers):
    cfg = TrainConfig(cell="ln-rnn", task="adding", hidden=7, layers=layers, optimizer="sgd", lr=0.25,
                      batch_size=12, seed=5)
    for name in ("r1", "r2"):
        fake_run(tmp_path / name, 0.5)
        write_run_config(str(tmp_path / name), cfg)
    r = invoke("plot", tmp_path / "r1", tmp_path / "r2", "--out", tmp_path / "c.svg")
    assert_ok(r)
    plural = "layer" if layers == 1 else "layers"
    title = f"ln-rnn H=7 on adding ({layers} {plural}, sgd lr 0.25, batch 12, seed 5)"
    assert escape(title) in (tmp_path / "c.svg").read_text()


VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")


def test_info_shows_every_thread_variable(monkeypatch):
    values = {"OPENBLAS_NUM_THREADS": "2", "OMP_NUM_THREADS": "3", "OMP_WAIT_POLICY": None, "MKL_NUM_THREADS": None}
    for k, v in values.items():
        if v is None:
            monkeypatch.delenv(k, raising=False)
        else:
            monkeypatch.setenv(k, v)
    (line,) = [ln for ln in info_lines() if ln.startswith("thread variables:")]
    shown = dict(item.split("=") for item in line[len("thread variables:"):].strip().split(", "))
    assert shown == {k: (v if v is not None else "unset") for k, v in values.items()}
    assert os.environ["OMP_NUM_THREADS"] == "3"
