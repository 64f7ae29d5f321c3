"""The Python API (lnrnn/api.py): fit's documented default cell (ln-lstm: the run records it and its stack has
LayerNorm gains) and its refusal of a folder that already holds a run, word for word with nothing written;
evaluate_run's refusal of data that need another head, naming the checkpoint's head first and the task's second;
predict's refusal of lengths that are not integers (2.0 is not cast); read's refusal of a beam of 0 with its hint,
word for word. The runs are checkpoints written here by test_values10_api's run_of (no training) except fit's."""
import os

import numpy as np
import pytest

import lnrnn
from lnrnn.api import evaluate_run, predict, read
from lnrnn.errors import CheckpointError, UserError
from test_values10_api import I, N, T, run_of
from test_values140_api import _reader


def test_fit_trains_an_ln_lstm_by_default(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((8, 3, 2)).astype(np.float32)
    y = rng.integers(0, 2, 8)
    r = lnrnn.fit(x, y, out=str(tmp_path / "fit"), epochs=1, hidden=2, batch_size=4, split="6/2")
    assert r.train_config["cell"] == "ln-lstm"
    assert (r.config["cell"], r.config["norm"]) == ("lstm", "ln")
    assert "rnn.l0.gx" in r.model.params


def test_fit_refuses_a_folder_that_holds_a_run_and_writes_nothing(tmp_path):
    out = run_of(tmp_path / "held", "ce", 3, False)
    listed = sorted(os.listdir(out))
    x = np.zeros((4, 3, 2), np.float32)
    with pytest.raises(UserError) as e:
        lnrnn.fit(x, np.array([0, 1, 0, 1]), out=out)
    assert str(e.value) == (f"{out} already holds a run; choose another out (or resume it with lnrnn train --out "
                            f"{out} --resume).")
    assert sorted(os.listdir(out)) == listed


def test_evaluate_run_names_the_checkpoints_head_then_the_tasks(tmp_path):
    path = run_of(tmp_path / "three", "ce", 3, False)
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, T, I)).astype(np.float32)
    y = np.array([0, 1, 2, 3, 4, 0])  # five classes: a classifier head with 5 outputs
    data = tmp_path / "five.npz"
    np.savez(data, x=x, y=y, x_val=x[:3], y_val=y[:3])
    with pytest.raises(CheckpointError) as e:
        evaluate_run(path, "val", data_dir=data)
    assert str(e.value) == (f"checkpoint {path} expects {I} inputs and a classifier head with 3 outputs, but npz has "
                            f"{I} inputs and needs a classifier head with 5 outputs.")


@pytest.mark.parametrize("lengths", [[5.0, 1.0, 3.0, 2.0, 4.0], [5, 1, 3, 2, 0], [5, 1, 3, 2, 6]])
def test_predict_refuses_lengths_that_are_not_integers_from_one_to_t(tmp_path, lengths):
    run = lnrnn.load_run(run_of(tmp_path / "clf", "ce", 3, False))
    x = np.random.default_rng(0).standard_normal((N, T, I))
    with pytest.raises(UserError) as e:
        predict(run, x, lengths)
    assert str(e.value) == f"lengths must be N={N} integers between 1 and T={T}."


def test_read_refuses_a_beam_of_zero_with_its_hint():
    with pytest.raises(UserError) as e:
        read(_reader("abc ", 5), np.zeros((3, 3)), beam=0)
    assert str(e.value) == "beam must be a whole number of at least 1 (1: best path), not 0."
