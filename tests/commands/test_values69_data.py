"""lnrnn/commands/data.py (``lnrnn data mnist``) on bad input, with no network: a --dest below a file is refused
in one line saying so, before any download, with nothing created; a download that stops on anything but an
OSError (Ctrl-C, a bug) leaves no temp file in --dest; a --mirror that is no http(s) URL is one line naming
--mirror."""
import os

import pytest

from lnrnn.commands import data as data_cmd

from test_cli import assert_clean_error, invoke

NOWHERE = "http://127.0.0.1:9/"  # never contacted: every refusal below comes before a download


def test_a_dest_below_a_file_is_refused_before_any_download(tmp_path, monkeypatch):
    monkeypatch.setattr(data_cmd, "download", lambda *a: pytest.fail("downloaded"))
    (tmp_path / "f").write_text("x")
    dest = tmp_path / "f" / "sub"
    line = assert_clean_error(invoke("data", "mnist", "--dest", dest, "--mirror", NOWHERE, "-q"), "--dest")
    assert "is a file, not a folder" in line and str(tmp_path / "f") in line
    assert os.listdir(tmp_path) == ["f"] and (tmp_path / "f").read_text() == "x"


def test_a_mirror_that_is_not_http_is_refused(tmp_path):
    assert_clean_error(invoke("data", "mnist", "--dest", tmp_path / "d", "--mirror", "ftp://x/", "-q"), "--mirror")
    assert not os.path.exists(tmp_path / "d")


class Response:
    """What urlopen returns: two chunks, then ``stop`` raised."""

    def __init__(self, stop):
        self.headers = {"Content-Length": "300000"}
        self.chunks = [b"a" * 1000, b"b" * 1000]
        self.stop = stop

    def read(self, n):
        if self.chunks:
            return self.chunks.pop(0)
        raise self.stop

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


@pytest.mark.parametrize("stop", [KeyboardInterrupt, RuntimeError])
def test_a_download_stopped_by_anything_leaves_no_temp_file(tmp_path, monkeypatch, stop):
    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", lambda url, timeout: Response(stop()))
    dest = tmp_path / "d"
    dest.mkdir()
    with pytest.raises(stop):
        data_cmd.download(NOWHERE + "t10k-labels-idx1-ubyte.gz", str(dest / "t10k-labels-idx1-ubyte.gz"), True)
    assert os.listdir(dest) == []


def test_an_interrupted_command_leaves_dest_empty(tmp_path, monkeypatch):
    monkeypatch.setattr(data_cmd.urllib.request, "urlopen", lambda url, timeout: Response(KeyboardInterrupt()))
    dest = tmp_path / "d"
    r = invoke("data", "mnist", "--dest", dest, "--mirror", NOWHERE, "--subset", "test", "-q")
    assert r.exit_code != 0 and "Traceback" not in r.output, r.output
    assert os.listdir(dest) == []
