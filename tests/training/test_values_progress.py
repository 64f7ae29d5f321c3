"""lnrnn/training/progress.py in numbers, on a stand-in clock: the rate counts only the samples done since
the bar started, the ETA is what is left at that rate, fractions are shown in percent, and off a
terminal a plain line comes every log_every seconds and the full bar once."""
import io
from types import SimpleNamespace

import pytest

from lnrnn.training import progress


class Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def clock(monkeypatch):
    """now[0] is what time.perf_counter() says inside lnrnn.training.progress."""
    now = [1000.0]
    monkeypatch.setattr(progress, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    return now


@pytest.mark.parametrize("s,text", [(3725, "1:02:05"), (7200, "2:00:00"), (3599.6, "1:00:00"), (59.4, "0:59"),
                                    (61, "1:01"), (-3, "0:00"), (36000 + 120 + 7, "10:02:07")])
def test_format_seconds(s, text):
    assert progress.format_seconds(s) == text


def test_rate_eta_bar_and_fields(clock):
    s = Tty()
    bar = progress.Progress(1000, "epoch 1/3", stream=s, min_interval=0)
    clock[0] += 10
    bar.update(200, loss=0.5, acc=0.875, nats_seq=12.25)
    line = s.getvalue().split("\r")[-1].removesuffix("\033[K")
    # 200 samples in 10 s: 20/s; the 800 left take 40 s; 24 cells, a fifth of them filled
    assert line == ("epoch 1/3 [#####" + "." * 19 + "] 200/1000 loss 0.5000 acc 87.5% nats_seq 12.2500 "
                    "20 samples/s ETA 0:40")


def test_a_resumed_bar_counts_only_what_it_did(clock):
    s = Tty()
    bar = progress.Progress(1000, "epoch 2/3", stream=s, min_interval=0, done=600, unit="points")
    clock[0] += 10
    bar.update(100)
    line = s.getvalue().split("\r")[-1]
    assert "700/1000" in line and " 10 points/s " in line and "ETA 0:30" in line   # 100 in 10 s; 300 left
    clock[0] += 20
    bar.update(300)
    bar.close("| val loss 1.0")
    last = s.getvalue().split("\r")[-1]
    assert "1000/1000" in last and "ETA" not in last and " 0:30 | val loss 1.0\033[K\n" in last   # time taken


def test_off_a_terminal_a_line_every_log_every_seconds_and_the_full_bar_once(clock):
    s = io.StringIO()
    bar = progress.Progress(100, "x", stream=s, log_every=30)
    clock[0] += 10
    bar.update(10, loss=2.0)
    assert s.getvalue() == ""                                      # the first line waits log_every seconds
    clock[0] += 21
    bar.update(10, loss=1.5)
    assert s.getvalue().splitlines() == [s.getvalue().strip()] and "20/100 loss 1.5000" in s.getvalue()
    clock[0] += 9
    bar.update(10)
    assert len(s.getvalue().splitlines()) == 1                     # 9 s after the line: none
    clock[0] += 100
    bar.update(70, loss=1.0)                                       # the end: left to close
    bar.close("| val loss 0.9")
    lines = s.getvalue().splitlines()
    assert len(lines) == 2 and lines[1].startswith("x [" + "#" * 24 + "] 100/100 loss 1.0000")
    assert lines[1].endswith("| val loss 0.9") and "\r" not in s.getvalue() and "\033" not in s.getvalue()


def test_a_terminal_redraws_at_most_every_min_interval(clock):
    s = Tty()
    bar = progress.Progress(100, "x", stream=s, min_interval=0.5)
    for _ in range(5):
        clock[0] += 0.05
        bar.update(1)
    assert s.getvalue().count("\r") == 1                           # at 0.05 s only (last_draw starts at 0)
    clock[0] += 0.5
    bar.update(1)
    assert s.getvalue().count("\r") == 2
    bar.update(94)                                                 # the end is always drawn
    assert s.getvalue().count("\r") == 3 and "100/100" in s.getvalue().split("\r")[-1]


@pytest.mark.parametrize("stream", [Tty, io.StringIO])
def test_quiet_writes_nothing_and_notes_sit_on_their_own_line(clock, stream):
    s = stream()
    bar = progress.Progress(10, "x", stream=s, quiet=True, log_every=0)
    bar.update(5, loss=1.0)
    bar.note("epoch 1: val loss 1.0")
    bar.close("done")
    assert s.getvalue() == ""
    s = stream()
    bar = progress.Progress(10, "x", stream=s, log_every=1000)
    bar.note("epoch 1: val loss 1.0")
    assert s.getvalue() == ("\repoch 1: val loss 1.0\033[K\n" if stream is Tty else "epoch 1: val loss 1.0\n")
