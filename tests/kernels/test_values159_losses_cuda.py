"""The heads' objectives on the device (lnrnn/kernels/losses_cuda.py) over masked rows, against the definitions
written here in NumPy: softmax cross-entropy (loss -log softmax(z)[label], correct when the first index of the
maximum of z = h W + b is the label, d = scale (softmax - onehot), all 0 on a row masked off or labelled -1);
squared error (loss the sum over the outputs of (z - target)^2, within when every |error| < tolerance, d =
2 scale error); add_bias (hw + b); ctc_rows (the loss, and the Levenshtein distance, by its recursion here, from
the labels to the best path: the argmax per step, repeats merged, blanks dropped).

Blocks of 4 threads, the grid capped at 2 blocks, B = 7 and 5 rows, O = 3: sizes not multiples of the block,
B != O. Under Numba's simulator (or on a GPU), float64."""
import functools

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import ctc_cuda, losses_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402

TOL = 1e-13


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)
    monkeypatch.setattr(arrays_cuda, "GRID_MAX_BLOCKS", 2)


def levenshtein(a, b):
    @functools.lru_cache(maxsize=None)
    def dist(i, j):
        if i == 0 or j == 0:
            return i + j
        return min(dist(i - 1, j) + 1, dist(i, j - 1) + 1, dist(i - 1, j - 1) + (a[i - 1] != b[j - 1]))
    return dist(len(a), len(b))


def test_softmax_xent_over_masked_rows():
    rng = np.random.default_rng(159)
    B, C = 7, 3
    hw = rng.standard_normal((B, C))
    b = np.array([1.5, 0.0, -0.3])
    # row 0: class 1 above class 0's h W but below its h W + b (class 0 is the prediction)
    hw[0] = [0.0, 1.0, -1.0]
    hw[1] = [0.0, 1.2, -1.0]
    labels = np.array([0, 0, 2, -1, 1, 0, 2], np.int64)
    mask = np.array([1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 1.0])
    scale = 0.25
    z = hw + b
    on = (mask != 0) & (labels >= 0)
    logp = z - np.log(np.exp(z - z.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True)) - z.max(axis=1,
                                                                                              keepdims=True)
    safe = np.where(on, labels, 0)
    want_loss = np.where(on, -logp[np.arange(B), safe], 0.0)
    want_correct = (on & (z.argmax(axis=1) == labels)).astype(float)
    assert want_correct[0] == 1.0 and want_correct[1] == 1.0
    want_d = scale * (np.exp(logp) - np.eye(C)[safe]) * on[:, None]
    d, rows = arrays_cuda.empty((B, C), np.float64), arrays_cuda.empty((B, 2), np.float64)
    losses_cuda.softmax_xent(to_device(hw), to_device(b), to_device(labels), to_device(mask), scale, d, rows)
    got = to_host(rows)
    np.testing.assert_array_equal(got[:, 1], want_correct)
    np.testing.assert_allclose(got[:, 0], want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(d), want_d, rtol=0, atol=TOL)


def test_squared_error_over_masked_rows():
    rng = np.random.default_rng(160)
    B, O = 5, 3
    hw = rng.standard_normal((B, O))
    b = np.array([0.2, -0.1, 0.05])
    target = hw + b + 0.5 * rng.standard_normal((B, O))
    target[1] = hw[1] + b + np.array([0.01, -0.02, 0.0])    # within the tolerance
    target[3] = hw[3] + b + np.array([0.01, -0.02, 0.03])   # within, but masked off
    mask = np.array([1.0, 1.0, 1.0, 0.0, 1.0])
    scale, tol = 0.5, 0.04
    err = (hw + b - target) * mask[:, None]
    want_loss = (err ** 2).sum(axis=1)
    want_within = ((np.abs(err) < tol).all(axis=1) & (mask != 0)).astype(float)
    assert want_within.tolist() == [0.0, 1.0, 0.0, 0.0, 0.0]
    d, rows = arrays_cuda.empty((B, O), np.float64), arrays_cuda.empty((B, 2), np.float64)
    losses_cuda.squared_error(to_device(hw), to_device(b), to_device(target), to_device(mask), scale, tol, d, rows)
    got = to_host(rows)
    np.testing.assert_allclose(got[:, 0], want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_array_equal(got[:, 1], want_within)
    np.testing.assert_allclose(to_host(d), 2 * scale * err, rtol=0, atol=TOL)


def test_add_bias_rows_not_a_multiple_of_the_outputs():
    rng = np.random.default_rng(161)
    hw, b = rng.standard_normal((5, 3)), rng.standard_normal(3)
    d = to_device(hw.copy())
    losses_cuda.add_bias(d, to_device(b))
    np.testing.assert_allclose(to_host(d), hw + b, rtol=0, atol=TOL)


def test_ctc_rows_best_path_and_edit_distance():
    """Row 0: 1 _ 1 (a blank between two equal labels: two emissions); row 1: a new class at every one of the
    T steps (a transcription of T labels); row 2: repeats merged; row 3: no step (a row of zeros)."""
    T, B, C = 5, 4, 3
    scores = np.full((T, B, C), -2.0)
    for t, c in enumerate([1, 0, 1, 1, 0]):
        scores[t, 0, c] = 1.0
    for t, c in enumerate([1, 2, 1, 2, 1]):
        scores[t, 1, c] = 1.0
    for t, c in enumerate([2, 2, 0, 1, 1]):
        scores[t, 2, c] = 1.0
    labels = np.array([[1, 1, 0], [1, 2, 2], [2, 1, 1], [1, 0, 0]], np.int64)
    label_lengths = np.array([2, 3, 3, 1], np.int64)
    input_lengths = np.array([5, 5, 4, 0], np.int64)
    want = np.zeros((B, 2))
    loss, saved = ctc_cuda.ctc_forward(scores, labels, input_lengths, label_lengths)
    loss_h, logp = to_host(loss), to_host(saved[0])
    for r in range(B):
        Tb = input_lengths[r]
        if Tb == 0:
            continue
        arg = logp[:Tb, r].argmax(axis=1)
        hyp = [int(c) for t, c in enumerate(arg) if c != 0 and (t == 0 or c != arg[t - 1])]
        want[r] = loss_h[r], levenshtein(tuple(labels[r, :label_lengths[r]]), tuple(hyp))
    assert want[:, 1].tolist() == [0.0, 2.0, 1.0, 0.0]
    rows = arrays_cuda.empty((B, 2), np.float64)
    losses_cuda.ctc_rows(loss, saved[0], to_device(labels), to_device(input_lengths), to_device(label_lengths),
                         rows)
    np.testing.assert_array_equal(to_host(rows), want)
