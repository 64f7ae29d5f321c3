"""lnrnn/commands/read.py and eval.py against the same computation through the Python API. lnrnn read with no
--beam reads as lnrnn.read with its own default (the best path; --help shows that default), --beam N as
lnrnn.read(beam=N), on the reader of test_values_api_read; --out is the transcriptions in UTF-8, one per line
(kana included); --beam and --batch-size take their bound 1 and refuse 0 in one line naming the option, exit 2,
before the run is loaded and with no --out written. lnrnn eval --json names the --set it evaluated and gives
evaluate_run's figures on that set, and its sentence names the set."""
import inspect
import json

import click
import numpy as np
import pytest

import lnrnn
import lnrnn.api
import lnrnn.data.stroke_files
from lnrnn.api import evaluate_run
from lnrnn.commands.read import read as read_command

from test_cli import assert_clean_error, invoke
from test_values_api_read import reader  # noqa: F401 (the fixture)
from test_values_eval_predict import _run

API_BEAM = inspect.signature(lnrnn.api.read).parameters["beam"].default   # lnrnn.read's own default


def _lines_file(lines, folder):
    path = folder / "lines.npz"
    np.savez(path, points=np.concatenate(lines), lengths=[len(ln) for ln in lines])
    return path


@pytest.mark.parametrize("beam", [None, 1, 3])
def test_read_prints_what_lnrnn_read_returns(reader, tmp_path, beam):  # noqa: F811
    folder, model, lines = reader
    argv = ["read", "--checkpoint", folder, "--input", _lines_file(lines, tmp_path), "-q"]
    argv += [] if beam is None else ["--beam", beam]
    r = invoke(*argv)
    assert r.exit_code == 0, r.output
    want = lnrnn.read(folder, lines) if beam is None else lnrnn.read(folder, lines, beam=beam)
    assert r.stdout == "".join(t + "\n" for t in want)


@pytest.fixture
def fake_api(monkeypatch):
    """lnrnn read with the run and the reading stubbed: the keyword arguments lnrnn.read gets."""
    calls = []
    monkeypatch.setattr(lnrnn.api, "load_run", lambda path: "run")
    monkeypatch.setattr(lnrnn.api, "require_reader", lambda run: None)
    monkeypatch.setattr(lnrnn.data.stroke_files, "read_lines", lambda f: [np.zeros((2, 3))])

    def read(run, lines, **kw):
        calls.append(kw)
        return ["かな", "ab", ""][:len(lines)] + ["x"] * (len(lines) - 3)
    monkeypatch.setattr(lnrnn.api, "read", read)
    return calls


def test_reads_default_beam_is_the_apis_and_the_one_help_shows(fake_api):
    r = invoke("read", "--checkpoint", "x", "--input", "a.npy", "-q")
    assert r.exit_code == 0, r.output
    want = API_BEAM
    assert fake_api[0]["beam"] == want == 1
    ctx = click.Context(read_command, info_name="read")
    (beam,) = [p for p in read_command.params if p.name == "beam"]
    assert f"[default: {want}]" in beam.get_help_record(ctx)[1]


def test_out_is_the_transcriptions_in_utf8(fake_api, tmp_path):
    out = tmp_path / "deep" / "t.txt"
    r = invoke("read", "--checkpoint", "x", "--input", "a.npy", "--input", "b.npy", "--input", "c.npy",
               "--out", out, "-q")
    assert r.exit_code == 0, r.output
    assert out.read_bytes() == "かな\nab\n\n".encode("utf-8")
    assert r.stdout == "" and "3 lines" in r.stderr


@pytest.mark.parametrize("flag", ["--beam", "--batch-size"])
def test_bound_1_taken_0_refused_before_the_run_is_loaded(fake_api, monkeypatch, tmp_path, flag):
    r = invoke("read", "--checkpoint", "x", "--input", "a.npy", flag, 1, "-q")
    assert r.exit_code == 0, r.output
    key = "beam" if flag == "--beam" else "batch_size"
    assert fake_api[0][key] == 1

    def no_load(path):
        raise AssertionError("the run was loaded before the options were checked")
    monkeypatch.setattr(lnrnn.api, "load_run", no_load)
    out = tmp_path / "t.txt"
    assert_clean_error(invoke("read", "--checkpoint", "x", "--input", "a.npy", flag, 0, "--out", out, "-q"), flag)
    assert not out.exists() and len(fake_api) == 1


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    return str(_run(tmp_path_factory.mktemp("runs125") / "clf", {"task": "digits", "split": "40/30"}, 1, 10))


@pytest.mark.parametrize("which", ["val", "train"])
def test_eval_json_is_evaluate_run_on_the_set_given(clf, which):
    r = invoke("eval", "--checkpoint", clf, "--set", which, "--json")
    assert r.exit_code == 0, r.output
    got = json.loads(r.stdout)
    res = evaluate_run(clf, which)
    assert got["set"] == which and got["checkpoint"] == clf
    assert got["sequences"] == res.sequences == {"val": 30, "train": 40}[which]
    assert got["loss"] == res.metrics["loss"] and got["acc"] == got["accuracy"] == res.metrics["acc"]
    assert got["task"] == json.loads(json.dumps(res.task.spec))
    assert (got["epoch"], got["step"]) == (2, 7)


def test_eval_sentence_names_the_set(clf):
    r = invoke("eval", "--checkpoint", clf, "--set", "train")
    assert r.exit_code == 0, r.output
    assert ", on train of " in r.stdout and "(40 sequences)" in r.stdout
