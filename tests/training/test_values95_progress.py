"""Progress lines' numbers on a clock set by hand: the bar's fill and width, done/total, the rate over the
samples done since the bar started, the ETA and the elapsed time, at 0, part-way and at the end."""
import io
import re

import pytest

from lnrnn.training import progress


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", c)
    return c


def _bar(line):
    return re.search(r"\[([#.]*)\]", line).group(1)


@pytest.mark.parametrize("done,width", [(0, 10), (1, 10), (5, 10), (37, 24), (39, 7), (40, 10)])
def test_bar_is_width_long_and_filled_by_the_done_fraction(clock, done, width):
    p = progress.Progress(40, label="train", stream=io.StringIO(), width=width)
    clock.now += 4.0
    p.update(done)
    bar = _bar(p.line())
    assert len(bar) == width
    fill = int(round(done / 40 * width))
    assert bar == "#" * fill + "." * (width - fill)
    assert f" {done}/40 " in p.line()


def test_rate_eta_and_elapsed_from_the_clock(clock):
    p = progress.Progress(1000, label="x", stream=io.StringIO(), done=200, unit="rows")
    clock.now += 8.0
    p.update(300)                       # 300 rows in 8 s since the start at 200: 37.5/s, 500 left: 13.3 s
    line = p.line()
    assert "38 rows/s" in line and "ETA 0:13" in line
    clock.now += 70.0
    p.update(500)                       # done: the elapsed time instead of an ETA
    line = p.line()
    assert "ETA" not in line and line.endswith("1:18")
    assert f"{800 / 78:,.0f} rows/s" in line
