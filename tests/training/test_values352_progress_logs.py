"""Progress bars and logs (lnrnn/training/progress.py, lnrnn/training/logs.py) against text worked out by hand, on
a stand-in clock that has perf_counter alone (the bar's times are measured with it, from the bar's creation): a log
file's first line by default 30 s on (LOG_EVERY_S), not at 29.5 s, the next 30 s after that; a terminal by default
redrawn once 0.2 s have passed since the last draw (0.21875 s yes, 0.1875 s no) and always at the total; a log file
given no line at or past the total by update (close's line alone); the rate in samples/s by default, points/s when
asked, counted from the samples done at the start; TensorBoard's learning-rate scalar 'lr' from each row's lr,
also in a row without metrics (the stand-in package of test_values_logs)."""
import io

import pytest

from lnrnn.training import logs
from lnrnn.training.progress import Progress

from test_values326_progress_logs import Terminal, clock  # noqa: F401  (clock: a fixture, perf_counter by hand)
from test_values_logs import tensorboard_stand_in


def test_a_log_file_by_default_gets_a_line_every_thirty_seconds(clock):
    stream = io.StringIO()
    p = Progress(100, "x", stream=stream, width=4)              # created at 100.0 s
    for t in (29.5, 30.0, 59.5, 60.0):
        clock[0] = 100.0 + t
        p.update(10)
    p.close()
    assert stream.getvalue() == ("x [#...] 20/100 1 samples/s ETA 2:00\n"     # 20 in 30 s; 80 / (2/3) = 120 s
                                 "x [##..] 40/100 1 samples/s ETA 1:30\n"     # 40 in 60 s; 60 / (2/3) = 90 s
                                 "x [##..] 40/100 1 samples/s ETA 1:30\n")    # close: the same line


def test_a_terminal_by_default_redrawn_after_a_fifth_of_a_second_and_at_the_total(clock):
    stream = Terminal()
    p = Progress(10, "t", stream=stream, width=2)
    for t, n in ((1.0, 1), (1.1875, 1), (1.21875, 1), (1.40625, 1), (1.5, 6)):
        clock[0] = 100.0 + t                                     # gaps from the last draw: -, 0.1875, 0.21875, 0.1875
        p.update(n)
    draws = stream.getvalue().split("\033[K")
    assert [d.split("]")[1].split()[0] for d in draws[:-1]] == ["1/10", "3/10", "10/10"]
    assert all(d.startswith("\r") for d in draws[:-1]) and draws[-1] == ""


@pytest.mark.parametrize("more", [10, 11], ids=["at-the-total", "past-the-total"])
def test_a_log_file_gets_no_line_from_update_at_or_past_the_total(clock, more):
    stream = io.StringIO()
    p = Progress(10, "f", stream=stream, width=2, log_every=1, min_interval=0)
    clock[0] += 5
    p.update(more)                                               # 5 s on: a line would be due, but it is done
    assert stream.getvalue() == ""
    p.close("val loss 0.5")
    assert stream.getvalue() == f"f [##] {more}/10 2 samples/s 0:05 val loss 0.5\n"   # 10 or 11 in 5 s: 2/s


def test_the_rate_counts_samples_by_default_from_the_start_done(clock):
    p = Progress(100, "val", stream=io.StringIO(), width=10, done=40)
    clock[0] += 16
    p.update(32)                                                 # 32 in 16 s: 2/s; 28 left: 14 s; round(7.2) = 7
    assert p.line() == "val [#######...] 72/100 2 samples/s ETA 0:14"
    q = Progress(100, "val", stream=io.StringIO(), width=10, unit="points")
    clock[0] += 75
    q.update(100)                                                # 100 in 75 s: 1.33/s; done: the time, 1:15
    assert q.line() == "val [##########] 100/100 1 points/s 1:15"


def test_tensorboard_gets_the_learning_rate_of_every_row(monkeypatch, tmp_path):
    events = tensorboard_stand_in(monkeypatch)
    tb = logs.TensorBoardLog.open(str(tmp_path))
    tb.add([{"epoch": 1, "step": 10, "lr": 0.003},                   # no metric: the rate alone
            {"epoch": 1, "step": 99, "val_loss": 1.5, "lr": 0.0027},
            {"epoch": 2, "step": 100, "stopped": "patience"}])       # nothing to plot: no event
    tb.close()
    assert [e.step for e in events] == [10, 99]
    assert [[(v.tag, v.simple_value) for v in e.summary.value] for e in events] == [
        [("lr", 0.003)], [("val/loss", 1.5), ("lr", 0.0027)]]
