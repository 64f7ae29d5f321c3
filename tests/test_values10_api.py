"""lnrnn.predict (lnrnn/api.py) by definition on padded sequences in several batches: each sequence's
outputs equal those of the sequence alone, cut to its length (whatever batch it falls in; one-way and
bidirectional stacks), and a per-step prediction's probability is that of its class for every class, 0
included (NaN only past the length)."""
import numpy as np
import pytest

import lnrnn
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

N, T, I = 5, 5, 2
LENGTHS = np.array([5, 1, 3, 2, 4])
B0 = 0.2  # the per-step head's bias of class 0: some steps predict it, some another class


def run_of(folder, objective, outputs, per_step, head_bias=None, bidirectional=False):
    m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, head=head_config(objective, outputs, per_step),
                         bidirectional=bidirectional), seed=1)
    if head_bias is not None:
        m.params["head.b"][...] = head_bias
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 1, "epoch": 1, "task": {"task": "npz"},
                     "train": {"cell": "ln-lstm", "eval_batch_size": 100}})
    return str(folder)


def x_of():
    return np.random.default_rng(0).standard_normal((N, T, I))


@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("batch_size", [1, 2, 3])
def test_each_batch_runs_with_its_own_rows_lengths(tmp_path, batch_size, bidirectional):
    """Inference reads the lengths where a direction starts at each row's end: the backward half of a
    bidirectional layer."""
    run = lnrnn.load_run(run_of(tmp_path / "clf", "ce", 3, False, bidirectional=bidirectional))
    x = x_of()
    got = lnrnn.predict(run, x, LENGTHS, batch_size=batch_size).probabilities
    for n in range(N):
        alone = lnrnn.predict(run, x[n:n + 1, :LENGTHS[n]]).probabilities[0]
        np.testing.assert_allclose(got[n], alone, rtol=1e-12, atol=0)


def test_a_step_predictions_probability_is_its_classes_for_class_zero_too(tmp_path):
    run = lnrnn.load_run(run_of(tmp_path / "step", "ce", 3, True, head_bias=[B0, 0.0, 0.0]))
    p = lnrnn.predict(run, x_of(), LENGTHS, batch_size=2)
    past = np.arange(T)[None, :] >= LENGTHS[:, None]
    assert (p.classes == 0).any() and (p.classes > 0).any()
    prob = p.probability
    assert np.array_equal(np.isnan(prob), past)
    for n, t in zip(*np.nonzero(~past)):
        assert prob[n, t] == p.probabilities[n, t, p.classes[n, t]] == p.probabilities[n, t].max()
