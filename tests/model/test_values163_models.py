"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes against a one-layer tanh RNN written here
(h_t = tanh(x_t Wx + h_{t-1} Wh + b), each row over its own steps): truncated BPTT in chunks of T-1 and of 2
steps over ragged rows (one full row, an empty one, a one-step one), every gradient against central
differences of the loss with each chunk's initial state held at the full forward's value, and the batch's raw
sums (summed cross-entropy, correct rows, rows with steps) counted here; evaluation in inference chunks of 3
steps (the last chunk one step long) equal to one whole pass and to a per-step regression's summed squared
error from the evaluation noise N(0, s^2) seeded (seed, 2, key); a skip stack's one step against its two
layers by hand; every refusal's sentence (a bidirectional stack or a CTC head under truncated BPTT, a
bidirectional stack's step, an 'mse' classifier of two outputs or per step)."""
import numpy as np
import pytest

import lnrnn.model.models as models
from lnrnn.model.models import SequenceClassifier, build_model
from gradcheck_util import numeric_grad
from test_values129_models import C, H, I, make

REG = {"kind": "regression", "outputs": 1, "per_step": True, "tolerance": 0.3}


def rnn_steps(p, x, lengths, h0, held=None, chunk=None):
    """Per row, the outputs (n,H) of its own n steps from h0 (B,H). With ``held`` (rows of the full forward's
    outputs) and ``chunk``, the state entering step t = k*chunk is held[r][t-1] (a constant: truncated BPTT)."""
    out = []
    for r, n in enumerate(lengths):
        h, ys = h0[r], []
        for t in range(n):
            if held is not None and t > 0 and t % chunk == 0:
                h = held[r][t - 1]
            h = np.tanh(x[t, r] @ p["rnn.l0.Wx"] + h @ p["rnn.l0.Wh"] + p["rnn.l0.b"])
            ys.append(h)
        out.append(np.array(ys).reshape(n, H))
    return out


def ce_rows(p, outs, labels):
    """(summed cross-entropy, correct, rows) of a last-step classifier over the rows with steps."""
    loss, correct, rows = 0.0, 0, 0
    for r, ys in enumerate(outs):
        if len(ys) == 0:
            continue
        z = ys[-1] @ p["head.W"] + p["head.b"]
        m = z.max()
        loss += m + np.log(np.exp(z - m).sum()) - z[labels[r]]
        correct += int(np.argmax(z) == labels[r])
        rows += 1
    return loss, correct, rows


