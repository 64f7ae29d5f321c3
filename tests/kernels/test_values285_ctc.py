"""The CTC kernel (lnrnn/kernels/ctc.py), thirteenth pass, float64: loss, logz and gradient of every row against
the sum over every alignment path of its own steps (test_values199_ctc's by_paths: the C^T paths collapsed and
those reading the label summed in logs) at tiny T and C: rows of one step (the empty label: p is the blank's
probability; a one-label row: that label's), a repeated label on exactly 2L+1 steps, on its shortest 3 and on 2
(p = 0: loss 0, gradient 0, logz -inf, as zero_infinity), a label of length 0, more rows than the kernel's row
chunks (each row its own label), and rows that fit only through classes 800 nats down (the log-space path) with
a repeat and an allowed skip; the gradient also against central differences of the kernel's own loss."""
import numpy as np

from lnrnn.config import CTC_ROW_CHUNKS
from lnrnn.gradcheck import numeric_grad
from lnrnn.kernels.ctc import ctc_forward
from test_values199_ctc import by_paths, check_rows, log_softmax, run
from test_values48_ctc import packed


def test_rows_of_one_step_against_every_path_and_the_softmax():
    """T 1: the empty label's p is y[0, blank], the label (2)'s is y[0, 2], and (1 1) cannot fit."""
    rng = np.random.default_rng(28501)
    rows = [[], [2], [1, 1], [1]]
    x = 1.1 * rng.standard_normal((1, len(rows), 3))
    il = [1, 1, 1, 1]
    dloss = np.array([0.7, 1.3, 2.0, 0.4])
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)
    lp = log_softmax(x[0])
    np.testing.assert_allclose(loss, [-lp[0, 0], -lp[1, 2], 0.0, -lp[3, 1]], rtol=1e-13)
    assert saved[2][2] == -np.inf and not d[:, 2].any()
    # one step, one path: the softmax less 1 on the path's class
    want = np.exp(lp)
    want[0, 0] -= 1.0
    want[1, 2] -= 1.0
    want[2] = 0.0
    want[3, 1] -= 1.0
    np.testing.assert_allclose(d[0], dloss[:, None] * want, rtol=1e-12, atol=1e-14)


def test_repeat_on_2l_plus_1_steps_its_shortest_and_too_short():
    """(1 1) on 5 = 2L+1 steps, on 3 (its only path 1 0 1), on 2 (p = 0); (1 2) on 2 and the empty label on 4,
    T 5 and C 3 (243 paths a row); the gradient against central differences too."""
    rng = np.random.default_rng(28502)
    rows = [[1, 1], [1, 1], [1, 1], [1, 2], []]
    il = [5, 3, 2, 2, 4]
    x = 1.2 * rng.standard_normal((5, len(rows), 3))
    dloss = np.array([0.9, 1.4, 0.6, 1.1, 0.8])
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)
    lp = log_softmax(x[:3, 1])
    np.testing.assert_allclose(loss[1], -(lp[0, 1] + lp[1, 0] + lp[2, 1]), rtol=1e-13)
    assert loss[2] == 0.0 and saved[2][2] == -np.inf and not d[:, 2].any()
    labels, ll = packed(rows)
    ilen = np.asarray(il, np.int64)
    want = numeric_grad(lambda: float(dloss @ ctc_forward(x, labels, ilen, ll)[0]), x, eps=1e-5)
    np.testing.assert_allclose(d, want, rtol=1e-7, atol=1e-9)


def test_more_rows_than_row_chunks_each_with_its_own_label():
    """CTC_ROW_CHUNKS + 3 rows of T 4, C 3, every label different: a chunk's rows each read their own label."""
    pool = [[1], [2], [1, 2], [2, 1], [], [1, 1], [2, 2], [1, 2, 1], [2, 1, 2], [1, 2, 2], [2, 2, 1], [1, 1, 2]]
    B = CTC_ROW_CHUNKS + 3
    assert B <= len(pool)
    rows = pool[:B]
    rng = np.random.default_rng(28503)
    x = 1.3 * rng.standard_normal((4, B, 3))
    il = [4] * B
    dloss = rng.uniform(0.5, 2.0, B)
    loss, saved, d = run(x, rows, il, dloss)
    check_rows(x, rows, il, dloss, loss, saved, d)


def test_log_space_rows_with_a_repeat_and_a_skip_against_every_path():
    """Classes 1 and 3 sit 800 nats down (every row runs in log space): (3 3), whose skip over the blank is
    barred, (1 3) and (3 2 1), whose skips are allowed, and (1) on T 4, C 4 (256 paths)."""
    rng = np.random.default_rng(28504)
    x = 0.5 * rng.standard_normal((4, 4, 4))
    x[:, :, 1] -= 800.0
    x[:, :, 3] -= 800.0
    rows = [[3, 3], [1, 3], [3, 2, 1], [1]]
    il = [4, 4, 4, 3]
    dloss = np.array([1.2, 0.7, 1.5, 0.9])
    loss, saved, d = run(x, rows, il, dloss)
    assert saved[3].all(), "every row runs in log space"
    check_rows(x, rows, il, dloss, loss, saved, d, atol_loss=2e-11, atol_grad=1e-11)
    logz, _ = by_paths(x[:4, 0], [3, 3])
    assert logz < -1600.0
