"""lnrnn/training/progress.py's lines against the format written out here, under a patched clock: on a log (a
StringIO, whose isatty says False) every line is plain (no carriage return, no erase code) and the bar's last line
ends with the suffix and a newline; on a terminal a note is drawn over the bar's line (carriage return first, erase
code after); the compile note goes to the stream it is given, and nowhere else."""
import io
from types import SimpleNamespace

from lnrnn.training import progress

NOTE = "Compiling kernels (once per install; later runs load them from Numba's cache)...\n"


class Clock:
    def __init__(self, t):
        self.t = t

    def perf_counter(self):
        return self.t


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_log_gets_plain_lines_with_the_fields_rate_and_eta(monkeypatch):
    clock = Clock(100.0)
    monkeypatch.setattr(progress, "time", clock)
    out = io.StringIO()
    bar = progress.Progress(10, label="epoch 1", stream=out, width=10, log_every=5.0)
    clock.t = 104.0
    bar.update(4, loss=0.25)                    # 4 s: not yet a line
    assert out.getvalue() == ""
    clock.t = 105.0
    bar.update(1, acc=0.5)                      # 5 s: a line; 5 samples in 5 s, 5 left: ETA 0:05
    line = "epoch 1 [#####.....] 5/10 loss 0.2500 acc 50.0% 1 samples/s ETA 0:05"
    assert out.getvalue() == line + "\n"
    bar.note("validation next")
    clock.t = 110.0
    bar.update(5)
    bar.close("done")
    final = "epoch 1 [##########] 10/10 loss 0.2500 acc 50.0% 1 samples/s 0:10 done"
    assert out.getvalue() == line + "\n" + "validation next\n" + final + "\n"


def test_a_terminal_note_is_drawn_over_the_bar(monkeypatch):
    clock = Clock(0.0)
    monkeypatch.setattr(progress, "time", clock)
    out = Terminal()
    bar = progress.Progress(4, label="", stream=out, width=4)
    out.seek(0)
    out.truncate()
    bar.note("saved")
    assert out.getvalue() == "\rsaved\033[K\n"
    clock.t = 2.0
    out.seek(0)
    out.truncate()
    bar.update(4)
    bar.close()
    line = " [####] 4/4 2 samples/s 0:02"
    assert out.getvalue() == "\r" + line + "\033[K" + "\r" + line + "\033[K\n"


def test_the_compile_note_goes_to_its_stream_only(monkeypatch, capsys):
    monkeypatch.setattr(progress, "COMPILE_NOTE_AFTER_S", 0.0)
    out = io.StringIO()
    progress.compile_note(SimpleNamespace(busy=True), stream=out).join(10)
    progress.compile_note(SimpleNamespace(busy=False), stream=out).join(10)
    progress.compile_note(SimpleNamespace(busy=True), stream=out, quiet=True).join(10)
    assert out.getvalue() == NOTE
    assert capsys.readouterr().err == ""
