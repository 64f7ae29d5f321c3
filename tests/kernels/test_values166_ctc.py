"""The CTC kernel (lnrnn/kernels/ctc.py) against computations written elsewhere: the sum over every one of the
C^T paths (test_values26_ctc.brute_force) for short rows, and the NumPy spec's log-space recursions
(lnrnn.reference.ctc_forward / ctc_backward) for a row too long to enumerate. The saved log-softmax must be
the log-softmax of the logits taken here (shifted logits far from 0, so a slip between the shift of the
exponentials and the shift of log p shows), and its log p the negated loss. Rows of one batch cover a repeated
label, an empty label, an input exactly as long as its label (one path), one of 2L+1 steps and rows shorter
than the batch. A 40-step row of 40 classes has its alpha's step sums fall below 2^-100, so the kernel
rescales; rows whose labels lie 800 nats under the blank run in log space, where both the step-0 posteriors
and beta's emissions must still give the paths' shares."""
import numpy as np

from lnrnn import reference
from lnrnn.kernels.ctc import ctc_backward, ctc_forward
from test_values26_ctc import brute_force  # the sum over every path
from test_values48_ctc import packed       # label rows -> (B,L) padded with -1, their lengths


def log_softmax(x):
    z = x - x.max(axis=-1, keepdims=True)
    return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))


def by_paths(x, rows, il, g):
    """Loss (B,) and g[b] times the gradient (T,B,C) of each row over its own steps, summed over every path."""
    loss, d = np.zeros(len(rows)), np.zeros_like(x)
    for b, r in enumerate(rows):
        loss[b], grad = brute_force(x[:il[b], b], r)
        d[:il[b], b] = g[b] * grad
    return loss, d


# T 5, C 3: a repeat in 3 steps (its least), an empty label, a label of L 2 in exactly 2 steps, one label in
# 2L+1 = 3 steps, a repeat over all 5 steps, two labels in 4 steps
ROWS = [[1, 1], [], [1, 2], [2], [2, 2], [2, 1]]
IL = np.array([3, 4, 2, 3, 5, 4])


def test_saved_log_softmax_log_p_loss_and_gradient_by_paths():
    rng = np.random.default_rng(16600)
    T, C = 5, 3
    x = 1.3 * rng.standard_normal((T, len(ROWS), C)) + rng.uniform(-30.0, 30.0, (T, len(ROWS), 1))
    labels, ll = packed(ROWS)
    g = rng.uniform(0.5, 2.0, len(ROWS))
    loss, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)
    logp, _, logz, logspace = saved
    want_loss, want_d = by_paths(x, ROWS, IL, g)
    for b in range(len(ROWS)):
        np.testing.assert_allclose(logp[:IL[b], b], log_softmax(x[:IL[b], b]), rtol=0, atol=1e-12)
        assert not logp[IL[b]:, b].any()
    assert not logspace.any()
    np.testing.assert_allclose(loss, want_loss, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(logz, -want_loss, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(d, want_d, rtol=1e-9, atol=1e-11)
    # the row of L 2 in 2 steps has one path: y[0, 1] y[1, 2]
    y = np.exp(log_softmax(x[:2, 2]))
    np.testing.assert_allclose(loss[2], -np.log(y[0, 1] * y[1, 2]), rtol=1e-12)


def test_rows_in_log_space_by_paths():
    """The same rows with the label classes 800 nats under the blank: every path reading a label is below
    1e-300, so these rows run in log space (the empty label's row need not)."""
    rng = np.random.default_rng(16601)
    T, C = 5, 3
    x = 0.7 * rng.standard_normal((T, len(ROWS), C))
    x[:, :, 1:] -= 800.0
    labels, ll = packed(ROWS)
    g = rng.uniform(0.5, 2.0, len(ROWS))
    loss, saved = ctc_forward(x, labels, IL, ll)
    d = ctc_backward(g, saved, labels, IL, ll)
    want_loss, want_d = by_paths(x, ROWS, IL, g)
    assert saved[3][ll > 0].all()
    np.testing.assert_allclose(loss, want_loss, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(d, want_d, rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(saved[0][0, 0], log_softmax(x[0, 0]), rtol=0, atol=1e-9)


def test_a_long_row_that_rescales_against_the_spec():
    """T 40, C 40, labels of 3 (a repeat) and of 2 classes next to a row of 20 steps: alpha's step sums fall
    ~40/3 times a step, past 2^-100 by step ~27 (a rescale); loss and gradient against the NumPy spec."""
    rng = np.random.default_rng(16602)
    T, C = 40, 40
    rows = [[5, 5, 17], [3, 9], [1]]
    il = np.array([40, 40, 20])
    x = 0.5 * rng.standard_normal((T, len(rows), C))
    labels, ll = packed(rows)
    g = np.array([1.0, 0.5, 2.0])
    loss, saved = ctc_forward(x, labels, il, ll)
    d = ctc_backward(g, saved, labels, il, ll)
    want_loss, cache = reference.ctc_forward(x, labels, il, ll)
    assert want_loss[0] > 100 * np.log(2.0)                 # p below 2^-100: the forward had to rescale
    assert not saved[3].any()
    np.testing.assert_allclose(loss, want_loss, rtol=1e-11)
    np.testing.assert_allclose(d, reference.ctc_backward(g, cache), rtol=1e-8, atol=1e-12)
