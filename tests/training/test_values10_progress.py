"""lnrnn/training/progress.py by value on a bar over nothing (an empty set, a plan of no checks): drawn full,
0/0, with the time taken and no ETA."""
import io
from types import SimpleNamespace

from lnrnn.training import progress


def test_a_bar_over_nothing_is_drawn_full(monkeypatch):
    now = [50.0]
    monkeypatch.setattr(progress, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    s = io.StringIO()
    bar = progress.Progress(0, "eval", stream=s, width=10)
    now[0] += 3
    bar.close()
    assert s.getvalue() == "eval [##########] 0/0 0 samples/s 0:03\n"
