"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes against the one-layer tanh RNN written in
test_values129_models and test_values163_models (h_t = tanh(x_t Wx + h_{t-1} Wh + b), each row over its own
steps): a per-step regression under truncated BPTT in chunks of 2 steps over ragged rows (an empty row, a
one-step row, a row ending inside the second chunk), its mean against the summed squared error over running
steps counted here, and every gradient (through ``model.grads``) against central differences with each chunk's
initial state held at the full forward's value, after an earlier update (the gradients are the second
update's alone); updates without a key drawing their initial-state noise N(0, s^2) for keys 0 then 1 (seeded
(seed, 1, key)); a last-step evaluation starting from the noise seeded (seed, 2, key); the scored count (rows
with a step, running steps); the refusals' sentences (a negative state_noise, a checkpoint array of the
wrong shape)."""
import re

import numpy as np
import pytest

from lnrnn.model.models import build_model
from gradcheck_util import numeric_grad
from test_values129_models import C, H, I, batch, ce_sums, make
from test_values163_models import REG, rnn_steps


def sq_err(p, outs, y):
    """(summed squared error, steps) of a one-output per-step regression over rows' outputs, targets y (B,T,1)."""
    loss, steps = 0.0, 0
    for r, ys in enumerate(outs):
        for t in range(len(ys)):
            loss += float((ys[t] @ p["head.W"] + p["head.b"] - y[r, t])[0] ** 2)
            steps += 1
    return loss, steps


def test_per_step_regression_in_chunks_of_two_against_the_truncated_reference():
    T, B, chunk = 5, 5, 2                                # chunks [0,2) [2,4) [4,5)
    x, _, lengths = batch(T=T, B=B, seed=11)             # lengths 5, 0, 1, 3, 5
    y = np.random.default_rng(12).standard_normal((B, T, 1))
    model = make(seed=6, head=REG)
    p = {k: np.array(v) for k, v in model.params.items()}
    model.loss_and_grad(x, y, lengths)                   # an earlier update, whole sequences
    m = model.loss_and_grad(x, y, lengths, tbptt=chunk)
    grads = {k: np.array(v) for k, v in model.grads.items()}
    assert set(grads) == set(p)
    held = rnn_steps(p, x, lengths, np.zeros((B, H)))
    loss, steps = sq_err(p, held, y)
    assert steps == 5 + 0 + 1 + 3 + 5 == model.last_count
    np.testing.assert_allclose(m["loss"], loss / steps, rtol=1e-10)

    def trunc_loss():
        return sq_err(p, rnn_steps(p, x, lengths, np.zeros((B, H)), held, chunk), y)[0] / steps
    for k in p:
        np.testing.assert_allclose(grads[k], numeric_grad(trunc_loss, p[k]), rtol=1e-6, atol=1e-9, err_msg=k)


def test_updates_without_a_key_draw_keys_zero_then_one():
    s, seed = 0.7, 4
    x, labels, lengths = batch(seed=5)
    B = x.shape[1]
    model = make(state_noise=s, seed=seed)
    p = {k: np.array(v) for k, v in model.params.items()}
    for key in (0, 1):
        m = model.loss_and_grad(x, labels, lengths)
        h0 = s * np.random.default_rng([seed, 1, key]).standard_normal((B, H))
        loss, _, n = ce_sums(p, x, labels, lengths, h0)
        np.testing.assert_allclose(m["loss"], loss / n, rtol=1e-10, err_msg=f"key {key}")


def test_last_step_evaluation_starts_from_its_own_noise_and_counts_rows_with_steps():
    s, seed, key = 0.9, 7, 2
    x, labels, lengths = batch(T=4, B=5, seed=9)
    B, T = x.shape[1], x.shape[0]
    model = make(state_noise=s, seed=seed)
    p = {k: np.array(v) for k, v in model.params.items()}
    h_eval = s * np.random.default_rng([seed, 2, key]).standard_normal((B, H))
    loss, correct, n = ce_sums(p, x, labels, lengths, h_eval)
    sums, count = model.loss_sums(x, labels, lengths, noise_key=key)
    assert count == n == int(np.count_nonzero(lengths))
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-10)
    assert abs(loss - ce_sums(p, x, labels, lengths, np.zeros((B, H)))[0]) > 1e-3   # the noise shows
    assert model.scored_count(labels, lengths, T, B) == 4                          # row 1 has no step
    reg = make(head=REG)
    assert reg.scored_count(np.zeros((B, T, 1)), lengths, T, B) == int(lengths.sum()) == 4 + 0 + 1 + 3 + 4


def test_refusals_word_for_word():
    cfg = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": C, "per_step": False}, state_noise=-0.5)
    with pytest.raises(ValueError, match=r"^state_noise must be a non-negative standard deviation, not -0\.5$"):
        build_model(cfg)
    model = make()
    arrays = {k: np.array(v) for k, v in model.params.items()}
    arrays["head.b"] = np.zeros(C + 1)
    with pytest.raises(ValueError, match="^" + re.escape(f"head.b: shape ({C + 1},) vs ({C},)") + "$"):
        model.load_arrays(arrays)
