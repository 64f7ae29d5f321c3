"""lnrnn/data/tasks.py and taskdata.py in numbers: the MNIST family on non-square images written here (3 rows
of 5 pixels): mnist-rows one image row per step, mnist the pixels row after row; and a float64 batch scaled by
1/255 in float64 (pixel 255 reads exactly 1)."""
import numpy as np

from lnrnn.data import idx
from lnrnn.data.taskdata import TaskData
from lnrnn.data.tasks import load_task, task_spec

ROWS, COLS = 3, 5


def _write_mnist(folder):
    rng = np.random.default_rng(11)
    data = {}
    for split, n in (("train", 4), ("t10k", 2)):
        images = rng.integers(0, 256, (n, ROWS, COLS)).astype(np.uint8)
        labels = (np.arange(n) % 10).astype(np.uint8)
        idx.write_idx(folder / idx.MNIST_FILES[split][0], images)
        idx.write_idx(folder / idx.MNIST_FILES[split][1], labels)
        data[split] = images
    return data


def test_rows_of_non_square_images_are_the_steps(tmp_path):
    data = _write_mnist(tmp_path)
    t = load_task(task_spec("mnist-rows", str(tmp_path)))
    assert (t.steps, t.input_size) == (ROWS, COLS)
    assert t.x_train.shape == (4, ROWS, COLS) and t.x_val.shape == (2, ROWS, COLS)
    for i in range(4):
        for r in range(ROWS):
            assert t.x_train[i, r].tolist() == data["train"][i][r].tolist()      # step r: row r, left to right
    assert t.x_val[1, 2].tolist() == data["t10k"][1][2].tolist()
    assert f"row by row ({ROWS} steps of {COLS})" in t.description


def test_pixels_of_non_square_images_row_after_row(tmp_path):
    data = _write_mnist(tmp_path)
    t = load_task(task_spec("mnist", str(tmp_path)))
    assert (t.steps, t.input_size) == (ROWS * COLS, 1)
    img = data["train"][2]
    want = [int(img[r][c]) for r in range(ROWS) for c in range(COLS)]         # by hand: row-major
    assert t.x_train[2, :, 0].tolist() == want


def test_float64_batches_scale_in_float64():
    x = np.array([[[0], [255], [128], [1]]], np.uint8)                       # (1, T 4, I 1)
    t = TaskData({"task": "test"}, "pixels", x, np.array([0]), x, np.array([0]), num_classes=2, scale=1.0 / 255)
    xb, _ = t.batch("train", [0], np.float64)
    assert xb.dtype == np.float64
    assert xb[1, 0, 0] == 1.0                                                # 255 / 255
    assert xb[:, 0, 0].tolist() == [v * (1.0 / 255) for v in (0.0, 255.0, 128.0, 1.0)]
    xf, _ = t.batch("val", [0], np.float32)
    assert xf.dtype == np.float32
    assert xf[:, 0, 0].tolist() == [float(np.float32(v) * np.float32(1.0 / 255)) for v in (0, 255, 128, 1)]
