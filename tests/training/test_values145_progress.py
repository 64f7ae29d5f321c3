"""Progress lines' numbers against hand computations from a patched clock: a plain (non-terminal) line's rate,
ETA and bar at the time it is drawn, a finished bar's time counted from its start; on a terminal the redraws
spaced min_interval apart (updates in between draw nothing); the compile note's timer waits
COMPILE_NOTE_AFTER_S and speaks only while a compilation is under way and the run is not quiet."""
import io

import pytest

from lnrnn.training import progress
from lnrnn.training.progress import COMPILE_NOTE_AFTER_S, Progress, compile_note


class Clock:
    def __init__(self, t=100.0):
        self.t = t

    def __call__(self):
        return self.t


class Tty(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(progress.time, "perf_counter", c)
    return c


def _mmss(s):
    return f"{s // 60}:{s % 60:02d}"


def test_plain_lines_rate_eta_and_the_finished_time_from_the_start(clock):
    out = io.StringIO()
    total, width = 3000, 10
    p = Progress(total, label="train", stream=out, width=width, log_every=30.0)       # t0 = 100
    clock.t = 140.0
    p.update(1000, loss=0.5)                      # 40 s after the start: a line (log_every 30 passed)
    clock.t = 150.0
    p.update(1000)                                # 10 s after the line: none
    clock.t = 170.0
    p.update(1000)                                # done: a plain stream draws no line, close does
    clock.t = 180.0
    p.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 2
    rate = 1000 / 40.0                            # 25 samples/s
    eta = round((total - 1000) / rate)            # 80 s
    fill = round(1000 / total * width)
    assert lines[0] == (f"train [{'#' * fill}{'.' * (width - fill)}] 1000/{total} loss 0.5000 "
                        f"{rate:,.0f} samples/s ETA {_mmss(eta)}")
    elapsed = round(180.0 - 100.0)                # from the start, not from the last line
    assert lines[1] == (f"train [{'#' * width}] {total}/{total} loss 0.5000 {total / 80.0:,.0f} samples/s "
                        f"{_mmss(elapsed)}")


def test_terminal_redraws_are_min_interval_apart(clock):
    out = Tty()
    p = Progress(100, stream=out, min_interval=0.2, log_every=1e9)
    times = [100.0, 100.05, 100.1, 100.15, 100.25, 100.3, 100.5]
    drawn_at, last = [], 0.0                     # a terminal's first draw comes at once
    for t in times:
        clock.t = t
        before = out.getvalue().count("\r")
        p.update(1)
        if t - last >= 0.2:
            drawn_at.append(t)
            last = t
        assert out.getvalue().count("\r") - before == (1 if drawn_at and drawn_at[-1] == t else 0)
    assert drawn_at == [100.0, 100.25, 100.5]
    assert out.getvalue().count("\r") == 3


class Busy:
    def __init__(self, busy):
        self.busy = busy


@pytest.mark.parametrize("busy,quiet,speaks", [(True, False, True), (False, False, False), (True, True, False)])
def test_the_compile_note_speaks_only_while_compiling(busy, quiet, speaks):
    out = io.StringIO()
    timer = compile_note(Busy(busy), stream=out, quiet=quiet)
    timer.cancel()                                # fire it here instead of after the wait
    assert timer.interval == COMPILE_NOTE_AFTER_S
    timer.function()
    assert (out.getvalue().startswith("Compiling kernels")) is speaks
    assert out.getvalue().count("\n") == int(speaks)
