"""``lnrnn sample --text ... --judge`` by value (round 367 of the planted bugs,
tests/mutants/mutants_values367.py), with the sampler, the drawing and the judge replaced by stand-ins (nothing is
sampled or read): two judged lines whose every field differs between them and from the field beside it. --judge
without --judge-out prints the reader's report under its heading; --npz holds each judged field under its own
name, in line order; --judge-out writes the writer, the reader, the run's update, --bias, --seed, the lines'
fields and their summary, worked out here by hand (mean CER (0 + 0.5) / 2, one edit over four characters asked,
mean travel (1.25 + 0.5) / 2, the stop rule at the last character on one line of two, mean peak (0.75 + 0.25) / 2)."""
import json
from dataclasses import asdict

import numpy as np
import pytest

import lnrnn.judge
from lnrnn.judge import Judged
from test_values221_sample_cli import stand_in_reader, stand_ins
from test_values99_sample_cli import invoke, text_run

JUDGED = [Judged(text="ab", read="ab", cer=0.0, travel=1.25, stop_at_last=True, peak_phi=0.75, points=2,
                 capped=False),
          Judged(text="ca", read="c", cer=0.5, travel=0.5, stop_at_last=False, peak_phi=0.25, points=5,
                 capped=True)]


@pytest.fixture
def judged_run(tmp_path, monkeypatch):
    """A synthesis run and a reader folder; the judge hands back JUDGED and records its seed."""
    run = text_run(tmp_path / "run")
    reader_dir, _ = stand_in_reader(tmp_path, monkeypatch)
    seeds = []

    def judge(writer, reader, rows, seed=0):
        seeds.append(seed)
        return JUDGED

    monkeypatch.setattr(lnrnn.judge, "judge", judge)
    stand_ins(monkeypatch, [2, 5])
    return run, reader_dir, seeds


def write(run, reader_dir, out, *more):
    return invoke("sample", "--checkpoint", run, "--text", "ab", "--text", "ca", "--judge", reader_dir,
                  "--out", out, "-q", *more)


def test_judge_without_judge_out_prints_the_report(tmp_path, judged_run):
    run, reader_dir, seeds = judged_run
    out = tmp_path / "s.svg"
    r = write(run, reader_dir, out, "--seed", 4)
    assert r.exit_code == 0, r.output + repr(r.exception)
    lines = r.output.strip().splitlines()
    assert lines[:2] == [f"Wrote 2 lines of text to {out} (2, 5 points; every line ended by the stop rule).",
                         f"Read by the reader in {reader_dir}:"]
    assert lines[2:] == lnrnn.judge.report_lines(JUDGED) and len(lines) == 2 + 1 + 2 + 1
    assert seeds == [4]


def test_the_npz_holds_each_judged_field_under_its_name(tmp_path, judged_run):
    run, reader_dir, _ = judged_run
    npz = tmp_path / "s.npz"
    r = write(run, reader_dir, tmp_path / "s.svg", "--npz", npz)
    assert r.exit_code == 0, r.output + repr(r.exception)
    with np.load(npz) as z:
        assert z["texts"].tolist() == ["ab", "ca"]
        assert z["read"].tolist() == ["ab", "c"]
        assert z["cer"].tolist() == [0.0, 0.5]
        assert z["travel"].tolist() == [1.25, 0.5]
        assert z["stop_at_last"].tolist() == [True, False]
        assert z["peak_phi"].tolist() == [0.75, 0.25]
        assert z["lengths"].tolist() == [2, 5]


def test_judge_out_records_the_run_the_reader_bias_seed_and_summary(tmp_path, judged_run):
    run, reader_dir, seeds = judged_run
    rec = tmp_path / "judged.json"
    r = write(run, reader_dir, tmp_path / "s.svg", "--judge-out", rec, "--bias", 1.5, "--seed", 7)
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert r.output.strip().splitlines()[-1] == f"Wrote the judged lines to {rec}."
    got = json.loads(rec.read_text())
    assert got == dict(writer=str(run), reader=str(reader_dir), step=0, bias=1.5, seed=7,
                       lines=[asdict(j) for j in JUDGED],
                       summary=dict(mean_cer=0.25, cer=0.25, mean_travel=0.875, stop_at_last=0.5,
                                    mean_peak_phi=0.5, lines=2))
    assert seeds == [7]
