"""lnrnn data mnist's download bar (lnrnn/commands/data.py) ends on the bytes it got: a full bar of N/N, N the
bytes written, whether the mirror sent a Content-Length or none (chunked), in one chunk or several, its rate in
bytes/s; a quiet download draws nothing. The network is test_values408_data_download's stand-in response."""
import pytest

from lnrnn.commands import data as data_cmd
from test_values408_data_download import URL, serve

FULL = "#" * 24  # Progress's bar width


@pytest.mark.parametrize("size", [5, (1 << 16) + 3, 3 * (1 << 16)])
@pytest.mark.parametrize("sent_length", [False, True])
def test_the_last_line_is_a_full_bar_of_the_bytes_written(tmp_path, monkeypatch, capsys, size, sent_length):
    body = bytes(range(256)) * (size // 256) + bytes(size % 256)
    serve(monkeypatch, body, headers={"Content-Length": str(size)} if sent_length else {})
    tmp = data_cmd.download(URL, str(tmp_path / "f.gz"), False)
    with open(tmp, "rb") as f:
        assert f.read() == body
    last = capsys.readouterr().err.replace("\r", "\n").strip().splitlines()[-1]
    assert last.startswith(f"f.gz [{FULL}] {size}/{size} ") and " bytes/s " in last, last


def test_a_quiet_download_draws_nothing(tmp_path, monkeypatch, capsys):
    serve(monkeypatch, b"x" * 70000, headers={})
    data_cmd.download(URL, str(tmp_path / "f.gz"), True)
    assert capsys.readouterr().err == ""
