"""lnrnn plot through click's CliRunner, the pictures read back: one run folder given twice under two spellings
(r and ./r, r and a link to it) is refused in one 'Error:' line before any run is read, with nothing written;
two runs whose folders share a name are labelled by their paths in the Curves drawn and in the written SVG's
legend; a PNG written is a PNG of the size matplotlib's reader says; an --out ending in a separator, naming a
folder or with a suffix that is no picture format is refused before any run is read."""
import json
import os
import re

import pytest

from lnrnn.commands import plot as plot_cmd

from test_cli import assert_clean_error, invoke


def fake_run(folder, acc):
    os.makedirs(folder)
    rows = [{"epoch": e, "step": 10 * e, "samples": 100 * e, "lr": 0.003, "train_loss": 1.0 / e, "train_acc": acc / 2,
             "val_loss": 1.1 / e, "val_acc": acc, "time_s": float(e)} for e in (1, 2)]
    with open(os.path.join(folder, "metrics.jsonl"), "w") as f:
        f.write("".join(json.dumps(r) + "\n" for r in rows))


def no_reading(monkeypatch):
    monkeypatch.setattr(plot_cmd, "read_run_curves", lambda *a: pytest.fail("a run was read"))
    monkeypatch.setattr(plot_cmd, "write_learning_curves", lambda *a, **k: pytest.fail("drawn"))


@pytest.mark.parametrize("second", ["./r", "link"])
def test_one_run_twice_is_refused_before_reading(tmp_path, monkeypatch, second):
    monkeypatch.chdir(tmp_path)
    fake_run("r", 0.5)
    os.symlink("r", "link")
    no_reading(monkeypatch)
    r = invoke("plot", "r", second, "--out", "c.svg")
    line = assert_clean_error(r, f"r and {second} are the same run folder")
    assert line == f"Error: r and {second} are the same run folder; give each run once."
    assert sorted(os.listdir(tmp_path)) == ["link", "r"]


def test_runs_sharing_a_name_are_labelled_by_their_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    fake_run(os.path.join("a", "r"), 0.5)
    fake_run(os.path.join("b", "r"), 0.7)
    drawn = []
    real = plot_cmd.write_learning_curves

    def spy(out, data, **k):
        drawn.append([d.label for d in data])
        return real(out, data, **k)

    monkeypatch.setattr(plot_cmd, "write_learning_curves", spy)
    r = invoke("plot", os.path.join("a", "r"), os.path.join("b", "r"), "--out", "c.svg")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert drawn == [[os.path.join("a", "r"), os.path.join("b", "r")]]
    text = open("c.svg", encoding="utf-8").read()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    assert sorted(set(re.findall(r">([^<>]+) \(final validation", text))) == [os.path.join("a", "r"),
                                                                              os.path.join("b", "r")]


def test_a_png_is_written_and_reads_back(tmp_path):
    import matplotlib.image
    fake_run(tmp_path / "r", 0.5)
    out = tmp_path / "pics" / "c.png"                                          # a folder that does not exist yet
    r = invoke("plot", tmp_path / "r", "--out", out)
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    img = matplotlib.image.imread(str(out))
    assert img.ndim == 3 and img.shape[0] > 100 and img.shape[1] > 100
    assert os.listdir(tmp_path / "pics") == ["c.png"]                          # no temp file left


@pytest.mark.parametrize("out, words", [("pics" + os.sep, "names a folder; give a file name"),  # before the suffix
                                        ("d.svg", "is a directory"),
                                        ("c.txt", "c.txt")])
def test_a_bad_out_is_refused_before_reading(tmp_path, monkeypatch, out, words):
    monkeypatch.chdir(tmp_path)
    fake_run("r", 0.5)
    os.mkdir("d.svg")
    no_reading(monkeypatch)
    assert_clean_error(invoke("plot", "r", "--out", out), words)
    assert sorted(os.listdir(tmp_path)) == ["d.svg", "r"] and os.listdir("d.svg") == []
