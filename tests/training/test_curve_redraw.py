"""learning_curve.svg is redrawn after an epoch only once CURVE_REDRAW_S seconds have passed since its
last drawing (a drawing costs 0.1-0.3 s, a lot next to a small run's few-second epochs),
and always when the run returns, so a finished or stopped run's picture holds every epoch."""
import os

from lnrnn.training import recorder
from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.rundir import read_jsonl
from lnrnn.training.train import train


def run(tmp_path, monkeypatch, redraw_s, **kw):
    drawn = []  # epochs in the metrics at each drawing
    draw = recorder.RunRecorder.draw_curve

    def spy(self):
        drawn.append(len(self.trainer.history))
        return draw(self)

    monkeypatch.setattr(recorder.RunRecorder, "draw_curve", spy)
    monkeypatch.setattr(recorder, "CURVE_REDRAW_S", redraw_s)
    out = str(tmp_path / "run")
    cfg = TrainConfig(task="digits", split="60/30", hidden=4, batch_size=20, epochs=3, out=out, **kw)
    train(cfg, quiet=True, log=lambda m: None)
    return out, drawn


def epochs_in_curve(out):
    svg = open(os.path.join(out, "learning_curve.svg")).read()
    assert "<svg" in svg[:2000] and "validation" in svg
    return [r["epoch"] for r in read_jsonl(os.path.join(out, "metrics.jsonl"))]


def test_every_epoch_when_due(tmp_path, monkeypatch):
    out, drawn = run(tmp_path, monkeypatch, 0.0)
    assert drawn == [1, 2, 3] and epochs_in_curve(out) == [1, 2, 3]


def test_throttled_then_drawn_when_the_run_returns(tmp_path, monkeypatch):
    out, drawn = run(tmp_path, monkeypatch, 1e9)
    assert drawn == [3] and epochs_in_curve(out) == [1, 2, 3]


def test_a_stopped_run_draws_its_epochs(tmp_path, monkeypatch):
    """--max-steps 4 stops in epoch 2 (3 updates per epoch): the picture still gets epoch 1."""
    out, drawn = run(tmp_path, monkeypatch, 1e9, max_steps=4)
    assert drawn == [1] and epochs_in_curve(out) == [1]
