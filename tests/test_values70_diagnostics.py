"""lnrnn.diagnostics.per_step's figures against their definitions, on models whose parameters are moved off their
initial values (LN gains and biases unequal, so a replay that mixes them up shows):

- loss: the batch's mean per scored unit, as the model's own inference (``loss_sums``) computes it, for skip
  stacks (every layer above the first reads [x, h below]) and LN-LSTMs, with ragged lengths;
- dh, grad_h: dL/dh_t at step t. With a last-step classifier, the top layer's dL/dh at the last step is the head's
  alone, computed here from the top layer's h: (softmax(h W + b) - onehot) W^T / B; grad_h there is its rows'
  mean norm; and at every other step the gradient only reaches h through the recurrence (also nonzero)."""
import numpy as np
import pytest

from lnrnn.diagnostics import per_step
from lnrnn.model.models import build_model

T, B, I, H, O = 5, 4, 2, 3, 3


def _model(cell, norm, layers=2, skip=False, per_step_head=False, seed=1):
    head = {"kind": "classifier", "outputs": O, "per_step": per_step_head}
    m = build_model(dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
                         forget_bias=1.0, skip=skip, head=head), seed=seed)
    rng = np.random.default_rng(seed + 10)
    m.flat[0].data[...] += 0.4 * rng.standard_normal(m.flat[0].data.size)   # gains, biases, weights all moved
    return m


@pytest.mark.parametrize("cell,norm,skip,per_step_head", [
    ("lstm", "ln", True, False),
    ("lstm", "ln", False, True),
    ("rnn", "ln", True, True),
    ("lstm", "none", True, False),
])
def test_the_loss_is_the_models_own_inference(cell, norm, skip, per_step_head):
    m = _model(cell, norm, skip=skip, per_step_head=per_step_head)
    rng = np.random.default_rng(2)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, O, (B, T) if per_step_head else B)
    lengths = np.array([5, 2, 4, 1])
    sums, count = m.loss_sums(x, y, lengths)
    d = per_step(m, x, y, lengths)
    assert d["loss"] == pytest.approx(float(sums["loss"]) / count, rel=1e-10)


@pytest.mark.parametrize("cell,norm", [("lstm", "ln"), ("rnn", "none")])
def test_the_last_steps_dh_is_the_heads_gradient(cell, norm):
    m = _model(cell, norm, layers=1)
    rng = np.random.default_rng(5)
    x = rng.standard_normal((T, B, I))
    y = rng.integers(0, O, B)
    h, _ = m.stack.forward(x, None, training=False, keep=False)           # (T,B,H)
    W, b = m.head.params["W"], m.head.params["b"]
    logits = h[-1] @ W + b                                                # (B,O)
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    p[np.arange(B), y] -= 1.0
    want = p @ W.T / B                                                    # (B,H) dL/dh at step T-1
    d = per_step(m, x, y)
    dh = d["dh"][0]                                                       # (T,B,H), t = 0 .. T-1
    np.testing.assert_allclose(dh[-1], want, rtol=1e-9, atol=1e-13)
    assert d["grad_h"][0, -1] == pytest.approx(np.linalg.norm(want, axis=1).mean(), rel=1e-9)
    assert np.all(np.abs(dh[:-1]).max(axis=(1, 2)) > 0)
    assert not np.allclose(dh[0], want)
