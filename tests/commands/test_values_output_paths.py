"""The edge cases of every output path lnrnn writes (lnrnn.files and its callers: pictures of samples and
curves, predictions, exported weights): a trailing separator, an empty name, a name that is a folder, a
folder that does not exist yet (created when written, not when checked), a file where a folder should
be, and a suffix in capitals or one that disagrees with the format. Each refusal is one sentence and
leaves nothing behind; each accepted path holds a file of the format its suffix names."""
import os

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.files import check_output_file, write_output_file


def listing(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, dirs, files in os.walk(root) for n in dirs + files)


@pytest.fixture
def here(tmp_path, monkeypatch):
    """An empty working folder holding one file, a.txt, and one folder, sub/."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text("keep")
    (tmp_path / "sub").mkdir()
    return tmp_path


@pytest.mark.parametrize("path,words", [
    ("", "names no file"),
    ("out" + os.sep, "names a folder"),
    ("new" + os.sep + "out" + os.sep, "names a folder"),
    ("sub", "is a folder"),
    ("sub" + os.sep, "names a folder"),
    (os.path.join("a.txt", "out.png"), "a.txt is a file, not a folder"),
    (os.path.join("a.txt", "deeper", "out.png"), "a.txt is a file, not a folder"),
])
def test_refused_paths_are_one_sentence_and_create_nothing(here, path, words):
    before = listing(here)
    with pytest.raises(UserError, match=None) as e:
        check_output_file(path, "--out")
    assert words in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(UserError):
        write_output_file(path, lambda f: f.write(b"x"))
    assert listing(here) == before and (here / "a.txt").read_text() == "keep"


@pytest.mark.parametrize("path", ["out.bin", os.path.join("sub", "out.bin"), os.path.join("new", "deeper", "out.bin")])
def test_accepted_paths_are_checked_without_creating_and_written_with_their_folders(here, path):
    before = listing(here)
    assert check_output_file(path, "--out") == path
    assert listing(here) == before                        # the check creates nothing
    write_output_file(path, lambda f: f.write(b"first"))
    assert open(path, "rb").read() == b"first"
    write_output_file(path, lambda f: f.write(b"second"))
    assert open(path, "rb").read() == b"second"


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(here):
    write_output_file("out.bin", lambda f: f.write(b"old"))

    def broken(f):
        f.write(b"half")
        raise OSError(28, "No space left on device")
    with pytest.raises(UserError, match="free some space"):
        write_output_file("out.bin", broken)
    assert open("out.bin", "rb").read() == b"old" and listing(here) == ["a.txt", "out.bin", "sub"]


# ---- the callers: each format by its suffix

def stroke_lines():
    pts = np.array([[0, 0, 0], [1, 0.5, 0], [0.5, -1, 1], [1, 1, 0], [0.2, 0.3, 1]], np.float64)
    return [pts, pts[::-1].copy()]


MAGIC = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}


@pytest.mark.parametrize("name", ["s.png", "s.SVG", "s.Pdf"])
def test_sample_pictures_by_their_suffix_in_a_new_folder(here, name):
    from lnrnn.sample import draw_strokes
    path = os.path.join("new", name)
    draw_strokes(stroke_lines(), path, title="t")
    assert open(path, "rb").read(5).startswith(MAGIC[name[2:].lower()])


@pytest.mark.parametrize("name", ["s.gif", "s.png" + os.sep, "s", "png"])
def test_sample_pictures_refuse_other_suffixes_and_write_nothing(here, name):
    from lnrnn.sample import draw_strokes
    with pytest.raises(UserError, match="--out must end in"):
        draw_strokes(stroke_lines(), name)
    assert listing(here) == ["a.txt", "sub"]


@pytest.mark.parametrize("name", ["c.svg", "c.PNG", "c.pdf"])
def test_learning_curves_by_their_suffix_in_a_new_folder(here, name):
    from lnrnn.training.plot import write_learning_curves
    rows = [{"epoch": e, "step": 7 * e, "samples": 100 * e, "train_loss": 2.0 / e, "val_loss": 2.1 / e,
             "time_s": float(e)} for e in (1, 2)]
    path = os.path.join("new", name)
    write_learning_curves(path, [("run", rows, [])])
    assert open(path, "rb").read(5).startswith(MAGIC[name[2:].lower()])


@pytest.mark.parametrize("name", ["c.jpg", "c.svg" + os.sep, "c"])
def test_learning_curves_refuse_other_suffixes(here, name):
    from lnrnn.training.plot import write_learning_curves
    with pytest.raises(UserError, match="--out must end in"):
        write_learning_curves(name, [("run", [{"epoch": 1, "step": 1, "val_loss": 1.0}], [])])
    assert listing(here) == ["a.txt", "sub"]


class Predictions:
    classes = np.array([2, 0, 1])
    probability = np.array([0.5, 0.25, 0.875])


@pytest.mark.parametrize("name", ["p.npy", "p.NPY", "p.Npy"])
def test_predictions_npy_by_its_suffix(here, name):
    from lnrnn.predict_io import write_predictions
    path = os.path.join("new", name)
    write_predictions(path, Predictions)
    table = np.load(path, allow_pickle=False)
    assert table["index"].tolist() == [0, 1, 2] and table["class"].tolist() == [2, 0, 1]
    assert table["probability"].tolist() == [0.5, 0.25, 0.875]


@pytest.mark.parametrize("name", ["p.csv", "p.CSV"])
def test_predictions_csv_by_its_suffix(here, name):
    from lnrnn.predict_io import write_predictions
    path = os.path.join("new", name)
    write_predictions(path, Predictions)
    assert open(path).read().splitlines() == ["index,class,probability", "0,2,0.5", "1,0,0.25", "2,1,0.875"]


@pytest.mark.parametrize("name", ["p.txt", "p.csv" + os.sep, "sub", "p.npz"])
def test_predictions_refuse_other_names(here, name):
    from lnrnn.predict_io import write_predictions
    with pytest.raises(UserError):
        write_predictions(name, Predictions)
    assert listing(here) == ["a.txt", "sub"]


def test_exported_weights_in_a_new_folder_read_back(here):
    from lnrnn.interop.export import read_safetensors, write_safetensors
    tensors = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.array([1.5, -2.0])}
    path = os.path.join("new", "deeper", "w.safetensors")
    write_safetensors(path, tensors, {"k": "v"})
    got, meta = read_safetensors(path)
    assert got.keys() == tensors.keys() and all(np.array_equal(got[k], tensors[k]) for k in tensors)
    assert meta == {"k": "v"}
    with pytest.raises(UserError, match="names a folder"):
        write_safetensors(os.path.join("new", "w") + os.sep, tensors)
