"""Progress bars and logs (lnrnn/training/progress.py, lnrnn/training/logs.py) against text worked out by hand, on
a stand-in clock: the bar's line at 0, 1, 9, 10, 99, 100 and 101 of 100 samples 16 s on (fill round(10 d / 100),
rate d / 16 to a whole number, ETA (100 - d) / rate as m:ss, the elapsed time once done or while the rate is 0),
hours and thousands separators; the metrics in the order given, kept over updates that give none; a terminal
redrawn at most every min_interval seconds and always at the total; stderr by default; quiet writes nothing
anywhere; the compile note's timer COMPILE_NOTE_AFTER_S = 2 s on and its sentence; TensorBoard scalars of every
row given, in RUN/tensorboard/ (the stand-in package of test_values_logs); metrics.csv rows read back with
Python's csv module, floats exactly."""
import csv
import io
import os
import types

import pytest

from lnrnn.training import logs, progress
from lnrnn.training.progress import Progress, compile_note

from test_values_logs import tensorboard_stand_in


@pytest.fixture
def clock(monkeypatch):
    """progress's clock, set by the test: now[0] seconds."""
    now = [100.0]
    monkeypatch.setattr(progress, "time", types.SimpleNamespace(perf_counter=lambda: now[0]))
    return now


class Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.mark.parametrize("done,text", [
    (0, "val [..........] 0/100 0 samples/s 0:16"),             # rate 0: the time so far
    (1, "val [..........] 1/100 0 samples/s ETA 26:24"),        # round(0.1) = 0; 99 / (1/16) = 1584 s
    (9, "val [#.........] 9/100 1 samples/s ETA 2:42"),         # 91 / 0.5625 = 161.8 s
    (10, "val [#.........] 10/100 1 samples/s ETA 2:24"),       # 90 / 0.625 = 144 s
    (99, "val [##########] 99/100 6 samples/s ETA 0:00"),       # 1 / 6.1875 = 0.16 s
    (100, "val [##########] 100/100 6 samples/s 0:16"),         # done: the time taken
    (101, "val [##########] 101/100 6 samples/s 0:16"),
], ids=["0", "1", "9", "10", "99", "100", "101"])
def test_the_bar_16_seconds_on(clock, done, text):
    p = Progress(100, "val", stream=io.StringIO(), width=10)
    clock[0] += 16
    p.update(done)
    assert p.line() == text


def test_hours_and_thousands_in_the_rate_and_eta(clock):
    p = Progress(100000, "train", stream=io.StringIO(), width=4, unit="points")
    clock[0] += 16
    p.update(10)                                                 # 99990 / 0.625 = 159984 s = 44 h 26 min 24 s
    assert p.line() == "train [....] 10/100000 1 points/s ETA 44:26:24"
    clock[0] += 1
    p.update(20390)                                              # 20400 in 17 s: 1200/s; 79600 / 1200 = 66.3 s
    assert p.line() == "train [#...] 20400/100000 1,200 points/s ETA 1:06"


def test_metrics_in_the_order_given_and_kept_over_updates_without_them(clock):
    stream = io.StringIO()
    p = Progress(10, "ep 1", stream=stream, width=2)
    clock[0] += 2
    p.update(3, loss=0.5, acc=0.25)
    p.update(2)
    clock[0] += 3
    p.update(5, loss=0.125)
    p.close("val acc 50.0%")
    assert stream.getvalue() == "ep 1 [##] 10/10 loss 0.1250 acc 25.0% 2 samples/s 0:05 val acc 50.0%\n"


def test_a_log_file_gets_a_line_every_log_every_seconds_before_the_total(clock):
    stream = io.StringIO()
    p = Progress(100, "x", stream=stream, width=4, log_every=30)
    for t, n in ((10, 10), (30, 10), (45, 10), (60, 30), (90, 40)):
        clock[0] = 100.0 + t
        p.update(n)
    p.close()
    assert stream.getvalue() == ("x [#...] 20/100 1 samples/s ETA 2:00\n"      # 80 / (20/30)
                                 "x [##..] 60/100 1 samples/s ETA 0:40\n"      # 40 / 1
                                 "x [####] 100/100 1 samples/s 1:30\n")        # the total: close's line only


