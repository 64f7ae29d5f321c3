"""``lnrnn sample`` against what the options ask, checked here: --text given twice with the same line writes
two rows (the report, the .npz's lengths and texts, and lnrnn.sample_run's rows for the same seed); a single
--text line's .npz keeps its text; the report names the picture and the --npz written. Refusals that need no
run (--judge without --text, an --npz under another suffix, --out or --npz naming a folder, ending in a
separator, under a file, or in a read-only folder) are one 'Error:' line, exit 2, nothing written, and come
before the run is loaded (load_run is made to fail if called); the --npz hint keeps the --npz's own name.
--judge loads the reader from its own folder, and --judge-out's JSON names the writer and the reader as given,
with the run's step, --bias, --seed and each line's character error rate against the line asked for,
computed here from the reader's fixed reading ('a') by the edit distance."""
import json
import os

import numpy as np
import pytest

import lnrnn
import lnrnn.api
from test_values99_sample_cli import free_run, invoke, one_line_error, text_run


def _no_load(monkeypatch):
    def fail(*a, **k):
        raise AssertionError("the run was loaded before the options were checked")
    monkeypatch.setattr(lnrnn.api, "load_run", fail)


def _written(folder):
    return sorted(p.name for p in folder.iterdir())


def test_the_same_line_twice_is_two_rows(tmp_path):
    run = text_run(tmp_path / "run")
    out, npz = tmp_path / "s.svg", tmp_path / "s.npz"
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--text", "ab", "--steps", 4, "--seed", 3,
               "--out", out, "--npz", npz, "--quiet")
    assert r.exit_code == 0, r.output + repr(r.exception)
    want = lnrnn.sample_run(run, steps=4, text=["ab", "ab"], seed=3)
    assert len(want) == 2
    assert f"Wrote 2 lines of text to {out} and {npz} " in r.output, r.output
    got = np.load(npz)
    assert list(got["texts"]) == ["ab", "ab"]
    np.testing.assert_array_equal(got["lengths"], [len(w.points) for w in want])
    np.testing.assert_array_equal(got["points"], np.concatenate([w.points for w in want]).astype(np.float32))


