"""Progress lines on a plain stream (lnrnn/training/progress.py) against numbers worked out here from a patched
clock: a line is written once log_every seconds (the caller's, not the default) have passed since the start,
with the rate of the samples since the start over the seconds since the start (not since the last line), the
ETA from that rate and the bar filled to the done fraction; the closing line's elapsed time and its suffix
after one space."""
import io

import pytest

from lnrnn.training.progress import LOG_EVERY_S, Progress
from test_values70_progress import clock  # noqa: F401  (fixture: the patched perf_counter)


def test_a_plain_stream_writes_after_the_callers_log_every_with_the_rate_since_the_start(clock):
    out = io.StringIO()
    total, width, every = 200, 10, 5.0
    assert every < LOG_EVERY_S
    clock.t = 100.0
    p = Progress(total, label="train", stream=out, width=width, log_every=every)    # t0 = 100
    clock.t = 104.0
    p.update(20)
    assert out.getvalue() == ""                     # 4 s < 5 s: nothing yet
    clock.t = 105.0
    p.update(30)
    done, secs = 50, 5.0                            # 50 samples in the 5 s since the start
    rate = done / secs                              # 10 samples/s
    eta = (total - done) / rate                     # 15 s
    fill = round(done / total * width)              # 0.25 * 10 = 2.5: 2 (rounding half to even)
    bar = "#" * fill + "." * (width - fill)
    first = f"train [{bar}] {done}/{total} {rate:,.0f} samples/s ETA 0:{int(eta):02d}\n"
    assert out.getvalue() == first
    clock.t = 108.0
    p.update(50)                                    # 3 s after the line: none
    assert out.getvalue() == first
    assert p.rate() == pytest.approx(100 / 8.0)     # since the start, whatever was drawn in between
    clock.t = 110.0
    p.update(20)
    done, secs = 120, 10.0
    rate = done / secs                              # 12 samples/s; ETA 80 / 12 = 6.7 s, shown as 0:07
    fill = round(done / total * width)
    bar = "#" * fill + "." * (width - fill)
    second = f"train [{bar}] {done}/{total} {rate:,.0f} samples/s ETA 0:{round((total - done) / rate):02d}\n"
    assert out.getvalue() == first + second


def test_the_closing_line_gives_the_elapsed_time_and_the_suffix_after_a_space(clock):
    out = io.StringIO()
    clock.t = 100.0
    p = Progress(40, label="eval", stream=out, width=4, log_every=1000.0)
    clock.t = 175.0
    p.update(40)
    p.close("(best)")
    rate = 40 / 75.0
    assert out.getvalue() == f"eval [####] 40/40 {rate:,.0f} samples/s 1:15 (best)\n"
    out2 = io.StringIO()
    q = Progress(40, label="eval", stream=out2, width=4, log_every=1000.0)
    q.update(40)
    q.close()
    assert out2.getvalue() == "eval [####] 40/40 0 samples/s 0:00\n"  # no time has passed: rate 0, no suffix
