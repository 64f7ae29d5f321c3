"""lnrnn data mnist's download (lnrnn/commands/data.py) against what a network and a disk can do, with the
network replaced by stand-in responses: a mirror that sends no Content-Length (chunked) still gives the whole
file, in chunks of any size; a connection that times out (a TimeoutError, which is no URLError) is one UserError
naming the URL and the reason; a disk that fills while the file is written asks for space (space_hint's words) and
keeps nothing; a --dest that cannot be made is one UserError naming it, with os.strerror's reason."""
import errno
import io
import os

import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.errors import UserError

URL = "https://mirror.example/train-labels-idx1-ubyte.gz"


class Response(io.BytesIO):
    """What urlopen returns, reduced to what download reads: headers, read(n), a context manager."""

    def __init__(self, body, headers):
        super().__init__(body)
        self.headers = headers


def serve(monkeypatch, body=None, headers=None, raises=None):
    def urlopen(url, timeout=None):
        if raises is not None:
            raise raises
        return Response(body, headers or {})
    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", urlopen)


def refused(call, *args):
    with pytest.raises(UserError) as e:
        call(*args)
    return str(e.value)


@pytest.mark.parametrize("size", [0, 5, (1 << 16) + 3, 3 * (1 << 16)])
def test_a_response_without_content_length_is_read_whole(tmp_path, monkeypatch, size):
    body = bytes(range(256)) * (size // 256) + bytes(size % 256)
    serve(monkeypatch, body, headers={})
    tmp = data_cmd.download(URL, str(tmp_path / "f.gz"), True)
    with open(tmp, "rb") as f:
        assert f.read() == body


def test_a_timeout_is_one_sentence(tmp_path, monkeypatch):
    serve(monkeypatch, raises=TimeoutError("timed out"))
    got = refused(data_cmd.download, URL, str(tmp_path / "f.gz"), True)
    assert got == f"could not download {URL} (timed out); check your network or --mirror."
    assert os.listdir(tmp_path) == []


def test_a_disk_that_fills_asks_for_space_and_keeps_nothing(tmp_path, monkeypatch):
    serve(monkeypatch, b"x" * 1000, headers={"Content-Length": "1000"})
    real_fdopen = os.fdopen

    class Full(io.RawIOBase):
        def __init__(self, f):
            self.f = f

        def writable(self):
            return True

        def write(self, b):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

        def close(self):
            self.f.close()
            super().close()
    monkeypatch.setattr(data_cmd.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    dest = str(tmp_path / "f.gz")
    got = refused(data_cmd.download, URL, dest, True)
    assert got == (f"cannot write {dest} ({os.strerror(errno.ENOSPC)}): free some space there or choose another "
                   "--dest; nothing was kept.")
    assert os.listdir(tmp_path) == []


def test_a_dest_that_cannot_be_made_is_one_sentence(tmp_path, monkeypatch):
    dest = tmp_path / "new" / "mnist"

    def denied(path, exist_ok=False):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    monkeypatch.setattr(data_cmd.os, "makedirs", denied)
    got = refused(data_cmd.check_dest, str(dest))
    assert got == (f"cannot write to {tmp_path}, where --dest {dest} would be created ({os.strerror(errno.EACCES)}); "
                   "choose another --dest or make it writable.")
