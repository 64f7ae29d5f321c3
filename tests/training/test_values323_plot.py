"""lnrnn/training/plot.py, seventeenth pass: an SVG of three regression runs read back as text: its size in
points from the figure's inches (5.2 per panel + 0.6 wide, 4.6 + 0.22 per run high, 72 points an inch), the axes'
labels and titles and the legend written out, every run's training line dashed and its validation line solid,
their points mapped back through one affine map per axis onto the history (accuracy in percent, a non-monotonic
loss); a run of one epoch labelled 'training' / 'validation' with its value beside the dot; a run that logs only
training accuracy still drawn in the accuracy panel."""
import re

import pytest

from lnrnn.training.plot import COLORS, Curves, panels, write_learning_curves

R1 = [{"epoch": 1, "step": 10, "train_acc": 0.4, "val_acc": 0.5, "train_loss": 2.0, "val_loss": 1.5},
      {"epoch": 2, "step": 25, "train_acc": 0.6, "val_acc": 0.55, "train_loss": 1.0, "val_loss": 1.2},
      {"epoch": 3, "step": 40, "train_acc": 0.7, "val_acc": 0.45, "train_loss": 1.3, "val_loss": 0.9}]
R2 = [{"epoch": 1, "step": 13, "train_acc": 0.3, "val_acc": 0.35, "train_loss": 1.7, "val_loss": 1.6},
      {"epoch": 2, "step": 26, "train_acc": 0.45, "val_acc": 0.65, "train_loss": 1.1, "val_loss": 1.4}]
R3 = [{"epoch": 1, "step": 7, "train_acc": 0.2, "val_acc": 0.25, "train_loss": 1.9, "val_loss": 1.8},
      {"epoch": 2, "step": 14, "train_acc": 0.5, "val_acc": 0.3, "train_loss": 0.95, "val_loss": 1.05},
      {"epoch": 3, "step": 21, "train_acc": 0.55, "val_acc": 0.6, "train_loss": 1.25, "val_loss": 1.1},
      {"epoch": 4, "step": 28, "train_acc": 0.65, "val_acc": 0.5, "train_loss": 0.85, "val_loss": 1.0}]


def _svg(tmp_path, runs, **kw):
    path = tmp_path / "curves.svg"
    write_learning_curves(path, runs, **kw)
    return path.read_text()


def _texts(svg):
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def _lines(svg, color):
    """[(dashed, [(x, y), ...])] of the 1.6-wide lines drawn in ``color``, in drawing order."""
    out = []
    for d, style in re.findall(r'<path d="([^"]*)"[^>]*style="([^"]*)"', svg):
        if f"stroke: {color}" in style and "stroke-width: 1.6" in style:
            pts = [(float(a), float(b)) for a, b in re.findall(r"[ML] ([-\d.]+) ([-\d.]+)", d)]
            out.append(("stroke-dasharray" in style, pts))
    return out


def test_three_runs_read_back_from_the_svg(tmp_path):
    runs = [Curves("first", R1, kind="regression"), Curves("second", R2, kind="regression"),
            Curves("third", R3, kind="regression")]
    svg = _svg(tmp_path, runs, title="three runs")
    # two panels (acc, loss), three runs: (5.2 * 2 + 0.6) x (4.6 + 0.22 * 3) inches at 72 points an inch
    width, height = re.search(r'<svg [^>]*width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()
    assert float(width) == pytest.approx(11.0 * 72) and float(height) == pytest.approx(5.26 * 72)
    texts = _texts(svg)
    assert texts.count("updates") == 2
    assert texts.count("accuracy (%)") == 1 and texts.count("accuracy") == 1    # axis label, panel title
    assert texts.count("squared error") == 2                                   # a regression head's loss
    assert "loss" not in texts
    assert texts[-6:] == ["three runs", "validation", "training (epoch mean)",
                          "first (final validation accuracy 45.00%)", "second (final validation accuracy 65.00%)",
                          "third (final validation accuracy 50.00%)"]
    for k, (run, recs) in enumerate(zip(runs, (R1, R2, R3))):
        lines = _lines(svg, COLORS[k])
        # per panel: training dashed, then validation solid
        assert [dashed for dashed, _ in lines] == [True, False, True, False]
        for (_, train), (_, val), m, scale in ((lines[0], lines[1], "acc", 100.0), (lines[2], lines[3], "loss", 1.0)):
            assert len(train) == len(val) == len(recs)
            # one affine map per axis takes the history to the drawing: fitted on two points, checked on all
            for axis, key in ((0, None), (1, m)):
                data = [r["step"] for r in recs] * 2 if key is None else \
                    [scale * r[f"train_{key}"] for r in recs] + [scale * r[f"val_{key}"] for r in recs]
                drawn = [p[axis] for p in train + val]
                i, j = data.index(min(data)), data.index(max(data))
                a = (drawn[j] - drawn[i]) / (data[j] - data[i])
                assert [drawn[i] + a * (v - data[i]) for v in data] == pytest.approx(drawn, abs=1e-3)
                assert (a > 0) == (axis == 0)                 # SVG's y grows downwards


def test_a_one_epoch_run_carries_its_values_beside_the_dots(tmp_path):
    recs = [{"epoch": 1, "step": 50, "train_loss": 1.23456, "val_loss": 0.5}]
    texts = _texts(_svg(tmp_path, [Curves("one", recs, kind="regression")]))
    assert "training 1.2346" in texts and "validation 0.5000" in texts
    assert texts.count("squared error") == 2


def test_a_run_logging_only_training_accuracy_is_in_the_accuracy_panel():
    only_train = [{"epoch": 1, "step": 5, "train_acc": 0.5, "train_loss": 1.0},
                  {"epoch": 2, "step": 9, "train_acc": 0.75, "train_loss": 0.5}]
    only_val = [{"epoch": 1, "step": 5, "val_acc": 0.25, "val_loss": 1.5}]
    no_acc = [{"epoch": 1, "step": 5, "train_loss": 2.0, "val_loss": 1.0}]
    runs = [Curves("t", only_train), Curves("n", no_acc), Curves("v", only_val)]
    assert panels(runs) == [("acc", "accuracy (%)", [0, 2]), ("loss", "loss", [0, 1, 2])]
    runs = [Curves("t", only_train, kind="regression"), Curves("v", only_val, kind="ctc")]
    assert panels(runs) == [("acc", "accuracy (%)", [0, 1]), ("loss", "squared error", [0]),
                            ("loss", "CTC loss (nats per line)", [1])]
