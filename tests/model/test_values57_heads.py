"""The heads (lnrnn/model/heads.py) in float64 against NumPy definitions written here, with a nonzero bias,
padded steps, unscored labels and T != B: the classifier per step and at the last step (loss, accuracy,
count), the regression head per step with two outputs, the mixture density head (reference.mdn_nll) and the
CTC head (the sum over every path of each row's own steps, collapsed by hand; best path's edit distance);
each head's dL/dW, dL/db and dL/dh from backward(cache, scale) against central differences of scale times
its loss sum, and its parameter gradients accumulating over two calls."""
import itertools

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import MDN_RHO, MDN_SMAX
from lnrnn.model.heads import ClassifierHead, CTCHead, MDNHead, RegressionHead
from gradcheck_util import numeric_grad

T, B, H = 3, 4, 3
LENGTHS = np.array([3, 1, 0, 2])
VALID = np.arange(T)[:, None] < LENGTHS[None, :]                     # (T,B)
SCALE = 0.37


def with_params(head, seed):
    """The head's W and b set to random values (b nonzero: a trained head's)."""
    rng = np.random.default_rng(seed)
    head.params["W"][...] = rng.normal(0.0, 0.8, head.params["W"].shape)
    head.params["b"][...] = rng.normal(0.0, 0.8, head.params["b"].shape)
    return head


def logsoftmax(z):
    z = z - z.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def check_gradients(head, h, targets, valid, scale=SCALE, step=1e-6, rtol=1e-6):
    """backward(cache, scale)'s dW, db and dh against central differences of scale * forward's loss sum; a
    second backward adds the same again to dW and db."""
    def loss():
        return scale * head.forward(h, targets, valid)[0]["loss"]
    head.zero_grad()
    dh = head.backward(head.forward(h, targets, valid)[2], scale)
    got = {"W": head.grads["W"].copy(), "b": head.grads["b"].copy(), "h": dh}
    for name, arr in (("W", head.params["W"]), ("b", head.params["b"]), ("h", h)):
        num = numeric_grad(loss, arr, eps=step, order=2)
        assert np.max(np.abs(num)) > 1e-3, name
        np.testing.assert_allclose(got[name], num, rtol=rtol, atol=1e-7 * np.max(np.abs(num)), err_msg=name)
    head.backward(head.forward(h, targets, valid)[2], scale)
    np.testing.assert_allclose(head.grads["W"], 2 * got["W"], rtol=1e-12)
    np.testing.assert_allclose(head.grads["b"], 2 * got["b"], rtol=1e-12)


def test_classifier_per_step_with_padding_and_unscored_labels():
    """loss = -sum of log softmax(h W + b)[label] over the running steps whose label is not -1, acc = their
    argmax hits, count = those steps; an unscored label at a running step and any label at a padded one add
    nothing to the loss or the gradients."""
    C = 4
    head = with_params(ClassifierHead(H, C, per_step=True, dtype="float64"), 1)
    rng = np.random.default_rng(2)
    h = rng.normal(0.0, 1.0, (T, B, H))
    labels = rng.integers(0, C, (B, T))
    labels[0, 1] = -1                                                # running, unscored
    logits = h @ head.params["W"] + head.params["b"]                 # (T,B,C)
    labels[3, 0] = logits[0, 3].argmax()                             # a sure hit
    labels[3, 1] = logits[1, 3].argmin()                             # a sure miss
    logp = logsoftmax(logits)
    loss, acc, n = 0.0, 0, 0
    for t in range(T):
        for b in range(B):
            lab = labels[b, t]
            if VALID[t, b] and lab >= 0:
                loss -= logp[t, b, lab]
                acc += int(logits[t, b].argmax() == lab)
                n += 1
    sums, count, _ = head.forward(h, labels, VALID)
    assert count == n == 5 and head.count(labels, VALID) == n
    assert sums["loss"] == pytest.approx(loss, rel=1e-12)
    assert sums["acc"] == acc
    assert head.mean(sums, count)["loss"] == pytest.approx(loss / n, rel=1e-12)
    check_gradients(head, h, labels, VALID)


def test_classifier_last_step_with_a_padded_row_and_an_unscored_label():
    """Last step: h (B,H), labels (B,), valid (B,): the loss over valid rows with a label."""
    C = 3
    head = with_params(ClassifierHead(H, C, per_step=False, dtype="float64"), 3)
    rng = np.random.default_rng(4)
    h = rng.normal(0.0, 1.0, (B, H))
    labels = np.array([2, 0, 1, -1])
    valid = np.array([True, False, True, True])
    logp = logsoftmax(h @ head.params["W"] + head.params["b"])
    want = -(logp[0, 2] + logp[2, 1])
    sums, count, _ = head.forward(h, labels, valid)
    assert count == 2
    assert sums["loss"] == pytest.approx(want, rel=1e-12)
    check_gradients(head, h, labels, valid)


