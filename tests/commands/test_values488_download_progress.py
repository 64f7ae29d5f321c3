"""The progress line of lnrnn data's download (lnrnn/commands/data.py with lnrnn/training/progress.py), read from
the stream a user sees (a terminal: test_values_progress.Tty): a mirror that sends its Content-Length gives
a bar that fills as the bytes come and ends at "N/N"; one that sends none (chunked) gives the bytes read so far
beside a full bar, with no total and no ETA, then "N/N" once the size is known at the end (in a log, not a
terminal, a line every log_every seconds as with a known size); and a bar whose count runs past its total stays its
width, full."""
import io
import re

import pytest

from lnrnn.commands import data as data_cmd
from lnrnn.training.progress import Progress
from test_values408_data_download import URL, serve
from test_values_progress import Tty  # a StringIO that says it is a terminal

WIDTH = 24


def download_lines(monkeypatch, tmp_path, body, headers):
    """The lines the download drew on a terminal (carriage returns split them; the erase-to-end code removed)."""
    term = Tty()
    real = data_cmd.Progress
    monkeypatch.setattr(data_cmd, "Progress", lambda *a, **k: real(*a, **dict(k, stream=term, min_interval=0.0)))
    serve(monkeypatch, body, headers=headers)
    data_cmd.download(URL, str(tmp_path / "f.gz"), False)
    return [ln for ln in re.split(r"[\r\n]", term.getvalue().replace("\033[K", "")) if ln]


def bars(lines):
    return [re.search(r"\[([#.]*)\] (\S+)", ln).groups() for ln in lines]


@pytest.mark.parametrize("size", [5, 3 * (1 << 16) + 7])
def test_an_unknown_size_shows_the_bytes_read_beside_a_full_bar(monkeypatch, tmp_path, size):
    got = bars(download_lines(monkeypatch, tmp_path, b"z" * size, {}))
    assert got and all(bar == "#" * WIDTH for bar, _ in got)
    assert got[-1][1] == f"{size}/{size}" and len(got) >= 2 and all("/" not in count for _, count in got[:-1])
    assert [int(c) for _, c in got[:-1]] == sorted(int(c) for _, c in got[:-1]) and int(got[-2][1]) == size


def test_a_known_size_fills_the_bar_as_the_bytes_come(monkeypatch, tmp_path):
    size = 4 * (1 << 16)
    lines = download_lines(monkeypatch, tmp_path, b"z" * size, {"Content-Length": str(size)})
    got = bars(lines)
    done = [int(c.split("/")[0]) for _, c in got]
    assert all(c.endswith(f"/{size}") for _, c in got) and done[-1] == size
    assert [bar.count("#") for bar, _ in got] == [round(d / size * WIDTH) for d in done]
    assert all(len(bar) == WIDTH for bar, _ in got) and "ETA" in lines[0] and "ETA" not in lines[-1]


def test_an_unknown_total_in_a_log_writes_the_count_every_log_every_seconds():
    log = io.StringIO()
    p = Progress(None, "f.gz", stream=log, width=WIDTH, log_every=0.0, unit="bytes")
    for n in (3, 4, 5):
        p.update(n)
    got = [ln for ln in log.getvalue().splitlines()]
    assert [count for _, count in bars(got)] == ["3", "7", "12"] and not any("ETA" in ln for ln in got)
    assert all(bar == "#" * WIDTH for bar, _ in bars(got))


@pytest.mark.parametrize("total", [1, 10])
def test_a_count_past_its_total_keeps_the_bar_its_width(total):
    p = Progress(total, "x", stream=io.StringIO(), width=WIDTH)
    p.update(total * 1000)
    bar, count = bars([p.line()])[0]
    assert bar == "#" * WIDTH and count == f"{total * 1000}/{total}"
