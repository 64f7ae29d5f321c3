"""NumPy files whose header promises an array far larger than any memory (a few damaged header bytes can): numpy
raises MemoryError when it allocates the array, and every reader of such files refuses them in one sentence naming
the file, not a traceback: the npz task's file (an .npz member, or a .npy), a strokes file, lnrnn read's lines, a
sampler's --prime-strokes, predict's inputs and a checkpoint's arrays file; lnrnn train --task npz exits with one
Error line."""
import io
import json
import zipfile

import numpy as np
import pytest

from lnrnn import sample
from lnrnn.data import arrays, stroke_files
from lnrnn.errors import CheckpointError, UserError
from lnrnn.predict_io import read_inputs
from lnrnn.training import checkpoint

from test_cli import assert_clean_error, invoke
from test_values170_stroke_files import refusal  # the text of the DataError a call raises

HUGE = (10**8, 10**8)   # 8e16 bytes of float64: beyond any address space, so allocating it fails everywhere
PROMISE = "Unable to allocate"


def npy_bytes(shape, dtype="<f8"):
    """A .npy header promising ``shape`` of ``dtype``, followed by 32 bytes of data."""
    out = io.BytesIO()
    np.lib.format.write_array_header_1_0(out, {"descr": dtype, "fortran_order": False, "shape": shape})
    out.write(np.zeros(4).tobytes())
    return out.getvalue()


def npz_with(path, **members):
    """An .npz (a plain zip) whose members are the raw .npy bytes given."""
    with zipfile.ZipFile(path, "w") as z:
        for name, raw in members.items():
            z.writestr(name + ".npy", raw)
    return path


def small(*shape):
    return npy_bytes(shape)[:-32] + np.zeros(shape).tobytes()


def too_large(got, what):
    assert got.startswith(f"{what} holds an array too large for the memory free ({PROMISE} "), got
    assert got.endswith("; if the file should be small, it is damaged."), got
    assert "\n" not in got


def test_the_npz_task_member(tmp_path):
    path = npz_with(tmp_path / "d.npz", x=npy_bytes(HUGE), y=small(3))
    too_large(refusal(arrays.read_file, str(path)), f"{path}: array x")


def test_the_npz_task_given_a_npy(tmp_path):
    path = tmp_path / "d.npy"
    path.write_bytes(npy_bytes(HUGE))
    too_large(refusal(arrays.read_file, str(path)), str(path))


def test_train_on_it_is_one_error_line(tmp_path):
    path = npz_with(tmp_path / "d.npz", x=npy_bytes(HUGE), y=small(3))
    out = tmp_path / "run"
    line = assert_clean_error(invoke("train", "--task", "npz", "--data-dir", path, "--out", out, "--epochs", 1),
                              "too large for the memory free")
    assert str(path) in line


@pytest.mark.parametrize("kind", ["npy", "npz"])
def test_a_strokes_file(tmp_path, kind):
    path = tmp_path / f"s.{kind}"
    if kind == "npy":
        path.write_bytes(npy_bytes(HUGE))
    else:
        npz_with(path, strokes=npy_bytes((10**16, 3)), lengths=small(2))
    too_large(refusal(stroke_files.load, str(path)), str(path))


def huge_points(path):
    """A stroke-3 file of 10**16 points: a .npy, or an .npz whose points array is that .npy -> path."""
    raw = npy_bytes((10**16, 3))
    if path.suffix == ".npy":
        path.write_bytes(raw)
        return path
    return npz_with(path, points=raw)


@pytest.mark.parametrize("kind", ["npy", "npz"])
def test_the_lines_lnrnn_read_takes(tmp_path, kind):
    path = huge_points(tmp_path / f"lines.{kind}")
    too_large(refusal(stroke_files.read_lines, str(path)), str(path))


@pytest.mark.parametrize("kind", ["npy", "npz"])
def test_prime_strokes(tmp_path, kind):
    path = huge_points(tmp_path / f"p.{kind}")
    with pytest.raises(UserError) as e:
        sample.read_stroke3(str(path), "--prime-strokes")
    too_large(str(e.value), f"--prime-strokes {path}")


def test_predict_inputs(tmp_path):
    path = tmp_path / "x.npy"
    path.write_bytes(npy_bytes((10**8, 784, 10**4), "<f4"))
    too_large(refusal(read_inputs, [str(path)], "mnist", 1), str(path))


def test_a_checkpoint_whose_arrays_file_matches_its_digest(tmp_path):
    """The digest guards against damage after the save; a file written (or damaged) before the digest was taken
    passes it, and its header is read next."""
    checkpoint.save_checkpoint(tmp_path, {"w": np.zeros(3)}, {"model": {"cell": "lstm"}, "step": 1})
    record = json.loads((tmp_path / checkpoint.DESCRIPTION).read_text())
    npz = npz_with(tmp_path / record["arrays_file"], w=npy_bytes(HUGE))
    record["arrays_sha256"] = checkpoint._sha256(npz)
    (tmp_path / checkpoint.DESCRIPTION).write_text(json.dumps(record))
    with pytest.raises(CheckpointError) as e:
        checkpoint.load_checkpoint(str(tmp_path))
    too_large(str(e.value), f"checkpoint arrays file {npz}")
