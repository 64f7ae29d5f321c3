"""lnrnn/commands/data.py with urlopen replaced by a stand-in (nothing downloads): each request waits at most
the module's TIMEOUT_S; a download is written to a temporary file in --dest itself (so the final rename
never crosses file systems) and nothing of it is left elsewhere; the mirror's HTTP error code is named in the
one 'Error:' line; a --dest under a file names that file, before any request."""
import gzip
import hashlib
import io
import os
import urllib.error

import numpy as np
import pytest

from lnrnn.commands import data as data_cmd

from test_cli import assert_clean_error, assert_ok, invoke

NAME = "t10k-labels-idx1-ubyte.gz"
LABELS = np.array([2, 7, 1, 8], np.uint8)
RAW = bytes([0, 0, 8, 1]) + len(LABELS).to_bytes(4, "big") + LABELS.tobytes()  # IDX labels, by hand
MIRROR = "https://mirror.invalid/mnist/"


@pytest.fixture
def one_file(monkeypatch):
    monkeypatch.setattr(data_cmd, "MNIST", {NAME: (hashlib.md5(RAW).hexdigest(), LABELS.shape, "", "")})
    monkeypatch.setitem(data_cmd.SUBSETS, "test", [NAME])


def test_timeout_and_a_temporary_file_in_dest(tmp_path, monkeypatch, one_file):
    dest = tmp_path / "d"
    seen = {}
    body = gzip.compress(RAW, mtime=0)

    class Response(io.BytesIO):
        headers = {"Content-Length": str(len(body))}

        def read(self, n=-1):
            seen.setdefault("during", sorted(os.listdir(dest)))   # the files in --dest while downloading
            return super().read(n)

    def urlopen(url, timeout=None):
        seen["url"], seen["timeout"] = url, timeout
        return Response(body)

    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)
    monkeypatch.setattr(data_cmd.tempfile, "tempdir", str(tmp_path / "elsewhere"))
    (tmp_path / "elsewhere").mkdir()
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    assert_ok(r)
    assert seen["url"] == MIRROR + NAME and seen["timeout"] == data_cmd.TIMEOUT_S
    assert len(seen["during"]) == 1 and seen["during"][0].startswith(".download-")
    assert sorted(os.listdir(dest)) == [NAME] and os.listdir(tmp_path / "elsewhere") == []
    assert gzip.decompress((dest / NAME).read_bytes()) == RAW


def test_http_error_names_its_code(tmp_path, monkeypatch, one_file):
    def urlopen(url, timeout=None):
        raise urllib.error.HTTPError(url, 404, "Not Found", {}, None)

    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    line = assert_clean_error(r, "HTTP 404")
    assert line == f"Error: the mirror answered HTTP 404 for {MIRROR + NAME}; check --mirror."
    assert os.listdir(dest) == []


def test_dest_under_a_file_names_the_file(tmp_path, monkeypatch, one_file):
    def urlopen(url, timeout=None):
        raise AssertionError("asked the mirror before checking --dest")

    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)
    (tmp_path / "f").write_text("x")
    dest = tmp_path / "f" / "a" / "b"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", MIRROR, "--subset", "test", "-q")
    line = assert_clean_error(r, "is a file")
    assert line.startswith(f"Error: {tmp_path / 'f'} is a file, not a folder, so --dest {dest} cannot"), line
    assert sorted(os.listdir(tmp_path)) == ["f"]
