"""The Python API (lnrnn/api.py), second pass, on tiny per-step LSTM runs that lnrnn.fit trains here from 11
sequences (not a multiple of the batch size 4): evaluate_run with split 7/4 and 8/3 counting the validation and
training sequences the split names (and, without one, the one sequence fit held out: round(11 / 10)); a
data_dir whose arrays have 3 inputs refused word for word, naming the checkpoint's 2 inputs and the data's 3;
fit's objective passed through to the run (integer labels fitted with --objective mse give a regression head,
and without it a classifier of the 3 classes), and kept in the run's task so that evaluate_run reads other
integer labels as that run was trained (3 of 7 sequences scored at split 4/3)."""
import numpy as np
import pytest

import lnrnn
from lnrnn.api import evaluate_run
from lnrnn.errors import CheckpointError
from test_values161_api import _arrays  # (n, T, I) float32 inputs and (n, T) classes, T 4, I 2, C 3

N = 11


@pytest.fixture(scope="module")
def fitted(tmp_path_factory):
    out = tmp_path_factory.mktemp("api252")
    x, y = _arrays(N, 0)
    return lnrnn.fit(x, y, cell="lstm", out=str(out), epochs=1, hidden=3, batch_size=4)


def test_evaluate_run_counts_the_sequences_its_split_names(fitted):
    assert evaluate_run(fitted).sequences == 1                    # fit's own hold-out: round(11 / 10) = 1
    assert evaluate_run(fitted, split="7/4").sequences == 4
    assert evaluate_run(fitted, which="train", split="8/3").sequences == 8
    assert evaluate_run(fitted, which="train").sequences == 10


def test_evaluate_run_refuses_data_of_other_inputs_naming_both(fitted, tmp_path):
    rng = np.random.default_rng(5)
    data = tmp_path / "three.npz"
    np.savez(data, x=rng.standard_normal((6, 4, 3)).astype(np.float32), y=np.arange(24).reshape(6, 4) % 3)
    with pytest.raises(CheckpointError) as e:
        evaluate_run(fitted, data_dir=data)
    assert str(e.value) == (f"checkpoint {fitted.path} expects 2 inputs and a classifier head with 3 outputs, but "
                            "npz has 3 inputs and needs a classifier head with 3 outputs.")


@pytest.mark.parametrize("objective,kind", [("mse", "regression"), (None, "classifier")])
def test_fit_passes_its_objective_to_the_run(tmp_path, objective, kind):
    x, y = _arrays(N, 1)                                          # integer labels 0..2
    run = lnrnn.fit(x, y, cell="lstm", out=str(tmp_path / "run"), epochs=1, hidden=3, batch_size=4,
                    objective=objective)
    head = run.config["head"]
    assert head["kind"] == kind and head["per_step"] is True
    assert head["outputs"] == (1 if kind == "regression" else 3)
    assert run.step == 3                                          # ceil(10 training sequences / 4)
    assert run.task_spec.get("objective") == objective
    xd, yd = _arrays(7, 2)                                        # integer labels again, 7 = 4 + 3
    data = tmp_path / "more.npz"
    np.savez(data, x=xd, y=yd)
    assert evaluate_run(run, data_dir=data, split="4/3").sequences == 3   # read as the run was trained
