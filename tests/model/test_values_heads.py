"""Every metric a head reports (metrics.jsonl's train_/val_ columns, ``lnrnn eval``, the curves),
recomputed from its definition on a small batch with padded steps and an empty sequence: the mixture
density head's loss per point and nats per sequence (a NumPy NLL written here from Graves's
equations: two components, correlations of both signs, log-sigmas beyond the clip), the per-step
classifier's loss and accuracy over its mask and unscored labels, the regression accuracy with two
outputs on both sides of the tolerance, and Graves's per-point output clip on both sides."""
import numpy as np
import pytest

from lnrnn.kernels.codes import MDN_RHO as RHO, MDN_SMAX as SMAX
from lnrnn.model.heads import ClassifierHead, MDNHead, RegressionHead
from lnrnn.model.models import build_model

T, B, H = 6, 4, 5
LENGTHS = np.array([6, 3, 0, 5])  # a full row, a short one, an empty one


def nll_points(out, tg, M):
    """-log p(target) per point: out (N,K) the head's linear outputs, tg (N,3). Written from the paper."""
    e = 1 / (1 + np.exp(-out[:, 0]))
    pi = np.exp(out[:, 1:1 + M]) / np.exp(out[:, 1:1 + M]).sum(1, keepdims=True)
    mu1, mu2 = out[:, 1 + M:1 + 2 * M], out[:, 1 + 2 * M:1 + 3 * M]
    s1 = np.exp(np.clip(out[:, 1 + 3 * M:1 + 4 * M], -SMAX, SMAX))
    s2 = np.exp(np.clip(out[:, 1 + 4 * M:1 + 5 * M], -SMAX, SMAX))
    rho = RHO * np.tanh(out[:, 1 + 5 * M:1 + 6 * M])
    z1, z2 = (tg[:, :1] - mu1) / s1, (tg[:, 1:2] - mu2) / s2
    Z = z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2
    logd = -Z / (2 * (1 - rho ** 2)) - np.log(2 * np.pi * s1 * s2 * np.sqrt(1 - rho ** 2))   # log N_k
    a = np.log(pi) + logd
    top = a.max(1)
    pen = tg[:, 2]
    return -(top + np.log(np.exp(a - top[:, None]).sum(1))) - np.log(np.where(pen > 0.5, e, 1 - e))


def mdn_problem(cell="lstm", norm="ln"):
    m = build_model(dict(cell=cell, norm=norm, input_size=3, hidden_size=H, num_layers=1, dtype="float64",
                         forget_bias=1.0, head={"kind": "mdn", "components": 2}), seed=1)
    rng = np.random.default_rng(2)
    x = rng.normal(0, 1, (T, B, 3))
    tg = rng.normal(0, 0.7, (B, T, 3))
    tg[..., 2] = rng.integers(0, 2, (B, T))
    return m, x, tg


def test_mdn_metrics_from_their_definition():
    """loss = NLL summed over the running steps / their count; nats_seq = the same sum / the sequences
    with at least one step (the empty row counts for neither): from loss_sums, evaluate and the training
    forward (loss_and_grad; no BatchNorm, so its forward is inference's)."""
    m, x, tg = mdn_problem()
    W = m.head.params["W"]
    W[:, 1 + 3 * 2:1 + 5 * 2] *= 40  # log-sigmas beyond the clip on some points, inside it on others
    y, _ = m.stack.forward(x, training=False, lengths=LENGTHS)
    out = m.head.linear(y)                                                     # (T,B,K)
    s_hat = out[..., 1 + 3 * 2:1 + 5 * 2]
    assert (np.abs(s_hat) > SMAX).any() and (np.abs(s_hat) < SMAX).any()
    run = np.arange(T)[:, None] < LENGTHS[None, :]                             # (T,B)
    per = nll_points(out[run], np.swapaxes(tg, 0, 1)[run], 2)
    want = {"loss": per.sum() / run.sum(), "nats_seq": per.sum() / np.count_nonzero(LENGTHS)}
    sums, count = m.loss_sums(x, tg, LENGTHS)
    assert count == run.sum() and sums["seqs"] == 3
    got = m.head.mean(sums, count)
    for name, metrics in (("loss_sums", got), ("evaluate", m.evaluate([(x, tg, LENGTHS)])),
                          ("loss_and_grad", m.loss_and_grad(x, tg, LENGTHS))):
        for k in want:
            assert metrics[k] == pytest.approx(want[k], rel=1e-10), (name, k)


