"""A user's file that the system cannot read or that is damaged, met by the except clauses of five modules, is
one sentence naming it (never a traceback), and a file system without hard links still keeps checkpoints: a
--config that is a folder (the reason in words as os.strerror gives it); lnrnn read of an .npz cut in half; a
sketch-rnn .npz of pickled train/valid sequences read without allow_pickle (the pickle refusal and its advice); an
npz-task file whose x is an object array; lnrnn predict of an input the file system answers with an I/O error;
--keep where os.link fails with EXDEV (another device), the arrays copied, the kept checkpoint loading as saved."""
import errno
import os

import numpy as np
import pytest

from lnrnn.data import arrays
from lnrnn.data import stroke_files
from lnrnn.errors import UserError
from lnrnn.predict_io import read_inputs
from lnrnn.training import checkpoint as ck
from lnrnn.training.runconfig import read_config_file

from test_values170_stroke_files import refusal  # the text of the DataError a call raises
from test_values370_optim_checkpoint import MODEL   # a small model config a checkpoint names


def sequences():
    """Two stroke-3 sequences as an object array (sketch-rnn's layout)."""
    seqs = np.empty(2, dtype=object)
    seqs[0] = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 1.0]])
    seqs[1] = np.array([[2.0, 2.0, 0.0], [1.0, 1.0, 0.0], [0.0, 3.0, 1.0]])
    return seqs


def test_a_config_that_is_a_folder_is_one_sentence(tmp_path):
    path = tmp_path / "settings.json"
    path.mkdir()
    with pytest.raises(UserError) as e:
        read_config_file(str(path))
    assert str(e.value) == f"--config {path} cannot be read ({os.strerror(errno.EISDIR)})."


def test_reading_lines_from_an_npz_cut_in_half_is_one_sentence(tmp_path):
    path = tmp_path / "lines.npz"
    np.savez(path, points=np.concatenate(list(sequences())), lengths=np.array([2, 3]))
    raw = path.read_bytes()
    path.write_bytes(raw[:len(raw) // 2])
    got = refusal(stroke_files.read_lines, str(path))
    assert got.startswith(f"{path} is not a readable .npz/.npy file (") and got.endswith(").")


def test_a_sketch_rnn_npz_without_allow_pickle_is_the_pickle_refusal(tmp_path):
    path = tmp_path / "sketch.npz"
    np.savez(path, train=sequences(), valid=sequences())
    got = refusal(stroke_files.load, str(path))
    assert got == (f"{path} holds object arrays that need pickle, which can run arbitrary code; "
                   f"{stroke_files.PICKLE_HINT}.")
    assert len(stroke_files.load(str(path), allow_pickle=True)["train"]) == 2   # trusted: read


def test_an_npz_task_object_array_is_one_sentence(tmp_path):
    path = tmp_path / "mine.npz"
    np.savez(path, x=sequences(), y=np.array([0, 1]))
    got = refusal(arrays.read_file, str(path))
    assert got.startswith(f"{path}: array x is an object array (it would need pickle")


def test_predict_input_with_an_io_error_is_one_sentence(tmp_path, monkeypatch):
    path = tmp_path / "x.npy"
    np.save(path, np.zeros((2, 5, 1), np.float32))

    def failing(p):
        raise OSError(errno.EIO, os.strerror(errno.EIO), str(p))
    monkeypatch.setattr(arrays, "numpy_kind", failing)
    got = refusal(read_inputs, [str(path)], None, 1)
    assert got == f"cannot read {path}: {os.strerror(errno.EIO)}."


def test_keep_copies_where_hard_links_fail(tmp_path, monkeypatch):
    d = str(tmp_path / "run")
    ck.save_checkpoint(d, {"w": np.arange(5.0)}, {"step": 7, "model": MODEL})

    def no_links(src, dst, **kw):
        raise OSError(errno.EXDEV, os.strerror(errno.EXDEV), src)
    monkeypatch.setattr(os, "link", no_links)
    ck.keep_past(d, 1)
    kept = os.path.join(d, "checkpoints", "update-000000007")
    meta, arrs = ck.load_checkpoint(kept, expected_model=MODEL)
    assert meta["step"] == 7 and np.array_equal(arrs["w"], np.arange(5.0))
    assert os.stat(os.path.join(kept, meta["arrays_file"])).st_nlink == 1        # a copy, not a link
