"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes against computations written here: a
bidirectional model's saved config written out key by key (hidden size H, not the output width 2H, and the
'bidirectional' flag; a skip stack's 'skip' alone) and the model it rebuilds, shaped by the definitions
(Wx (I,H), Wh (H,H), b (H,) per direction, the head's W (2H,C)) and scoring the same loss once the arrays are
loaded; load_arrays' refusal of a missing and an extra array word for word, nothing loaded; a per-step
classifier under truncated BPTT in chunks of 2 over 5 ragged steps scored against each step's own target
(the tanh RNN of test_values163_models and a cross-entropy summed here); a last-step evaluation of
one-step rows without lengths counting every row; a float32 model's last outputs in float32 against the
float64 reference; a version 0.1 'mse' config upgraded with head_config's default tolerance 0.04; an LSTM
built with forget bias 2.5 (b's forget block 2.5, the rest 0, by the cells' definition); build_model's
clip_gates bounding every dL/db_j by T*B*clip (Graves's clip of each step's gate preactivations), below the
unclipped gradient's central differences."""
import re

import numpy as np
import pytest

from lnrnn.model.models import build_model, head_config, upgrade_config
from gradcheck_util import numeric_grad
from test_values129_models import C, H, I, ce_sums, make, rnn_last
from test_values163_models import rnn_steps


def arrays_of(model):
    return {**{k: np.array(v) for k, v in model.params.items()}, **{k: np.array(v) for k, v in model.buffers.items()}}


def test_a_bidirectional_config_saves_h_and_the_flag_and_rebuilds_the_same_model():
    model = make(bidirectional=True, seed=1)
    assert model.config == {"cell": "rnn", "norm": "none", "input_size": I, "hidden_size": H, "num_layers": 1,
                            "dtype": "float64", "forget_bias": 1.0,
                            "head": {"kind": "classifier", "outputs": C, "per_step": False},
                            "state_noise": 0.0, "bidirectional": True}
    other = build_model(dict(model.config), seed=7)
    want = {"head.W": (2 * H, C), "head.b": (C,)}
    for d in ("l0.", "l0_reverse."):
        want.update({f"rnn.{d}Wx": (I, H), f"rnn.{d}Wh": (H, H), f"rnn.{d}b": (H,)})
    assert {k: v.shape for k, v in other.params.items()} == want
    other.load_arrays(arrays_of(model))
    rng = np.random.default_rng(3)
    x, labels, lengths = rng.standard_normal((4, 3, I)), rng.integers(0, C, 3), np.array([4, 2, 1])
    np.testing.assert_allclose(other.loss_sums(x, labels, lengths)[0]["loss"],
                               model.loss_sums(x, labels, lengths)[0]["loss"], rtol=1e-13)


def test_a_skip_stacks_config_saves_skip_alone():
    model = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                             forget_bias=1.0, skip=True, head=head_config("ce", C)))
    assert model.config["skip"] is True and "bidirectional" not in model.config
    assert model.stack.output_size == 2 * H and model.reverse_columns is None


def test_load_arrays_refuses_a_missing_and_an_extra_array_by_name_and_loads_nothing():
    model = make(seed=2)
    before = arrays_of(model)
    arrays = {k: np.zeros_like(v) for k, v in before.items() if k != "head.b"}
    arrays["head.bias"] = np.zeros(C)
    with pytest.raises(ValueError, match="^" + re.escape("array names differ: ['head.b', 'head.bias']") + "$"):
        model.load_arrays(arrays)
    del arrays["head.bias"]
    with pytest.raises(ValueError, match="^" + re.escape("array names differ: ['head.b']") + "$"):
        model.load_arrays(arrays)
    for k, v in arrays_of(model).items():
        np.testing.assert_array_equal(v, before[k], err_msg=k)


def test_truncated_bptt_scores_each_chunk_against_its_own_steps_targets():
    T, B, tbptt = 5, 3, 2
    model = make(head={"kind": "classifier", "outputs": C, "per_step": True}, seed=3)
    p = {k: np.array(v) for k, v in model.params.items()}
    rng = np.random.default_rng(4)
    x, labels, lengths = rng.standard_normal((T, B, I)), rng.integers(0, C, (B, T)), np.array([5, 3, 4])
    loss, steps = 0.0, 0
    for r, ys in enumerate(rnn_steps(p, x, lengths, np.zeros((B, H)))):
        for t, h in enumerate(ys):
            z = h @ p["head.W"] + p["head.b"]
            loss += z.max() + np.log(np.exp(z - z.max()).sum()) - z[labels[r, t]]
            steps += 1
    assert steps == 12
    m = model.loss_and_grad(x, labels, lengths, tbptt=tbptt)
    assert model.last_count == 12
    np.testing.assert_allclose(m["loss"], loss / steps, rtol=1e-12)
    np.testing.assert_allclose(model.loss_and_grad(x, labels, lengths)["loss"], loss / steps, rtol=1e-12)


