"""The heads (lnrnn/model/heads.py) in float64 over ragged rows (a full row, a row of one step, a row of no step),
against NumPy written here from the definitions: the classifier's loss as -log softmax of the label's class over
the valid, labelled steps (a step labelled -1 is neither scored nor counted), per step and at the last step; the
regression head's summed squared error and its count within the tolerance; the mixture density head's loss as
Graves 2013's -log of the mixture density plus the pen's Bernoulli term over the running points, and its
gradient with clip_output (each point's own dL/dyhat clipped, then times the scale); the CTC head's loss as
-log of the sum, over every path of a row's own steps that collapses to its label, of the product of the
softmax. Gradients against central differences of scale times the loss; Head.mean over nothing scored is 0."""
import itertools

import numpy as np
import pytest

from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX
from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead
from gradcheck_util import numeric_grad

T, B, H = 4, 3, 5
LENGTHS = np.array([4, 1, 0])
VALID = np.arange(T)[:, None] < LENGTHS[None, :]                    # (T,B)
SCALE = 0.25


def randomized(head, seed, w=0.8, b=1.0):
    rng = np.random.default_rng(seed)
    head.params["W"][...] = rng.normal(0.0, w, head.params["W"].shape)
    head.params["b"][...] = rng.normal(0.0, b, head.params["b"].shape)
    return head


def logsoftmax(z):
    return z - z.max() - np.log(np.exp(z - z.max()).sum())


def check_grads(head, h, targets, valid, loss_here):
    head.zero_grad()
    _, _, cache = head.forward(h, targets, valid)
    head.backward(cache, SCALE)
    for k in ("W", "b"):
        want = numeric_grad(lambda: SCALE * loss_here(), head.params[k], eps=1e-6, order=2)
        np.testing.assert_allclose(head.grads[k], want, rtol=1e-6, atol=1e-8)


@pytest.mark.parametrize("cls,outputs", [(ClassifierHead, 3), (RegressionHead, 2)])
def test_mean_over_nothing_scored_is_zero(cls, outputs):
    head = cls(H, outputs, dtype="float64")
    assert head.mean({"loss": 0.0, "acc": 0.0, "seqs": 0}, 0) == {"loss": 0.0, "acc": 0.0}
    assert head.mean({"loss": 6.0, "acc": 3.0, "seqs": 2}, 4) == {"loss": 1.5, "acc": 0.75}


def test_classifier_per_step_skips_unlabelled_steps():
    C = 4
    rng = np.random.default_rng(151)
    head = randomized(ClassifierHead(H, C, per_step=True, dtype="float64"), 1)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[1, 3, -1, 0], [2, 1, 1, 1], [0, 0, 0, 0]])    # (B,T); row 0's step 2 has no label

    def by_hand():
        loss, acc, n = 0.0, 0, 0
        for t in range(T):
            for b in range(B):
                lab = targets[b, t]
                if not VALID[t, b] or lab < 0:
                    continue
                z = h[t, b] @ head.params["W"] + head.params["b"]
                loss -= logsoftmax(z)[lab]
                acc += int(np.argmax(z) == lab)
                n += 1
        return loss, acc, n

    sums, count, _ = head.forward(h, targets, VALID)
    loss, acc, n = by_hand()
    assert (count, n) == (4, 4)
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
    assert sums["acc"] == acc
    check_grads(head, h, targets, VALID, lambda: by_hand()[0])


def test_classifier_last_step_skips_an_unlabelled_row():
    C = 3
    rng = np.random.default_rng(1511)
    head = randomized(ClassifierHead(H, C, dtype="float64"), 2)
    h = rng.standard_normal((B + 1, H))
    targets = np.array([2, -1, 0, 1])
    valid = np.array([True, True, True, False])

    def by_hand():
        return -sum(logsoftmax(h[b] @ head.params["W"] + head.params["b"])[targets[b]] for b in (0, 2))

    sums, count, _ = head.forward(h, targets, valid)
    assert count == 2
    np.testing.assert_allclose(sums["loss"], by_hand(), rtol=1e-12)
    check_grads(head, h, targets, valid, by_hand)


def test_regression_per_step_sum_count_and_gradient():
    O = 2
    rng = np.random.default_rng(1512)
    head = randomized(RegressionHead(H, O, per_step=True, tolerance=0.5, dtype="float64"), 3, w=0.3, b=0.1)
    h = rng.standard_normal((T, B, H))
    targets = rng.normal(0.0, 0.5, (B, T, O))

    def by_hand():
        loss, within = 0.0, 0
        for t, b in zip(*np.nonzero(VALID)):
            err = h[t, b] @ head.params["W"] + head.params["b"] - targets[b, t]
            loss += float(err @ err)
            within += int(np.all(np.abs(err) < 0.5))
        return loss, within

    sums, count, _ = head.forward(h, targets, VALID)
    loss, within = by_hand()
    assert count == 5
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
    assert sums["acc"] == within and 0 < within < 5
    check_grads(head, h, targets, VALID, lambda: by_hand()[0])


M = 2
K = 6 * M + 1


