"""The commands' words and counts by value (round 25 of the planted bugs, tests/mutants/mutants_values25.py):
lnrnn train's line for a run folder whose disk filled up mid-run (one line, the file, and a command that
continues the run: --resume), lnrnn sample's --count left out beside --text lines and its sentence for one
line against several, lnrnn predict's refusal of one input against several, lnrnn plot's label of a folder
given with a trailing separator and its count of runs, and lnrnn gradcheck's summary: the largest of the
errors it printed."""
import errno
import json
import os
import re

import numpy as np
import pytest

import lnrnn.training.train
from test_cli import assert_clean_error
from test_commands_careful import classifier_run, invoke
from test_plot import records
from test_sample_text import one_line_error, save_run, text_model


# ---- lnrnn train: a write refused mid-run

@pytest.mark.parametrize("code", [errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES])
def test_a_write_refused_mid_run_is_one_line_that_says_how_to_go_on(tmp_path, monkeypatch, code):
    out = tmp_path / "run"
    failed = out / "metrics.csv"

    def full(cfg, **kw):
        raise OSError(code, os.strerror(code), str(failed))
    monkeypatch.setattr(lnrnn.training.train, "train", full)
    line = assert_clean_error(invoke("train", "--out", out, "-q"), f"cannot write {failed} ({os.strerror(code)})")
    # the way on must be a command that continues the run: without --resume, lnrnn train refuses a run's folder
    assert f"`lnrnn train --out {out} --resume`" in line, line


# ---- lnrnn sample --text

@pytest.fixture(scope="module")
def fast_writer(tmp_path_factory):
    """A synthesis run whose window passes a short text in a few points: its lines end by the stop rule."""
    return save_run(tmp_path_factory.mktemp("writer") / "run", text_model(kappa_bias=1.0))


def test_text_lines_without_count_are_one_row_each(fast_writer, tmp_path):
    for texts in (["ab"], ["ab", "ba"], ["a", "b", "ab", "ba", "e"]):  # --count's default is 4: fewer and more
        args = [a for t in texts for a in ("--text", t)]
        r = invoke("sample", "--checkpoint", fast_writer, *args, "--steps", 15, "--out", tmp_path / "s.png")
        assert r.exit_code == 0, r.output
        n = len(texts)
        assert r.stdout.startswith(f"Wrote {n} line{'s' * (n != 1)} of text to "), r.stdout
    one_line_error(invoke("sample", "--checkpoint", fast_writer, "--text", "ab", "--count", 2, "--out",
                          tmp_path / "t.png"), "--count 2", "1 --text line")


def test_the_sentence_for_one_line_and_for_several(fast_writer, tmp_path):
    r = invoke("sample", "--checkpoint", fast_writer, "--text", "ab", "--steps", 15, "--out", tmp_path / "s.png")
    assert r.exit_code == 0, r.output
    assert "; it ended by the stop rule)" in r.stdout and "every line" not in r.stdout, r.stdout
    r = invoke("sample", "--checkpoint", fast_writer, "--text", "ab", "--text", "ba", "--steps", 15,
               "--out", tmp_path / "s.png")
    assert r.exit_code == 0, r.output
    assert "; every line ended by the stop rule)" in r.stdout, r.stdout


# ---- lnrnn predict: one input, or several

def test_a_refusal_speaks_of_other_inputs_only_when_there_are_some(tmp_path):
    run = classifier_run(tmp_path / "run", data={"steps": 64, "min": 0.0, "max": 1.0})
    raw = np.random.default_rng(0).integers(0, 17, (3, 64)).astype(np.float32)     # 0..16, the run's 0..1
    np.save(tmp_path / "raw.npy", raw)
    np.save(tmp_path / "more.npy", raw)
    out = tmp_path / "p.csv"
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "raw.npy", "--out", out)
    line = assert_clean_error(r, f"the sequences of {tmp_path / 'raw.npy'} cannot be what the run in {run}")
    assert "other inputs" not in line, line
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "raw.npy", "--input", tmp_path / "more.npy",
               "--out", out)
    assert_clean_error(r, f"the sequences of {tmp_path / 'raw.npy'} and the other inputs cannot be what")
    assert not out.exists()


# ---- lnrnn plot

def test_a_folder_with_a_trailing_separator_keeps_its_name(tmp_path):
    run = tmp_path / "alpha"
    run.mkdir()
    (run / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records([2.0, 1.0], [0.3, 0.6])))
    r = invoke("plot", str(run) + os.sep, "--out", tmp_path / "c.svg")
    assert r.exit_code == 0, r.output
    assert "alpha (final validation accuracy 60.00%)" in (tmp_path / "c.svg").read_text()


def test_the_sentence_counts_the_runs(tmp_path):
    folders = []
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "metrics.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in records([2.0, 1.0], [0.3, 0.6])))
        folders.append(tmp_path / name)
    r = invoke("plot", folders[0], "--out", tmp_path / "one.svg")
    assert r.exit_code == 0 and f"Wrote {tmp_path / 'one.svg'} (1 run, x = " in r.stdout, r.output
    r = invoke("plot", *folders, "--out", tmp_path / "two.svg")
    assert r.exit_code == 0 and f"Wrote {tmp_path / 'two.svg'} (2 runs, x = " in r.stdout, r.output


# ---- lnrnn gradcheck

SMALL = ["--steps", 2, "--batch", 2, "--input", 2, "--hidden", 2, "--layers", 1, "--max-elems", 3, "--tolerance", 1,
         "-q"]
LINE = re.compile(r"^(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(ok|FAIL)$")


def checks(output):
    """The (cell, mode, parameter, error) of every result line gradcheck printed."""
    return [(m[1], m[2], m[3], float(m[4])) for m in map(LINE.match, output.splitlines()) if m]


def test_the_summary_is_the_largest_error_printed():
    r = invoke("gradcheck", "--cell", "ln-rnn", "--cell", "rnn", *SMALL)
    assert r.exit_code == 0, r.output
    errs = [e for _, _, _, e in checks(r.stdout)]
    assert len(errs) > 10 and errs[-1] < max(errs)       # the last check is not the largest: the test can tell
    summary = r.stdout.strip().splitlines()[-1]
    assert summary == f"max relative error {max(errs):.2e}; 0 above tolerance 1", summary
