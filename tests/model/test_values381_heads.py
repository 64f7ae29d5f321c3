"""Heads (lnrnn/model/heads.py) where a model meets them: the mixture density head's offset scale kept in the
order given, through its config and make_head; which heads need whole rows (the CTC head refuses truncated BPTT in
the words models.py gives, a per-step classifier trains in chunks and its chunked loss equals its whole-row loss
computed by hand from the head's linear map and a log-softmax); the CTC head's log_probs for a batch wider than it
is long, against the log-softmax of h W + b written out, zero past each row's length.
"""
import numpy as np
import pytest

from lnrnn.model.heads import CTCHead, MDNHead, make_head
from lnrnn.model.models import build_model

I, H, T, B = 2, 5, 4, 3
STACK = dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=1, dtype="float64", forget_bias=1.0)


def log_softmax_by_hand(z):
    """log softmax over the last axis, written out (no shared code with the head)."""
    m = z.max(axis=-1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(axis=-1, keepdims=True))


def test_the_mixture_density_head_keeps_its_scale_in_the_order_given():
    head = MDNHead(H, components=2, scale=(2.5, 0.5), dtype="float64")
    assert head.scale == [2.5, 0.5]
    assert head.config()["scale"] == [2.5, 0.5]
    again = make_head(head.config(), H, dtype="float64")
    assert isinstance(again, MDNHead) and again.scale == [2.5, 0.5] and again.M == 2 and again.O == 13


def test_the_ctc_head_refuses_truncated_bptt_in_the_models_words():
    cfg = dict(STACK, head={"kind": "ctc", "outputs": 4, "per_step": True})
    model = build_model(cfg, seed=1)
    assert model.head.whole_sequence is True
    rng = np.random.default_rng(0)
    x = rng.standard_normal((T, B, I))
    labels = np.array([[1, 2], [3, -1], [2, 2]])
    with pytest.raises(ValueError) as e:
        model.loss_and_grad(x, labels, tbptt=2)
    assert str(e.value) == "the ctc head scores whole sequences; run it without truncated BPTT"
    whole = model.loss_and_grad(x, labels)  # without chunks it scores
    assert np.isfinite(whole["loss"]) and whole["loss"] > 0


def test_a_per_step_classifier_trains_in_chunks_and_scores_as_a_whole_row():
    C = 3
    cfg = dict(STACK, head={"kind": "classifier", "outputs": C, "per_step": True})
    model = build_model(cfg, seed=2)
    assert model.head.whole_sequence is False
    rng = np.random.default_rng(1)
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T))
    chunked = model.loss_and_grad(x, labels, tbptt=2)  # chunks carry the state: the same outputs as whole rows
    whole = model.loss_and_grad(x, labels)
    assert chunked["loss"] == pytest.approx(whole["loss"], rel=1e-12)
    assert chunked["acc"] == pytest.approx(whole["acc"], rel=1e-12)


def test_ctc_log_probs_of_a_batch_wider_than_long_are_the_log_softmax_of_its_logits():
    Tn, Bn, C = 2, 5, 4
    head = CTCHead(H, C, dtype="float64", seed=3)
    rng = np.random.default_rng(2)
    head.params["b"][:] = rng.standard_normal(C)
    h = rng.standard_normal((Tn, Bn, H))
    lengths = np.array([2, 1, 0, 2, 1])
    got = head.log_probs(h, lengths)
    assert got.shape == (Tn, Bn, C)
    want = log_softmax_by_hand(np.einsum("tbh,hc->tbc", h, head.params["W"]) + head.params["b"])
    for b in range(Bn):
        np.testing.assert_allclose(got[:lengths[b], b], want[:lengths[b], b], rtol=0, atol=1e-12)
        assert np.all(got[lengths[b]:, b] == 0)
