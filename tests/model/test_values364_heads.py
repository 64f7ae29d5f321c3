"""Heads (lnrnn/model/heads.py), nineteenth pass, against quantities written out here in float64: METRIC_INFO's
percentage flag against its labels (acc and cer are shown as percentages, loss and nats_seq are not); zero_grad
zeroing the gradients and leaving the parameters; a per-step classifier's loss, accuracy and count over (B,T)
labels with -1 and a (T,B) valid mask (B 3, T 4, H 5, C 3) against log-softmax by hand, its gradient against
central differences; the CTC head's config with and without a reader's scale and its make_head round trip;
the CTC head's refusal of valid steps after a padded one word for word; the CTC head's sum keys against
forward's sums (the label count 'chars' among them) and its cer per label; CTCHead.log_probs against the
log-softmax of h W + b by hand over each row's steps and 0 past them."""
import numpy as np
import pytest

from lnrnn.model.heads import METRIC_INFO, ClassifierHead, CTCHead, RegressionHead, make_head
from test_values343_heads import check_backward, log_softmax_by_hand


def test_metric_info_flags_exactly_the_percentages():
    assert METRIC_INFO["acc"] == ("accuracy (%)", True)
    assert METRIC_INFO["cer"] == ("character error rate (%)", True)
    assert METRIC_INFO["loss"] == ("loss", False)
    assert METRIC_INFO["nats_seq"] == ("nats per sequence", False)
    for label, percent in METRIC_INFO.values():
        assert percent == label.endswith("(%)")


def test_zero_grad_zeroes_the_gradients_and_leaves_the_parameters():
    head = RegressionHead(5, outputs=3, dtype="float64", seed=4)
    head.params["b"][...] = [0.5, -1.0, 2.0]
    before = {n: v.copy() for n, v in head.params.items()}
    for g in head.grads.values():
        g[...] = 1.5
    head.zero_grad()
    for n in ("W", "b"):
        np.testing.assert_array_equal(head.grads[n], np.zeros_like(before[n]))
        np.testing.assert_array_equal(head.params[n], before[n])


def test_per_step_classifier_loss_acc_and_gradient_by_hand():
    rng = np.random.default_rng(11)
    B, T, H, C = 3, 4, 5, 3
    head = ClassifierHead(H, C, per_step=True, dtype="float64", seed=3)
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    labels = np.array([[0, 2, -1, 1], [1, 1, 0, -1], [2, -1, 0, 0]])        # (B,T)
    valid = np.array([[1, 1, 1], [1, 1, 0], [1, 1, 0], [1, 0, 0]], bool)     # (T,B): lengths 4, 3, 1
    scored = [(t, b) for t in range(T) for b in range(B) if valid[t, b] and labels[b, t] >= 0]
    sums, count, cache = head.forward(h, labels, valid)
    logits = h @ head.params["W"] + head.params["b"]
    lp = log_softmax_by_hand(logits)
    assert count == len(scored) == 7
    np.testing.assert_allclose(sums["loss"], -sum(lp[t, b, labels[b, t]] for t, b in scored), rtol=1e-12)
    assert sums["acc"] == float(sum(int(np.argmax(logits[t, b]) == labels[b, t]) for t, b in scored))

    def loss():
        z = log_softmax_by_hand(h @ head.params["W"] + head.params["b"])
        return -sum(z[t, b, labels[b, t]] for t, b in scored)

    check_backward(head, cache, 0.25, loss, h)


def test_ctc_config_holds_a_readers_scale_and_nothing_else():
    assert CTCHead(5, 4).config() == {"kind": "ctc", "outputs": 4, "per_step": True}
    reader = CTCHead(5, 4, scale=(2, 3.5))
    assert reader.config() == {"kind": "ctc", "outputs": 4, "per_step": True, "scale": [2.0, 3.5]}
    again = make_head(reader.config(), 5)
    assert again.scale == [2.0, 3.5] and again.O == 4
    assert make_head(CTCHead(5, 4).config(), 5).scale is None


def test_ctc_refuses_valid_steps_after_a_padded_one_word_for_word():
    head = CTCHead(5, 4, dtype="float64")
    h = np.zeros((4, 3, 5))
    labels = np.array([[1, 2], [3, -1], [2, -1]])
    valid = np.array([[1, 1, 1], [1, 0, 1], [1, 1, 0], [0, 0, 0]], bool)    # row 1: a valid step after a gap
    with pytest.raises(ValueError) as e:
        head.forward(h, labels, valid)
    assert str(e.value) == "the CTC head reads each row's valid steps as its first ones (right padding only)"


def test_ctc_log_probs_are_the_log_softmax_over_each_rows_steps():
    rng = np.random.default_rng(12)
    T, B, H, C = 4, 3, 5, 4
    head = CTCHead(H, C, dtype="float64", seed=2)
    head.params["b"][...] = rng.standard_normal(C)
    h = rng.standard_normal((T, B, H))
    lengths = np.array([4, 2, 0])
    got = head.log_probs(h, lengths)
    want = log_softmax_by_hand(h @ head.params["W"] + head.params["b"])
    assert got.shape == (T, B, C)
    for b, L in enumerate(lengths):
        np.testing.assert_allclose(got[:L, b], want[:L, b], rtol=1e-12, atol=1e-12)
        np.testing.assert_array_equal(got[L:, b], 0.0)


def test_ctc_sum_keys_hold_every_sum_of_forward_and_the_sequences():
    rng = np.random.default_rng(13)
    T, B, H, C = 4, 3, 5, 4
    head = CTCHead(H, C, dtype="float64", seed=1)
    labels = np.array([[1, 2], [3, -1], [2, 2]])
    valid = np.array([[1, 1, 1], [1, 1, 1], [1, 0, 1], [1, 0, 0]], bool)    # lengths 4, 2, 3
    sums, count, _ = head.forward(rng.standard_normal((T, B, H)), labels, valid)
    assert set(head.sum_keys) == set(sums) | {"seqs"}
    assert set(head.sum_keys) == {"loss", "cer", "chars", "seqs"}
    assert sums["chars"] == 5.0 and count == 3                                # label lengths 2 + 1 + 2
    assert head.mean({**sums, "seqs": 3.0}, count)["cer"] == sums["cer"] / 5.0
