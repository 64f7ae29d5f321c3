"""losses_cuda and optim_cuda under Numba's simulator (or on a GPU), float64, against formulas written out here:

- the classifier head's softmax cross-entropy (B = 3 rows, C = 4 classes, a bias that moves the answer): one row
  scored, one with label -1, one masked off; d = scale (softmax(hw + b) - onehot) and rows [-log p, correct];
- clip_and_scale of a (3, 7) gradient (not square: rows and columns cannot swap unseen) with entries exactly at
  the bound and just past it on both sides: np.clip(d, -bound, bound) * scale;
- ctc_rows: the best path (decode.best_path_array) and its edit distance to the labels by the Levenshtein table
  (test_values97_heads_cuda.levenshtein), rows of T, one and zero steps, a label of two classes;
- SGD with momentum and Adam (beta2 0.99, eps 1e-3) at updates 1 and 2 written out from their definitions, over
  P = 11 parameters (blocks of 4 threads, 2 blocks); clip_grad_norm on the flat buffer at a norm of exactly 6
  (kept) and with the limit just below it (scaled by max_norm / (norm + CLIP_EPS))."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import losses_cuda, optim_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import empty, to_device, to_host  # noqa: E402
from lnrnn.kernels.optim import CLIP_EPS  # noqa: E402
from lnrnn.model.decode import best_path_array  # noqa: E402
from test_values97_heads_cuda import levenshtein  # noqa: E402
# small_blocks: the autouse fixture (blocks of 4 threads, at most 2 blocks)
from test_values75_optim_cuda import small_blocks  # noqa: E402,F401

TOL = 1e-12


def test_softmax_xent_with_bias_label_minus_one_and_mask_by_definition():
    hw = np.array([[0.3, -1.2, 0.8, 0.1], [1.5, 0.2, -0.4, 0.9], [-0.6, 0.7, 0.2, 1.1]])
    b = np.array([0.9, -0.3, 0.2, -0.5])
    labels = np.array([2, -1, 3], np.int64)
    mask = np.array([1.0, 1.0, 0.0])
    d, rows = empty((3, 4), np.float64), empty((3, 2), np.float64)
    losses_cuda.softmax_xent(to_device(hw), to_device(b), to_device(labels), to_device(mask), 0.25, d, rows)
    z = hw[0] + b
    p = np.exp(z) / np.exp(z).sum()
    assert np.argmax(z) == 0 and np.argmax(hw[0]) == 2            # the bias moves the prediction off the label
    want_d = np.zeros((3, 4))
    want_d[0] = 0.25 * (p - np.eye(4)[2])
    np.testing.assert_allclose(to_host(d), want_d, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(rows), [[-np.log(p[2]), 0.0], [0.0, 0.0], [0.0, 0.0]], rtol=TOL, atol=0)


def test_clip_and_scale_at_and_just_past_the_bound():
    past = 1.0 + 2.0 ** -40
    d = np.array([[1.0, past, -1.0, -past, 0.5, -3.0, 2.0],
                  [0.25, -0.75, past, 1.0, -2.5, 0.0, -1.0],
                  [4.0, -past, 0.125, 1.0 - 2.0 ** -40, -0.5, 7.0, -1.0]])
    dev = to_device(d.copy())
    losses_cuda.clip_and_scale(dev, 1.0, 0.25)
    np.testing.assert_array_equal(to_host(dev), np.clip(d, -1.0, 1.0) * 0.25)


def test_ctc_rows_best_path_distance_over_lengths_t_one_and_zero():
    T, B, C = 4, 3, 4
    best = np.array([[1, 2, 2, 3], [2, 0, 1, 1], [3, 3, 1, 2]])     # (B,T) the argmax of each step
    logits = np.full((T, B, C), -1.0)
    for r in range(B):
        logits[np.arange(T), r, best[r]] = 1.0
    logp = logits - np.log(np.exp(logits).sum(2, keepdims=True))
    labels = np.array([[1, 2], [2, 0], [1, 2]], np.int64)
    label_lengths = np.array([2, 1, 2], np.int64)
    input_lengths = np.array([4, 1, 0], np.int64)
    loss = np.array([2.5, 0.75, 0.0])
    rows = empty((B, 2), np.float64)
    losses_cuda.ctc_rows(to_device(loss), to_device(logp), to_device(labels), to_device(input_lengths),
                         to_device(label_lengths), rows)
    hyp, n = best_path_array(logp, input_lengths)
    assert hyp[0, :n[0]].tolist() == [1, 2, 3] and hyp[1, :n[1]].tolist() == [2]
    want = [[loss[r], levenshtein(labels[r, :label_lengths[r]].tolist(), hyp[r, :n[r]].tolist())] if
            input_lengths[r] > 0 else [0.0, 0.0] for r in range(B)]
    assert [w[1] for w in want] == [1, 0, 0.0]
    np.testing.assert_array_equal(to_host(rows), want)


P = 11
LR, MOMENTUM, BETA1, BETA2, EPS = 0.05, 0.8, 0.9, 0.99, 1e-3


def two_gradients():
    rng = np.random.default_rng(264)
    return rng.standard_normal(P), rng.standard_normal(P) * 2.0 - 0.5


def test_sgd_momentum_at_updates_one_and_two():
    g1, g2 = two_gradients()
    p0 = np.linspace(-1.0, 1.0, P)
    p, v = to_device(p0.copy()), to_device(np.zeros(P))
    optim_cuda.sgd_update(p, v, to_device(g1), LR, MOMENTUM)
    v1 = g1
    p1 = p0 - LR * v1
    np.testing.assert_allclose(to_host(p), p1, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(v), v1, rtol=TOL, atol=TOL)
    optim_cuda.sgd_update(p, v, to_device(g2), LR, MOMENTUM)
    v2 = MOMENTUM * v1 + g2
    np.testing.assert_allclose(to_host(v), v2, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(p), p1 - LR * v2, rtol=TOL, atol=TOL)


def test_adam_at_updates_one_and_two_with_bias_corrections():
    g1, g2 = two_gradients()
    p0 = np.linspace(-1.0, 1.0, P)
    p, m, v = to_device(p0.copy()), to_device(np.zeros(P)), to_device(np.zeros(P))
    want_p, want_m, want_v = p0.copy(), np.zeros(P), np.zeros(P)
    for k, g in ((1, g1), (2, g2)):
        optim_cuda.adam_update(p, m, v, to_device(g), LR, BETA1, BETA2, EPS, k)
        want_m = BETA1 * want_m + (1 - BETA1) * g
        want_v = BETA2 * want_v + (1 - BETA2) * g * g
        m_hat, v_hat = want_m / (1 - BETA1 ** k), want_v / (1 - BETA2 ** k)
        want_p = want_p - LR * m_hat / (np.sqrt(v_hat) + EPS)
        np.testing.assert_allclose(to_host(m), want_m, rtol=TOL, atol=TOL, err_msg=f"m at update {k}")
        np.testing.assert_allclose(to_host(v), want_v, rtol=TOL, atol=TOL, err_msg=f"v at update {k}")
        np.testing.assert_allclose(to_host(p), want_p, rtol=TOL, atol=TOL, err_msg=f"p at update {k}")


G_NORM_6 = np.array([2.0, -1.0, 2.0, 0.0, 4.0, -2.0, 0.0, 1.0, 2.0, 1.0, 1.0])   # sum of squares 36


def test_clip_grad_norm_at_the_limit_keeps_and_just_below_scales():
    assert np.sum(G_NORM_6 ** 2) == 36.0
    g, norm = to_device(G_NORM_6.copy()), to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(g, 6.0, norm)
    assert to_host(norm)[0] == 6.0
    np.testing.assert_array_equal(to_host(g), G_NORM_6)
    limit = 6.0 - 1e-9
    g, norm = to_device(G_NORM_6.copy()), to_device(np.zeros(1))
    optim_cuda.clip_grad_norm(g, limit, norm)
    assert to_host(norm)[0] == 6.0
    np.testing.assert_allclose(to_host(g), G_NORM_6 * (limit / (6.0 + CLIP_EPS)), rtol=TOL, atol=0)
