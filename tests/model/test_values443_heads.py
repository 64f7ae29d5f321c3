"""lnrnn/model/heads.py's means where the count is small: every head's metrics over a count of 1 (a batch of one
scored point or sequence), of 0 (nothing is divided by less than 1) and of 3, by hand; the mixture density head's
nats per sequence over the sequences, not the points; and a mixture density model's training loss on a batch of
exactly one scored point, the negative log-likelihood of that point (reference.mdn_nll of the head's outputs).
"""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.heads import ClassifierHead, MDNHead, RegressionHead
from lnrnn.model.models import build_model

H = 4
SUMS = {"loss": 6.0, "acc": 3.0}


@pytest.mark.parametrize("make", [lambda: ClassifierHead(H, 3, dtype="float64"),
                                  lambda: RegressionHead(H, 2, dtype="float64")])
@pytest.mark.parametrize("count, divisor", [(1, 1), (0, 1), (3, 3), (2, 2)])
def test_the_classifier_and_regression_means_divide_by_the_count(make, count, divisor):
    head = make()
    assert head.mean(dict(SUMS, seqs=count), count) == {m: SUMS[m] / divisor for m in head.metrics}


@pytest.mark.parametrize("count, seqs, want", [(1, 1, {"loss": 6.0, "nats_seq": 12.0}),
                                               (0, 0, {"loss": 6.0, "nats_seq": 12.0}),
                                               (3, 1, {"loss": 2.0, "nats_seq": 12.0}),
                                               (1, 2, {"loss": 6.0, "nats_seq": 6.0}),
                                               (8, 3, {"loss": 0.75, "nats_seq": 4.0})])
def test_the_mixture_density_means_divide_by_the_points_and_the_sequences(count, seqs, want):
    head = MDNHead(H, components=2, dtype="float64")
    assert head.mean({"loss": 6.0, "nats_seq": 12.0, "seqs": seqs}, count) == want


@pytest.mark.parametrize("T, lengths", [(1, None), (3, [1])])
def test_a_batch_of_one_scored_point_trains_on_that_points_likelihood(T, lengths):
    M, I = 2, 3
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64", forget_bias=1.0,
               head={"kind": "mdn", "components": M, "per_step": True})
    model = build_model(cfg, seed=3)
    rng = np.random.default_rng(4)
    x = rng.standard_normal((T, 1, I))
    targets = np.concatenate([rng.standard_normal((1, T, 2)), np.ones((1, T, 1))], axis=2)  # (B,T,3)
    L = None if lengths is None else np.array(lengths)
    got = model.loss_and_grad(x, targets, lengths=L)
    assert model.last_count == 1
    y, _ = model.stack.forward(x[:1])  # the one scored step: the first
    yhat = model.head.linear(y)[0]  # (1,K)
    want = ref.mdn_nll(yhat, targets[:, 0], np.ones(1), M)[0]
    assert got["loss"] == pytest.approx(want, rel=1e-10)
    assert got["nats_seq"] == pytest.approx(want, rel=1e-10)  # one sequence of one point
