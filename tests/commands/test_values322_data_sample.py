"""``lnrnn data mnist`` and ``lnrnn sample`` by value (round 322 of the planted bugs,
tests/mutants/mutants_values322.py). data mnist against a throw-away mirror serving one 5-label IDX file whose
content MD5 is worked out here: a file already in --dest that verifies is kept and the mirror is not asked (it
no longer serves the file); a fresh download is verified and announced with its URL and MD5 word for word;
--subset left out takes the documented 'all'; a download whose connection breaks off and one that meets a full
disk are refused word for word with nothing left in --dest. lnrnn sample with the run, the sampler and the
drawing replaced by recorders (nothing is sampled): a negative or NaN --bias, --attention without --text and
--judge without --text are refused word for word before the run is read, with nothing written; the picture's
title reaches the drawing; the .npz of plain samples holds exactly points and lengths, as written out here."""
import errno
import gzip
import hashlib
import io
import os

import numpy as np
import pytest

from lnrnn.commands import data as data_cmd
from test_cli import assert_ok, invoke, mirror  # noqa: F401 - mirror: a fixture
from test_edges import FullDisk
from test_values221_sample_cli import exact_error
from test_values245_output_checks import points, stand_ins  # noqa: F401 - stand_ins: a fixture
from test_values_data import LABELS, NAME, small_mnist  # noqa: F401 - small_mnist: a fixture

# the IDX content of the served file: magic 0x00000801 (unsigned bytes, one dimension), the count, the labels
RAW = bytes([0, 0, 8, 1]) + (5).to_bytes(4, "big") + bytes([3, 1, 4, 1, 5])
MD5 = hashlib.md5(RAW).hexdigest()


def use_line(dest):
    return f"Use it with: lnrnn train --task mnist --data-dir {dest}\n"


# ---- data mnist

def test_the_served_file_is_the_labels_written_out_here(small_mnist):
    root, _ = small_mnist
    assert LABELS.tolist() == [3, 1, 4, 1, 5]
    assert gzip.decompress((root / NAME).read_bytes()) == RAW


def test_a_verified_file_in_dest_is_kept_and_the_mirror_not_asked(tmp_path, small_mnist):
    root, url = small_mnist
    dest = tmp_path / "d"
    dest.mkdir()
    (dest / NAME).write_bytes(gzip.compress(RAW))
    kept = (dest / NAME).read_bytes()
    (root / NAME).unlink()          # asked again, the mirror would answer 404
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout == f"{dest / NAME}: already present and verified.\n" + use_line(dest)
    assert os.listdir(dest) == [NAME] and (dest / NAME).read_bytes() == kept


def test_a_fresh_download_is_verified_and_announced_word_for_word(tmp_path, small_mnist):
    root, url = small_mnist
    dest = tmp_path / "new" / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert_ok(r)
    assert r.stdout == f"{dest / NAME}: downloaded from {url}{NAME}, content MD5 {MD5} verified.\n" + use_line(dest)
    assert os.listdir(dest) == [NAME] and (dest / NAME).read_bytes() == (root / NAME).read_bytes()


def test_subset_left_out_is_all(tmp_path, small_mnist, monkeypatch):
    _, url = small_mnist
    # only 'all' lists the served file: another default would download nothing
    monkeypatch.setitem(data_cmd.SUBSETS, "all", [NAME])
    monkeypatch.setitem(data_cmd.SUBSETS, "train", [])
    monkeypatch.setitem(data_cmd.SUBSETS, "test", [])
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "-q")
    assert_ok(r)
    assert r.stdout == f"{dest / NAME}: downloaded from {url}{NAME}, content MD5 {MD5} verified.\n" + use_line(dest)
    assert os.listdir(dest) == [NAME]


class BreaksOff:
    """A response that gives 3 bytes, then loses its connection."""
    headers = {"Content-Length": "40"}

    def __init__(self):
        self.reads = 0

    def read(self, n):
        self.reads += 1
        if self.reads == 1:
            return b"\x1f\x8b\x08"
        raise ConnectionResetError("connection reset by peer")

    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def test_a_download_that_breaks_off_is_one_sentence_and_leaves_nothing(tmp_path, small_mnist, monkeypatch):
    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", lambda url, timeout=None: BreaksOff())
    dest = tmp_path / "d"
    url = "http://mirror.invalid/m/"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    exact_error(r, f"the download of {url}{NAME} broke off (connection reset by peer); run the command again.")
    assert r.stdout == "" and os.listdir(dest) == []


