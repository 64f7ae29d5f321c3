"""One rule for the file names whose suffix says the format (lnrnn.files.named_suffix): a picture, an .npz of
points, a .safetensors export, a .csv or .npy of predictions. The suffix is read case-blind from the file's own
name; a name that is a suffix alone ('.png', 'runs/.safetensors': a hidden file with nothing before its dot) is
refused by every command before any work. The commands' early checks and their writers used to read names two
ways (``str.endswith`` and ``os.path.splitext``): lnrnn sample --out .svg passed the command's check, sampled
every point, and was refused by the drawing."""
import os

import pytest
from click.testing import CliRunner

from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.files import named_suffix

PICTURES = (".png", ".svg", ".pdf")


@pytest.mark.parametrize("name, want", [
    ("a.png", ".png"), ("a.PNG", ".png"), ("dir.d/A.Svg", ".svg"), (".hidden.pdf", ".pdf"),
    ("a", None), ("a.png.txt", None), ("a.jpg", None), ("dir.png/a", None), ("a.", None), ("png", None),
])
def test_the_suffix_is_read_from_the_file_name_case_blind(name, want):
    assert named_suffix(name, PICTURES) == want


@pytest.mark.parametrize("name", [".png", ".PNG", "runs/.svg", os.path.join("a", "b", ".Pdf")])
def test_a_name_that_is_a_suffix_alone_is_refused_naming_the_option(name):
    with pytest.raises(UserError) as e:
        named_suffix(name, PICTURES, "--picture")
    said = str(e.value)
    assert said.startswith(f"--picture {name!r} is a suffix alone")
    assert said.endswith(f"before {os.path.basename(name)}.")


def test_a_hidden_name_of_another_suffix_is_no_suffix_not_an_error():
    assert named_suffix(".bashrc", PICTURES) is None
    with pytest.raises(UserError):
        named_suffix("runs/.npz", (".npz",), "--npz")


def refused_before_work(tmp_path, monkeypatch, args, *words):
    """Exit 2, one 'Error:' line naming words, no traceback, nothing written in tmp_path."""
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output + repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert lines and lines[-1].startswith("Error:") and sum(ln.startswith("Error:") for ln in lines) == 1, r.stderr
    for w in words:
        assert w in lines[-1], (w, lines[-1])
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args, option, name", [
    (["plot", "no-run", "--out", ".png"], "--out", ".png"),
    (["plot", "no-run", "--out", "d/.SVG"], "--out", "d/.SVG"),
    (["sample", "--checkpoint", "no-run", "--out", ".svg"], "--out", ".svg"),
    (["sample", "--checkpoint", "no-run", "--out", "s.svg", "--npz", "d/.npz"], "--npz", "d/.npz"),
    (["export", "--checkpoint", "no-run", "--out", ".safetensors"], "--out", ".safetensors"),
    (["export", "--checkpoint", "no-run", "--out", "w/.SafeTensors"], "--out", "w/.SafeTensors"),
    (["predict", "--checkpoint", "no-run", "--input", "x.npy", "--out", ".csv"], "--out", ".csv"),
    (["predict", "--checkpoint", "no-run", "--input", "x.npy", "--out", "p/.NPY"], "--out", "p/.NPY"),
])
def test_every_command_refuses_a_suffix_alone_before_it_looks_at_the_run(tmp_path, monkeypatch, args, option, name):
    refused_before_work(tmp_path, monkeypatch, args, f"{option} {name!r} is a suffix alone")


@pytest.mark.parametrize("args", [
    ["sample", "--checkpoint", "no-run", "--out", "s.jpg"],
    ["sample", "--checkpoint", "no-run", "--out", "s"],
    ["sample", "--checkpoint", "no-run", "--out", "s.png.txt"],
])
def test_sample_refuses_a_picture_suffix_before_it_looks_at_the_run(tmp_path, monkeypatch, args):
    """The command checks the name with the drawing's own rule (training.plot.picture_format) before the checkpoint
    is read: a missing run is not what it reports."""
    refused_before_work(tmp_path, monkeypatch, args, "--out must end in .png, .svg, .pdf", args[-1])


def test_the_drawing_and_the_command_agree_on_every_name():
    """What the sample and plot commands let through, the drawings write in that format: one function decides
    for samples and curves alike."""
    import lnrnn.commands.plot as plot_command
    import lnrnn.sample as sample
    from lnrnn.training.plot import picture_format

    assert sample.picture_format is picture_format and plot_command.picture_format is picture_format

    for name, fmt in (("a.PNG", "png"), ("b.svg", "svg"), ("c.Pdf", "pdf"), (".x.png", "png")):
        assert picture_format(name) == fmt
    for name in ("a.jpg", "a", ".png", "d/.svg"):
        with pytest.raises(UserError):
            picture_format(name)
