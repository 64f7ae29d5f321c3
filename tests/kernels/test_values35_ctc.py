"""The CTC kernel (lnrnn/kernels/ctc.py) where one class's logit lies 1000 nats above the others at some steps
(each class in turn: the blank, a label's class, the last class), against the loss and gradient summed here
over every path of the row (C^T of them, T 5, C 4) in float64, with the log-softmax made stable by
np.logaddexp: the kernel's softmax must shift each step by its largest logit, wherever it sits; labels with
a repeat (a blank needed between) and without (the blank may be skipped)."""
import itertools

import numpy as np
import pytest

from lnrnn.kernels.ctc import ctc_backward, ctc_forward


def by_paths(logits, label):
    """logits (T,C), label (list) -> (loss, dloss/dlogits (T,C)) over every path whose collapse is the label."""
    T, C = logits.shape
    lp = logits - np.logaddexp.reduce(logits, axis=1)[:, None]
    paths, logs = [], []
    for path in itertools.product(range(C), repeat=T):
        out, prev = [], None
        for k in path:                                   # merge repeats, then drop blanks
            if k != prev and k != 0:
                out.append(k)
            prev = k
        if out == list(label):
            paths.append(path)
            logs.append(lp[np.arange(T), path].sum())
    logs = np.array(logs)
    logz = np.logaddexp.reduce(logs)
    grad = np.exp(lp)
    for w, path in zip(np.exp(logs - logz), paths):
        grad[np.arange(T), path] -= w
    return -logz, grad


LABELS = [[1, 3], [3, 3], [2, 1, 2], [3]]


@pytest.mark.parametrize("cls", [0, 1, 2, 3])
def test_a_class_1000_nats_above_the_rest_at_some_steps(cls):
    T, C = 5, 4
    rng = np.random.default_rng(cls)
    B = len(LABELS)
    x = rng.standard_normal((T, B, C))
    for b in range(B):
        steps = rng.choice(T, size=2, replace=False)     # two steps of each row
        x[steps, b, cls] += 1000.0
    labels = np.zeros((B, 3), np.int64)
    for b, lab in enumerate(LABELS):
        labels[b, :len(lab)] = lab
    il = np.full(B, T, np.int64)
    ll = np.array([len(lab) for lab in LABELS], np.int64)
    g = rng.uniform(0.5, 1.5, B)
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    for b, lab in enumerate(LABELS):
        want_loss, want_grad = by_paths(x[:, b], lab)
        assert np.isfinite(loss[b]) and np.all(np.isfinite(d[:, b]))
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-10, atol=1e-10, err_msg=f"row {b} {lab}")
        np.testing.assert_allclose(d[:, b], g[b] * want_grad, rtol=1e-8, atol=1e-10, err_msg=f"row {b} {lab}")
