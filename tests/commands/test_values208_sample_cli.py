"""``lnrnn sample``: what reaches the library and the picture, with the sampler and the drawing replaced by
stand-ins that record their arguments (nothing is sampled). The picture's title is the run's training cell
(meta['train'], not the model's cell), its task, the update it was saved at (not --steps), --bias and --seed,
spelled here from the saved meta; a free run with no --text samples --count rows, and --attention without
--text is refused; --attention reaches the drawing of written lines; --prime-strokes reaches the sampler as
the file's points (N,3), not as its path; a --prime-strokes without --prime-text (and the reverse) is one
'Error:' line naming both options as the user typed them, before the run is loaded, nothing written."""
import numpy as np

import lnrnn.api
import lnrnn.sample
from lnrnn.cli import main
from test_values99_sample_cli import free_run, invoke, one_line_error, text_run


def _default(name):
    (p,) = [p for p in main.commands["sample"].params if p.name == name]
    return p.default


class Line:
    def __init__(self, n):
        self.points = np.zeros((n, 3))
        self.capped = False


def _stand_ins(monkeypatch):
    calls = {}

    def sample_run(run, steps, count, bias, seed, progress=None, text=None, **kw):
        calls["sample"] = dict(steps=steps, count=count, bias=bias, seed=seed, text=text, **kw)
        if text:
            return [Line(2) for _ in text]
        return [np.zeros((steps, 3)) for _ in range(count)]

    def draw_strokes(lines, out, title=None):
        calls["draw"] = dict(title=title, rows=len(lines))

    def draw_written(lines, out, title, attention=False):
        calls["written"] = dict(title=title, attention=attention, rows=len(lines))

    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    monkeypatch.setattr(lnrnn.sample, "draw_strokes", draw_strokes)
    monkeypatch.setattr(lnrnn.sample, "draw_written", draw_written)
    return calls


def test_title_names_the_training_cell_task_update_bias_and_seed(tmp_path, monkeypatch):
    run = free_run(tmp_path / "run")
    calls = _stand_ins(monkeypatch)
    r = invoke("sample", "--checkpoint", run, "--steps", 7, "--bias", 0.5, "--seed", 3, "--out",
               tmp_path / "s.svg", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    # save_run's meta: train cell ln-lstm (the model's own config says cell lstm, norm ln), task strokes, step 0
    assert calls["draw"]["title"] == "ln-lstm on strokes, update 0, bias 0.5, seed 3"
    n = _default("count")                    # --count left out: the option's own default
    assert calls["sample"]["count"] == n and calls["sample"]["steps"] == 7 and calls["sample"]["text"] is None
    assert calls["draw"]["rows"] == n
    assert r.output.strip() == f"Wrote {n} sample{'s' * (n != 1)} of 7 points to {tmp_path / 's.svg'}."


def test_free_run_samples_count_rows_and_refuses_attention(tmp_path, monkeypatch):
    run = free_run(tmp_path / "run")
    calls = _stand_ins(monkeypatch)
    r = invoke("sample", "--checkpoint", run, "--steps", 2, "--count", 3, "--out", tmp_path / "s.svg", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert (calls["sample"]["count"], calls["draw"]["rows"]) == (3, 3)
    calls.clear()
    r = invoke("sample", "--checkpoint", run, "--attention", "--out", tmp_path / "t.svg", "-q")
    one_line_error(r, "--attention", "--text")
    assert calls == {}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_attention_reaches_the_drawing(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    calls = _stand_ins(monkeypatch)
    for flag, want in ((["--attention"], True), ([], False)):
        r = invoke("sample", "--checkpoint", run, "--text", "ab", "--text", "ca", *flag, "--out",
                   tmp_path / "s.svg", "-q")
        assert r.exit_code == 0, r.output + repr(r.exception)
        assert calls["written"]["attention"] is want
        assert calls["written"]["rows"] == 2 and calls["sample"]["text"] == ["ab", "ca"]


def test_prime_strokes_reach_the_sampler_as_points(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    pts = np.array([[0.0, 0.0, 0.0], [1.5, -2.0, 0.0], [0.5, 1.0, 1.0]])
    prime = tmp_path / "prime.npy"
    np.save(prime, pts)
    calls = _stand_ins(monkeypatch)
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--prime-strokes", prime, "--prime-text", "ce",
               "--out", tmp_path / "s.svg", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    got = calls["sample"]["prime_strokes"]
    assert isinstance(got, np.ndarray) and got.shape == (3, 3)
    np.testing.assert_allclose(got, pts)
    assert calls["sample"]["prime_text"] == "ce"


def test_half_a_prime_is_refused_in_the_options_names(tmp_path, monkeypatch):
    def fail(*a, **k):
        raise AssertionError("the run was loaded before the options were checked")
    monkeypatch.setattr(lnrnn.api, "load_run", fail)
    prime = tmp_path / "prime.npy"
    np.save(prime, np.zeros((2, 3)))
    out = tmp_path / "s.svg"
    for given, needed, extra in (("--prime-strokes", "--prime-text", ["--prime-strokes", prime]),
                                 ("--prime-text", "--prime-strokes", ["--prime-text", "ab"])):
        r = invoke("sample", "--checkpoint", tmp_path / "w", "--text", "ab", *extra, "--out", out)
        assert r.exit_code == 2, r.output + repr(r.exception)
        one_line_error(r, f"{given} needs {needed}:")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["prime.npy"]
