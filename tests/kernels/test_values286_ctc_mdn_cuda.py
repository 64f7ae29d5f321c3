"""ctc_cuda and mdn_cuda at B = 3 under Numba's CUDA simulator (blocks of 4 threads) or on a GPU, float64:

- CTC over T = 5 steps, C = 3 classes: labels [1 2] over 5 steps, a repeated [1 1] over exactly the 3 steps it
  needs, [2] over 2 steps; loss, log p (saved logz) and the gradient with a different dloss a row against
  lnrnn/reference.py's NumPy CTC, the gradient zero past each row's steps;
- the mixture density with M = 3 components over 3 rows (the middle one padded), responsibilities that no one
  component dominates: the loss against reference.mdn_nll, the saved responsibilities (summing to 1) and the
  gradient against the CPU twin lnrnn/kernels/mdn.py."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import ctc_cuda, mdn, mdn_cuda  # noqa: E402
from lnrnn.kernels.codes import MDN_SMAX  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from lnrnn.reference import ctc_backward, ctc_forward, mdn_nll  # noqa: E402
from test_values75_optim_cuda import small_blocks  # noqa: E402,F401  (autouse: blocks of 4 threads, 2 blocks)

TOL = 1e-12
T, B, C = 5, 3, 3
LABELS = np.array([[1, 2], [1, 1], [2, 0]], np.int64)
LABEL_LENGTHS = np.array([2, 2, 1], np.int64)
INPUT_LENGTHS = np.array([5, 3, 2], np.int64)
DLOSS = np.array([1.3, -0.6, 0.8])


def logits():
    return np.random.default_rng(286).standard_normal((T, B, C)) * 1.2


def test_ctc_loss_and_log_p_equal_the_reference():
    x = logits()
    want, _ = ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    assert np.all(want > 0)
    loss, saved = ctc_cuda.ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    np.testing.assert_allclose(to_host(loss), want, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(saved[2]), -want, rtol=TOL, atol=TOL)


def test_ctc_gradient_equals_the_reference_and_stops_at_each_rows_steps():
    x = logits()
    _, cache = ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    want = ctc_backward(DLOSS, cache)
    _, saved = ctc_cuda.ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    d = to_host(ctc_cuda.ctc_backward(DLOSS, saved, LABELS, INPUT_LENGTHS, LABEL_LENGTHS))
    np.testing.assert_allclose(d, want, rtol=TOL, atol=TOL)
    assert np.all(d[3:, 1] == 0.0) and np.all(d[2:, 2] == 0.0)
    # each step's gradient sums to 0 over the classes (softmax minus a posterior that sums to 1), times dloss
    np.testing.assert_allclose(d.sum(axis=2), 0.0, atol=1e-12)


M = 3


def mdn_rows():
    rng = np.random.default_rng(2865)
    y = rng.standard_normal((3, 6 * M + 1)) * 0.5
    y[:, 1 + 3 * M:1 + 5 * M] -= 0.5          # sigmas about 0.6: every component near the target
    t = np.concatenate([rng.standard_normal((3, 2)) * 0.3, np.array([[1.0], [0.0], [0.0]])], axis=1)
    return y, t, np.array([1.0, 0.0, 1.0])


def test_mdn_loss_responsibilities_and_gradient_equal_the_cpu_twin():
    y, t, v = mdn_rows()
    nll, saved = mdn_cuda.mdn_forward(y, t, v, M)
    np.testing.assert_allclose(to_host(nll), mdn_nll(y, t, v, M, smax=MDN_SMAX), rtol=TOL, atol=TOL)
    cpu_nll, cpu_saved = mdn.mdn_forward(y, t, v, M)
    gamma = to_host(saved[0])
    assert gamma[[0, 2]].max() < 0.9                     # no component dominates
    np.testing.assert_allclose(gamma[[0, 2]].sum(axis=1), 1.0, rtol=TOL)
    np.testing.assert_allclose(gamma, cpu_saved[0], rtol=TOL, atol=TOL)
    dnll = np.array([0.9, 2.0, -1.4])
    d = to_host(mdn_cuda.mdn_backward(dnll, saved, y, t, M))
    np.testing.assert_allclose(d, mdn.mdn_backward(dnll, cpu_saved, y, t, M), rtol=TOL, atol=TOL)
    assert np.all(d[1] == 0.0)
