"""lnrnn sample's outputs and the checks every output goes through (lnrnn.files), by value (round 245 of the
planted bugs, tests/mutants/mutants_values245.py). The run, the sampler and the drawing are replaced by stand-ins
that record their calls (nothing is sampled or drawn): an --npz with another suffix is refused before the run is
read, also without --text; a file name one byte past the file system's limit is refused and one at the limit is
not, counted in bytes (a name of two-byte characters); a folder where nothing may be created (the probe answers
EACCES, as a read-only folder does) is refused naming where the file would be made; the summary says '1 sample'
and '2 samples'; the .npz of plain samples holds their points and lengths as written out here; a full disk under
--npz is one line naming --npz, with nothing left behind. Each refusal is read word for word."""
import errno
import os

import numpy as np
import pytest

import lnrnn.api
import lnrnn.files
import lnrnn.sample
from test_cli import assert_clean_error, assert_ok, invoke
from test_edges import full_disk, no_temp_files  # noqa: F401 - full_disk is a fixture

STEPS = 30


class Model:
    conditioned = False


class Run:
    meta = {"train": {"cell": "lstm"}, "task": {"task": "strokes-synthetic"}, "step": 5}
    model = Model()


def points(k, n):
    """Sample k: n points, every value different from every other sample's."""
    p = (np.arange(3 * n, dtype=np.float64).reshape(n, 3) + 1000 * k) / 4.0
    p[:, 2] = np.arange(n) % 2
    return p


@pytest.fixture
def stand_ins(monkeypatch):
    """load_run, sample_run and draw_strokes replaced by recorders."""
    calls = {"load": [], "sample": [], "draw": []}

    def load_run(path, *a, **kw):
        calls["load"].append(str(path))
        return Run()

    def sample_run(run, steps, count, bias, seed, progress=None, text=None, **kw):
        calls["sample"].append(dict(steps=steps, count=count, bias=bias, seed=seed, text=text))
        return [points(k, steps) for k in range(count)]

    monkeypatch.setattr(lnrnn.api, "load_run", load_run)
    monkeypatch.setattr(lnrnn.api, "sample_run", sample_run)
    monkeypatch.setattr(lnrnn.sample, "draw_strokes",
                        lambda lines, out, title=None: calls["draw"].append((len(lines), str(out), title)))
    return calls


def sample(tmp_path, *args):
    return invoke("sample", "--checkpoint", tmp_path / "run", "--steps", STEPS, *args)


# ---- refusals before the run is read

@pytest.mark.parametrize("name, stem", [("pts.txt", "pts"), ("pts.NPY", "pts"), ("pts", "pts")])
def test_npz_under_another_suffix_is_refused_before_the_run_without_text(tmp_path, stand_ins, name, stem):
    npz = tmp_path / name
    r = sample(tmp_path, "--out", tmp_path / "s.png", "--npz", npz)
    line = assert_clean_error(r, "--npz")
    assert line == (f"Error: --npz {npz} would hold an .npz archive under another name (lnrnn read and numpy tell "
                    f"the kind by the suffix); name it {tmp_path / stem}.npz.")
    assert stand_ins["load"] == [] and stand_ins["sample"] == [] and os.listdir(tmp_path) == []


def test_a_name_one_byte_past_the_limit_is_refused_and_one_at_it_passes(tmp_path, stand_ins):
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    over = tmp_path / ("b" * (limit + 1 - 4) + ".png")          # limit + 1 bytes
    line = assert_clean_error(sample(tmp_path, "--out", over), "bytes")
    assert line == (f"Error: --out {over} has a name of {limit + 1} bytes ({'b' * 16}...), longer than the {limit} "
                    "the file system allows; choose a shorter --out.")
    assert stand_ins["load"] == [] and os.listdir(tmp_path) == []
    at = tmp_path / ("b" * (limit - 4) + ".png")                # exactly the limit: passes every check
    assert_ok(sample(tmp_path, "--out", at))
    assert stand_ins["load"] == [str(tmp_path / "run")]
    assert stand_ins["draw"] == [(4, str(at), "lstm on strokes-synthetic, update 5, bias 0, seed 0")]


