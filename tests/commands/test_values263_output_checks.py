"""lnrnn sample's output checks (lnrnn.files) by the shape of the path, and what reaches the sampler and the
judge, by value (round 263 of the planted bugs, tests/mutants/mutants_values263.py). The run, the sampler, the
drawing and the judge are stand-ins that record their calls (tests/commands/test_values245_output_checks.py's
fixture and the ones here). Every refusal is one 'Error:' line read word for word, exit 2, with nothing
written and the run never read: an --npz of blanks, one ending in a separator, a --judge-out that is a folder,
an --npz under a file, one that goes up ('..') from a folder that does not exist, one under a link to nowhere,
one of a name past the file system's limit; a prime of 20,001 points, counted with a thousands separator. A
write refused by the folder (EACCES) says to make the folder writable. The progress bar counts steps x count
points; --seed reaches the judge, and the .npz and the JSON record hold each judged line's own fields."""
import errno
import json
import os

import numpy as np

import lnrnn.api
import lnrnn.files
import lnrnn.judge
import lnrnn.sample
from test_cli import assert_clean_error, assert_ok
from test_values245_output_checks import STEPS, points, sample, stand_ins  # noqa: F401 - stand_ins is a fixture


def refused(tmp_path, stand_ins, *args):  # noqa: F811
    """The one Error: line of a sample refused before any work, with nothing written and the run never read."""
    before = sorted(os.listdir(tmp_path))
    r = sample(tmp_path, "--out", tmp_path / "s.png", *args)
    line = assert_clean_error(r, "Error:")
    assert stand_ins["load"] == [] and stand_ins["sample"] == [] and stand_ins["draw"] == []
    assert sorted(os.listdir(tmp_path)) == before
    return line


def test_an_npz_of_blanks_names_no_file_under_its_own_option(tmp_path, stand_ins):  # noqa: F811
    assert refused(tmp_path, stand_ins, "--npz", "  ") == "Error: --npz '  ' names no file; give a file name."


def test_an_npz_ending_in_a_separator_or_naming_a_folder_is_refused(tmp_path, stand_ins):  # noqa: F811
    (tmp_path / "pts.npz").mkdir()
    slash = f"{tmp_path / 'new'}{os.sep}"
    assert refused(tmp_path, stand_ins, "--npz", slash) == f"Error: --npz {slash!r} names a folder; give a file name."
    folder = tmp_path / "pts.npz"   # --npz is refused by click itself as a folder; --judge-out by lnrnn
    assert refused(tmp_path, stand_ins, "--text", "ab", "--judge", tmp_path / "reader", "--judge-out", folder) == (
        f"Error: --judge-out {folder} is a folder; give a file name inside it.")


def test_an_npz_under_a_file_is_refused_offering_another_npz(tmp_path, stand_ins):  # noqa: F811
    (tmp_path / "blocker").write_bytes(b"x")
    npz = tmp_path / "blocker" / "deeper" / "p.npz"
    assert refused(tmp_path, stand_ins, "--npz", npz) == (
        f"Error: {tmp_path / 'blocker'} is a file, not a folder, so --npz {npz} cannot be written there; choose "
        "another --npz.")


def test_an_npz_going_up_from_a_missing_folder_names_that_folder(tmp_path, stand_ins, monkeypatch):  # noqa: F811
    monkeypatch.chdir(tmp_path)
    # 'nope/../p.npz' reads as ./p.npz on paper, but the file system walks into nope first
    assert refused(tmp_path, stand_ins, "--npz", "nope/../p.npz") == (
        "Error: --npz nope/../p.npz goes up ('..') from nope, which does not exist, so it cannot be written there; "
        "give the path without that step.")
    os.mkdir("here")
    assert refused(tmp_path, stand_ins, "--npz", "here/sub/nope/../p.npz") == (
        "Error: --npz here/sub/nope/../p.npz goes up ('..') from here/sub/nope, which does not exist, so it cannot "
        "be written there; give the path without that step.")


def test_an_npz_under_a_link_to_nowhere_names_the_link(tmp_path, stand_ins):  # noqa: F811
    os.symlink(tmp_path / "nowhere", tmp_path / "link")
    npz = tmp_path / "link" / "p.npz"
    assert refused(tmp_path, stand_ins, "--npz", npz) == (
        f"Error: {tmp_path / 'link'} is a link to {tmp_path / 'nowhere'}, which does not exist, so --npz {npz} "
        "cannot be written there; choose another --npz.")


def test_an_npz_name_past_the_limit_is_refused_by_its_bytes(tmp_path, stand_ins):  # noqa: F811
    # NAME_MAX, the longest name one folder entry may have (255 bytes on Linux's file systems), far below
    # PATH_MAX (4096 bytes for a whole path), so a name of NAME_MAX + 1 bytes is short as a path
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    assert limit < 1000
    name = "q" * (limit + 1 - 4) + ".npz"
    npz = tmp_path / name
    assert refused(tmp_path, stand_ins, "--npz", npz) == (
        f"Error: --npz {npz} has a name of {limit + 1} bytes ({'q' * 16}...), longer than the {limit} the file "
        "system allows; choose a shorter --npz.")


