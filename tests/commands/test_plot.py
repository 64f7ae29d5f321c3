"""Learning-curve pictures with matplotlib: the format follows the extension, the loss axis turns
logarithmic when its range calls for it, axes are labelled with units, the legend names runs and line
styles, the per-update series is drawn under the epoch points, and metrics files of older runs (no
updates.jsonl) still plot."""
import json

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.training.plot import Curves, learning_curve_figure, use_log_scale, write_learning_curves


def records(losses, accs=None):
    out = []
    for e, loss in enumerate(losses):
        r = {"epoch": e + 1, "step": 10 * (e + 1), "time_s": 1.5 * (e + 1), "train_loss": loss * 1.1, "val_loss": loss}
        if accs is not None:
            r.update(train_acc=accs[e] - 0.05, val_acc=accs[e])
        out.append(r)
    return out


def per_update(n, start=3.0):
    return [{"step": s, "epoch": s / 10, "time_s": 0.15 * s, "train_loss": start / s, "train_acc": 0.1}
            for s in range(1, n + 1)]


def test_log_scale_only_when_the_range_calls_for_it():
    assert use_log_scale([2.3, 0.05])                      # a factor of 46
    assert not use_log_scale([2.3, 0.5])                   # a factor of 4.6
    assert not use_log_scale([-1.5, 2.0, 300.0])           # negative log-likelihoods cannot go on a log axis
    wide = learning_curve_figure([Curves("a", records([2.3, 0.4, 0.02]))])
    narrow = learning_curve_figure([Curves("a", records([2.3, 1.9, 1.7]))])
    assert wide.axes[-1].get_yscale() == "log" and narrow.axes[-1].get_yscale() == "linear"


def test_panels_axes_legend_and_per_update_lines():
    runs = [Curves("ln", records([2.0, 1.0], [0.5, 0.7]), per_update(20)),
            Curves("plain", records([2.1, 1.5], [0.4, 0.5]))]
    fig = learning_curve_figure(runs, x="time_s", title="ln-lstm H=8 on digits", loss_label="cross-entropy loss (nats)")
    acc, loss = fig.axes[:2]
    assert acc.get_ylabel() == "accuracy (%)" and loss.get_ylabel() == "cross-entropy loss (nats)"
    assert acc.get_xlabel() == loss.get_xlabel() == "training time (s)"
    assert fig._suptitle.get_text() == "ln-lstm H=8 on digits"
    # loss panel: run ln has a 20-point per-update line (thin) and two 2-point epoch lines; plain has no updates
    widths = sorted((len(line.get_xdata()), line.get_linewidth()) for line in loss.get_lines())
    assert widths == [(2, 1.6)] * 4 + [(20, 0.7)]
    assert max(max(line.get_ydata()) for line in acc.get_lines()) == pytest.approx(70.0)  # accuracy in percent
    texts = [t.get_text() for t in fig.legends[0].get_texts()]
    assert texts[:3] == ["validation", "training (epoch mean)", "training (every few updates)"]
    assert texts[3:] == ["ln (final validation accuracy 70.00%)", "plain (final validation accuracy 50.00%)"]


@pytest.mark.parametrize("ext,magic", [(".png", b"\x89PNG"), (".pdf", b"%PDF"), (".svg", b"<?xml")])
def test_format_follows_the_extension(tmp_path, ext, magic):
    path = tmp_path / ("c" + ext)
    write_learning_curves(path, [("a", records([1.0, 0.5], [0.3, 0.6]), per_update(5))], title="t")
    assert path.read_bytes()[:len(magic)] == magic
    if ext == ".svg":
        assert "accuracy" in path.read_text()                  # text stays text


def test_plot_command_reads_old_and_new_runs(tmp_path):
    old, new = tmp_path / "old", tmp_path / "new"
    old.mkdir()
    new.mkdir()
    (old / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records([2.0, 1.0], [0.3, 0.6])))
    (new / "metrics.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records([2.0, 0.8], [0.3, 0.7])))
    torn = '{"step": 2'  # the last line cut short by a kill
    (new / "updates.jsonl").write_text("".join(json.dumps(r) + "\n" for r in per_update(20)) + torn)
    r = CliRunner().invoke(main, ["plot", str(old), str(new), "--out", str(tmp_path / "c.svg")])
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "c.svg").read_text()
    assert "old (final validation accuracy 60.00%)" in svg and "new (final validation accuracy 70.00%)" in svg
    assert "training (every few updates)" in svg
    bad = CliRunner().invoke(main, ["plot", str(old), "--out", str(tmp_path / "c.txt")])
    assert bad.exit_code == 2 and "Traceback" not in bad.output and "--out must end in .png, .svg, .pdf" in bad.stderr
    (old / "metrics.jsonl").write_text("{not json\n")
    bad = CliRunner().invoke(main, ["plot", str(old), "--out", str(tmp_path / "d.png")])
    assert bad.exit_code == 2 and "not valid JSON lines" in bad.stderr and not (tmp_path / "d.png").exists()


def test_the_title_is_the_runs_config_only_when_they_share_one(tmp_path):
    from lnrnn.commands.plot import _config_title
    from lnrnn.training.runconfig import CONFIG_FILE
    conf = {"cell": "ln-lstm", "hidden": 8, "task": "digits", "layers": 2, "optimizer": "adam", "lr": 0.003,
            "batch-size": 16, "seed": 0}
    a, b = tmp_path / "a", tmp_path / "b"
    for folder, seed in ((a, 0), (b, 1)):
        folder.mkdir()
        (folder / CONFIG_FILE).write_text(json.dumps(dict(conf, seed=seed)))
    want = "ln-lstm H=8 on digits (2 layers, adam lr 0.003, batch 16, seed 0)"
    assert _config_title([str(a)]) == want
    assert _config_title([str(a), str(a)]) == want
    assert _config_title([str(a), str(b)]) is None, "runs of different configs: no one config is the title"
