"""lnrnn plot's plumbing on run folders written here (fake_run of test_values173_plot), with the drawing
replaced by a recorder: a --out of another suffix is refused by its format in one exact line before any folder
is read (a folder that is no run folder is given too) and nothing is written; --title reaches the drawing as
given, and without it the shared config.json's title written out by hand; runs of two heads are told of their
panels in one exact line, the loss labels of a classifier and a CTC reader written out here, joined with '; '."""
import pytest

from lnrnn.commands import plot as plot_cmd

from test_cli import assert_clean_error, invoke
from test_values173_plot import CONFIG, fake_run


@pytest.fixture
def drawn(monkeypatch):
    seen = []
    def draw(out, data, x="step", title=None):
        seen.append(dict(out=out, labels=[d.label for d in data], x=x, title=title))
    monkeypatch.setattr(plot_cmd, "write_learning_curves", draw)
    return seen


def test_another_suffix_refused_by_its_format_before_any_folder_is_read(tmp_path, drawn):
    (tmp_path / "empty").mkdir()
    out = tmp_path / "curves.txt"
    r = invoke("plot", tmp_path / "empty", "--out", out)
    line = assert_clean_error(r, "--out must end")
    assert line == f"Error: --out must end in .png, .svg, .pdf (the picture's format), not {str(out)!r}."
    assert drawn == [] and sorted(p.name for p in tmp_path.iterdir()) == ["empty"]


def test_a_title_given_reaches_the_drawing_and_the_config_titles_the_rest(tmp_path, drawn):
    runs = [fake_run(tmp_path / n, config=CONFIG) for n in ("s0", "s1")]
    out = tmp_path / "p.svg"
    r = invoke("plot", *runs, "--out", out, "--title", "two seeds")
    assert r.exit_code == 0, r.output
    r = invoke("plot", *runs, "--out", out, "--x", "epoch")
    assert r.exit_code == 0, r.output
    assert [(d["title"], d["x"], d["labels"]) for d in drawn] == [
        ("two seeds", "step", ["s0", "s1"]),
        ("ln-lstm H=64 on digits (1 layer, adam lr 0.003, batch 16, seed 0)", "epoch", ["s0", "s1"])]
    assert r.stdout == f"Wrote {out} (2 runs, x = epoch).\n"


def test_two_heads_are_told_of_their_panels_in_one_line(tmp_path, drawn):
    a = fake_run(tmp_path / "clf", kind="classifier")
    b = fake_run(tmp_path / "reader", kind="ctc")
    c = fake_run(tmp_path / "clf2", kind="classifier")
    out = tmp_path / "p.svg"
    r = invoke("plot", a, b, c, "--out", out)
    assert r.exit_code == 0, r.output
    assert r.stdout == (f"Wrote {out} (3 runs, x = updates); their losses measure different things, so each has its "
                        "own panel: cross-entropy loss (nats) (clf, clf2); CTC loss (nats per line) (reader).\n")
    assert [d["title"] for d in drawn] == ["learning curves"]