def test_a_name_of_two_byte_characters_is_counted_in_bytes(tmp_path, stand_ins):
    limit = os.pathconf(tmp_path, "PC_NAME_MAX")
    n = limit // 2 + 2                  # n characters 'é', two bytes each in UTF-8: 2n > limit, n + 4 < limit
    assert 2 * n > limit and n + 4 < limit
    out = tmp_path / ("\u00e9" * n + ".png")
    line = assert_clean_error(sample(tmp_path, "--out", out), "bytes")
    assert line == (f"Error: --out {out} has a name of {2 * n + 4} bytes ({chr(0xe9) * 16}...), longer than the "
                    f"{limit} the file system allows; choose a shorter --out.")
    assert stand_ins["load"] == [] and os.listdir(tmp_path) == []


def deny_writes(monkeypatch):
    """Every folder lnrnn probes answers EACCES, as a read-only one would for a user who is not root (the tests
    may run as root, where no folder refuses): the folders asked about are recorded in the list returned."""
    asked = []

    def read_only(folder):
        asked.append(str(folder))
        return PermissionError(errno.EACCES, "Permission denied")
    monkeypatch.setattr(lnrnn.files, "write_error", read_only)
    return asked


def test_a_folder_where_nothing_may_be_created_is_refused_naming_where(tmp_path, stand_ins, monkeypatch):
    pics = tmp_path / "pics"
    pics.mkdir()
    asked = deny_writes(monkeypatch)
    out = pics / "new" / "s.png"
    line = assert_clean_error(sample(tmp_path, "--out", out), "cannot write")
    assert line == (f"Error: cannot write to {pics}, where --out {out} would be created (Permission denied); choose "
                    "another --out or make it writable.")
    assert asked == [str(pics)] and stand_ins["load"] == [] and os.listdir(pics) == []


# ---- what a run of plain samples writes and says

def test_one_sample_and_two_are_counted_in_the_summary(tmp_path, stand_ins):
    out = tmp_path / "one.png"
    r = sample(tmp_path, "--out", out, "--count", 1, "--seed", 3, "--bias", 0.5)
    assert_ok(r)
    assert r.stdout == f"Wrote 1 sample of {STEPS} points to {out}.\n"
    r = sample(tmp_path, "--out", out, "--count", 2, "--seed", 3, "--bias", 0.5)
    assert_ok(r)
    assert r.stdout == f"Wrote 2 samples of {STEPS} points to {out}.\n"
    assert [c["count"] for c in stand_ins["sample"]] == [1, 2]
    assert stand_ins["draw"][0] == (1, str(out), "lstm on strokes-synthetic, update 5, bias 0.5, seed 3")


def test_plain_samples_npz_holds_their_points_and_lengths(tmp_path, stand_ins):
    out, npz = tmp_path / "s.svg", tmp_path / "deeper" / "pts.npz"
    r = sample(tmp_path, "--out", out, "--count", 3, "--npz", npz)
    assert_ok(r)
    assert r.stdout == f"Wrote 3 samples of {STEPS} points to {out} and {npz}.\n"
    with np.load(npz, allow_pickle=False) as z:
        assert sorted(z.files) == ["lengths", "points"]
        np.testing.assert_array_equal(z["lengths"], [STEPS, STEPS, STEPS])
        assert z["points"].dtype == np.float32
        want = np.concatenate([points(0, STEPS), points(1, STEPS), points(2, STEPS)])
        np.testing.assert_array_equal(z["points"], want.astype(np.float32))


def test_a_full_disk_under_npz_is_one_line_naming_npz(tmp_path, stand_ins, full_disk):  # noqa: F811
    full_disk(0)
    out, npz = tmp_path / "s.png", tmp_path / "pts.npz"
    r = sample(tmp_path, "--out", out, "--count", 2, "--npz", npz)
    line = assert_clean_error(r, "--npz")
    assert line == (f"Error: cannot write --npz {npz} (No space left on device): free some space there or choose "
                    "another --npz; nothing was written.")
    assert stand_ins["sample"] and os.listdir(tmp_path) == [] and no_temp_files(tmp_path)
