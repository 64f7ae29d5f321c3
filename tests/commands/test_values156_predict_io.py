"""lnrnn predict and lnrnn/predict_io.py: check_inputs refuses a wrong width (naming the model's width and the
inputs'), a wrong shape, NaN, strings, complex numbers and an empty batch in one sentence each;
check_like_training's refusals by its definition (another length, naming theirs and the training's; a maximum
above the training range plus its slack); two inputs of different lengths are refused naming both files;
through click's CliRunner on an untrained mnist-rows checkpoint, a .npy of uint8 pixels gives, row for row in
the .csv and the .npy, what lnrnn.api.predict gives for the pixels over 255 (index from 0, class, the class's
probability), and the message counts the sequences; an --out that ends in a separator, is a folder, has another
suffix or lies in a read-only folder is refused before the run is loaded."""
import csv
import os

import numpy as np
import pytest

import lnrnn.api
from lnrnn.config import PREDICT_RANGE_SLACK
from lnrnn.errors import DataError, UserError
from lnrnn.model.models import build_model, head_config
from lnrnn.predict_io import check_inputs, check_like_training, read_inputs
from lnrnn.training.checkpoint import save_checkpoint

from test_cli import assert_clean_error, invoke
from test_values156_export import no_loading, read_only_folder  # noqa: F401  (no_loading: a fixture)


@pytest.mark.parametrize("x,says", [
    (np.zeros((2, 3, 2)), "the sequences have 2 inputs per step but the model of the run reads 3; shape (2, 3, 2) "
                          "does not fit it (expected (N,T,3))."),
    (np.zeros((2, 3, 3, 1)), "the sequences must be an array of shape (N,T) or (N,T,I), not (2, 3, 3, 1)."),
    (np.array([[[0.0] * 3, [np.nan, 0.0, 0.0]]]), "the sequences hold NaN or infinite values."),
    (np.array([[["a"] * 3]]), "the sequences must be numbers, not <U1 values."),
    (np.ones((1, 2, 3), complex), "the sequences must be real numbers, not complex128 values."),
    (np.zeros((0, 4, 3)), "there are no sequences to predict (shape (0, 4, 3))."),
])
def test_check_inputs_refuses_in_one_sentence(x, says):
    with pytest.raises(UserError) as e:
        check_inputs(x, 3)
    assert str(e.value) == says


def test_check_inputs_gives_2d_sequences_one_input_per_step():
    x = np.arange(6.0).reshape(2, 3)
    got = check_inputs(x, 1)
    assert got.shape == (2, 3, 1) and np.array_equal(got[:, :, 0], x)


def test_check_like_training_by_its_definition():
    record = {"steps": 7, "min": -1.0, "max": 1.0}
    margin = PREDICT_RANGE_SLACK * 2.0                                    # slack times the training range
    assert check_like_training(np.zeros((2, 5)), record) == ["they have 5 steps where the training sequences had 7"]
    inside = np.full((2, 7), 1.0 + 0.5 * margin)
    inside[0, 0] = -1.0 - 0.5 * margin
    assert check_like_training(inside, record) == []
    above = np.zeros((2, 7))
    above[1, 3] = 1.0 + 2.0 * margin
    assert check_like_training(above, record) == [f"their values span 0 to {1.0 + 2.0 * margin:g} where the "
                                                  "training data's spanned -1 to 1"]
    below = np.zeros((2, 7))
    below[0, 6] = -1.0 - 2.0 * margin
    assert len(check_like_training(below, record)) == 1


def test_inputs_of_two_lengths_are_refused_naming_both_files(tmp_path):
    a, b = tmp_path / "a.npy", tmp_path / "b.npy"
    np.save(a, np.zeros((2, 4)))
    np.save(b, np.zeros((3, 6)))
    with pytest.raises(DataError) as e:
        read_inputs([a, b], "digits", 1)
    assert str(e.value) == f"{b} holds sequences of 6 steps but {a} holds 4; predict them in separate calls."


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs") / "rows"
    m = build_model(dict(cell="lstm", norm="ln", input_size=28, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config("ce", 10, False)), seed=6)
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 3, "epoch": 1, "task": {"task": "mnist-rows"},
                                          "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return folder


def test_uint8_pixels_give_the_apis_predictions_for_them_over_255(run, tmp_path):
    pixels = np.random.default_rng(156).integers(0, 256, size=(3, 28, 28), dtype=np.uint8)
    np.save(tmp_path / "x.npy", pixels)
    want = lnrnn.api.predict(lnrnn.api.load_run(str(run)), pixels.astype(np.float64) / 255.0)
    for out in (tmp_path / "o" / "p.csv", tmp_path / "o" / "p.npy"):
        r = invoke("predict", "--checkpoint", run, "--input", tmp_path / "x.npy", "--out", out, "-q")
        assert r.exit_code == 0, r.output + repr(r.exception)
        assert f"Wrote the predicted classes of 3 sequences to {out}" in r.stdout
        if out.suffix == ".csv":
            with open(out, newline="") as f:
                rows = list(csv.DictReader(f))
            index, cls, prob = ([int(x["index"]) for x in rows], [int(x["class"]) for x in rows],
                                [float(x["probability"]) for x in rows])
            tol = 1e-5                                                   # six significant digits
        else:
            t = np.load(out, allow_pickle=False)
            index, cls, prob, tol = list(t["index"]), list(t["class"]), list(t["probability"]), 1e-6
        assert index == [0, 1, 2]
        assert cls == [int(np.argmax(p)) for p in want.probabilities]
        for i, p in enumerate(want.probabilities):
            assert abs(prob[i] - p.max()) <= tol * p.max()


@pytest.mark.parametrize("name,says", [
    ("o" + os.sep, "names a folder"),
    ("here", "is a directory"),                                       # click's own check (dir_okay=False)
    ("new/p.txt", "--out must end in .csv or .npy"),
])
def test_a_bad_out_is_refused_before_the_run_is_loaded(tmp_path, no_loading, name, says):
    (tmp_path / "here").mkdir()
    np.save(tmp_path / "x.npy", np.zeros((1, 28, 28)))
    r = invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "x.npy",
               "--out", str(tmp_path) + os.sep + name)
    assert r.exit_code == 2 and "Traceback" not in r.output, r.output
    assert says in r.stderr, r.stderr
    assert sorted(os.listdir(tmp_path)) == ["here", "x.npy"]


def test_a_read_only_folder_is_refused_before_the_run_is_loaded(tmp_path, no_loading):
    with read_only_folder(tmp_path) as ro:
        np.save(tmp_path / "x.npy", np.zeros((1, 28, 28)))
        r = invoke("predict", "--checkpoint", tmp_path / "run", "--input", tmp_path / "x.npy",
                   "--out", ro / "p.csv")
        assert_clean_error(r, f"cannot write to {ro}")
