"""lnrnn/model/models.py's SequenceModel before and after its first update: a model just built has scored nothing
(``last_count`` 0, no sums, no host sums), for a classifier on the last step as for a regression head on every
step; after one ``loss_and_grad`` its ``last_count`` is the batch's scored units, counted here by hand: the rows
with a step for the last-step head, the valid steps (a length of 0 scores none) for the per-step one, and the
next batch's count replaces it rather than adding to it."""
import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config

I, H, K = 2, 3, 4


def model(per_step):
    head = head_config("mse" if per_step else "ce", K, per_step)
    return build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=head), seed=451)


def batch(T, B, per_step, seed):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))                                      # (T, B, I)
    y = rng.standard_normal((B, T, K)) if per_step else rng.integers(0, K, B)   # (B, T, K) or (B,) labels
    return x, y


@pytest.mark.parametrize("per_step", [False, True], ids=["last-step", "every-step"])
def test_a_fresh_model_has_scored_nothing_then_counts_each_batch_afresh(per_step):
    m = model(per_step)
    assert m.last_count == 0 and m.last_sums == {} and m.last_host_sums == {}
    x, y = batch(5, 4, per_step, 1)
    lengths = np.array([5, 2, 0, 3])
    m.loss_and_grad(x, y, lengths=lengths)
    want = 2 + 5 + 3 if per_step else 3          # the valid steps, or the rows with a step (one of length 0)
    assert m.last_count == want
    x2, y2 = batch(4, 2, per_step, 2)
    m.loss_and_grad(x2, y2)
    assert m.last_count == (4 * 2 if per_step else 2)   # the second batch's alone
