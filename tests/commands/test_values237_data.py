"""lnrnn data mnist, its plumbing by value (round 237 of the planted bugs, tests/mutants/mutants_values237.py):
with the download and the check replaced by recorders (nothing downloads), --subset picks exactly its two files
in the listed order, a file already present that verifies is not asked for again, -q reaches every download;
the checksum refusal quotes the content's published MD5 (torchvision's list), word for word; a blank --dest is
refused with its blanks quoted and nothing made."""
import hashlib
import os

import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.errors import DataError

from test_cli import assert_clean_error, assert_ok, invoke

MIRROR = "https://mirror.invalid/mnist"
TRAIN = ["train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz"]
TEST = ["t10k-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"]


@pytest.fixture
def recorded(monkeypatch):
    """download and verify replaced: each download writes a small temporary file and is recorded."""
    calls = []

    def download(url, dest_path, quiet):
        calls.append((url, os.path.basename(dest_path), quiet))
        tmp = os.path.join(os.path.dirname(dest_path), ".tmp-" + os.path.basename(dest_path))
        with open(tmp, "wb") as f:
            f.write(b"x")
        return tmp
    monkeypatch.setattr(data_cmd, "download", download)
    monkeypatch.setattr(data_cmd, "verify", lambda path, name: None)
    return calls


@pytest.mark.parametrize("subset, names", [("test", TEST), ("train", TRAIN), ("all", TRAIN + TEST)])
def test_subset_downloads_its_files_in_order(tmp_path, recorded, subset, names):
    dest = tmp_path / "d"
    assert_ok(invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", subset, "-q"))
    assert recorded == [(f"{MIRROR}/{n}", n, True) for n in names]
    assert sorted(os.listdir(dest)) == sorted(names)


def test_subset_default_is_all_four_and_named_in_the_help(tmp_path, recorded):
    r = invoke("data", "mnist", "--help")
    assert_ok(r)
    assert "[default: all]" in " ".join(r.output.split())
    assert_ok(invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", MIRROR + "/"))
    assert [c[1] for c in recorded] == TRAIN + TEST


def test_quiet_reaches_every_download(tmp_path, recorded):
    assert_ok(invoke("data", "mnist", "--dest", tmp_path / "a", "--mirror", MIRROR, "--subset", "test"))
    assert_ok(invoke("data", "mnist", "--dest", tmp_path / "b", "--mirror", MIRROR, "--subset", "test", "--quiet"))
    assert [c[2] for c in recorded] == [False, False, True, True]


def test_a_present_file_that_verifies_is_not_downloaded_again(tmp_path, recorded):
    dest = tmp_path / "d"
    dest.mkdir()
    (dest / TEST[1]).write_bytes(b"kept")
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    assert_ok(r)
    assert recorded == [(f"{MIRROR}/{TEST[0]}", TEST[0], True)]
    assert (dest / TEST[1]).read_bytes() == b"kept"
    assert f"{dest / TEST[1]}: already present and verified." in r.output.splitlines()


def test_a_wrong_content_is_refused_with_the_published_content_md5(tmp_path):
    name = "t10k-labels-idx1-ubyte.gz"
    raw = bytes([0, 0, 8, 1]) + (10000).to_bytes(4, "big") + bytes(10000)  # the right shape, all zeros, by hand
    path = tmp_path / name
    path.write_bytes(raw)
    with pytest.raises(DataError) as e:
        data_cmd.verify(str(path), name)
    # torchvision's published MD5 of the uncompressed t10k labels
    assert str(e.value) == (f"{name} does not match the published MNIST checksum (MD5 "
                            "27ae3e4e09519cfbb04c329615203637 of its content); the mirror serves different data.")
    assert hashlib.md5(raw).hexdigest() != "27ae3e4e09519cfbb04c329615203637"


@pytest.mark.parametrize("dest", ["  ", "\t"])
def test_a_blank_dest_is_refused_quoted(tmp_path, monkeypatch, recorded, dest):
    monkeypatch.chdir(tmp_path)
    line = assert_clean_error(invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR), "--dest")
    assert line == f"Error: --dest {dest!r} names no folder; give the folder to download into."
    assert os.listdir(tmp_path) == [] and recorded == []
