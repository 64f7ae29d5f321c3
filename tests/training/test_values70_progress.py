"""lnrnn/training/progress.py against what was done, on a clock this file sets (no real time passes):

- format_seconds writes h:mm:ss past an hour (minutes and seconds two digits), m:ss below, rounding to the second.
- The count is the run's (a resumed bar starts at what was done before), the rate is the samples done in this
  process over the seconds it ran, the ETA the rest over that rate; the last, partial batch ends the count at the
  total, where the bar is full and the elapsed time replaces the ETA; an empty bar at 0, fractions in %."""
import io

import pytest

from lnrnn.training import progress
from lnrnn.training.progress import Progress, format_seconds


class Clock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", c)
    return c


@pytest.mark.parametrize("s", [0, 7, 59.4, 61, 599, 3599, 3600, 3725, 3600 + 9 * 60 + 9, 10 * 3600 + 59 * 60 + 59,
                               27 * 3600 + 5])
def test_format_seconds_by_hand(s):
    n = int(round(s))
    h, m, sec = n // 3600, (n % 3600) // 60, n % 60
    want = f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
    assert format_seconds(s) == want
    if h:
        assert format_seconds(s).split(":")[1] == f"{m:02d}" and len(format_seconds(s).split(":")[1]) == 2


def test_an_hour_and_a_bit_reads_with_two_digit_minutes():
    assert format_seconds(3725) == "1:02:05"
    assert format_seconds(3600) == "1:00:00"
    assert format_seconds(-3) == "0:00"


def test_a_resumed_bar_counts_the_runs_samples_and_rates_this_processes(clock):
    out = io.StringIO()
    p = Progress(100, label="train", stream=out, done=40, width=10)
    clock.t += 2.0
    p.update(10)                       # 10 samples in 2 s: 5/s; 50 left -> 10 s
    assert p.rate() == pytest.approx(5.0)
    line = p.line()
    assert "50/100" in line
    assert "[#####.....]" in line
    assert "5 samples/s" in line
    assert "ETA 0:10" in line


def test_eta_past_an_hour(clock):
    p = Progress(3726, stream=io.StringIO(), unit="samples")
    clock.t += 1.0
    p.update(1)                        # 1/s, 3725 left
    assert "ETA 1:02:05" in p.line()


def test_the_last_partial_batch_ends_at_the_total_and_a_full_bar(clock):
    out = io.StringIO()
    p = Progress(10, label="eval", stream=out, width=8, log_every=1e9)
    assert "[........] 0/10" in p.line()
    for n in (4, 4, 2):
        clock.t += 1.0
        p.update(n, acc=1.0 if n == 2 else 0.0, loss=0.25)
    clock.t += 62.0
    line = p.line()
    assert "[########] 10/10" in line
    assert "acc 100.0%" in line and "loss 0.2500" in line
    assert "ETA" not in line
    assert line.endswith("1:05")        # elapsed: 3 + 62 s
    p.close()
    assert out.getvalue().strip().splitlines()[-1] == line


def test_a_bar_at_zero(clock):
    p = Progress(8, stream=io.StringIO(), width=4)
    p.update(0, acc=0.0)
    line = p.line()
    assert "[....] 0/8" in line and "acc 0.0%" in line and "0 samples/s" in line
