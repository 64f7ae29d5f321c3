"""``lnrnn sample`` (lnrnn/commands/sample.py) through click's CliRunner on tiny runs: --bias reaches the draws
(the --npz points equal lnrnn.sample_run's at that bias, and differ from bias 0's), the progress bar counts
steps x count points and is filled exactly, the summary line names the capped lines counting from one with the
point counts worked out by hand (a window with Wp = 0: kappa moves 0.45 a step, so a line of U characters
stops after the first step with kappa > U + 0.5), and options given wrongly are refused in one line before any
sampling."""
import numpy as np
import pytest
from click.testing import CliRunner

import lnrnn
import lnrnn.training.progress as progress_module
from lnrnn.cli import main
from lnrnn.model.models import build_model
from lnrnn.training.checkpoint import save_checkpoint

ALPHABET = "\ufffdabcde"
K, INC = 2, 0.45


def save(folder, m, text=False):
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    meta = {"model": m.config, "step": 0, "task": {"task": "strokes"}, "train": {"cell": "ln-lstm"}}
    if text:
        meta["text"] = {"alphabet": ALPHABET, "unknown": 0, "lines": 1}
    save_checkpoint(str(folder), arrays, meta)
    return folder


def model(text=False, seed=1):
    extra = dict(window=K, alphabet_size=len(ALPHABET)) if text else {}
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float32",
                         forget_bias=1.0, skip=True, **extra,
                         head={"kind": "mdn", "components": 3, "per_step": True, "scale": [2.0, 3.0]}), seed=seed)
    if text:
        L1 = m.stack.layers[0]
        L1.params["Wp"][...] = 0.0
        L1.params["bp"][...] = [np.log(3.0)] * K + [np.log(2.0)] * K + [np.log(INC)] * K
    return m


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def points_by_rule(U):
    """Points a line of U characters gets: up to the first step t with kappa_t = INC (t + 1) > U + 0.5."""
    t = 0
    while not INC * (t + 1) > U + 0.5:
        t += 1
    return t + 1


@pytest.mark.parametrize("text", [False, True])
def test_bias_reaches_the_draws(tmp_path, text):
    run = save(tmp_path / "run", model(text), text)
    lines = ["ab", "c"] if text else []
    args = [a for t in lines for a in ("--text", t)]
    r = invoke("sample", "--checkpoint", run, "--steps", 6, "--count", 2, "--seed", 3, "--bias", 1.5, *args,
               "--out", tmp_path / "s.png", "--npz", tmp_path / "s.npz", "--quiet")
    assert r.exit_code == 0, r.output + repr(r.exception)
    got = np.load(tmp_path / "s.npz")
    for bias, same in ((1.5, True), (0.0, False)):
        want = lnrnn.sample_run(run, steps=6, count=2, bias=bias, seed=3, text=lines or None)
        pts = np.concatenate([w.points if text else w for w in want]).astype(np.float32)
        assert np.array_equal(got["points"], pts) == same, bias
    assert list(got["lengths"]) == [len(w.points) if text else 6 for w in want]


class Counting:
    """Stands in for Progress: its total and every update."""
    made = []

    def __init__(self, total, *a, **kw):
        self.total, self.updates = total, []
        Counting.made.append(self)

    def update(self, n, **kw):
        self.updates.append(n)

    def close(self):
        pass


@pytest.mark.parametrize("text", [False, True])
def test_the_progress_bar_counts_steps_times_count_points(tmp_path, monkeypatch, text):
    monkeypatch.setattr(progress_module, "Progress", Counting)
    Counting.made = []
    run = save(tmp_path / "run", model(text), text)
    args = ["--text", "a", "--text", "b", "--text", "c"] if text else ["--count", 3]
    r = invoke("sample", "--checkpoint", run, "--steps", 9, *args, "--out", tmp_path / "s.png")
    assert r.exit_code == 0, r.output + repr(r.exception)
    (p,) = Counting.made
    assert p.total == 9 * 3 and sum(p.updates) == 9 * 3
    assert len(p.updates) == (points_by_rule(1) if text else 9)     # the text rows stop together, at step 4


def test_the_summary_names_the_capped_lines_from_one(tmp_path):
    run = save(tmp_path / "run", model(True), True)
    n1, n3 = points_by_rule(1), points_by_rule(3)
    assert (n1, n3) == (4, 8)
    r = invoke("sample", "--checkpoint", run, "--steps", 6, "--text", "a", "--text", "bcd", "--out", tmp_path / "s.png")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert f"({n1}, 6 points; line 2 reached the 6-point cap first)" in r.output, r.output
    r = invoke("sample", "--checkpoint", run, "--steps", 5, "--text", "bcd", "--text", "a", "--text", "dcb",
               "--out", tmp_path / "t.png")
    assert r.exit_code == 0 and f"(5, {n1}, 5 points; lines 1, 3 reached the 5-point cap first)" in r.output, r.output
    r = invoke("sample", "--checkpoint", run, "--steps", 20, "--text", "bcd", "--text", "a",
               "--out", tmp_path / "u.png")
    assert r.exit_code == 0 and f"({n3}, {n1} points; every line ended by the stop rule)" in r.output, r.output


@pytest.mark.parametrize("args, words", [
    (["--prime-text", "ab", "--text", "a"], "--prime-text needs --prime-strokes"),
    (["--attention"], "--attention draws where the window read"),
    (["--text", "a", "--text", "b", "--count", 3], "--count 3 does not match the 2 --text lines"),
    (["--judge-out", "j.json"], "--judge-out writes what --judge measured"),
    (["--steps", 0], "--steps must be at least 1, not 0"),
])
def test_options_given_wrongly_are_refused_in_one_line(tmp_path, args, words):
    run = save(tmp_path / "run", model(True), True)
    r = invoke("sample", "--checkpoint", run, *args, "--out", tmp_path / "s.png")
    assert r.exit_code != 0 and isinstance(r.exception, SystemExit), r.output + repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:") and words in lines[0], r.stderr
    assert not (tmp_path / "s.png").exists()
