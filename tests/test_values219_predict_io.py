"""Prediction inputs and files (lnrnn/predict_io.py): read_inputs' refusals word for word (a width that is not the
model's, as 'the model of this run' after the file's name; two inputs of different lengths, each file with its own;
no input at all, naming --input), and a per-step classifier with more sequences than steps written to .csv and .npy
and read back: one row per valid step, the probability of the class at (sequence, step), worked out here."""
import csv

import numpy as np
import pytest

from lnrnn.api import StepPredictions
from lnrnn.errors import DataError, UserError
from lnrnn.predict_io import read_inputs, write_predictions


def test_an_input_of_another_width_is_refused_for_this_run(tmp_path):
    np.save(tmp_path / "x.npy", np.zeros((2, 3, 2)))
    with pytest.raises(UserError) as e:
        read_inputs([tmp_path / "x.npy"], "npz", 3)
    assert str(e.value) == (f"{tmp_path / 'x.npy'}: the sequences have 2 inputs per step but the model of this run "
                            "reads 3; shape (2, 3, 2) does not fit it (expected (N,T,3)).")


def test_inputs_of_two_lengths_are_refused_with_each_files_length(tmp_path):
    np.save(tmp_path / "a.npy", np.zeros((2, 4, 1)))
    np.save(tmp_path / "b.npy", np.zeros((1, 5, 1)))
    with pytest.raises(DataError) as e:
        read_inputs([tmp_path / "a.npy", tmp_path / "b.npy"], "npz", 1)
    assert str(e.value) == (f"{tmp_path / 'b.npy'} holds sequences of 5 steps but {tmp_path / 'a.npy'} holds 4; "
                            "predict them in separate calls.")


def test_no_input_is_refused_naming_the_option():
    with pytest.raises(UserError) as e:
        read_inputs([], "npz", 1)
    assert str(e.value) == "no input given; pass --input FILE_OR_FOLDER."


def test_a_per_step_classifier_with_more_sequences_than_steps_reads_back(tmp_path):
    rng = np.random.default_rng(219)
    probs = rng.dirichlet(np.ones(3), size=(4, 2))                          # (N=4,T=2,C=3)
    lengths = np.array([2, 1, 2, 1])
    classes = probs.argmax(axis=2)
    classes[lengths == 1, 1] = -1                                           # past each length
    want = [(n, t, int(classes[n, t]), float(probs[n, t, classes[n, t]]))
            for n in range(4) for t in range(lengths[n])]
    p = StepPredictions(classes, probs, lengths)
    assert write_predictions(tmp_path / "p.csv", p) == len(want) == 6
    with open(tmp_path / "p.csv", newline="") as f:
        rows = list(csv.reader(f))
    assert rows[0] == ["index", "step", "class", "probability"]
    got = [(int(i), int(s), int(c), float(q)) for i, s, c, q in rows[1:]]
    assert [g[:3] for g in got] == [w[:3] for w in want]
    np.testing.assert_allclose([g[3] for g in got], [w[3] for w in want], rtol=1e-5)   # %.6g in the CSV
    write_predictions(tmp_path / "p.npy", p)
    table = np.load(tmp_path / "p.npy", allow_pickle=False)
    assert [(int(r["index"]), int(r["step"]), int(r["class"]), float(r["probability"])) for r in table] == want