def full_disk_at(monkeypatch, buffer_size):
    """Files opened for writing with os.fdopen land on a disk with no room, behind a buffer of buffer_size."""
    disk = type("Disk", (FullDisk,), {"room": 0})
    real = os.fdopen
    monkeypatch.setattr(os, "fdopen", lambda fd, mode="r", *a, **k: io.BufferedWriter(disk(fd, "wb"), buffer_size)
                        if "w" in mode else real(fd, mode, *a, **k))


def full_disk_refused(tmp_path, url):
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", url, "--subset", "test", "-q")
    assert r.exit_code != 0 and "Traceback" not in r.output, r.output + repr(r.exception)
    errors = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(errors) == 1, r.stderr
    assert errors[0].startswith(f"Error: cannot write {dest / NAME} ({os.strerror(errno.ENOSPC)}): ")
    assert errors[0].endswith(" or choose another --dest; nothing was kept.")
    assert r.stdout == "" and os.listdir(dest) == []


def test_a_full_disk_during_the_download_leaves_nothing(tmp_path, small_mnist, monkeypatch):
    _, url = small_mnist
    full_disk_at(monkeypatch, 1)     # the write itself fails (the chunk is larger than the buffer)
    full_disk_refused(tmp_path, url)


def test_a_full_disk_met_by_the_flush_is_reported_as_a_write_failure(tmp_path, small_mnist, monkeypatch):
    _, url = small_mnist
    full_disk_at(monkeypatch, io.DEFAULT_BUFFER_SIZE)   # the 40-byte file sits in the buffer until the flush
    full_disk_refused(tmp_path, url)


# ---- sample

@pytest.mark.parametrize("bias, shown", [("-0.5", "-0.5"), ("nan", "nan"), ("-inf", "-inf")])
def test_a_bias_below_zero_or_not_a_number_is_refused_naming_it(tmp_path, stand_ins, bias, shown):  # noqa: F811
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--bias", bias, "--seed", 3, "--steps", 7,
               "--out", tmp_path / "s.png")
    exact_error(r, f"--bias must be 0 or positive, not {shown}.")
    assert stand_ins["load"] == [] and os.listdir(tmp_path) == []


def test_attention_without_text_is_refused_word_for_word(tmp_path, stand_ins):  # noqa: F811
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--attention", "--out", tmp_path / "s.png")
    exact_error(r, "--attention draws where the window read a --text line; give --text.")
    assert stand_ins["load"] == [] and os.listdir(tmp_path) == []


def test_judge_without_text_is_refused_word_for_word(tmp_path, stand_ins):  # noqa: F811
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--judge", tmp_path / "reader",
               "--out", tmp_path / "s.png")
    exact_error(r, "--judge reads the lines a synthesis run writes; give them with --text.")
    assert stand_ins["load"] == [] and os.listdir(tmp_path) == []


def test_the_title_reaches_the_drawing(tmp_path, stand_ins):  # noqa: F811
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 11, "--count", 2, "--bias", 1.5,
               "--seed", 7, "--out", out, "-q")
    assert_ok(r)
    # Run's record (test_values245): cell lstm, task strokes-synthetic, step 5
    assert stand_ins["draw"] == [(2, str(out), "lstm on strokes-synthetic, update 5, bias 1.5, seed 7")]
    assert stand_ins["sample"] == [dict(steps=11, count=2, bias=1.5, seed=7, text=None)]


def test_the_npz_of_plain_samples_holds_points_and_lengths_only(tmp_path, stand_ins):  # noqa: F811
    out, npz = tmp_path / "s.png", tmp_path / "s.npz"
    r = invoke("sample", "--checkpoint", tmp_path / "run", "--steps", 13, "--count", 3, "--out", out,
               "--npz", npz, "-q")
    assert_ok(r)
    assert r.stdout == f"Wrote 3 samples of 13 points to {out} and {npz}.\n"
    with np.load(npz) as z:
        assert sorted(z.files) == ["lengths", "points"]
        assert z["lengths"].tolist() == [13, 13, 13]
        want = np.vstack([points(0, 13), points(1, 13), points(2, 13)]).astype(np.float32)
        assert z["points"].dtype == np.float32 and np.array_equal(z["points"], want)