def test_a_last_step_evaluation_of_one_step_rows_without_lengths_scores_every_row():
    B = 4
    model = make(seed=4)
    p = {k: np.array(v) for k, v in model.params.items()}
    rng = np.random.default_rng(5)
    x, labels = rng.standard_normal((1, B, I)), rng.integers(0, C, B)
    loss, correct, rows = ce_sums(p, x, labels, [1] * B, np.zeros((B, H)))
    sums, count = model.loss_sums(x, labels)
    assert count == rows == B and sums["seqs"] == B
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
    assert sums["acc"] == correct
    np.testing.assert_allclose(model.evaluate([(x, labels, None)])["loss"], loss / B, rtol=1e-12)


def test_a_float32_models_last_outputs_are_float32():
    T, B = 3, 3
    model = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float32",
                             forget_bias=1.0, head=head_config("ce", C)), seed=5)
    rng = np.random.default_rng(6)
    for v in model.params.values():
        v[...] = rng.normal(0.0, 0.7, v.shape)
    p = {k: np.array(v, np.float64) for k, v in model.params.items()}
    x, lengths = rng.standard_normal((T, B, I)).astype(np.float32), np.array([3, 0, 2])
    h = model.last_outputs(x, lengths=lengths)
    assert h.dtype == np.float32 and h.shape == (B, H)
    want = [np.zeros(H) if r is None else r for r in rnn_last(p, x.astype(np.float64), lengths, np.zeros((B, H)))]
    np.testing.assert_allclose(h, np.array(want), rtol=1e-5, atol=1e-6)


def test_a_version_0_1_mse_config_takes_the_default_tolerance():
    old = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, objective="mse", num_classes=1)
    cfg = upgrade_config(old)
    assert cfg["head"] == {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.04}
    assert cfg["state_noise"] == 0.0 and "objective" not in cfg and "num_classes" not in cfg
    model = build_model(old)
    assert model.head.tolerance == 0.04 and model.config["head"] == cfg["head"]


def test_an_lstm_built_with_forget_bias_2_5_starts_its_forget_block_there():
    model = build_model(dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                             forget_bias=2.5, head=head_config("ce", C)), seed=6)
    assert model.config["forget_bias"] == 2.5
    for k in range(2):
        want = np.zeros(4 * H)
        want[H:2 * H] = 2.5                               # gate order [i|f|g|o]
        np.testing.assert_array_equal(model.params[f"rnn.l{k}.b"], want)
    rebuilt = build_model(dict(model.config), seed=8)
    np.testing.assert_array_equal(rebuilt.params["rnn.l1.b"], want)


def test_clip_gates_bounds_every_bias_gradient_by_steps_times_rows_times_clip():
    T, B, clip = 3, 2, 1e-3
    cfg = dict(cell="lstm", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, head=head_config("ce", C))
    rng = np.random.default_rng(7)
    x, labels = rng.standard_normal((T, B, I)), rng.integers(0, C, B)
    clipped, plain = build_model(cfg, seed=9, clip_gates=clip), build_model(cfg, seed=9)
    for a, b in zip(clipped.params.values(), plain.params.values()):
        a[...] = b[...] = rng.normal(0.0, 0.7, a.shape)
    assert all(layer.clip_gates == clip for layer in clipped.stack.layers)
    clipped.loss_and_grad(x, labels)
    db = np.array(clipped.grads["rnn.l0.b"])
    # each step's dL/d(gate preactivations) lies in [-clip, clip] per row: db_j sums T*B of them
    assert np.all(np.abs(db) <= T * B * clip * (1 + 1e-12))
    exact = numeric_grad(lambda: plain.loss_and_grad(x, labels)["loss"], plain.params["rnn.l0.b"])
    assert np.abs(exact).max() > 2 * T * B * clip       # the bound bites: unclipped, it would not hold
    plain.loss_and_grad(x, labels)
    np.testing.assert_allclose(plain.grads["rnn.l0.b"], exact, rtol=1e-6, atol=1e-9)
