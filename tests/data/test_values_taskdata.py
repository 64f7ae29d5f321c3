"""lnrnn/data/taskdata.py: a TaskData's sizes and shape by axis (T differs from I), and batches that are the
chosen samples, time-major, in the asked dtype, scaled (1/255 for uint8 pixels) or left as stored."""
import numpy as np
import pytest

from lnrnn.data.taskdata import TaskData

N_TRAIN, N_VAL, T, I = 6, 3, 5, 2


def _task(scale=1.0 / 255):
    rng = np.random.default_rng(0)
    return TaskData(spec={"task": "test"}, description="test sequences",
                    x_train=rng.integers(0, 256, (N_TRAIN, T, I)).astype(np.uint8), y_train=np.arange(N_TRAIN) % 4,
                    x_val=rng.integers(0, 256, (N_VAL, T, I)).astype(np.uint8), y_val=np.arange(N_VAL) % 4,
                    num_classes=4, scale=scale)


def test_sizes_and_shape():
    t = _task()
    assert (t.size("train"), t.size("val")) == (N_TRAIN, N_VAL)
    assert (t.steps, t.input_size) == (T, I)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_batches_are_the_samples_time_major_and_scaled(dtype):
    t = _task()
    idx = np.array([4, 1, 5])
    x, y = t.batch("train", idx, dtype)
    assert x.shape == (T, 3, I) and x.dtype == dtype and x.flags.c_contiguous
    for j, i in enumerate(idx):
        for s in range(T):
            np.testing.assert_allclose(x[s, j], t.x_train[i, s].astype(np.float64) / 255, rtol=1e-6)
    np.testing.assert_array_equal(y, [0, 1, 1])
    assert x.max() <= 1.0 and x.max() > 0.5
    xv, yv = t.batch("val", [2, 0], dtype)
    np.testing.assert_allclose(xv[:, 0], t.x_val[2] / 255, rtol=1e-6)
    np.testing.assert_array_equal(yv, [2, 0])


def test_unit_scale_leaves_the_values():
    t = _task(scale=1.0)
    x, _ = t.batch("val", [1], np.float64)
    np.testing.assert_array_equal(x[:, 0], t.x_val[1])
