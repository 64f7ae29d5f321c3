"""lnrnn/data/kanjivg.py on what a user may hand it, each wrong input refused as one DataError sentence naming
it (never a traceback): a --data-dir that is a file, a truncated SVG, path data whose numbers come before any
command; without the kanjivg package, a refusal that gives both ways on (the install command and --data-dir with a
folder of SVG files) and the data's licence. A task built from a folder of five latin designs and one kana
without a charset draws the documented default, latin, and says how its designs are split: held out for a writer,
every design in both splits for a reader (--head ctc)."""
import importlib.metadata

import pytest

from lnrnn.data import kanjivg
from lnrnn.data.tasks import load_task, task_spec

from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke
from test_values170_stroke_files import refusal  # the text of the DataError a call raises

STROKES = ["M 20 20 L 80 20", "M 50 20 C 50 40 50 60 50 90"]


@pytest.fixture
def folder(tmp_path):
    """Designs of 0, 1, A, a, z (latin) and of hiragana a (kana), one file each, named by code point."""
    d = tmp_path / "kanjivg"
    d.mkdir()
    for c in "01Aaz\u3042":
        (d / f"{ord(c):05x}.svg").write_bytes(svg(STROKES))
    return d


def test_a_data_dir_that_is_a_file_is_one_sentence(folder):
    one = folder / "00030.svg"
    got = refusal(kanjivg.folder_files, str(one))
    assert got.startswith(f"KanjiVG folder {one} ") and got.count(".") >= 1 and "\n" not in got


def test_a_truncated_svg_is_named(folder):
    path = folder / "00031.svg"
    raw = path.read_bytes()
    path.write_bytes(raw[:len(raw) // 2])
    got = refusal(kanjivg.read_design, str(path))
    assert got.startswith(f"{path} is malformed or truncated XML (") and got.endswith(").")


def test_numbers_before_any_command_are_named():
    got = refusal(kanjivg.path_polylines, "10 20 L 30 40", "x.svg")
    assert got == "x.svg: path data '10 20 L 30 40' does not start with a command."


def test_without_the_package_both_ways_on_are_given(monkeypatch):
    def absent(name):
        raise importlib.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(importlib.metadata, "distribution", absent)
    got = refusal(kanjivg.installed_files)
    assert kanjivg.INSTALL_HINT in got and "CC BY-SA 3.0" in got
    assert "--data-dir" in got and "folder" in got and "SVG" in got


def test_the_default_charset_is_latin(folder):
    t = load_task(task_spec("strokes-kanjivg", str(folder), split="4/2"))
    assert t.extra["charset"] == "latin"
    assert set("".join(t.texts_train)) <= set("01Aaz")
    assert "KanjiVG latin characters (5 designs" in t.description


@pytest.mark.parametrize("head, says, not_says", [
    (None, "held out for validation", "every design in both splits"),
    ("ctc", "every design in both splits", "held out for validation"),
])
def test_the_description_says_how_designs_are_split(folder, head, says, not_says):
    options = {} if head is None else {"head": head}
    t = load_task(task_spec("strokes-kanjivg", str(folder), split="4/2", **options))
    assert says in t.description and not_says not in t.description, t.description
