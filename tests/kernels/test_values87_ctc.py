"""The CTC kernel (lnrnn/kernels/ctc.py) against a sum over every alignment, taken here in log space in float64.

For T of 1 to 4 and three or four classes, each of the C^T paths is collapsed (repeats merged, then blanks
dropped); log p is the log-sum-exp of the log-probabilities of the paths that read the label, the loss -log p,
and the gradient with respect to the logits the softmax minus, at each step, each class's share of those paths.
Labels with repeats ('a a' needs a blank between), labels as long as the row's steps, rows of their own lengths in
one batch; rows whose paths sum below 2^-100 at every step (classes 80 nats under the best: the recursion rescales
alpha, and log p adds the logs of its divisors), and rows whose label fits only through classes 800 nats down (the
kernel runs in log space: its beta starts at the last label and the last blank, and every position's share, the
leading blank's too, comes off the gradient)."""
import itertools

import numpy as np
import pytest

from lnrnn.kernels.ctc import ctc_backward, ctc_forward


def collapse(path):
    out, prev = [], None
    for c in path:
        if c != prev and c != 0:
            out.append(c)
        prev = c
    return out


def by_paths(x, label):
    """x (T,C) logits of one row, label a list -> (loss, dloss/dx (T,C)) over all C^T paths, in log space."""
    T, C = x.shape
    m = x.max(axis=1, keepdims=True)
    lp = x - m - np.log(np.exp(x - m).sum(axis=1, keepdims=True))      # (T,C) log-softmax
    paths = [pt for pt in itertools.product(range(C), repeat=T) if collapse(pt) == list(label)]
    if not paths:
        return 0.0, np.zeros((T, C))
    w = np.array([sum(lp[t, c] for t, c in enumerate(pt)) for pt in paths])   # log p of each path
    logp = w.max() + np.log(np.exp(w - w.max()).sum())
    share = np.exp(w - logp)                                             # each path's share of p
    post = np.zeros((T, C))
    for pt, s in zip(paths, share):
        for t, c in enumerate(pt):
            post[t, c] += s
    return -logp, np.exp(lp) - post


def run(x, rows, il, g=None):
    B = len(rows)
    L = max(1, max(len(r) for r in rows))
    labels = np.full((B, L), -1, np.int64)
    for b, r in enumerate(rows):
        labels[b, :len(r)] = r
    ll = np.array([len(r) for r in rows], np.int64)
    il = np.asarray(il, np.int64)
    g = np.ones(B) if g is None else np.asarray(g, np.float64)
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    for b, r in enumerate(rows):
        want_loss, want_grad = by_paths(x[:il[b], b], r)
        np.testing.assert_allclose(loss[b], want_loss, rtol=1e-10, atol=1e-10, err_msg=f"row {b} {r} loss")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=1e-8, atol=1e-10, err_msg=f"row {b} {r}")
        assert not d[il[b]:, b].any()
    return saved


@pytest.mark.parametrize("T,C,seed", [(1, 3, 0), (2, 3, 1), (3, 3, 2), (4, 3, 3), (3, 4, 4), (4, 4, 5)])
def test_every_label_that_fits_against_the_sum_over_its_paths(T, C, seed):
    """Every label of length up to T over C - 1 classes (repeats and label length T among them), one per row."""
    rows = [list(k) for n in range(T + 1) for k in itertools.product(range(1, C), repeat=n)]
    rows = [r for r in rows if len(r) + sum(a == b for a, b in zip(r, r[1:])) <= T]   # p > 0
    rng = np.random.default_rng(seed)
    x = rng.normal(0.0, 1.5, (T, len(rows), C))
    run(x, rows, [T] * len(rows), rng.uniform(0.5, 2.0, len(rows)))


def test_rows_of_their_own_lengths_with_repeats_in_one_batch():
    rng = np.random.default_rng(7)
    rows = [[1, 1], [2], [1, 2, 1], [], [2, 2]]
    il = [3, 1, 3, 2, 4]                                    # [1, 2, 1] on 3 steps: label length = T
    x = rng.normal(0.0, 1.0, (4, len(rows), 3))
    run(x, rows, il)


def test_rows_whose_steps_sum_below_2_to_the_minus_100_add_their_rescaling_logs():
    """Blank and labels 80 nats under a class no label uses: every path ~e^-80 a step, each step's sum under 2^-100
    (about e^-69), far above the 1e-300 of a dropped path."""
    rng = np.random.default_rng(8)
    rows = [[1], [1, 2], [2, 2], [1, 2, 1]]
    x = rng.normal(0.0, 0.5, (4, len(rows), 4))
    x[:, :, 3] += 80.0
    saved = run(x, rows, [4, 4, 3, 3])
    assert not saved[3].any()                               # all rescaled, none in log space
    assert np.all(np.array(saved[2]) < -69.0 * np.array([4, 4, 3, 3]))    # log p below 2^-100 a step


def test_rows_that_fit_only_800_nats_down_run_in_log_space_with_every_share_taken_off():
    """Blank and labels 800 nats under class 3 (their softmax underflows to 0 in float64): the kernel falls back to
    log space. Rows with room for blanks before and after their labels, a repeat, and a label as long as T."""
    rng = np.random.default_rng(9)
    rows = [[1], [1, 2], [2, 2], [1, 2, 1], [2]]
    x = rng.normal(0.0, 0.7, (4, len(rows), 4))
    x[:, :, 3] += 800.0
    saved = run(x, rows, [4, 4, 3, 3, 2])
    assert saved[3].all()                                   # every row in log space