def mdn_point_loss(y, tg):
    """Graves 2013 eqs. 18-26 for one point: y (K,), tg (dx, dy, pen)."""
    lpi = logsoftmax(y[1:1 + M])
    mu1, mu2 = y[1 + M:1 + 2 * M], y[1 + 2 * M:1 + 3 * M]
    ls1 = np.clip(y[1 + 3 * M:1 + 4 * M], -MDN_SMAX, MDN_SMAX)
    ls2 = np.clip(y[1 + 4 * M:1 + 5 * M], -MDN_SMAX, MDN_SMAX)
    rho = MDN_RHO * np.tanh(y[1 + 5 * M:1 + 6 * M])
    z1, z2 = (tg[0] - mu1) / np.exp(ls1), (tg[1] - mu2) / np.exp(ls2)
    omr = 1.0 - rho ** 2
    comp = lpi - np.log(2 * np.pi) - ls1 - ls2 - 0.5 * np.log(omr) - (z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2) / (2 * omr)
    top = comp.max()
    e = 1.0 / (1.0 + np.exp(-y[0]))
    return -(top + np.log(np.exp(comp - top).sum())) - (np.log(e) if tg[2] == 1 else np.log(1.0 - e))


def mdn_problem():
    rng = np.random.default_rng(1513)
    head = randomized(MDNHead(H, M, dtype="float64"), 4, w=0.5, b=0.5)
    h = rng.standard_normal((T, B, H))
    targets = np.concatenate([rng.normal(0.0, 1.0, (B, T, 2)), rng.integers(0, 2, (B, T, 1))], axis=2)
    targets[0, :, 2] = [1, 0, 1, 0]
    targets[1, 0, 2] = 1
    return head, h, targets


def test_mdn_head_loss_over_ragged_rows():
    head, h, targets = mdn_problem()
    sums, count, _ = head.forward(h, targets, VALID)
    want = sum(mdn_point_loss(h[t, b] @ head.params["W"] + head.params["b"], targets[b, t])
               for t, b in zip(*np.nonzero(VALID)))
    assert count == 5
    np.testing.assert_allclose(sums["loss"], want, rtol=1e-12)
    np.testing.assert_allclose(sums["nats_seq"], want, rtol=1e-12)
    means = head.mean({**sums, "seqs": 2}, count)
    np.testing.assert_allclose([means["loss"], means["nats_seq"]], [want / 5, want / 2], rtol=1e-12)


@pytest.mark.parametrize("clip", [None, 0.3])
def test_mdn_head_gradient_with_and_without_the_output_clip(clip):
    head, h, targets = mdn_problem()
    head.clip_output = clip
    head.zero_grad()
    _, _, cache = head.forward(h, targets, VALID)
    dh = head.backward(cache, SCALE)
    d = np.zeros((T, B, K))                          # scale times each point's clipped dL/dyhat
    for t, b in zip(*np.nonzero(VALID)):
        y = h[t, b] @ head.params["W"] + head.params["b"]
        g = np.zeros(K)
        for j in range(K):
            yp, ym = y.copy(), y.copy()
            yp[j] += 1e-6
            ym[j] -= 1e-6
            g[j] = (mdn_point_loss(yp, targets[b, t]) - mdn_point_loss(ym, targets[b, t])) / 2e-6
        if clip is not None:
            g = np.clip(g, -clip, clip)
        d[t, b] = SCALE * g
    if clip is not None:
        assert np.any(np.abs(d) == SCALE * clip)     # the clip bites somewhere
    np.testing.assert_allclose(head.grads["W"], np.einsum("tbh,tbk->hk", h, d), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(head.grads["b"], d.sum(axis=(0, 1)), rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(dh, d @ head.params["W"].T, rtol=1e-5, atol=1e-7)


def ctc_loss_brute(logits, label):
    """-log sum over every path of len(logits) steps that collapses to label of the product of the softmax."""
    steps, C = logits.shape
    lp = np.array([logsoftmax(z) for z in logits])
    total = 0.0
    for path in itertools.product(range(C), repeat=steps):
        out, prev = [], None
        for k in path:
            if k != prev and k != 0:
                out.append(k)
            prev = k
        if out == list(label):
            total += np.exp(sum(lp[t, k] for t, k in enumerate(path)))
    return -np.log(total)


def test_ctc_head_loss_and_gradient_against_every_path():
    C = 3
    rng = np.random.default_rng(1514)
    head = randomized(CTCHead(H, C, dtype="float64"), 5, w=0.6, b=0.5)
    h = rng.standard_normal((T, B, H))
    targets = np.array([[1, 2], [2, -1], [1, -1]])
    labels = [[1, 2], [2], [1]]

    def by_hand():
        return sum(ctc_loss_brute(np.array([h[t, b] @ head.params["W"] + head.params["b"]
                                            for t in range(LENGTHS[b])]), labels[b])
                   for b in range(B) if LENGTHS[b] > 0)

    sums, count, _ = head.forward(h, targets, VALID)
    assert count == 2 and sums["chars"] == 3.0
    np.testing.assert_allclose(sums["loss"], by_hand(), rtol=1e-10)
    check_grads(head, h, targets, VALID, by_hand)
