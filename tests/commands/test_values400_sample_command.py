"""``lnrnn sample`` by value at the edges its help states, with the run, the sampler and the drawing replaced by
recording stand-ins (nothing is sampled): --steps 20,000 and a prime of 20,000 points, the documented most, are
taken without --no-cap while one more is refused word for word before the run is read; --bias inf, nan and a
negative bias are refused; --count 1 with two --text lines, and --count 2 with one, are refused naming the number
of lines; --judge without --text points to --text; an unusable --judge-out is refused in its own name; an --npz of
another suffix inside a folder is advised the same folder's .npz; the progress bar on stderr counts --steps times
--count points and ends with one closing line; the lines that reached the cap are named counting from 1; the .npz
holds the points as float32 (0.1 and 123.456 as float32 reads them); the --judge-out JSON names the writer's folder
as writer and the reader's as reader."""
import json
import os

import numpy as np
import pytest

import lnrnn.api
import lnrnn.judge
import lnrnn.sample
from lnrnn.errors import UserError

from test_cli import invoke
from test_values221_sample_cli import exact_error  # one 'Error:' line, word for word, a non-zero exit

LOAD_STOP = "stand-in: the run would be read here"
BAR = 24  # the progress bar's width in characters


class Run:
    model = None
    meta = {"step": 3, "task": {"task": "strokes"}, "train": {"cell": "lstm"}, "text": None}


class Line:
    def __init__(self, points, capped=False):
        self.points, self.capped = points, capped


@pytest.fixture
def calls(monkeypatch):
    """load_run, sample_run, text_inputs and the drawings replaced by recorders; the sampler hands back
    ``calls["lines"]`` when set, else ``count`` samples of 2 points, and moves the progress bar one point a step."""
    got = {"load": [], "sample": [], "draw": [], "lines": None, "stop_at_load": False}

    def load_run(path, *a, **kw):
        got["load"].append(str(path))
        if got["stop_at_load"]:
            raise UserError(LOAD_STOP)
        return Run()

    def sample_run(run, steps, count, bias, seed, progress=None, text=None, **kw):
        got["sample"].append(dict(steps=steps, count=count, bias=bias, text=text))
        for _ in range(steps * count):
            progress.update(1)
        if got["lines"] is not None:
            return got["lines"]
        return [np.array([[0.5, -1.0, 0.0], [1.5, 2.0, 1.0]]) for _ in range(count)]

    monkeypatch.setattr(lnrnn.api, "load_run", load_run)
    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    monkeypatch.setattr(lnrnn.sample, "text_inputs", lambda *a, **k: None)
    monkeypatch.setattr(lnrnn.sample, "draw_strokes", lambda lines, out, title=None: got["draw"].append(str(out)))
    monkeypatch.setattr(lnrnn.sample, "draw_written",
                        lambda lines, out, title, attention=False: got["draw"].append(str(out)))
    return got


# ---- the caps: 20,000 is allowed, 20,001 is not

def test_steps_at_the_cap_are_drawn_without_no_cap(tmp_path, calls):
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 20000, "--count", 1, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert [c["steps"] for c in calls["sample"]] == [20000]
    assert r.stdout == f"Wrote 1 sample of 20000 points to {out}.\n"


def write_prime(path, n):
    pts = np.zeros((n, 3))
    pts[:, 0] = 0.25
    np.save(path, pts)
    return path


def prime(tmp_path, n):
    p = write_prime(tmp_path / f"p{n}.npy", n)
    return invoke("sample", "--checkpoint", tmp_path / "run", "--text", "ab", "--prime-strokes", p,
                  "--prime-text", "ba", "--out", tmp_path / "s.png", "-q")


def test_a_prime_at_the_cap_is_read_and_one_point_more_is_refused(tmp_path, calls):
    calls["stop_at_load"] = True
    r = prime(tmp_path, 20000)
    exact_error(r, LOAD_STOP)
    assert calls["load"] == [str(tmp_path / "run")]
    r = prime(tmp_path, 20001)
    p = tmp_path / "p20001.npy"
    exact_error(r, (
        f"--prime-strokes {p} holds 20,001 points, more than the 20,000 a prime may have (the model reads "
        "each as one step); give a shorter prime (a line or two of handwriting), or pass --no-cap to read it anyway."))
    assert calls["load"] == [str(tmp_path / "run")] and calls["sample"] == []


# ---- refusals before the run is read, word for word

@pytest.mark.parametrize("bias", ["inf", "nan", "-0.5"])
def test_a_bias_that_is_not_a_finite_non_negative_number_is_refused(tmp_path, calls, bias):
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--bias", bias, "--out", tmp_path / "s.png", "-q")
    exact_error(r, f"--bias must be 0 or positive, not {float(bias)}.")
    assert calls["load"] == [] and calls["sample"] == [] and os.listdir(tmp_path) == []


