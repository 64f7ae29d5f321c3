"""The sequence model (lnrnn/model/models.py), twelfth pass, in float64 at tiny sizes (I 2, H 3, tanh RNN cells):
inference in time chunks of 2 steps (INFER_CHUNK_ROWS 6 over 3 rows) carrying each row's state from chunk to chunk
against the tanh RNN over the row's own steps written out here (lengths 7, 1, 5 and 4 over 7 steps: rows ending
inside a chunk, at its edge and past the first one); a bidirectional model's last outputs over ragged rows against
the forward direction at each row's last step and the backward direction (the row reversed, run to its end) at
step 0; a regression head's tolerance passed on from head_config, its hit count worked out by hand at errors on
both sides of 0.3; the refusals of a text given to a model without a window and of a bidirectional synthesis
network, word for word."""
import numpy as np
import pytest

import lnrnn.model.models as models
from lnrnn.model.models import build_model, head_config
from test_values129_models import C, H, I, make, rnn_last
from test_values211_models import BASE


def test_chunked_inference_carries_each_rows_state_into_the_next_chunk(monkeypatch):
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 6)
    T, B = 7, 4
    assert models.infer_chunk_steps(B, T) == 1
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 8)            # 8 // 4 = 2 steps a chunk
    assert models.infer_chunk_steps(B, T) == 2
    model = make(seed=4)
    p = model.params
    rng = np.random.default_rng(25711)
    x, lengths = rng.standard_normal((T, B, I)), np.array([7, 1, 5, 4])
    h0 = [rng.standard_normal((B, H))]
    got = model.last_outputs(x, [tuple(h0)], lengths)
    want = rnn_last(p, x, lengths, h0[0])
    for r in range(B):
        np.testing.assert_allclose(got[r], want[r], rtol=1e-12, err_msg=str(r))
    # and the head's loss over those rows from zero states: cross-entropy of softmax(h W + b) at each row's label
    labels = np.array([2, 0, 1, 2])
    sums, count = model.loss_sums(x, labels, lengths)
    z = np.array(rnn_last(p, x, lengths, np.zeros((B, H)))) @ p["head.W"] + p["head.b"]
    logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    assert count == 4
    np.testing.assert_allclose(sums["loss"], -logp[np.arange(B), labels].sum(), rtol=1e-12)


def rnn_over(p, name, steps):
    h = np.zeros(H)
    for xt in steps:
        h = np.tanh(xt @ p[name + "Wx"] + h @ p[name + "Wh"] + p[name + "b"])
    return h


def test_a_bidirectional_models_last_outputs_over_ragged_rows():
    model = make(seed=2, bidirectional=True)
    p = model.params
    T, B = 4, 3
    x, lengths = np.random.default_rng(25712).standard_normal((T, B, I)), np.array([4, 1, 3])
    got = model.last_outputs(x, None, lengths)
    assert got.shape == (B, 2 * H)
    for r, n in enumerate(lengths):
        np.testing.assert_allclose(got[r, :H], rnn_over(p, "rnn.l0.", x[:n, r]), rtol=1e-12)
        np.testing.assert_allclose(got[r, H:], rnn_over(p, "rnn.l0_reverse.", x[:n, r][::-1]), rtol=1e-12)


def test_a_regression_heads_tolerance_is_passed_on_and_counts_its_hits():
    cfg = dict(BASE, cell="rnn", norm="none", num_layers=1, head=head_config("mse", 2, tolerance=0.3))
    assert cfg["head"] == {"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.3}
    model = build_model(cfg, seed=1)
    assert model.config["head"]["tolerance"] == 0.3
    p = model.params
    T, B = 3, 4
    x = np.random.default_rng(25713).standard_normal((T, B, I))
    h = np.array(rnn_last(p, x, [T] * B, np.zeros((B, H))))
    pred = h @ p["head.W"] + p["head.b"]
    # errors per row: both under 0.3 (hit), one at 0.35, both at 0.1 (hit), one at -0.31
    off = np.array([[0.29, -0.2], [0.1, 0.35], [0.1, -0.1], [-0.31, 0.0]])
    sums, count = model.loss_sums(x, pred - off)
    assert count == 4
    assert sums["acc"] == 2.0
    np.testing.assert_allclose(sums["loss"], (off ** 2).sum(), rtol=1e-12)


def test_a_text_given_to_a_model_without_a_window_is_refused_word_for_word():
    model = make(seed=0)
    x = np.zeros((2, 1, I))
    with pytest.raises(ValueError) as e:
        model.loss_sums(x, np.array([0]), text=(np.zeros((1, 2), np.int64), np.array([2])))
    assert str(e.value) == "this model reads no text (it was not trained with an attention window)"


def test_a_bidirectional_synthesis_network_is_refused_word_for_word():
    cfg = dict(BASE, cell="lstm", norm="none", num_layers=1, head=head_config("ce", C), window=2, alphabet_size=5,
               bidirectional=True)
    with pytest.raises(ValueError) as e:
        build_model(cfg)
    assert str(e.value) == ("the synthesis network (an attention window) writes step by step; it cannot be "
                            "bidirectional")
