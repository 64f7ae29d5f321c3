"""Sequence models (lnrnn/model/models.py, heads.py), fifteenth pass, in float64 at tiny sizes: a bidirectional
last-step classifier over ragged rows (lengths 4, 1, 3), its loss against log-softmax cross-entropy composed in
NumPy from lnrnn/reference.py (forward columns at each row's last step, backward ones at step 0) and every
gradient against central differences of that composition; an MDN model's evaluation over two batches (lengths
4, 2, 3 and 1, 4) against reference.mdn_nll: loss per scored point (14) and nats per sequence (5); the names and
shapes of every parameter of SequenceClassifier and build_model stacks of 2 and 3 layers with I != H written out
by hand, and their count; SequenceClassifier's LSTM forget block at 1 by default; build_model refusing one and
two unknown settings word for word; batches_of cutting 1001 sequences into 500, 500 and 1."""
import numpy as np
import pytest

from gradcheck_util import numeric_grad
from lnrnn import reference
from lnrnn.model.models import SequenceClassifier, batches_of, build_model
from test_values257_layers_stacks import direction, randomized

I, H = 2, 3


def base_config(**kw):
    return dict(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                     forget_bias=1.0), **kw)


def log_softmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def test_a_bidirectional_last_step_classifier_and_its_gradients_over_ragged_rows():
    T, B, C = 4, 3, 3
    lengths = np.array([4, 1, 3])
    model = build_model(base_config(bidirectional=True, head=dict(kind="classifier", outputs=C, per_step=False)),
                        seed=3)
    randomized(model.stack, 29711)
    live = model.params
    rng = np.random.default_rng(29712)
    live["head.W"][...] = rng.normal(0.0, 0.8, live["head.W"].shape)
    live["head.b"][...] = rng.normal(0.0, 0.3, C)
    x = rng.standard_normal((T, B, I))
    labels = np.array([2, 0, 1])
    sp = {k[len("rnn."):]: v for k, v in live.items() if k.startswith("rnn.")}

    def loss():
        fwd = direction(sp, "l0.", x, lengths, False)
        bwd = direction(sp, "l0_reverse.", x, lengths, True)
        h = np.concatenate([fwd[lengths - 1, np.arange(B)], bwd[0]], axis=1)        # (B,2H)
        logp = log_softmax(h @ live["head.W"] + live["head.b"])
        return -logp[np.arange(B), labels].mean()

    got = model.loss_and_grad(x, labels, lengths=lengths)
    assert model.last_count == 3
    np.testing.assert_allclose(got["loss"], loss(), rtol=1e-12)
    for n, g in model.grads.items():
        np.testing.assert_allclose(g, numeric_grad(loss, live[n]), rtol=1e-7, atol=1e-10, err_msg=n)


def test_an_mdn_models_evaluation_per_point_and_per_sequence():
    T, M = 4, 2
    model = build_model(base_config(input_size=3, hidden_size=4, head=dict(kind="mdn", components=M)), seed=4)
    live = model.params
    rng = np.random.default_rng(29713)
    for v in live.values():
        v[...] = rng.normal(0.0, 0.4, v.shape)
    batches, total, points = [], 0.0, 0
    for lengths in (np.array([4, 2, 3]), np.array([1, 4])):
        B = len(lengths)
        x = rng.standard_normal((T, B, 3))
        targets = np.concatenate([rng.normal(0.0, 1.0, (B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
        batches.append((x, targets, lengths))
        y, _, _ = reference.rnn_forward(x, np.zeros((B, 4)), live["rnn.l0.Wx"], live["rnn.l0.Wh"],
                                        live["rnn.l0.b"], None, "none")
        yhat = (y @ live["head.W"] + live["head.b"]).reshape(T * B, 6 * M + 1)
        valid = (np.arange(T)[:, None] < lengths[None, :]).reshape(T * B)
        total += reference.mdn_nll(yhat, np.swapaxes(targets, 0, 1).reshape(T * B, 3), valid, M).sum()
        points += int(lengths.sum())
    got = model.evaluate(batches)
    assert points == 14
    np.testing.assert_allclose(got["loss"], total / 14, rtol=1e-9)
    np.testing.assert_allclose(got["nats_seq"], total / 5, rtol=1e-9)


def lstm_shapes(i, h):
    return {"Wx": (i, 4 * h), "Wh": (h, 4 * h), "b": (4 * h,)}


def test_sequence_classifier_names_shapes_and_count_of_a_two_layer_lstm():
    model = SequenceClassifier("lstm", "none", input_size=2, hidden_size=3, num_layers=2, num_classes=5)
    want = {"rnn.l0.Wx": (2, 12), "rnn.l0.Wh": (3, 12), "rnn.l0.b": (12,),
            "rnn.l1.Wx": (3, 12), "rnn.l1.Wh": (3, 12), "rnn.l1.b": (12,),
            "head.W": (3, 5), "head.b": (5,)}
    assert {k: v.shape for k, v in model.params.items()} == want
    assert model.num_params() == 24 + 36 + 12 + 36 + 36 + 12 + 15 + 5
    assert model.config["input_size"] == 2 and model.config["hidden_size"] == 3


def test_sequence_classifiers_forget_block_starts_at_one_by_default():
    model = SequenceClassifier("lstm", "none", input_size=2, hidden_size=3, num_layers=2)
    for k in range(2):
        b = model.params[f"rnn.l{k}.b"]
        np.testing.assert_array_equal(b[3:6], np.ones(3))
        np.testing.assert_array_equal(np.concatenate([b[:3], b[6:]]), np.zeros(9))
    assert model.config["forget_bias"] == 1.0


@pytest.mark.parametrize("layers", [2, 3])
def test_build_model_names_and_shapes_of_every_layer(layers):
    model = build_model(base_config(cell="lstm", input_size=5, hidden_size=3, num_layers=layers,
                                    head=dict(kind="regression", outputs=2, per_step=False, tolerance=0.1)))
    want = {}
    for k in range(layers):
        want.update({f"rnn.l{k}.{n}": s for n, s in lstm_shapes(5 if k == 0 else 3, 3).items()})
    want.update({"head.W": (3, 2), "head.b": (2,)})
    assert {k: v.shape for k, v in model.params.items()} == want
    assert model.num_params() == (5 * 12 + 3 * 12 + 12) + (layers - 1) * (3 * 12 + 3 * 12 + 12) + 3 * 2 + 2
    assert len(model.stack.layers) == layers


@pytest.mark.parametrize("extra, listed", [(dict(dropout=0.1), "['dropout']"),
                                           (dict(zoneout=0.1, dropout=0.2), "['dropout', 'zoneout']")],
                         ids=["one", "two"])
def test_build_model_refuses_unknown_settings_word_for_word(extra, listed):
    cfg = base_config(head=dict(kind="classifier", outputs=2, per_step=False), **extra)
    with pytest.raises(ValueError) as e:
        build_model(cfg)
    assert str(e.value) == f"unknown model settings {listed}"


def test_batches_of_cuts_500_sequences_by_default():
    N = 1001
    x = np.arange(N, dtype=np.float64).reshape(1, N, 1)
    y = np.arange(N)
    lengths = np.ones(N, np.int64)
    got = list(batches_of(x, y, lengths))
    assert [b[0].shape[1] for b in got] == [500, 500, 1]
    assert [len(b[1]) for b in got] == [500, 500, 1] and [len(b[2]) for b in got] == [500, 500, 1]
    assert got[2][1][0] == 1000 and got[1][0][0, 0, 0] == 500.0