def test_classifier_metrics_from_their_definition():
    """Per-step classifier: loss = sum of -log softmax[label] over steps that run and have a label >= 0,
    acc = the argmax hits among them; padded steps hold labels equal to their argmax (and unscored
    steps -1) so that a metric which forgets the mask counts them."""
    rng = np.random.default_rng(3)
    head = ClassifierHead(H, 4, per_step=True, dtype="float64", seed=2)
    h = rng.normal(0, 2, (T, B, H))
    logits = h @ head.params["W"] + head.params["b"]
    labels = rng.integers(0, 4, (B, T))
    valid = np.arange(T)[:, None] < LENGTHS[None, :]                           # (T,B)
    labels[~valid.T] = logits.argmax(-1).T[~valid.T]                           # right guesses at padding
    labels[0, 1] = -1
    scored = valid & (labels.T >= 0)
    z = logits - logits.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    lab = np.where(scored, labels.T, 0)
    want_loss = -np.take_along_axis(logp, lab[..., None], -1)[..., 0][scored].sum()
    want_acc = np.count_nonzero((logits.argmax(-1) == labels.T) & scored)
    sums, count, _ = head.forward(h, labels, valid)
    assert count == scored.sum() == head.count(labels, valid)
    assert sums["loss"] == pytest.approx(want_loss, rel=1e-12)
    assert sums["acc"] == want_acc
    assert head.mean(sums, count)["acc"] == pytest.approx(want_acc / scored.sum())


def test_regression_metrics_from_their_definition():
    """Two outputs per step: loss = sum of squared errors over running steps; acc = running steps whose
    every |error| < tolerance. Targets are placed so that some steps have one output within the
    tolerance and one outside, some both within, and padded steps are far off."""
    rng = np.random.default_rng(4)
    tol = 0.3
    head = RegressionHead(H, 2, per_step=True, tolerance=tol, dtype="float64", seed=2)
    h = rng.normal(0, 1, (T, B, H))
    pred = h @ head.params["W"] + head.params["b"]                             # (T,B,2)
    off = rng.choice([0.1, 0.2, 0.5, 1.0], (T, B, 2)) * rng.choice([-1, 1], (T, B, 2))
    target = np.swapaxes(pred + off, 0, 1)                                     # (B,T,2)
    valid = np.arange(T)[:, None] < LENGTHS[None, :]
    within = np.all(np.abs(off) < tol, -1)
    assert (within & valid).any() and (np.any(np.abs(off) < tol, -1) & ~within & valid).any()
    sums, count, _ = head.forward(h, target, valid)
    assert count == valid.sum()
    assert sums["loss"] == pytest.approx(((off ** 2).sum(-1) * valid).sum(), rel=1e-10)
    assert sums["acc"] == np.count_nonzero(within & valid)


def test_mdn_output_clip_on_both_sides():
    """clip_output c: each point's dL/d(outputs) (not the batch average) is clipped to [-c, c], then
    scaled; some derivatives lie beyond c and some inside, so both the clip and its order show."""
    from lnrnn.kernels.mdn import mdn_backward
    rng = np.random.default_rng(5)
    head = MDNHead(H, components=2, dtype="float64", seed=3)
    h = rng.normal(0, 1, (T, B, H))
    tg = rng.normal(0, 3, (B, T, 3))
    tg[..., 2] = rng.integers(0, 2, (B, T))
    valid = np.arange(T)[:, None] < LENGTHS[None, :]
    _, count, cache = head.forward(h, tg, valid)
    per_point = mdn_backward(np.ones(T * B), cache[3], cache[1], cache[2], 2)   # (T*B,K)
    c = float(np.median(np.abs(per_point[per_point != 0])))
    assert (np.abs(per_point) > c).any() and ((np.abs(per_point) < c) & (per_point != 0)).any()
    head.clip_output = c
    head.zero_grad()
    dh = head.backward(cache, 1.0 / count)
    d = np.clip(per_point, -c, c) / count
    np.testing.assert_allclose(head.grads["W"], h.reshape(-1, H).T @ d, rtol=1e-12)
    np.testing.assert_allclose(dh, (d @ head.params["W"].T).reshape(T, B, H), rtol=1e-12)
