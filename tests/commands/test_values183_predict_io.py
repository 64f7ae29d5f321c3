"""lnrnn predict and lnrnn/predict_io.py: each refusal of the inputs is one exact sentence and writes nothing
(a 1-D array, a width other than the model's with "(N,T)" offered only to a model of one input, NaN, a .npy that
needs pickle, a text file with a bad magic number, an upper-case .NPY that is no NumPy file, a folder without
IDX images); check_like_training skips the range check when the record lacks the minimum or the maximum; a
last-step regression run's .npy and .csv give, row for row, what lnrnn.api.predict gives on the same sequences
(index from 0, the float64 values to the last bit in the .npy), and the message calls them predicted values."""
import csv
import os

import numpy as np
import pytest

import lnrnn.api
from lnrnn.errors import DataError, UserError
from lnrnn.model.models import build_model, head_config
from lnrnn.predict_io import check_inputs, check_like_training, read_inputs
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke


@pytest.mark.parametrize("x,width,says", [
    (np.zeros(3), 1, "the sequences must be an array of shape (N,T) or (N,T,I), not (3,)."),
    (np.zeros((2, 3, 2)), 1, "the sequences have 2 inputs per step but the model of the run reads 1; shape "
                             "(2, 3, 2) does not fit it (expected (N,T,1) or (N,T))."),
    (np.zeros((2, 3, 1)), 2, "the sequences have 1 input per step but the model of the run reads 2; shape "
                             "(2, 3, 1) does not fit it (expected (N,T,2))."),
])
def test_check_inputs_refuses_in_one_exact_sentence(x, width, says):
    with pytest.raises(UserError) as e:
        check_inputs(x, width)
    assert str(e.value) == says


def test_the_range_check_needs_both_ends_of_the_record():
    x = np.full((2, 3, 1), 50.0)                                          # far outside any range given
    assert check_like_training(x, {"steps": 3, "min": 0.0}) == []
    assert check_like_training(x, {"steps": 3, "max": 1.0}) == []
    assert len(check_like_training(x, {"steps": 3, "min": 0.0, "max": 1.0})) == 1


def test_files_predict_does_not_read_are_refused_in_one_sentence(tmp_path):
    pickled = tmp_path / "obj.npy"
    np.save(pickled, np.array([{"a": 1}], dtype=object), allow_pickle=True)
    try:                                                                  # numpy's own words for it
        np.load(pickled, allow_pickle=False)
    except ValueError as e:
        numpy_says = str(e)
    with pytest.raises(DataError) as e:
        read_inputs([pickled], "digits", 1)
    assert str(e.value) == f"{pickled} is not a .npy array lnrnn reads without pickle ({numpy_says})."

    inputs = ("a .npy of sequences, (N,T) or (N,T,I) (numpy.save), an MNIST-family IDX images file (gzip or "
              "raw), or a folder of them")
    text = tmp_path / "notes.txt"
    text.write_text("hello, these are no images\n")
    with pytest.raises(DataError) as e:
        read_inputs([text], "mnist", 1)
    assert str(e.value) == (f"{text} is neither a .npy nor an IDX images file (its first bytes say neither); "
                            f"predict reads {inputs}.")
    upper = tmp_path / "X.NPY"
    upper.write_text("hello, these are no arrays\n")
    with pytest.raises(DataError) as e:
        read_inputs([upper], "mnist", 1)
    assert str(e.value) == (f"{upper} is not a NumPy .npy or .npz (zip) file (text b'hello,'...); predict reads "
                            f"{inputs}.")
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "x.npy").write_bytes(b"")                                    # no IDX images file by name
    with pytest.raises(DataError) as e:
        read_inputs([empty], "mnist", 1)
    assert str(e.value) == (f"{empty} holds no IDX images file (*-images-idx3-ubyte[.gz]); pass the file, or a "
                            ".npy of sequences.")


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """An untrained LN-LSTM regression run (2 inputs, 2 outputs at the last step); its record: 5 steps in
    [-1, 1]."""
    folder = tmp_path_factory.mktemp("runs") / "reg"
    m = build_model(dict(cell="lstm", norm="ln", input_size=2, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("mse", 2, False)), seed=183)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 3, "epoch": 1, "task": {"task": "digits"},
                                          "data": {"steps": 5, "min": -1.0, "max": 1.0},
                                          "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return folder


def test_a_regressions_files_hold_the_apis_values(run, tmp_path):
    x = np.random.default_rng(183).uniform(-1.0, 1.0, size=(3, 5, 2))
    np.save(tmp_path / "x.npy", x)
    want = lnrnn.api.predict(lnrnn.api.load_run(str(run)), x).values        # (3, 2) float64
    for out in (tmp_path / "p.npy", tmp_path / "p.csv"):
        r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", out, "-q")
        assert r.exit_code == 0, r.output + repr(r.exception)
        assert r.stdout.strip() == f"Wrote the predicted values of 3 sequences to {out} ({tmp_path / 'x.npy'}: 3)."
        if out.suffix == ".npy":
            t = np.load(out, allow_pickle=False)
            assert t.dtype.names == ("index", "value_0", "value_1")
            assert list(t["index"]) == [0, 1, 2]
            for k in range(2):
                assert t[f"value_{k}"].dtype == np.float64
                np.testing.assert_allclose(t[f"value_{k}"], want[:, k], rtol=1e-13, atol=1e-15)
        else:
            with open(out, newline="") as f:
                rows = list(csv.DictReader(f))
            assert [int(row["index"]) for row in rows] == [0, 1, 2]
            for i, row in enumerate(rows):
                for k in range(2):
                    assert float(row[f"value_{k}"]) == pytest.approx(want[i, k], rel=1e-5, abs=1e-12)


@pytest.mark.parametrize("make,says", [
    (lambda p: np.save(p, np.zeros(5)), "not (5,)"),
    (lambda p: np.save(p, np.array([[[0.0, 0.0]] * 4 + [[np.nan, 0.0]]])), "the sequences hold NaN or infinite "
                                                                           "values."),
    (lambda p: np.save(p, np.array([{"a": 1}], dtype=object), allow_pickle=True), "reads without pickle"),
])
def test_predict_refuses_bad_inputs_and_writes_nothing(run, tmp_path, make, says):
    make(tmp_path / "x.npy")
    r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", tmp_path / "o" / "p.csv")
    assert_clean_error(r, says)
    assert os.listdir(tmp_path) == ["x.npy"]
