"""lnrnn read --out and lnrnn export's closing line, on stand-in runs (no training, no kernels): the --out
file holds every transcription followed by a newline, empty ones included, as many lines as inputs; an
LSTM run's note names torch.nn.LSTM and an RNN run's torch.nn.RNN, as the run's cell says."""
from types import SimpleNamespace

import numpy as np
import pytest
from click.testing import CliRunner

import lnrnn.api
import lnrnn.data.stroke_files
from lnrnn.cli import main


def _run(cell="lstm", norm="none"):
    cfg = {"cell": cell, "norm": norm, "hidden_size": 3, "num_layers": 1}
    return SimpleNamespace(config=cfg, describe=lambda: f"{cell} stand-in")


@pytest.mark.parametrize("texts", [["ab", "", "c d"], ["one"], ["", ""]])
def test_read_out_holds_one_line_per_input_line(tmp_path, monkeypatch, texts):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: _run())
    monkeypatch.setattr(lnrnn.api, "require_reader", lambda run: None)
    monkeypatch.setattr(lnrnn.data.stroke_files, "read_lines",
                        lambda f: [np.zeros((2, 3)) for _ in texts])
    monkeypatch.setattr(lnrnn.api, "read", lambda run, lines, **kw: list(texts))
    out = tmp_path / "t.txt"
    r = CliRunner().invoke(main, ["read", "--checkpoint", str(tmp_path), "--input", str(tmp_path / "x.npy"),
                                  "--out", str(out), "--quiet"])
    assert r.exit_code == 0, r.output + repr(r.exception)
    got = out.read_bytes().decode("utf-8")
    assert got.splitlines() == texts and got.endswith("\n") and got.count("\n") == len(texts)


@pytest.mark.parametrize("cell, module", [("lstm", "LSTM"), ("rnn", "RNN")])
def test_export_note_names_the_runs_own_torch_module(tmp_path, monkeypatch, cell, module):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: _run(cell))
    monkeypatch.setattr(lnrnn.api, "export_run", lambda run, out, fmt: {"rnn.weight_ih_l0": (4, 2)})
    out = tmp_path / "w.safetensors"
    r = CliRunner().invoke(main, ["export", "--checkpoint", str(tmp_path), "--out", str(out)])
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert f"load into torch.nn.{module}." in r.output
    other = {"LSTM": "RNN", "RNN": "LSTM"}[module]
    assert f"torch.nn.{other}" not in r.output


def test_export_of_a_normalized_run_has_no_torch_note(tmp_path, monkeypatch):
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: _run("lstm", "ln"))
    monkeypatch.setattr(lnrnn.api, "export_run", lambda run, out, fmt: {"a": (1,), "b": (2,)})
    r = CliRunner().invoke(main, ["export", "--checkpoint", str(tmp_path), "--out", str(tmp_path / "w.safetensors")])
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert "torch.nn" not in r.output and "Wrote 2 tensors of lstm stand-in" in r.output