def test_regression_per_step_with_two_outputs():
    """Targets (B,T,2): loss = sum over running steps of sum_o (h W + b - target)^2, acc = running steps with
    every |error| below the tolerance, count = running steps."""
    O = 2
    head = with_params(RegressionHead(H, O, per_step=True, tolerance=0.3, dtype="float64"), 5)
    rng = np.random.default_rng(6)
    h = rng.normal(0.0, 1.0, (T, B, H))
    pred = h @ head.params["W"] + head.params["b"]                   # (T,B,O)
    tg = np.swapaxes(pred, 0, 1) + rng.normal(0.0, 0.5, (B, T, O))  # (B,T,O)
    tg[0, 0] = pred[0, 0] + [0.1, -0.2]                              # inside the tolerance
    tg[0, 1] = pred[1, 0] + [0.1, 0.35]                              # one output outside
    loss, within = 0.0, 0
    for t in range(T):
        for b in range(B):
            if VALID[t, b]:
                e = pred[t, b] - tg[b, t]
                loss += float(e @ e)
                within += int(np.all(np.abs(e) < 0.3))
    sums, count, _ = head.forward(h, tg, VALID)
    assert count == VALID.sum()
    assert sums["loss"] == pytest.approx(loss, rel=1e-12)
    assert sums["acc"] == within and within >= 1
    check_gradients(head, h, tg, VALID)


def test_mdn_loss_against_the_reference_and_its_scaled_gradient():
    """loss = reference.mdn_nll of h W + b summed over the running steps; count = those steps; the gradient
    (no output clip) is scale times the loss sum's."""
    M = 2
    head = with_params(MDNHead(H, components=M, dtype="float64"), 7)
    head.params["W"] *= 0.5
    rng = np.random.default_rng(8)
    h = rng.normal(0.0, 1.0, (T, B, H))
    tg = rng.normal(0.0, 0.7, (B, T, 3))
    tg[..., 2] = rng.integers(0, 2, (B, T))
    out = (h @ head.params["W"] + head.params["b"]).reshape(T * B, -1)
    nll = ref.mdn_nll(out, np.swapaxes(tg, 0, 1).reshape(T * B, 3), VALID.reshape(-1), M, MDN_SMAX, MDN_RHO)
    sums, count, _ = head.forward(h, tg, VALID)
    assert count == VALID.sum()
    assert sums["loss"] == pytest.approx(nll.sum(), rel=1e-10)
    check_gradients(head, h, tg, VALID, rtol=1e-5)


def ctc_by_paths(logp, label):
    """-log p(label): the sum over every path of len(logp) steps that collapses (repeats merged, blanks 0
    dropped) to label."""
    n, Cc = logp.shape
    total = 0.0
    for path in itertools.product(range(Cc), repeat=n):
        out = [c for i, c in enumerate(path) if c != 0 and (i == 0 or c != path[i - 1])]
        if out == list(label):
            total += np.exp(sum(logp[t, c] for t, c in enumerate(path)))
    return -np.log(total)


def edit_distance(a, b):
    d = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        prev, d[0] = d[0], i
        for j in range(1, len(b) + 1):
            prev, d[j] = d[j], min(d[j] + 1, d[j - 1] + 1, prev + (a[i - 1] != b[j - 1]))
    return d[-1]


def test_ctc_loss_by_paths_over_each_rows_steps_and_its_gradient():
    """T = 3 steps, B = 4 rows of 3, 1, 0, 2 steps (T != B), three classes: each running row's loss is -log of
    the sum over its paths, the row of no step counts for nothing; cer's edits are best path's (argmax per
    step, collapsed) against the labels, chars the labels' lengths over running rows."""
    C = 3
    head = with_params(CTCHead(H, C, dtype="float64"), 9)
    rng = np.random.default_rng(10)
    h = rng.normal(0.0, 1.0, (T, B, H))
    labels = np.array([[1, 1], [2, -1], [1, -1], [1, 2]])            # row 0: a repeat, a blank between
    logp = logsoftmax(h @ head.params["W"] + head.params["b"])       # (T,B,C)
    loss, edits, chars = 0.0, 0, 0
    for b in range(B):
        n = LENGTHS[b]
        if n == 0:
            continue
        lab = [c for c in labels[b] if c >= 0]
        loss += ctc_by_paths(logp[:n, b], lab)
        arg = logp[:n, b].argmax(axis=1)
        best = [c for i, c in enumerate(arg) if c != 0 and (i == 0 or c != arg[i - 1])]
        edits += edit_distance(best, lab)
        chars += len(lab)
    sums, count, _ = head.forward(h, labels, VALID)
    assert count == 3 and head.count(labels, VALID) == 3
    assert sums["loss"] == pytest.approx(loss, rel=1e-10)
    assert sums["cer"] == edits and sums["chars"] == chars
    check_gradients(head, h, labels, VALID, rtol=1e-5)
