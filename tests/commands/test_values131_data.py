"""lnrnn/commands/data.py (``lnrnn data mnist``) with its downloads faked (no network: urlopen replaced by a
stand-in serving bytes made here), on a stand-in MNIST of two small files whose checksums are computed here with
hashlib: the files kept are the bytes served, the line after each download names the MD5 of the uncompressed
content (what verify checks, not the .gz file's), a damaged file already in --dest is downloaded again, a verified
one is not, and content whose MD5 differs is refused in one 'Error:' line with nothing left in --dest."""
import gzip
import hashlib
import io
import os

import numpy as np
import pytest

from lnrnn.commands import data as data_cmd

from test_cli import assert_clean_error, invoke

MIRROR = "http://mirror.invalid/mnist/"
IMAGES = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4) * 7
LABELS = np.array([3, 1], np.uint8)


def idx(magic, array):
    """IDX bytes by the format's definition: 0, 0, type 8 (uint8), ndim; big-endian sizes; the data."""
    head = bytes([0, 0, 8, magic]) + b"".join(int(d).to_bytes(4, "big") for d in array.shape)
    return head + array.tobytes()


CONTENT = {"t10k-images-idx3-ubyte.gz": idx(3, IMAGES), "t10k-labels-idx1-ubyte.gz": idx(1, LABELS)}
GZ = {name: gzip.compress(raw, mtime=0) for name, raw in CONTENT.items()}


class Response(io.BytesIO):
    def __init__(self, data):
        super().__init__(data)
        self.headers = {"Content-Length": str(len(data))}


@pytest.fixture
def served(monkeypatch):
    """urlopen serves GZ under MIRROR (a dict the test may change); the URLs asked for are recorded."""
    table = {MIRROR + name: data for name, data in GZ.items()}
    asked = []

    def urlopen(url, timeout):
        asked.append(url)
        return Response(table[url])

    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(data_cmd, "MNIST", {
        name: (hashlib.md5(CONTENT[name]).hexdigest(), arr.shape, hashlib.md5(GZ[name]).hexdigest(),
               hashlib.sha256(GZ[name]).hexdigest())
        for name, arr in (("t10k-images-idx3-ubyte.gz", IMAGES), ("t10k-labels-idx1-ubyte.gz", LABELS))})
    monkeypatch.setitem(data_cmd.SUBSETS, "test", sorted(CONTENT))
    return table, asked


def test_downloads_are_the_bytes_served_and_each_line_names_the_contents_md5(tmp_path, served):
    table, asked = served
    dest = tmp_path / "d" / "mnist"                      # two folders that do not exist yet
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert sorted(os.listdir(dest)) == sorted(CONTENT)
    for name in CONTENT:
        assert (dest / name).read_bytes() == GZ[name]
        assert gzip.decompress((dest / name).read_bytes()) == CONTENT[name]
    lines = r.stdout.splitlines()
    for name in sorted(CONTENT):
        md5 = hashlib.md5(CONTENT[name]).hexdigest()
        assert md5 != hashlib.md5(GZ[name]).hexdigest()
        assert f"{dest / name}: downloaded from {MIRROR}{name}, content MD5 {md5} verified." in lines
    assert lines[-1] == f"Use it with: lnrnn train --task mnist --data-dir {dest}"
    assert sorted(asked) == sorted(MIRROR + name for name in CONTENT)


def test_a_damaged_file_present_is_downloaded_again_and_a_verified_one_is_kept(tmp_path, served):
    table, asked = served
    dest = tmp_path / "d"
    dest.mkdir()
    images, labels = sorted(CONTENT)
    (dest / images).write_bytes(GZ[images][: len(GZ[images]) // 2])          # torn: a damaged gzip stream
    (dest / labels).write_bytes(CONTENT[labels])                              # raw IDX: verifies as it is
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert (dest / images).read_bytes() == GZ[images]
    assert (dest / labels).read_bytes() == CONTENT[labels]
    assert asked == [MIRROR + images]
    assert f"{dest / labels}: already present and verified." in r.stdout.splitlines()
    assert sorted(os.listdir(dest)) == sorted(CONTENT)                        # no temp file left


def test_content_with_another_md5_is_refused_and_nothing_is_kept(tmp_path, served):
    table, asked = served
    images = sorted(CONTENT)[0]
    other = bytearray(CONTENT[images])
    other[-1] ^= 1                                                             # one pixel off: same shape
    table[MIRROR + images] = gzip.compress(bytes(other))
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    md5 = hashlib.md5(CONTENT[images]).hexdigest()
    line = assert_clean_error(r, f"{images} does not match the published MNIST checksum (MD5 {md5}")
    assert asked == [MIRROR + images]
    assert os.listdir(dest) == [] and "Traceback" not in line