@pytest.mark.parametrize("count, texts, words", [(1, ["ab", "ba"], "the 2 --text lines"),
                                                 (2, ["ab"], "the 1 --text line")])
def test_a_count_other_than_the_number_of_lines_is_refused(tmp_path, calls, count, texts, words):
    args = [a for t in texts for a in ("--text", t)]
    r = invoke("sample", "--checkpoint", tmp_path / "run", *args, "--count", count, "--out", tmp_path / "s.png")
    exact_error(r, f"--count {count} does not match {words}: each line is one row; "
                      "leave --count out.")
    assert calls["load"] == [] and calls["sample"] == [] and os.listdir(tmp_path) == []


def test_judge_without_text_points_to_text(tmp_path, calls):
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--judge", tmp_path, "--out", tmp_path / "s.png")
    exact_error(r, "--judge reads the lines a synthesis run writes; give them with --text.")
    assert calls["load"] == []


def test_an_unusable_judge_out_is_refused_in_its_own_name(tmp_path, calls):
    folder = tmp_path / "j"
    folder.mkdir()
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--text", "ab", "--judge", tmp_path / "reader",
               "--judge-out", folder, "--out", tmp_path / "s.png")
    exact_error(r, f"--judge-out {folder} is a folder; give a file name inside it.")
    assert calls["load"] == []


def test_an_npz_of_another_suffix_is_advised_the_npz_in_the_same_folder(tmp_path, calls):
    npz = tmp_path / "sub" / "pts.txt"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--npz", npz, "--out", tmp_path / "s.png")
    exact_error(r, (
        f"--npz {npz} would hold an .npz archive under another name (lnrnn read and numpy tell the kind by "
        f"the suffix); name it {tmp_path / 'sub' / 'pts'}.npz."))
    assert calls["load"] == [] and os.listdir(tmp_path) == []


# ---- the progress bar, the summary and what is written

def test_the_progress_bar_counts_steps_times_count_points_and_closes_once(tmp_path, calls):
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 5, "--count", 4, "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert r.stdout == f"Wrote 4 samples of 5 points to {out}.\n"
    bar = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(bar) == 1, r.stderr
    assert bar[0].startswith(f"sample [{'#' * BAR}] 20/20 "), bar[0]
    assert " points/s " in bar[0], bar[0]


def test_quiet_leaves_stderr_empty(tmp_path, calls):
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 5, "--count", 4, "--out", tmp_path / "s.png",
               "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert r.stderr == ""


def test_the_capped_lines_are_named_counting_from_one(tmp_path, calls):
    calls["lines"] = [Line(np.zeros((9, 3)), capped=True), Line(np.zeros((4, 3))), Line(np.zeros((9, 3)), True)]
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--text", "ab", "--text", "b", "--text", "ba",
               "--steps", 9, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert r.stdout == (f"Wrote 3 lines of text to {out} (9, 4, 9 points; lines 1, 3 reached the 9-point cap "
                        "first).\n")


def test_the_npz_holds_the_points_as_float32(tmp_path, calls):
    first = np.array([[0.1, 123.456, 0.0], [-7.3, 0.001, 1.0]])
    second = np.array([[3.3, -2.2, 1.0]])
    calls["lines"] = [first, second]
    npz = tmp_path / "s.npz"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 2, "--count", 2, "--out", tmp_path / "s.png",
               "--npz", npz, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    with np.load(npz, allow_pickle=False) as f:
        assert f["points"].dtype == np.float32
        assert f["points"].tolist() == np.float32(np.concatenate([first, second])).tolist()
        assert float(f["points"][0, 0]) == float(np.float32(0.1))
        assert f["lengths"].tolist() == [2, 1]


def test_judge_out_names_the_writer_and_the_reader(tmp_path, calls, monkeypatch):
    calls["lines"] = [Line(np.zeros((2, 3)))]
    reader = tmp_path / "reader"
    judged = [lnrnn.judge.Judged(text="ab", read="ab", cer=0.0, travel=1.0, stop_at_last=True, peak_phi=0.5,
                                 points=2, capped=False)]
    monkeypatch.setattr(lnrnn.judge, "check_judge", lambda *a, **k: None)
    monkeypatch.setattr(lnrnn.judge, "judge", lambda writer, reader, rows, seed=0: judged)
    rec = tmp_path / "j.json"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--text", "ab", "--judge", reader, "--judge-out", rec,
               "--out", tmp_path / "s.png", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert calls["load"] == [str(tmp_path / "run"), str(reader)]
    got = json.loads(rec.read_text())
    assert (got["writer"], got["reader"], got["step"]) == (str(tmp_path / "run"), str(reader), 3)
