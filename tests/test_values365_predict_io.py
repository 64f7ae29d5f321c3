"""lnrnn/predict_io.py, nineteenth pass: predict's inputs against the module docstring, on tiny files written here.

The judges: a uint8 .npy scaled by 1/255 for each of the MNIST family (mnist, pmnist, mnist-rows) and kept as it
is for another task; the refusals of complex and text sequences, word for word as check_inputs words them; the
record of a checkpoint saved without "data" ({"min": 0.0, "max": 1.0} for the MNIST family, the "data" record
itself when there is one, None for a task needing files); two .npy inputs read in the order given, (N,T) taken as
(N,T,1), with each file's first index and count (sizes 2 and 3, T = 4: apart)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.predict_io import check_inputs, read_inputs, training_record


@pytest.mark.parametrize("task, scale", [("mnist", 1 / 255), ("pmnist", 1 / 255), ("mnist-rows", 1 / 255),
                                         ("adding", 1.0)])
def test_uint8_npy_scaled_by_1_over_255_for_each_mnist_task(tmp_path, task, scale):
    a = np.array([[[0, 51, 255], [102, 3, 7]]], np.uint8)               # (1, 2, 3)
    path = tmp_path / "x.npy"
    np.save(path, a)
    x, where = read_inputs([str(path)], task, 3)
    assert x.shape == (1, 2, 3)
    np.testing.assert_allclose(x, a.astype(np.float64) * scale, rtol=1e-6)
    assert where == [(str(path), 0, 1)]


def test_complex_and_text_sequences_refused_word_for_word():
    with pytest.raises(UserError) as e:
        check_inputs(np.array([[1.0 + 2.0j, 0.5]]), 1)
    assert str(e.value) == "the sequences must be real numbers, not complex128 values."
    with pytest.raises(UserError) as e:
        check_inputs(np.array([["a", "b"]]), 1)
    assert str(e.value) == "the sequences must be numbers, not <U1 values."
    x = check_inputs(np.array([[1, 2, 3]], np.int16), 1)                 # integers pass as they are
    assert x.dtype == np.int16 and x.shape == (1, 3, 1)


def test_record_without_data_from_the_task_spec():
    for task in ("mnist", "pmnist", "mnist-rows"):
        assert training_record({"task": {"task": task, "data_dir": "nowhere"}}) == {"min": 0.0, "max": 1.0}
    record = {"steps": 4, "min": -1.0, "max": 2.0}
    assert training_record({"data": record, "task": {"task": "mnist"}}) is record
    assert training_record({"task": {"task": "npz", "data_dir": "nowhere"}}) is None
    assert training_record({}) is None


def test_two_inputs_read_in_order_with_their_index_ranges(tmp_path):
    rng = np.random.default_rng(365)
    a, b = rng.standard_normal((2, 4)), rng.standard_normal((3, 4, 1))
    pa, pb = str(tmp_path / "a.npy"), str(tmp_path / "b.npy")
    np.save(pa, a)
    np.save(pb, b)
    x, where = read_inputs([pa, pb], "adding", 1)
    assert x.shape == (5, 4, 1)
    np.testing.assert_array_equal(x[:2, :, 0], a)
    np.testing.assert_array_equal(x[2:], b)
    assert where == [(pa, 0, 2), (pb, 2, 3)]
    x, where = read_inputs([pb, pa], "adding", 1)
    np.testing.assert_array_equal(x[:3], b)
    assert where == [(pb, 0, 3), (pa, 3, 2)]