def test_a_terminal_redrawn_at_most_every_min_interval_and_at_the_total(clock):
    stream = Terminal()
    p = Progress(10, "t", stream=stream, width=2, min_interval=5)
    for t in (1, 3, 6.5, 8, 11.5, 12):                          # drawn at 1, 6.5, 11.5 (5 s apart), 12 (total)
        clock[0] = 100.0 + t
        p.update(1 if t != 12 else 5)
    draws = stream.getvalue().split("\033[K")
    assert [d.split("]")[1].split()[0] for d in draws[:-1]] == ["1/10", "3/10", "5/10", "10/10"]
    assert all(d.startswith("\r") for d in draws[:-1]) and draws[-1] == ""


def test_the_bar_goes_to_stderr_by_default(clock, capsys):
    p = Progress(4, "e", width=4)
    clock[0] += 2
    p.update(4)
    p.close()
    out, err = capsys.readouterr()
    assert out == "" and err == "e [####] 4/4 2 samples/s 0:02\n"


@pytest.mark.parametrize("stream_kind", [io.StringIO, Terminal])
def test_quiet_writes_nothing(clock, stream_kind):
    stream = stream_kind()
    p = Progress(10, "q", stream=stream, quiet=True, log_every=0, min_interval=0)
    for _ in range(3):
        clock[0] += 1
        p.update(4, loss=1.0)
    p.note("val loss 0.5")
    p.close("done")
    assert stream.getvalue() == "" and p.done == 12


def test_the_compile_note_two_seconds_on_and_its_sentence():
    stream = io.StringIO()
    busy = types.SimpleNamespace(busy=True)
    timer = compile_note(busy, stream=stream)
    timer.cancel()
    assert timer.interval == 2.0 and timer.daemon
    timer.function()                                             # what it says when it fires
    assert stream.getvalue() == "Compiling kernels (once per install; later runs load them from Numba's cache)...\n"
    idle = compile_note(types.SimpleNamespace(busy=False), stream=stream)
    idle.cancel()
    idle.function()
    assert stream.getvalue().count("\n") == 1


# ---- logs ----
def test_tensorboard_gets_every_row_given_in_run_tensorboard(monkeypatch, tmp_path):
    events = tensorboard_stand_in(monkeypatch)
    tb = logs.TensorBoardLog.open(str(tmp_path))
    assert tb.writer.folder == os.path.join(str(tmp_path), "tensorboard")
    tb.add([{"epoch": 1, "step": 9, "val_loss": 2.5, "lr": 0.01},
            {"epoch": 2, "step": 10, "val_loss": 1.5, "lr": 0.009},
            {"epoch": 3, "step": 99, "val_loss": 1.25, "lr": 0.0081}])
    tb.add([{"epoch": 4, "step": 100, "val_acc": 0.5}])
    assert [e.step for e in events] == [9, 10, 99, 100]
    assert [[(v.tag, v.simple_value) for v in e.summary.value] for e in events] == [
        [("val/loss", 2.5), ("lr", 0.01)], [("val/loss", 1.5), ("lr", 0.009)], [("val/loss", 1.25), ("lr", 0.0081)],
        [("val/acc", 0.5)]]


def test_csv_rows_read_back_exactly(tmp_path):
    path = str(tmp_path / logs.CSV_FILE)
    rows = [{"epoch": 1, "step": 9, "lr": 0.1 + 0.2, "val_loss": 1 / 3, "eval": "epoch"},
            {"epoch": 1.5, "step": 10, "lr": 0.3, "val_loss": 2 / 3, "val_acc": 0.1, "eval": "update"}]
    logs.write_csv(path, rows)
    with open(path, newline="") as f:
        back = list(csv.DictReader(f))
    assert list(back[0]) == ["epoch", "step", "lr", "val_loss", "eval", "val_acc"]
    assert [float(r["lr"]) for r in back] == [0.30000000000000004, 0.3]
    assert [float(r["val_loss"]) for r in back] == [1 / 3, 2 / 3]
    assert [r["val_acc"] for r in back] == ["", "0.1"] and [r["step"] for r in back] == ["9", "10"]
    assert [r["epoch"] for r in back] == ["1", "1.5"] and [r["eval"] for r in back] == ["epoch", "update"]
