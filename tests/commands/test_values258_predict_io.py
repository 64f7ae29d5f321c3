"""Inputs and tables of lnrnn predict (lnrnn/predict_io.py) against hand computations: sequences of 0 inputs per
step refused word for word ('0 inputs', plural), IDX images written byte by byte read one row per step for
mnist-rows and one pixel per step for mnist, scaled by 1/255; per-step regression rows, one per step up to each
sequence's own length (1 and 3), in .csv and read back from .npy."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.predict_io import check_inputs, read_inputs, write_predictions

from test_values112_predict_io import write_idx_by_hand  # magic 2051, big-endian sizes, the bytes


def test_zero_inputs_per_step_refused_in_the_plural():
    with pytest.raises(UserError) as e:
        check_inputs(np.zeros((2, 3, 0)), 2)
    assert str(e.value) == ("the sequences have 0 inputs per step but the model of the run reads 2; shape "
                            "(2, 3, 0) does not fit it (expected (N,T,2)).")
    with pytest.raises(UserError) as e:
        check_inputs(np.zeros((2, 3, 1)), 2)
    assert str(e.value) == ("the sequences have 1 input per step but the model of the run reads 2; shape "
                            "(2, 3, 1) does not fit it (expected (N,T,2)).")


def test_idx_images_read_by_rows_for_mnist_rows_and_by_pixels_for_mnist(tmp_path):
    images = (np.arange(2 * 3 * 5).reshape(2, 3, 5) * 8).astype(np.uint8)   # 2 images, 3 rows of 5
    path = tmp_path / "x-images-idx3-ubyte"
    write_idx_by_hand(path, images)
    x, where = read_inputs([path], "mnist-rows", 5)
    assert x.shape == (2, 3, 5) and where == [(str(path), 0, 2)]
    np.testing.assert_allclose(x, images / 255.0, rtol=1e-6)
    x, _ = read_inputs([path], "mnist", 1)
    assert x.shape == (2, 15, 1)
    np.testing.assert_allclose(x[1, :, 0], (8 * np.arange(15, 30)) / 255.0, rtol=1e-6)


def test_per_step_values_rows_up_to_each_length(tmp_path):
    v = np.full((2, 3, 2), np.nan)
    v[0, :1] = [[0.5, -1.0]]                                              # length 1
    v[1, :3] = [[2.0, 0.25], [-3.0, 4.0], [1.5, 8.0]]                     # length 3
    p = SimpleNamespace(values=v)
    assert write_predictions(tmp_path / "v.csv", p) == 4
    assert (tmp_path / "v.csv").read_text().splitlines() == [
        "index,step,value_0,value_1", "0,0,0.5,-1", "1,0,2,0.25", "1,1,-3,4", "1,2,1.5,8"]
    assert write_predictions(tmp_path / "v.npy", p) == 4
    table = np.load(tmp_path / "v.npy", allow_pickle=False)
    assert table.dtype.names == ("index", "step", "value_0", "value_1")
    assert table["index"].tolist() == [0, 1, 1, 1] and table["step"].tolist() == [0, 0, 1, 2]
    assert table["value_0"].tolist() == [0.5, 2.0, -3.0, 1.5] and table["value_1"].tolist() == [-1.0, 0.25, 4.0, 8.0]
