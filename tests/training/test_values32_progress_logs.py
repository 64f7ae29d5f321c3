"""lnrnn/training/progress.py and logs.py by value past powers of ten and byte for byte: the bar's rate is
grouped in thousands (999, 1,000, 12,345, 1,234,567 samples/s on a stand-in clock), and metrics.csv's lines
end in a bare newline (no carriage return in the file)."""
import io
from types import SimpleNamespace

import pytest

from lnrnn.training import progress
from lnrnn.training.logs import write_csv


@pytest.mark.parametrize("done,text", [(999, "999"), (1000, "1,000"), (12345, "12,345"), (1234567, "1,234,567")])
def test_the_rate_is_grouped_in_thousands(monkeypatch, done, text):
    now = [100.0]
    monkeypatch.setattr(progress, "time", SimpleNamespace(perf_counter=lambda: now[0]))
    s = io.StringIO()
    bar = progress.Progress(2 * done, "epoch 1/1", stream=s, unit="points")
    now[0] += 1.0
    bar.update(done)
    assert f" {done}/{2 * done} {text} points/s ETA 0:01" in bar.line()   # done in 1 s: as many left, 1 s


def test_metrics_csv_lines_end_in_a_bare_newline(tmp_path):
    path = tmp_path / "metrics.csv"
    rows = [{"epoch": 1, "step": 3, "val_loss": 0.5}, {"epoch": 2, "step": 6, "val_loss": 0.25, "lr": 0.001}]
    write_csv(str(path), rows)
    data = path.read_bytes()
    assert b"\r" not in data
    assert data == b"epoch,step,val_loss,lr\n1,3,0.5,\n2,6,0.25,0.001\n"