def ragged(T, B=5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    lengths = np.array([T, 0, 1, T - 2, T][:B], np.int64)
    return x, rng.integers(0, C, B), lengths


@pytest.mark.parametrize("tbptt", [5, 2])
def test_truncated_bptt_gradients_hold_each_chunks_initial_state(tbptt):
    T = 6
    x, labels, lengths = ragged(T, seed=tbptt)
    model = make(seed=3)
    p0 = {k: np.array(v) for k, v in model.params.items()}
    held = rnn_steps(p0, x, lengths, np.zeros((5, H)))
    m = model.loss_and_grad(x, labels, lengths, tbptt=tbptt)
    grads = {k: np.array(v) for k, v in model.grads.items()}
    loss, correct, rows = ce_rows(p0, held, labels)
    assert model.last_count == rows == 4
    np.testing.assert_allclose(m["loss"], loss / rows, rtol=1e-10)
    assert model.last_sums["seqs"] == 4 and model.last_sums["acc"] == correct
    np.testing.assert_allclose(model.last_sums["loss"], loss, rtol=1e-10)

    p = {k: np.array(v) for k, v in p0.items()}

    def trunc_loss():
        return ce_rows(p, rnn_steps(p, x, lengths, np.zeros((5, H)), held, tbptt), labels)[0] / rows
    for k in p:
        np.testing.assert_allclose(grads[k], numeric_grad(trunc_loss, p[k]), rtol=1e-6, atol=1e-9, err_msg=k)


def per_step_sums(p, x, lengths, h0, y):
    """(summed squared error, steps) of a one-output per-step regression, targets y (B,T,1)."""
    loss, steps = 0.0, 0
    for r, ys in enumerate(rnn_steps(p, x, lengths, h0)):
        for t in range(len(ys)):
            loss += float((ys[t] @ p["head.W"] + p["head.b"] - y[r, t])[0] ** 2)
            steps += 1
    return loss, steps


def test_evaluation_in_chunks_of_three_equals_one_whole_pass_and_the_noisy_reference(monkeypatch):
    T, B, s, seed, key = 7, 5, 0.6, 2, 3
    x, _, lengths = ragged(T, B, seed=8)
    lengths[3] = 4                                       # ends inside the second chunk
    y = np.random.default_rng(1).standard_normal((B, T, 1))
    model = make(state_noise=s, seed=seed, head=REG)
    p = {k: np.array(v) for k, v in model.params.items()}
    h_eval = s * np.random.default_rng([seed, 2, key]).standard_normal((B, H))
    loss, steps = per_step_sums(p, x, lengths, h_eval, y)
    assert steps == int(lengths.sum())
    assert abs(loss - per_step_sums(p, x, lengths, np.zeros((B, H)), y)[0]) > 1e-3   # the noise shows

    whole, count_whole = model.loss_sums(x, y, lengths, noise_key=key)
    monkeypatch.setattr(models, "INFER_CHUNK_ROWS", 3 * B)   # chunks [0,3) [3,6) [6,7)
    assert models.infer_chunk_steps(B, T) == 3
    chunked, count = model.loss_sums(x, y, lengths, noise_key=key)
    assert count == count_whole == steps
    np.testing.assert_allclose(chunked["loss"], loss, rtol=1e-10)
    np.testing.assert_allclose(whole["loss"], loss, rtol=1e-10)
    assert chunked["seqs"] == whole["seqs"] == 4

    clf = make(seed=4)                                   # last-step outputs over the same chunks
    q = {k: np.array(v) for k, v in clf.params.items()}
    got = clf.last_outputs(x, None, lengths)
    for r, ys in enumerate(rnn_steps(q, x, lengths, np.zeros((B, H)))):
        np.testing.assert_allclose(got[r], ys[-1] if len(ys) else np.zeros(H), rtol=1e-10, atol=1e-12)


def test_a_skip_stacks_step_is_its_two_layers_by_hand():
    cfg = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
               forget_bias=1.0, head={"kind": "classifier", "outputs": C, "per_step": False}, skip=True)
    model = build_model(cfg, seed=1)
    rng = np.random.default_rng(6)
    for v in model.params.values():
        v[...] = rng.normal(0.0, 0.7, v.shape)
    p = model.params
    x_t = rng.standard_normal((2, I))
    h0 = np.tanh(x_t @ p["rnn.l0.Wx"] + p["rnn.l0.b"])
    h1 = np.tanh(np.concatenate([x_t, h0], 1) @ p["rnn.l1.Wx"] + p["rnn.l1.b"])
    z, _ = model.step(x_t)
    np.testing.assert_allclose(z, np.concatenate([h0, h1], 1) @ p["head.W"] + p["head.b"], rtol=1e-10)


def test_every_refusal_says_what_to_do():
    T = 4
    x, labels, lengths = ragged(T)
    bi = make(bidirectional=True)
    with pytest.raises(ValueError, match=r"^a bidirectional stack reads whole sequences; run it without "
                                         r"truncated BPTT$"):
        bi.loss_and_grad(x, labels, lengths, tbptt=T - 1)
    with pytest.raises(ValueError, match=r"reads whole sequences; it has no step \(no sampling\)"):
        bi.step(x[0])
    ctc = make(head={"kind": "ctc", "outputs": 3, "per_step": True})
    codes = np.array([[1, 2], [1, -1], [2, -1], [1, 2], [2, 1]], np.int64)
    with pytest.raises(ValueError, match=r"^the ctc head scores whole sequences; run it without truncated BPTT$"):
        ctc.loss_and_grad(x, codes, lengths, tbptt=2)
    for kw in (dict(num_classes=2), dict(num_classes=1, per_step=True)):
        with pytest.raises(ValueError, match=r"^the 'mse' objective has one output on the last step$"):
            SequenceClassifier(cell="rnn", input_size=I, hidden_size=H, objective="mse", **kw)
