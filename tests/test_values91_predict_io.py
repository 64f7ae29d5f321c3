"""lnrnn/predict_io.py: predict's inputs refused in one line before any work (a 1-D or 4-D array, too few or too
many inputs per step, no input at all), the (N,T) shortcut of one input per step, IDX images read the way each
MNIST-family task reads its own (pixel order, pmnist's fixed permutation redrawn here from its definition, rows;
scaled by 1/255) and a folder's IDX images files found under both the dashed and the dotted names, in name
order, with nothing else taken."""
import gzip
import os
import struct

import numpy as np
import pytest

from lnrnn.data.tasks import DATA_SEED
from lnrnn.errors import DataError, UserError
from lnrnn.predict_io import _read_one, check_inputs, input_files, read_inputs


def idx_images(images):
    """The IDX format by its definition: 0, 0, type 0x08 (uint8), the number of axes, each size as a big-endian
    uint32, then the bytes."""
    images = np.asarray(images, np.uint8)
    return struct.pack(">BBBB", 0, 0, 0x08, images.ndim) + struct.pack(f">{images.ndim}I", *images.shape) \
        + images.tobytes()


def pmnist_order(n):
    """pmnist's pixel order as its docstring defines it: seeded permutations drawn until one moves every pixel."""
    rng = np.random.default_rng(DATA_SEED)
    while True:
        perm = rng.permutation(n)
        if all(perm[i] != i for i in range(n)):
            return perm


@pytest.mark.parametrize("shape", [(5,), (2, 3, 1, 1), ()])
def test_arrays_of_other_ranks_are_refused_naming_the_shapes_read(shape):
    with pytest.raises(UserError) as e:
        check_inputs(np.zeros(shape, np.float32), 1)
    line = str(e.value)
    assert "(N,T) or (N,T,I)" in line and str(shape) in line and "\n" not in line


@pytest.mark.parametrize("inputs,model", [(1, 2), (2, 3), (3, 2), (2, 1)])
def test_another_input_width_is_refused_naming_both(inputs, model):
    x = np.ones((2, 4, inputs), np.float32)
    with pytest.raises(UserError) as e:
        check_inputs(x, model, "the run in r")
    line = str(e.value)
    assert f"{inputs} input" in line and f"reads {model}" in line and f"(N,T,{model})" in line


def test_one_input_per_step_may_drop_its_axis():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    got = check_inputs(x, 1)
    assert got.shape == (2, 3, 1)
    for n in range(2):
        for t in range(3):
            assert got[n, t, 0] == x[n, t]
    with pytest.raises(UserError):
        check_inputs(x, 2)


def test_no_input_at_all_is_one_line_naming_the_option():
    with pytest.raises(UserError) as e:
        read_inputs([], "digits", 1)
    assert "--input" in str(e.value)


@pytest.mark.parametrize("task", ["mnist", "pmnist", "mnist-rows"])
def test_idx_images_are_read_as_the_task_reads_its_own(tmp_path, task):
    rng = np.random.default_rng(3)
    images = rng.integers(0, 256, size=(3, 4, 5)).astype(np.uint8)
    path = tmp_path / "t10k-images-idx3-ubyte"
    path.write_bytes(idx_images(images))
    got = _read_one(str(path), task)
    n, rows, cols = images.shape
    if task == "mnist-rows":      # each row one step of cols inputs
        want = [[[images[k, r, c] / 255.0 for c in range(cols)] for r in range(rows)] for k in range(n)]
    else:                         # each pixel one step, row-major; pmnist in its fixed order
        order = pmnist_order(rows * cols) if task == "pmnist" else range(rows * cols)
        flat = [[images[k].ravel()[i] for i in range(rows * cols)] for k in range(n)]
        want = [[[flat[k][i] / 255.0] for i in order] for k in range(n)]
    np.testing.assert_allclose(got, np.array(want), rtol=1e-6, atol=0)
    assert got.dtype == np.float32


def test_pmnist_order_moves_every_pixel_and_is_not_the_plain_order(tmp_path):
    images = np.arange(12, dtype=np.uint8).reshape(1, 3, 4)
    path = tmp_path / "x-images-idx3-ubyte"
    path.write_bytes(idx_images(images))
    plain = _read_one(str(path), "mnist")[0, :, 0] * 255
    perm = _read_one(str(path), "pmnist")[0, :, 0] * 255
    np.testing.assert_allclose(plain, np.arange(12), atol=1e-4)
    assert sorted(np.rint(perm).astype(int)) == list(range(12))
    assert all(round(float(v)) != i for i, v in enumerate(perm))


def test_a_folder_gives_its_idx_images_files_under_either_name_in_order(tmp_path):
    images = np.zeros((1, 2, 2), np.uint8)
    names = ["t10k-images.idx3-ubyte", "train-images-idx3-ubyte.gz", "a-images-idx3-ubyte"]
    for name in names:
        raw = idx_images(images)
        (tmp_path / name).write_bytes(gzip.compress(raw) if name.endswith(".gz") else raw)
    (tmp_path / "t10k-labels-idx1-ubyte").write_bytes(b"\0\0\x08\x01\0\0\0\x01\0")
    (tmp_path / "notes.txt").write_text("x")
    os.mkdir(tmp_path / "b-images-idx3-ubyte")   # a folder of that name is no file
    assert input_files(str(tmp_path)) == [str(tmp_path / n) for n in sorted(names)]
    x, where = read_inputs([tmp_path], "mnist", 1)
    assert x.shape == (3, 4, 1)
    want = [(name, i, 1) for i, name in enumerate(sorted(names))]   # one image each, counted in name order
    assert [(os.path.basename(f), start, n) for f, start, n in where] == want


def test_a_folder_with_only_the_dotted_name_is_read(tmp_path):
    images = np.full((2, 2, 3), 51, np.uint8)
    (tmp_path / "t10k-images.idx3-ubyte").write_bytes(idx_images(images))
    x, _ = read_inputs([tmp_path], "mnist-rows", 3)
    np.testing.assert_allclose(x, np.full((2, 2, 3), 51 / 255.0), rtol=1e-6)


def test_a_folder_without_idx_images_is_refused_in_one_line(tmp_path):
    (tmp_path / "x.npy").write_bytes(b"")
    with pytest.raises(DataError) as e:
        input_files(str(tmp_path))
    assert "holds no IDX images file" in str(e.value)