def test_one_lines_npz_keeps_its_text_and_the_report_names_both_files(tmp_path):
    run = text_run(tmp_path / "run")
    out, npz = tmp_path / "pic.png", tmp_path / "pts.npz"
    r = invoke("sample", "--checkpoint", run, "--text", "abc", "--steps", 3, "--out", out, "--npz", npz, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert list(np.load(npz)["texts"]) == ["abc"]
    assert f"Wrote 1 line of text to {out} and {npz} (" in r.output, r.output


def test_free_samples_report_names_both_files(tmp_path):
    run = free_run(tmp_path / "run")
    out, npz = tmp_path / "pic.svg", tmp_path / "pts.npz"
    r = invoke("sample", "--checkpoint", run, "--steps", 2, "--count", 3, "--out", out, "--npz", npz, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert r.output.strip() == f"Wrote 3 samples of 2 points to {out} and {npz}."
    np.testing.assert_array_equal(np.load(npz)["lengths"], [2, 2, 2])


def test_judge_without_text_is_refused_before_the_run_loads(tmp_path, monkeypatch):
    _no_load(monkeypatch)
    out = tmp_path / "s.svg"
    for extra in ([], ["--judge-out", tmp_path / "j.json"]):
        r = invoke("sample", "--checkpoint", tmp_path / "w", "--judge", tmp_path / "r", "--out", out, *extra)
        assert r.exit_code == 2, r.output + repr(r.exception)
        one_line_error(r, "--judge", "--text")
    assert _written(tmp_path) == []


def test_npz_under_another_suffix_is_told_its_own_name(tmp_path, monkeypatch):
    _no_load(monkeypatch)
    npz = tmp_path / "points.txt"
    r = invoke("sample", "--checkpoint", tmp_path / "w", "--out", tmp_path / "picture.svg", "--npz", npz)
    assert r.exit_code == 2
    one_line_error(r, f"--npz {npz}", f"name it {tmp_path / 'points'}.npz.")
    assert "picture.npz" not in r.stderr
    assert _written(tmp_path) == []


def _error_lines(r):
    assert r.exit_code == 2, r.output + repr(r.exception)
    assert isinstance(r.exception, SystemExit) and "Traceback" not in r.output
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("Error:")]
    assert len(errors) == 1, r.stderr
    return errors[0]


@pytest.mark.parametrize("option", ["--out", "--npz"])
def test_path_shapes_are_refused_before_the_run_loads(tmp_path, monkeypatch, option):
    _no_load(monkeypatch)
    (tmp_path / "afile").write_text("x")
    (tmp_path / "adir.npz").mkdir()
    good = {"--out": tmp_path / "ok.svg", "--npz": tmp_path / "ok.npz"}
    name = "s.svg" if option == "--out" else "s.npz"
    bad = [str(tmp_path / "missing") + os.sep,                          # a trailing separator: a folder
           tmp_path / "adir.npz" if option == "--npz" else tmp_path,  # an existing folder
           tmp_path / "afile" / name,                                  # under a file
           tmp_path / "afile" / "deeper" / name]                       # under a file, folders to create
    for path in bad:
        args = dict(good, **{option: path})
        r = invoke("sample", "--checkpoint", tmp_path / "w", "--out", args["--out"], "--npz", args["--npz"])
        line = _error_lines(r)
        assert option in line or f"'{option}'" in line, (path, line)
    assert _written(tmp_path) == ["adir.npz", "afile"]
    assert os.listdir(tmp_path / "adir.npz") == [] and (tmp_path / "afile").read_text() == "x"


def test_a_read_only_folder_is_refused_before_the_run_loads(tmp_path, monkeypatch):
    _no_load(monkeypatch)
    ro = tmp_path / "ro"
    ro.mkdir()
    if os.name == "posix" and os.geteuid() == 0:   # root writes anywhere: the folder's refusal, as the OS says it
        import lnrnn.files
        real = lnrnn.files.write_error
        monkeypatch.setattr(lnrnn.files, "write_error", lambda folder: PermissionError(13, "Permission denied")
                            if os.path.abspath(folder) == str(ro) else real(folder))
    ro.chmod(0o555)
    try:
        for option, other in (("--out", "--npz"), ("--npz", "--out")):
            ok = tmp_path / ("ok.npz" if other == "--npz" else "ok.svg")
            for bad in (ro / ("s.svg" if option == "--out" else "s.npz"),
                        ro / "new" / ("s.svg" if option == "--out" else "s.npz")):  # a folder not there yet
                r = invoke("sample", "--checkpoint", tmp_path / "w", option, bad, other, ok)
                one_line_error(r, f"cannot write to {ro}", option)
                assert r.exit_code == 2
        assert os.listdir(ro) == [] and _written(tmp_path) == ["ro"]
    finally:
        ro.chmod(0o755)


def test_a_folder_that_does_not_exist_yet_is_created(tmp_path):
    run = free_run(tmp_path / "run")
    out, npz = tmp_path / "a" / "b" / "s.svg", tmp_path / "c" / "s.npz"
    r = invoke("sample", "--checkpoint", run, "--steps", 2, "--count", 1, "--out", out, "--npz", npz, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.is_file() and np.load(npz)["lengths"].tolist() == [2]


def _levenshtein(a, b):
    d = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, d[0] = d[0], i
        for j, cb in enumerate(b, 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (ca != cb))
    return d[-1]


def test_judge_out_names_the_writer_and_the_reader(tmp_path):
    from test_judge import reader_run
    from test_sample_text import save_run, text_model

    writer, reader = save_run(tmp_path / "w", text_model(kappa_bias=-0.3)), reader_run(tmp_path / "r")
    rec = tmp_path / "j.json"
    texts = ["abc", "ba"]
    r = invoke("sample", "--checkpoint", writer, "--text", texts[0], "--text", texts[1], "--steps", 6,
               "--bias", 0.5, "--seed", 7, "--out", tmp_path / "s.svg", "--judge", reader, "--judge-out", rec, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert f"Read by the reader in {reader}:" in r.output
    got = json.loads(rec.read_text())
    assert (got["writer"], got["reader"]) == (writer, reader)
    assert (got["step"], got["bias"], got["seed"]) == (lnrnn.load_run(writer).meta.get("step"), 0.5, 7)
    assert [ln["read"] for ln in got["lines"]] == ["a", "a"]      # the reader reads every line as 'a'
    for ln, t in zip(got["lines"], texts):
        assert ln["cer"] == pytest.approx(_levenshtein("a", t) / len(t))
