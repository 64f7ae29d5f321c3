"""lnrnn.predict (lnrnn/api.py) on padded sequences, by definition: a per-step classifier's class is -1
exactly from each sequence's length on (the step at the length included) and a class before it, a per-step
regression's values NaN from there, and lengths from 1 to T taken, 0 and T + 1 refused."""
import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

N, T, I = 4, 5, 2
LENGTHS = np.array([5, 1, 3, 4])


def run_of(folder, objective, outputs):
    m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=1.0, head=head_config(objective, outputs, True)), seed=1)
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 1, "epoch": 1, "task": {"task": "npz"},
                     "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return str(folder)


def x_of():
    return np.random.default_rng(0).standard_normal((N, T, I)).astype(np.float32)


def test_per_step_classes_and_values_end_at_each_length(tmp_path):
    past = np.arange(T)[None, :] >= LENGTHS[:, None]                     # (N,T)
    p = lnrnn.predict(run_of(tmp_path / "clf", "ce", 3), x_of(), LENGTHS, batch_size=3)
    assert np.array_equal(p.classes == -1, past) and p.classes[~past].min() >= 0
    v = lnrnn.predict(run_of(tmp_path / "reg", "mse", 2), x_of(), LENGTHS, batch_size=3)
    assert np.array_equal(np.isnan(v.values).all(axis=2), past) and not np.isnan(v.values[~past]).any()


def test_lengths_from_one_to_t(tmp_path):
    run = run_of(tmp_path / "clf", "ce", 3)
    lnrnn.predict(run, x_of(), np.array([1, T, 2, T]))
    for bad in ([0, T, 2, T], [1, T + 1, 2, T], [1, 2, 3]):
        with pytest.raises(UserError, match=f"lengths must be N={N} integers between 1 and T={T}"):
            lnrnn.predict(run, x_of(), np.array(bad))