def test_a_prime_past_the_cap_is_counted_in_thousands(tmp_path, stand_ins):  # noqa: F811
    prime = tmp_path / "prime.npy"
    p = np.zeros((20_001, 3))
    p[:, 0] = 1.0
    np.save(prime, p)
    r = sample(tmp_path, "--out", tmp_path / "s.png", "--prime-strokes", prime, "--prime-text", "ab")
    line = assert_clean_error(r, "--prime-strokes")
    assert line == (f"Error: --prime-strokes {prime} holds 20,001 points, more than the 20,000 a prime may have (the "
                    "model reads each as one step); give a shorter prime (a line or two of handwriting), or pass "
                    "--no-cap to read it anyway.")
    assert stand_ins["load"] == [] and sorted(os.listdir(tmp_path)) == ["prime.npy"]


def test_a_write_the_folder_refuses_says_to_make_it_writable(tmp_path, stand_ins, monkeypatch):  # noqa: F811
    def denied(fd):
        os.close(fd)
        raise PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(lnrnn.files, "_open_temp", denied)
    out, npz = tmp_path / "s.png", tmp_path / "p.npz"
    line = assert_clean_error(sample(tmp_path, "--out", out, "--count", 1, "--npz", npz), "--npz")
    assert line == (f"Error: cannot write --npz {npz} (Permission denied): make the folder writable or choose "
                    "another --npz; nothing was written.")
    assert os.listdir(tmp_path) == []


def test_the_progress_bar_counts_every_samples_points(tmp_path, stand_ins, monkeypatch):  # noqa: F811
    totals = []

    def sample_run(run, steps, count, bias, seed, progress=None, **kw):
        totals.append((progress.total, progress.unit))
        return [points(k, steps) for k in range(count)]
    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    for count in (1, 3):
        r = sample(tmp_path, "--out", tmp_path / "s.png", "--count", count, "-q")
        assert_ok(r)
    assert totals == [(STEPS * 1, "points"), (STEPS * 3, "points")]
    assert r.stdout == f"Wrote 3 samples of {STEPS} points to {tmp_path / 's.png'}.\n"


class Written:
    def __init__(self, n, k):
        self.points = points(k, n)
        self.capped = False


class Conditioned:
    conditioned = True


class TextRun:
    meta = {"train": {"cell": "lstm"}, "task": {"task": "strokes-hershey"}, "step": 4, "text": {}}
    model = Conditioned()


def test_the_judges_seed_fields_and_file_reach_their_places(tmp_path, monkeypatch):
    calls = {"load": [], "judge": []}
    writer, reader = tmp_path / "writer", tmp_path / "reader"
    judged = [lnrnn.judge.Judged("ab", "ab", 0.0, 1.25, True, 0.5, 2, False),
              lnrnn.judge.Judged("cab", "cb", 1 / 3, 0.75, False, 0.25, 3, False)]

    def load_run(path, *a, **kw):
        calls["load"].append(str(path))
        return TextRun()

    def judge(run, rdr, lines, beam=1, seed=0):
        calls["judge"].append(dict(n=len(lines), beam=beam, seed=seed))
        return judged
    monkeypatch.setattr(lnrnn.api, "load_run", load_run)
    monkeypatch.setattr(lnrnn.api, "sample_run", lambda run, steps, count, bias, seed, **kw: [Written(2, 0),
                                                                                              Written(3, 1)])
    monkeypatch.setattr(lnrnn.sample, "text_inputs", lambda *a, **kw: (None, None, None))
    monkeypatch.setattr(lnrnn.sample, "draw_written", lambda lines, out, title, attention=False: None)
    monkeypatch.setattr(lnrnn.judge, "check_judge", lambda *a, **kw: None)
    monkeypatch.setattr(lnrnn.judge, "judge", judge)
    out, npz, jo = tmp_path / "s.svg", tmp_path / "p.npz", tmp_path / "j" / "judged.json"
    r = sample(writer.parent, "--checkpoint", writer, "--text", "ab", "--text", "cab", "--seed", 7,
               "--judge", reader, "--judge-out", jo, "--npz", npz, "--out", out, "-q")
    assert_ok(r)
    assert calls["load"][-2:] == [str(writer), str(reader)]
    assert calls["judge"] == [dict(n=2, beam=1, seed=7)]
    lines = r.stdout.splitlines()
    assert lines[0] == (f"Wrote 2 lines of text to {out} and {npz} (2, 3 points; every line ended by the stop "
                        "rule).")
    assert lines[1] == f"Read by the reader in {reader}:"
    assert lines[-1] == f"Wrote the judged lines to {jo}."
    with np.load(npz, allow_pickle=False) as z:
        assert list(z["texts"]) == ["ab", "cab"] and list(z["read"]) == ["ab", "cb"]
        np.testing.assert_array_equal(z["cer"], [0.0, 1 / 3])
        np.testing.assert_array_equal(z["travel"], [1.25, 0.75])
        np.testing.assert_array_equal(z["stop_at_last"], [True, False])
        np.testing.assert_array_equal(z["peak_phi"], [0.5, 0.25])
        np.testing.assert_array_equal(z["lengths"], [2, 3])
    record = json.loads(jo.read_text())
    assert (record["seed"], record["writer"], record["reader"], record["step"]) == (7, str(writer), str(reader), 4)
    assert [(d["text"], d["read"], d["cer"]) for d in record["lines"]] == [("ab", "ab", 0.0), ("cab", "cb", 1 / 3)]
