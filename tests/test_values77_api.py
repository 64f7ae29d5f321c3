"""lnrnn's Python API (lnrnn/api.py) on a tiny run trained here with lnrnn.fit (two updates of a one-layer,
hidden-4 LSTM classifier on random arrays), against definitions: the run's description counts one layer in the
singular; Predictions.probability is each row's probability of its own class, p[row, class], taken here from
probabilities written by hand and from predict's; evaluate_run refuses which='test' and a batch_size of 0 with one
sentence naming the argument, and data of another input size with a sentence that gives the run's and the data's
sizes, each from the arrays written here."""
import numpy as np
import pytest

import lnrnn
from lnrnn.api import Predictions
from lnrnn.errors import CheckpointError, UserError

N, NV, T, I, C, HID = 12, 5, 5, 2, 3, 4


def _arrays(seed=0, inputs=I):
    rng = np.random.default_rng(seed)
    return dict(x=rng.standard_normal((N, T, inputs)).astype(np.float32), y=rng.integers(0, C, N),
                lengths=rng.integers(1, T + 1, N), x_val=rng.standard_normal((NV, T, inputs)).astype(np.float32),
                y_val=np.arange(NV) % C, lengths_val=np.array([5, 2, 3, 1, 4]))


@pytest.fixture(scope="module")
def clf(tmp_path_factory):
    out = tmp_path_factory.mktemp("api77") / "clf"
    lnrnn.fit(**_arrays(), cell="lstm", out=str(out), max_steps=2, hidden=HID, batch_size=5)
    return str(out)


def test_a_one_layer_run_is_described_in_the_singular(clf):
    run = lnrnn.load_run(clf)
    assert run.config["num_layers"] == 1
    assert f"(hidden {HID}, 1 layer) after" in run.describe()
    assert "1 layers" not in repr(run)


def test_probability_is_each_rows_probability_of_its_own_class():
    p = np.array([[0.2, 0.5, 0.3],
                  [0.6, 0.1, 0.3],
                  [0.1, 0.1, 0.8]])
    classes = np.array([1, 2, 0])                                  # not the argmax: the rows' own classes
    got = Predictions(classes, p).probability
    np.testing.assert_array_equal(got, [p[0, 1], p[1, 2], p[2, 0]])


def test_predict_probability_is_the_largest_probability_of_each_row(clf):
    x = _arrays(seed=3)["x"][:4]
    pred = lnrnn.predict(clf, x)
    np.testing.assert_array_equal(pred.classes, pred.probabilities.argmax(1))
    np.testing.assert_array_equal(pred.probability, pred.probabilities.max(1))


def test_evaluate_run_refuses_a_set_that_is_neither_val_nor_train(clf):
    with pytest.raises(UserError, match=r"^which must be 'val' or 'train', not 'test'\.$"):
        lnrnn.evaluate_run(clf, "test")


def test_evaluate_run_refuses_a_batch_size_of_zero(clf):
    with pytest.raises(UserError, match=r"^batch_size must be a whole number of at least 1, not 0\.$"):
        lnrnn.evaluate_run(clf, "val", batch_size=0)


def test_a_mismatch_gives_the_runs_and_the_datas_input_sizes(clf, tmp_path):
    np.savez(tmp_path / "wide.npz", **_arrays(seed=4, inputs=I + 2))
    with pytest.raises(CheckpointError) as e:
        lnrnn.evaluate_run(clf, data_dir=tmp_path / "wide.npz")
    said = str(e.value)
    assert f"expects {I} inputs" in said and f"has {I + 2} inputs" in said
