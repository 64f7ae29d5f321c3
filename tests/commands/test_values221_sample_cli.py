"""``lnrnn sample`` with the sampler, the drawing and the judge replaced by stand-ins that record their
arguments (nothing is sampled): --count against a different number of --text lines, and --judge-out without
--judge, are each one exact 'Error:' line with nothing written; the .npz holds the lines' points concatenated,
their lengths (points per line, 2 and 5 here) and their texts, as the file's arrays read back; the summary line
says 'line' for one line and 'lines' for two; the judge's report is headed by the reader's folder."""
import numpy as np
import pytest

import lnrnn.api
import lnrnn.judge
import lnrnn.sample
from test_values99_sample_cli import invoke, text_run


class Line:
    def __init__(self, points):
        self.points = points
        self.capped = False


def lines_of(ns):
    """Lines of ns points each, every value different, so a wrong split or order shows."""
    out, start = [], 0
    for n in ns:
        pts = np.arange(start, start + 3 * n, dtype=np.float64).reshape(n, 3) / 8.0
        pts[:, 2] = np.arange(n) % 2
        out.append(Line(pts))
        start += 3 * n
    return out


def stand_ins(monkeypatch, ns):
    calls = {}
    made = lines_of(ns)

    def sample_run(run, steps, count, bias, seed, progress=None, text=None, **kw):
        calls["sample"] = dict(steps=steps, count=count, text=text)
        return made

    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    monkeypatch.setattr(lnrnn.sample, "draw_written", lambda lines, out, title, attention=False: None)
    return calls, made


def exact_error(r, want):
    assert r.exit_code != 0, r.output
    assert isinstance(r.exception, SystemExit), repr(r.exception)
    assert [ln for ln in r.stderr.splitlines() if ln.strip()] == ["Error: " + want]


def test_count_against_the_number_of_lines_is_one_exact_error(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    calls, _ = stand_ins(monkeypatch, [2, 2])
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--text", "ca", "--count", 3, "--out",
               tmp_path / "s.svg", "-q")
    exact_error(r, "--count 3 does not match the 2 --text lines: each line is one row; leave --count out.")
    assert calls == {} and sorted(p.name for p in tmp_path.iterdir()) == ["run"]


def test_judge_out_without_judge_is_one_exact_error(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    calls, _ = stand_ins(monkeypatch, [2])
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--judge-out", tmp_path / "j.json", "--out",
               tmp_path / "s.svg", "-q")
    exact_error(r, "--judge-out writes what --judge measured; give --judge READER_RUN_FOLDER.")
    assert calls == {} and sorted(p.name for p in tmp_path.iterdir()) == ["run"]


@pytest.mark.parametrize("texts,ns", [(["ab"], [3]), (["ab", "cae"], [2, 5])])
def test_the_npz_splits_back_into_the_lines_and_the_summary_counts_them(tmp_path, monkeypatch, texts, ns):
    run = text_run(tmp_path / "run")
    calls, made = stand_ins(monkeypatch, ns)
    out, npz = tmp_path / "s.svg", tmp_path / "s.npz"
    args = [a for t in texts for a in ("--text", t)]
    r = invoke("sample", "--checkpoint", run, *args, "--npz", npz, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert calls["sample"]["text"] == texts and calls["sample"]["count"] == len(texts)
    with np.load(npz, allow_pickle=False) as f:
        cuts = np.cumsum(f["lengths"])[:-1]
        for got, line in zip(np.split(f["points"], cuts), made):
            np.testing.assert_array_equal(got, line.points.astype(np.float32))
        assert list(f["lengths"]) == [len(line.points) for line in made]
        assert list(f["texts"]) == texts
    n = len(texts)
    ends = "every line ended by the stop rule" if n > 1 else "it ended by the stop rule"
    word = "line" if n == 1 else "lines"
    assert r.output.strip() == (f"Wrote {n} {word} of text to {out} and {npz} "
                                f"({', '.join(str(k) for k in ns)} points; {ends}).")


def stand_in_reader(tmp_path, monkeypatch):
    """A reader folder (tmp_path/reader) that lnrnn.api.load_run loads as the string "READER" (other folders load
    as runs) and lnrnn.judge.check_judge accepts; returns the folder and the list of paths load_run was asked for."""
    reader_dir = tmp_path / "reader"
    reader_dir.mkdir()
    real_load = lnrnn.api.load_run
    loaded = []

    def load_run(path):
        loaded.append(str(path))
        return "READER" if str(path) == str(reader_dir) else real_load(path)

    monkeypatch.setattr(lnrnn.api, "load_run", load_run)
    monkeypatch.setattr(lnrnn.judge, "check_judge", lambda *a, **k: None)
    return reader_dir, loaded


def test_the_judges_report_is_headed_by_the_readers_folder(tmp_path, monkeypatch):
    run = text_run(tmp_path / "run")
    reader_dir, loaded = stand_in_reader(tmp_path, monkeypatch)
    monkeypatch.setattr(lnrnn.judge, "judge", lambda writer, reader, rows, seed=0: [("judged", reader)])
    monkeypatch.setattr(lnrnn.judge, "report_lines", lambda judged: [f"line read by {judged[0][1]}"])
    stand_ins(monkeypatch, [2])
    out = tmp_path / "s.svg"
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--judge", reader_dir, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert loaded == [run, str(reader_dir)]
    assert r.output.strip().splitlines() == [
        f"Wrote 1 line of text to {out} (2 points; it ended by the stop rule).",
        f"Read by the reader in {reader_dir}:",
        "line read by READER"]
