"""Output checks of predict's --out (lnrnn/predict_io.py check_out and write_predictions) and of every command's
output file (lnrnn/files.py), each refusal read word for word with nothing written: a name ending in a separator,
a name that is a folder, a suffix that disagrees with the table formats (.npz, .txt; .CSV taken as .csv), folders
that do not exist yet made and written into, and a folder that cannot be made (a read-only file system met by
os.makedirs) refused naming the option the command was given."""
import errno
import os
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn import files
from lnrnn.errors import UserError
from lnrnn.predict_io import check_out, write_predictions

TABLE = SimpleNamespace(classes=np.array([1, 0]), probability=np.array([0.75, 0.5]))


def _everything(folder):
    return sorted(os.path.relpath(os.path.join(d, n), folder) for d, ds, fs in os.walk(folder) for n in ds + fs)


def _refused(call, *args):
    with pytest.raises(UserError) as e:
        call(*args)
    return str(e.value)


@pytest.mark.parametrize("name", ["p.npz", "p.txt", "p"])
def test_suffix_other_than_csv_or_npy_refused_and_nothing_written(tmp_path, name):
    path = str(tmp_path / "new" / name)
    said = f"--out must end in .csv or .npy, not {path!r}."
    assert _refused(check_out, path) == said
    assert _refused(write_predictions, path, TABLE) == said
    assert _everything(tmp_path) == []


def test_upper_case_csv_is_csv_and_missing_folders_are_made(tmp_path):
    path = tmp_path / "a" / "b" / "P.CSV"
    assert write_predictions(str(path), TABLE) == 2
    assert path.read_text() == "index,class,probability\n0,1,0.75\n1,0,0.5\n"
    assert _everything(tmp_path) == ["a", os.path.join("a", "b"), os.path.join("a", "b", "P.CSV")]


def test_trailing_separator_and_folder_names_refused_and_nothing_written(tmp_path):
    (tmp_path / "d.csv").mkdir()
    slash = str(tmp_path / "out") + os.sep
    assert _refused(write_predictions, slash, TABLE) == f"--out {slash!r} names a folder; give a file name."
    folder = str(tmp_path / "d.csv")
    assert _refused(write_predictions, folder, TABLE) == f"--out {folder} is a folder; give a file name inside it."
    assert _everything(tmp_path) == ["d.csv"]


def test_folder_that_cannot_be_made_refused_naming_the_option(tmp_path, monkeypatch):
    def read_only(folder, exist_ok=False):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), folder)

    monkeypatch.setattr(files.os, "makedirs", read_only)
    path = str(tmp_path / "sub" / "s.npz")
    assert _refused(files.write_output_file, path, lambda f: f.write(b"1"), "--npz") == (
        f"cannot create the folder {tmp_path / 'sub'} for --npz {path} (Read-only file system); choose another --npz.")
    assert _refused(files.prepare_output_file, path, "--judge-out") == (
        f"cannot create the folder {tmp_path / 'sub'} for --judge-out {path} (Read-only file system); choose another "
        "--judge-out.")
    monkeypatch.undo()
    assert _everything(tmp_path) == []
