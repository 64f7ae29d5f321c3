"""lnrnn/training/setup.py's start line by value: the learning-rate decay named only when there is one, and
Graves's two derivative clips each with its own value, only when on."""
from types import SimpleNamespace

from lnrnn.training.runconfig import TrainConfig
from lnrnn.training.setup import describe


def start_line(**kw):
    cfg = TrainConfig(cell="lstm", hidden=4, layers=1, epochs=2, out="runs/x", **kw)
    model = SimpleNamespace(config={}, num_params=lambda: 10)
    return describe(SimpleNamespace(cfg=cfg, model=model, task=SimpleNamespace(description="digits"),
                                    init_record=None))


def test_the_decay_is_named_only_when_there_is_one():
    assert "decay" not in start_line(lr=0.5, lr_decay=1.0)
    assert " lr 0.5 decay 0.9/epoch, clip " in start_line(lr=0.5, lr_decay=0.9)


def test_each_derivative_clip_with_its_own_value():
    line = start_line(clip=1.0, clip_output=0.0, clip_gates=0.0)
    assert "clip 1, batch" in line and "clip-output" not in line and "clip-gates" not in line
    assert "clip 1 clip-output 100, batch" in start_line(clip=1.0, clip_output=100.0, clip_gates=0.0)
    assert "clip 1 clip-gates 10, batch" in start_line(clip=1.0, clip_output=0.0, clip_gates=10.0)
    assert "clip 1 clip-output 100 clip-gates 10, batch" in start_line(clip=1.0, clip_output=100.0, clip_gates=10.0)
