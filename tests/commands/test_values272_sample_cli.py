"""``lnrnn sample``'s defaults, title, messages and .npz by value (round 272 of the planted bugs,
tests/mutants/mutants_values272.py), with the run, the sampler and the drawing replaced by the stand-ins of
test_values245 and test_values221 (nothing is sampled). Left out, the options' documented defaults reach the
sampler: 700 points, 4 samples, bias 0, seed 0, the picture samples.png in the working folder; the picture's
title is 'cell on task, update N, bias b, seed s' from the run's record; --steps 20,001 without --no-cap is
refused word for word before the run is read. With --text: one line that the stop rule ended and two lines of
which the second reached the cap are summed up word for word, and the .npz holds every point of each line,
the stopping one included, as the stand-in lines written out here."""
import numpy as np
import pytest

from test_cli import assert_clean_error, assert_ok, invoke
from test_values221_sample_cli import stand_ins as text_stand_ins
from test_values245_output_checks import points, stand_ins  # noqa: F401 - stand_ins is a fixture
from test_values99_sample_cli import text_run


def test_the_documented_defaults_reach_the_sampler_and_the_summary(tmp_path, stand_ins, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    r = invoke("sample", "--checkpoint", tmp_path / "run", "-q")
    assert_ok(r)
    assert stand_ins["sample"] == [dict(steps=700, count=4, bias=0.0, seed=0, text=None)]
    assert stand_ins["draw"] == [(4, "samples.png", "lstm on strokes-synthetic, update 5, bias 0, seed 0")]
    assert r.stdout == "Wrote 4 samples of 700 points to samples.png.\n"


def test_the_title_names_cell_task_update_bias_and_seed(tmp_path, stand_ins):  # noqa: F811
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 3, "--count", 1, "--bias", 0.25,
               "--seed", 3, "--out", out, "-q")
    assert_ok(r)
    assert stand_ins["draw"] == [(1, str(out), "lstm on strokes-synthetic, update 5, bias 0.25, seed 3")]
    assert r.stdout == f"Wrote 1 sample of 3 points to {out}.\n"


def test_steps_past_the_cap_are_refused_without_no_cap(tmp_path, stand_ins):  # noqa: F811
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 20001, "--out", tmp_path / "s.png")
    line = assert_clean_error(r, "--steps")
    assert line == ("Error: --steps 20,001 is more than the 20,000 points a sample may have (each is one step of "
                    "the model); pass --no-cap to draw them anyway.")
    assert stand_ins["load"] == [] and stand_ins["sample"] == []
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 20001, "--no-cap", "--count", 1,
               "--out", tmp_path / "s.png", "-q")
    assert_ok(r)
    assert stand_ins["sample"][-1]["steps"] == 20001


def test_one_line_ended_by_the_stop_rule_is_summed_up_in_the_singular(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    calls, made = text_stand_ins(monkeypatch, (3,))
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--steps", 9, "--out", out, "-q")
    assert_ok(r)
    assert calls["sample"] == dict(steps=9, count=1, text=["ab"])
    assert r.stdout == f"Wrote 1 line of text to {out} (3 points; it ended by the stop rule).\n"


def test_two_lines_the_second_capped_are_summed_up_and_saved_whole(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    calls, made = text_stand_ins(monkeypatch, (4, 12))
    made[1].capped = True
    out, npz = tmp_path / "s.png", tmp_path / "p.npz"
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--text", "cde", "--steps", 12, "--out", out,
               "--npz", npz, "-q")
    assert_ok(r)
    assert r.stdout == (f"Wrote 2 lines of text to {out} and {npz} (4, 12 points; line 2 reached the 12-point cap "
                        "first).\n")
    with np.load(npz, allow_pickle=False) as z:
        np.testing.assert_array_equal(z["lengths"], [4, 12])
        # the lines of test_values221.lines_of: 16 points numbered 0..47 in eighths, the pen alternating per line
        want = np.arange(48, dtype=np.float64).reshape(16, 3) / 8.0
        want[:, 2] = np.concatenate([np.arange(4) % 2, np.arange(12) % 2])
        np.testing.assert_array_equal(z["points"], want.astype(np.float32))
        assert list(z["texts"]) == ["ab", "cde"]


def test_a_line_of_one_point_is_counted_in_the_singular(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    text_stand_ins(monkeypatch, (1,))
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", run, "--text", "a", "--steps", 5, "--out", out, "-q")
    assert_ok(r)
    assert r.stdout == f"Wrote 1 line of text to {out} (1 point; it ended by the stop rule).\n"
