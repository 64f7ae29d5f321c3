"""The CPU CTC kernel (lnrnn/kernels/ctc.py) against a sum over every alignment written here in log space:
each of the C^T paths is collapsed (repeats merged, blanks dropped), p is the log-sum-exp of the paths that
read the label and the gradient w.r.t. the logits is the softmax minus each class's share of those paths.
Covered: logits far below 0 (a softmax must subtract the step's own maximum), rows whose labels are shorter
than the batch's padded width (padding of a real class, never read), a row whose label cannot fit among rows
that can (loss 0, gradient 0, logz -inf, the other rows untouched), rows at exactly the steps their label
needs, and rows that only fit through classes hundreds of nats down, which the kernel runs in log space
(repeats, distinct labels, an empty label beside them)."""
import itertools

import numpy as np

from lnrnn.kernels.ctc import ctc_backward, ctc_forward


def alignments(logits, label):
    """logits (T,C) -> (-log p(label), dloss/dlogits (T,C), log p) over every path; p = 0 gives (0, 0, -inf)."""
    T, C = logits.shape
    lp = logits - logits.max(axis=1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
    logs, hits = [], []
    for path in itertools.product(range(C), repeat=T):
        if [k for k, _ in itertools.groupby(path) if k != 0] == list(label):
            logs.append(lp[np.arange(T), path].sum())
            hits.append(path)
    if not hits:
        return 0.0, np.zeros((T, C)), -np.inf
    logs = np.array(logs)
    logz = logs.max() + np.log(np.exp(logs - logs.max()).sum())
    post = np.zeros((T, C))
    for w, path in zip(np.exp(logs - logz), hits):
        post[np.arange(T), path] += w
    return -logz, np.exp(lp) - post, logz


def batch(rows, pad):
    """[(label, steps), ...] -> labels (B, L) padded with class ``pad``, input and label lengths."""
    L = max(1, max(len(lab) for lab, _ in rows))
    labels = np.full((len(rows), L), pad, np.int64)
    for b, (lab, _) in enumerate(rows):
        labels[b, :len(lab)] = lab
    return (labels, np.array([n for _, n in rows], np.int64), np.array([len(lab) for lab, _ in rows], np.int64))


def check(x, rows, pad=1, rtol=1e-9, seed=0):
    labels, il, ll = batch(rows, pad)
    dloss = np.random.default_rng(seed).uniform(0.5, 2.0, len(rows))
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(dloss, saved, labels, il, ll)
    for b, (lab, n) in enumerate(rows):
        want, grad, logz = alignments(x[:n, b], lab)
        assert np.isclose(loss[b], want, rtol=rtol, atol=1e-12), (b, lab, loss[b], want)
        assert saved[2][b] == logz if logz == -np.inf else np.isclose(saved[2][b], logz, rtol=rtol), (b, lab)
        np.testing.assert_allclose(d[:n, b], dloss[b] * grad, rtol=rtol, atol=1e-10, err_msg=f"row {b} {lab}")
        assert not d[n:, b].any()
    return saved


def test_logits_far_below_zero_give_the_same_loss_and_gradient():
    """Every logit 900 below 0 (and one row with the blank's logit the largest, one with it the smallest):
    the softmax of a step is unchanged by a shift, so are the loss and the gradient."""
    rng = np.random.default_rng(1050)
    T, C = 4, 3
    rows = [([1, 2], 4), ([2], 3), ([1, 1], 4)]
    x = rng.standard_normal((T, len(rows), C))
    x[:, 0, 0] += 3.0
    x[:, 1, 0] -= 3.0
    check(x - 900.0, rows)


def test_rows_shorter_than_the_padded_width_read_their_own_labels():
    """Labels of lengths 3, 1, 0 and 2 padded with class 2 (a class the short rows could wrongly read)."""
    rng = np.random.default_rng(1051)
    T, C = 5, 3
    rows = [([1, 2, 1], 5), ([1], 4), ([], 3), ([1, 1], 5)]
    x = 1.2 * rng.standard_normal((T, len(rows), C))
    check(x, rows, pad=2, seed=1)


def test_rows_at_the_minimum_length_and_a_row_that_cannot_fit():
    """'a a' in exactly 3 steps, 'a b' in exactly 2, 'b' in 1, and 'a a' in 2 steps (no path: loss 0,
    gradient 0, logz -inf) in one batch: the impossible row changes nothing for the others."""
    rng = np.random.default_rng(1052)
    T, C = 3, 3
    rows = [([1, 1], 3), ([1, 2], 2), ([1, 1], 2), ([2], 1)]
    x = 1.5 * rng.standard_normal((T, len(rows), C))
    saved = check(x, rows, seed=2)
    assert saved[2][2] == -np.inf


def test_rows_that_only_fit_far_down_run_in_log_space_and_equal_the_paths():
    """Label classes 1 and 2 lie 400 nats under the blank and class 3: a label of two or three of them has
    p below 1e-300 and the first four rows fall back to log space (saved logspace). Repeats ('a a', 'a a b'),
    distinct labels ('a b'), 'a a' at its minimum length (one path: rescaled, not dropped) and an empty-label
    row beside them (not in log space)."""
    rng = np.random.default_rng(1053)
    T, C = 5, 4
    rows = [([1, 1], 5), ([1, 2], 5), ([1, 1, 2], 5), ([2, 1, 2], 5), ([1, 1], 3), ([], 4)]
    x = rng.standard_normal((T, len(rows), C))
    x[:, :, 1:3] -= 400.0
    saved = check(x, rows, seed=3)
    assert saved[3][:4].all() and not saved[3][5]
