"""lnrnn/training/plot.py, eighteenth pass: three runs of two head kinds plus a run of unknown kind drawn into an
SVG and read back as text: one accuracy panel and a loss panel per thing the losses measure (a run of unknown
kind under the --loss-label given, or 'loss'), each panel's axis label and title, the legend and the title written
out, the points of each run's lines mapped back onto its history; PDF written, other suffixes refused word for
word with nothing written."""
import re

import pytest

from lnrnn.errors import UserError
from lnrnn.training.plot import COLORS, Curves, learning_curve_figure, panels, write_learning_curves
from test_values323_plot import R1, R2, R3, _lines, _svg, _texts


def _runs():
    return [Curves("ce", R1, kind="classifier"), Curves("ctc", R2, kind="ctc"), Curves("plain", R3)]


def test_panels_split_the_loss_by_kind_with_the_label_given():
    assert panels(_runs(), "bits per symbol") == [
        ("acc", "accuracy (%)", [0, 1, 2]),
        ("loss", "cross-entropy loss (nats)", [0]),
        ("loss", "CTC loss (nats per line)", [1]),
        ("loss", "bits per symbol", [2])]
    # pairs (label, records) know no kind either
    assert panels([("x", R3), ("y", R1)]) == [("acc", "accuracy (%)", [0, 1]), ("loss", "loss", [0, 1])]


def test_four_panels_read_back_from_the_svg(tmp_path):
    svg = _svg(tmp_path, _runs(), x="epoch", title="kinds", loss_label="bits per symbol")
    texts = _texts(svg)
    assert texts.count("epoch") == 4
    for label, title in (("accuracy (%)", "accuracy"), ("cross-entropy loss (nats)", "cross-entropy loss"),
                         ("CTC loss (nats per line)", "CTC loss"), ("bits per symbol", "bits per symbol")):
        assert texts.count(label) == (1 if label != title else 2) and texts.count(title) == (1 if label != title else 2)
    assert texts[-6:] == ["kinds", "validation", "training (epoch mean)",
                          "ce (final validation accuracy 45.00%)", "ctc (final validation accuracy 65.00%)",
                          "plain (final validation accuracy 50.00%)"]
    for k, recs in enumerate((R1, R2, R3)):
        lines = _lines(svg, COLORS[k])
        assert [d for d, _ in lines] == [True, False, True, False]    # accuracy, then its own loss panel
        for (_, train), (_, val), m in ((lines[0], lines[1], "acc"), (lines[2], lines[3], "loss")):
            assert len(train) == len(val) == len(recs)
            data = [r[f"train_{m}"] for r in recs] + [r[f"val_{m}"] for r in recs]
            drawn = [y for _, y in train + val]
            i, j = data.index(min(data)), data.index(max(data))
            a = (drawn[j] - drawn[i]) / (data[j] - data[i])
            assert [drawn[i] + a * (v - data[i]) for v in data] == pytest.approx(drawn, abs=1e-3)
            xs = [x for x, _ in train]
            assert [(x - xs[0]) / (xs[1] - xs[0]) for x in xs] == pytest.approx(
                [r["epoch"] - 1 for r in recs], abs=1e-4)


def test_the_figure_has_one_axes_per_panel():
    fig = learning_curve_figure(_runs(), x="time_s", loss_label="bits per symbol")
    assert [(ax.get_xlabel(), ax.get_ylabel()) for ax in fig.axes] == [
        ("training time (s)", "accuracy (%)"), ("training time (s)", "cross-entropy loss (nats)"),
        ("training time (s)", "CTC loss (nats per line)"), ("training time (s)", "bits per symbol")]


def test_pdf_written_and_other_suffixes_refused(tmp_path):
    pdf = tmp_path / "c.pdf"
    write_learning_curves(pdf, [Curves("a", R1)])
    assert pdf.read_bytes()[:5] == b"%PDF-"
    for name in ("c.jpg", "c.pdf.txt"):
        out = tmp_path / name
        with pytest.raises(UserError) as e:
            write_learning_curves(out, [Curves("a", R1)])
        assert str(e.value) == f"--out must end in .png, .svg, .pdf (the picture's format), not {str(out)!r}."
        assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["c.pdf"]
