"""The CTC kernel (lnrnn/kernels/ctc.py) on tiny rows against a brute-force sum over every alignment, in log
space (each path of T classes whose collapse is the label, its log-probability the sum of the step's
log-softmax; the loss is -log of their sum, the gradient the softmax minus each class's share of those
paths at each step). The rows reach the two recursions' edges: repeated labels (a blank needed between
them), a distinct label after a repeat, a one-label row, rows ending on a label, and rows whose label fits
only through a class 800 nats under the others (every path below 1e-300: the rescaled recursion drops them
all and the row must run in log space, where it is still possible)."""
import itertools

import numpy as np
import pytest


def brute_force(logits, label):
    """logits (T,C) float64, label (list of classes 1..C-1) -> (loss, dloss/dlogits (T,C)) summed over all
    C^T paths; (0, zeros) where no path reads the label (zero_infinity)."""
    T, C = logits.shape
    lp = logits - logits.max(axis=1, keepdims=True)
    lp = lp - np.log(np.exp(lp).sum(axis=1, keepdims=True))
    want = tuple(label)
    logs, hits = [], []
    for path in itertools.product(range(C), repeat=T):
        merged = [k for k, _ in itertools.groupby(path)]                 # repeats merged, then blanks dropped
        if tuple(k for k in merged if k != 0) == want:
            logs.append(lp[np.arange(T), path].sum())
            hits.append(path)
    if not logs:
        return 0.0, np.zeros((T, C))
    logs = np.array(logs)
    logz = logs.max() + np.log(np.exp(logs - logs.max()).sum())
    share = np.exp(logs - logz)                                          # each path's share of p
    post = np.zeros((T, C))
    for w, path in zip(share, hits):
        post[np.arange(T), path] += w
    return -logz, np.exp(lp) - post


def run_kernel(x, labels, il, ll, g):
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    loss, saved = ctc_forward(x, labels, il, ll)
    return loss, ctc_backward(g, saved, labels, il, ll), saved


def padded(rows):
    """Label lists -> labels (B,Lmax) padded with -1 (Lmax at least 1) and their lengths."""
    L = max(1, max(len(r) for r in rows))
    labels = np.full((len(rows), L), -1, np.int64)
    for b, r in enumerate(rows):
        labels[b, :len(r)] = r
    return labels, np.array([len(r) for r in rows])


def check_rows(x, rows, il, g, rtol=1e-10):
    labels, ll = padded(rows)
    loss, d, saved = run_kernel(x, labels, il, ll, g)
    for b, row in enumerate(rows):
        want_loss, want_grad = brute_force(x[:il[b], b], row)
        np.testing.assert_allclose(loss[b], want_loss, rtol=rtol, atol=1e-12, err_msg=f"row {b} {row}")
        np.testing.assert_allclose(d[:il[b], b], g[b] * want_grad, rtol=rtol, atol=1e-10, err_msg=f"row {b} {row}")
        assert not d[il[b]:, b].any()
    return loss, saved


# rows whose collapse reaches every branch of the extended label: repeats with a blank between, a distinct
# label after a repeat and before one, one label, the last label at the band's upper edge
ROWS = [[1, 2, 2], [2, 2, 1], [1, 1], [2], [1, 2], [2, 1, 2], [1, 2, 1, 1]]


@pytest.mark.parametrize("T", [4, 5, 7])
def test_rescaled_rows_equal_the_sum_over_every_alignment(T):
    rng = np.random.default_rng(260 + T)
    C = 3
    x = 1.5 * rng.standard_normal((T, len(ROWS), C))
    il = np.full(len(ROWS), T)
    g = rng.uniform(0.5, 2.0, len(ROWS))
    loss, saved = check_rows(x, ROWS, il, g)
    assert not saved[3].any()                     # ordinary logits: the rescaled recursion throughout


def test_rows_in_one_chunk_longest_last_and_first():
    """Several rows per chunk (more rows than CTC_ROW_CHUNKS), short rows after long ones and before them,
    inputs shorter than T: each row's scratch (its extended label's classes and blank flags) is its own."""
    from lnrnn.config import CTC_ROW_CHUNKS
    rng = np.random.default_rng(2601)
    T, C = 6, 3
    base = [[1, 2, 1, 2], [1], [2, 2], [], [1, 2, 2], [2], [1, 1, 2], [2, 1]]
    rows = (base * CTC_ROW_CHUNKS)[:2 * CTC_ROW_CHUNKS + 3]       # two or three rows a chunk
    B = len(rows)
    x = 1.5 * rng.standard_normal((T, B, C))
    il = np.array([T if b % 3 else T - 1 for b in range(B)])
    check_rows(x, rows, il, rng.uniform(0.5, 2.0, B))


def test_rows_fitting_only_through_a_class_800_nats_down_run_in_log_space():
    """Every label class 800 nats under the blank and class C-1 (never a label here) at every step: each path
    that reads the label has probability below e^-800 (< 1e-300), so the rescaled recursion drops them all;
    the row is possible (loss near 800 k for k labels, not 0) and equals the brute-force sum, which counts
    paths starting and ending on a label as well as on a blank; its gradient the same."""
    rng = np.random.default_rng(2602)
    T, C = 5, 4
    rows = [[1], [2], [1, 2], [1, 1], [2, 1]]
    x = 0.5 * rng.standard_normal((T, len(rows), C))
    x[:, :, 1:3] -= 800.0
    il = np.full(len(rows), T)
    g = rng.uniform(0.5, 2.0, len(rows))
    loss, saved = check_rows(x, rows, il, g, rtol=1e-9)
    assert saved[3].all()                         # every row ran in log space
    assert np.all(loss > 790) and np.all(loss[2:] > 1590)


def test_one_label_row_in_log_space_counts_paths_on_the_label_at_either_end():
    """By hand: T 2, one label, every step's label class at -800 against a blank at 0: the paths reading '1'
    are (1,1), (1,blank), (blank,1): p = e^-1600/z^2 + 2 e^-800/z^2 with z = 1 + e^-800 per step, so
    loss = 800 - log 2 (to 1e-300 relative); the blank's share at each step is 1/2, the label's 1/2."""
    x = np.zeros((2, 1, 2))
    x[:, 0, 1] = -800.0
    loss, d, saved = run_kernel(x, np.array([[1]]), np.array([2]), np.array([1]), np.ones(1))
    assert saved[3][0]
    np.testing.assert_allclose(loss[0], 800.0 - np.log(2.0), rtol=1e-14)
    np.testing.assert_allclose(d[:, 0], [[0.5, -0.5], [0.5, -0.5]], rtol=1e-12, atol=1e-300)
