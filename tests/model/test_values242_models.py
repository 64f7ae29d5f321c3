"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes, second pass, against computations written
here: truncated BPTT in chunks of 3 over 7 ragged steps, each chunk starting from the state the last one left
(the loss by test_values129_models' tanh RNN and cross-entropy over whole rows, the head bias's gradient by the
definition of softmax cross-entropy, sum over rows of softmax - onehot over the scored rows); evaluate over
batches of 2 of 5 rows with lengths (one row of no step) against the same sums; parameter counts by hand for
plain, skip, bidirectional and bidirectional skip stacks of two layers, and their saved configs written out key
by key rebuilding models of the same count; a BatchNorm model's statistics through load_arrays; every gradient of
a two-layer bidirectional last-step model (with and without skip connections, ragged rows) against central
differences; a float32 model against the float64 one of the same parameters; SequenceClassifier's forget bias;
the refusal of unknown settings word for word."""
import re

import numpy as np
import pytest

from lnrnn.model.models import SequenceClassifier, batches_of, build_model, head_config
from test_values129_models import C, H, I, ce_sums, make
from test_values211_models import BASE, check_grads, shuffle_params


def softmax(z):
    e = np.exp(z - z.max())
    return e / e.sum()


def test_truncated_bptt_in_chunks_of_3_over_7_steps_scores_every_row_at_its_last_step():
    T, B = 7, 4
    model = make()
    p = {k: np.array(v) for k, v in model.params.items()}
    rng = np.random.default_rng(11)
    x, labels = rng.standard_normal((T, B, I)), rng.integers(0, C, B)
    lengths = np.array([7, 3, 6, 7])                       # rows ending in the last chunk (t = 6) and before
    loss, _, count = ce_sums(p, x, labels, lengths, np.zeros((B, H)))
    assert count == 4
    m = model.loss_and_grad(x, labels, lengths, tbptt=3)
    assert model.last_count == 4
    np.testing.assert_allclose(m["loss"], loss / count, rtol=1e-12)
    # dL/db of the head: the mean over rows of softmax(z) - onehot(label), z from each row's last output
    h = {r: None for r in range(B)}
    for r, n in enumerate(lengths):
        hr = np.zeros(H)
        for t in range(n):
            hr = np.tanh(x[t, r] @ p["rnn.l0.Wx"] + hr @ p["rnn.l0.Wh"] + p["rnn.l0.b"])
        h[r] = hr
    want = sum(softmax(h[r] @ p["head.W"] + p["head.b"]) - np.eye(C)[labels[r]] for r in range(B)) / B
    np.testing.assert_allclose(model.grads["head.b"], want, rtol=1e-10, atol=1e-14)
    m_full = model.loss_and_grad(x, labels, lengths)          # chunks change the gradient, never the loss
    np.testing.assert_allclose(m_full["loss"], loss / count, rtol=1e-12)


def test_evaluate_over_batches_of_two_with_lengths_against_the_sums_by_hand():
    T, N = 4, 5
    model = make()
    p = {k: np.array(v) for k, v in model.params.items()}
    rng = np.random.default_rng(12)
    x, labels = rng.standard_normal((T, N, I)), rng.integers(0, C, N)
    lengths = np.array([4, 0, 1, 3, 2])
    loss, correct, count = ce_sums(p, x, labels, lengths, np.zeros((N, H)))
    assert count == 4
    got = model.evaluate(batches_of(x, labels, lengths, batch_size=2))
    np.testing.assert_allclose(got["loss"], loss / count, rtol=1e-12)
    np.testing.assert_allclose(got["acc"], correct / count, rtol=1e-12)
    sizes = [(xb.shape[1], len(tb), len(lb)) for xb, tb, lb in batches_of(x, labels, lengths, batch_size=2)]
    assert sizes == [(2, 2, 2), (2, 2, 2), (1, 1, 1)]


# (flags, params by hand): rnn layers of Wx (in, H), Wh (H, H), b (H,) per direction; the head W (out, C), b (C,)
# I 2, H 3, C 3, two layers: layer 0 reads I, layer 1 reads H, D*H, or I + D*H (skip); out = D*H or 2*D*H (skip)
COUNTS = [
    ({}, (2 * 3 + 9 + 3) + (3 * 3 + 9 + 3) + (3 * 3 + 3)),                                  # 18 + 21 + 12
    ({"skip": True}, (2 * 3 + 9 + 3) + (5 * 3 + 9 + 3) + (6 * 3 + 3)),                     # 18 + 27 + 21
    ({"bidirectional": True}, 2 * (2 * 3 + 9 + 3) + 2 * (6 * 3 + 9 + 3) + (6 * 3 + 3)),    # 36 + 60 + 21
    ({"skip": True, "bidirectional": True},
     2 * (2 * 3 + 9 + 3) + 2 * (8 * 3 + 9 + 3) + (12 * 3 + 3)),                            # 36 + 72 + 39
]


@pytest.mark.parametrize("flags,count", COUNTS, ids=["plain", "skip", "bidirectional", "bidirectional-skip"])
def test_parameter_counts_by_hand_and_the_saved_config_rebuilds_the_same_model(flags, count):
    assert [c for _, c in COUNTS] == [51, 66, 117, 147]
    cfg = dict(BASE, cell="rnn", norm="none", num_layers=2, head=head_config("ce", C), **flags)
    model = build_model(cfg, seed=3)
    assert model.num_params() == count
    assert sum(v.size for v in model.params.values()) == count
    want = {"cell": "rnn", "norm": "none", "input_size": I, "hidden_size": H, "num_layers": 2, "dtype": "float64",
            "forget_bias": 1.0, "head": {"kind": "classifier", "outputs": C, "per_step": False},
            "state_noise": 0.0, **flags}
    assert model.config == want
    again = build_model(dict(model.config), seed=4)
    assert again.num_params() == count
    assert {k: v.shape for k, v in again.params.items()} == {k: v.shape for k, v in model.params.items()}


def test_load_arrays_copies_batchnorm_statistics_as_well():
    T = 3
    cfg = dict(BASE, cell="rnn", norm="bn", num_layers=2, head=head_config("ce", C))
    src, dst = build_model(cfg, seed=1, max_steps=T), build_model(cfg, seed=2, max_steps=T)
    rng = np.random.default_rng(13)
    arrays = {k: rng.uniform(0.5, 1.5, v.shape) for k, v in {**src.params, **src.buffers}.items()}
    assert len(src.buffers) == 2 * 4
    dst.load_arrays(arrays)
    for k, v in arrays.items():
        got = dst.params[k] if k in dst.params else dst.buffers[k]
        np.testing.assert_array_equal(got, v, err_msg=k)


@pytest.mark.parametrize("skip", [False, True])
def test_a_bidirectional_last_step_models_gradients_against_central_differences(skip):
    T, B = 3, 2
    model = make(layers=2, bidirectional=True) if not skip else \
        build_model(dict(BASE, cell="rnn", norm="none", num_layers=2, skip=True, bidirectional=True,
                         head=head_config("ce", C)), seed=0)
    shuffle_params(model, 14)
    rng = np.random.default_rng(15)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, B), np.array([3, 2])
    check_grads(model, lambda: model.loss_and_grad(x, labels, lengths)["loss"])


def test_a_float32_model_against_the_float64_one_of_the_same_parameters():
    T, B = 5, 3
    m64 = make(layers=2)
    m32 = build_model(dict(m64.config, dtype="float32"), seed=0)
    m32.load_arrays({k: v.astype(np.float32) for k, v in m64.params.items()})
    rng = np.random.default_rng(16)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, B), np.array([5, 1, 4])
    a = m64.loss_and_grad(x, labels, lengths, tbptt=2)
    b = m32.loss_and_grad(x.astype(np.float32), labels, lengths, tbptt=2)
    np.testing.assert_allclose(b["loss"], a["loss"], rtol=1e-5)
    for k, g in m64.grads.items():
        assert m32.grads[k].dtype == np.float32
        np.testing.assert_allclose(m32.grads[k], g, rtol=1e-4, atol=1e-6, err_msg=k)


def test_sequence_classifier_passes_its_forget_bias_on():
    model = SequenceClassifier(cell="lstm", input_size=I, hidden_size=H, num_classes=C, forget_bias=2.5,
                               dtype="float64")
    assert model.config["forget_bias"] == 2.5
    assert model.stack.layers[0].forget_bias == 2.5


def test_unknown_settings_are_refused_sorted_word_for_word():
    cfg = dict(BASE, cell="rnn", norm="none", num_layers=1, head=head_config("ce", C))
    for extra in ({"zeta": 1, "alpha": 2, "mid": 3}, {"mid": 3, "zeta": 1, "alpha": 2}):
        with pytest.raises(ValueError) as e:
            build_model({**cfg, **extra})
        assert str(e.value) == "unknown model settings ['alpha', 'mid', 'zeta']"
