"""ctc_cuda and mdn_cuda under Numba's simulator (or on a GPU), float64, every option on at awkward sizes:

- CTC over T = 4 steps, B = 3 rows, C = 4 classes (blocks of 4 threads, S = 5 positions): a repeated label [3 3]
  over all T steps, a label [2] over one step (the recursion's start is the whole answer) and a row of no step at
  all with a label it cannot emit (loss 0, gradient 0); loss and gradient (dloss different per row) against
  lnrnn/reference.py's NumPy CTC, and the gradient zero past each row's steps;
- the mixture density loss (M = 2, N = 3 rows, the last one padded: valid 0) with log-sigmas at the clip
  (-10, 10) and just past it (-10.25, 10.5), the two log-sigmas of a component different, rho away from 0:
  against reference.mdn_nll (the densities written out directly) and the CPU twin's backward."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import ctc_cuda, mdn, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from lnrnn.kernels.codes import MDN_SMAX  # noqa: E402
from lnrnn.reference import ctc_backward, ctc_forward, mdn_nll  # noqa: E402
# small_blocks: the autouse fixture (blocks of 4 threads, at most 2 blocks)
from test_values75_optim_cuda import small_blocks  # noqa: E402,F401

TOL = 1e-12
T, B, C = 4, 3, 4
LABELS = np.array([[3, 3], [2, 0], [1, 2]], np.int64)
LABEL_LENGTHS = np.array([2, 1, 2], np.int64)
INPUT_LENGTHS = np.array([4, 1, 0], np.int64)
DLOSS = np.array([0.7, -1.2, 0.4])


def ctc_logits():
    rng = np.random.default_rng(264)
    return rng.standard_normal((T, B, C)) * 1.5


def test_ctc_loss_at_lengths_t_one_and_zero_equals_the_reference():
    x = ctc_logits()
    want, _ = ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    # the row of one step: its label's class at step 0, by hand
    z = x[0, 1] - x[0, 1].max()
    assert want[1] == -(z[2] - np.log(np.exp(z).sum()))
    assert want[2] == 0.0 and want[0] > 0
    loss, saved = ctc_cuda.ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    np.testing.assert_allclose(to_host(loss), want, rtol=TOL, atol=TOL)
    np.testing.assert_allclose(to_host(saved[2])[:2], -want[:2], rtol=TOL, atol=TOL)   # logz = log p


def test_ctc_gradient_at_lengths_t_one_and_zero_equals_the_reference():
    x = ctc_logits()
    _, cache = ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    want = ctc_backward(DLOSS, cache)
    _, saved = ctc_cuda.ctc_forward(x, LABELS, INPUT_LENGTHS, LABEL_LENGTHS)
    d = to_host(ctc_cuda.ctc_backward(DLOSS, saved, LABELS, INPUT_LENGTHS, LABEL_LENGTHS))
    np.testing.assert_allclose(d, want, rtol=TOL, atol=TOL)
    assert np.all(d[1:, 1] == 0.0) and np.all(d[:, 2] == 0.0)
    assert np.abs(d[:, 0]).min() > 0


M = 2


def mdn_rows():
    """yhat (3, 6M+1) [e | pi | mu1 | mu2 | ls1 | ls2 | rho], target (3,3), valid (3,)."""
    y = np.zeros((3, 6 * M + 1))
    s = np.exp(-MDN_SMAX)
    # row 0: log-sigma 1 at -SMAX and just past it (both sigma e^-10), targets within a few sigma
    y[0] = [0.7, 0.2, -0.1, 0.3 * s, -0.5 * s, 0.1, -0.3, -MDN_SMAX, -MDN_SMAX - 0.25, 0.2, -0.4, 0.6, -0.9]
    # row 1: log-sigma 1 at +SMAX and just past it, log-sigma 2 at -SMAX and just past it
    y[1] = [-1.1, -0.4, 0.5, 1.0e4, -2.0e4, 0.4 * s, -0.2 * s, MDN_SMAX, MDN_SMAX + 0.5, -MDN_SMAX,
            -MDN_SMAX - 0.5, -0.7, 1.3]
    y[2] = np.linspace(-1.0, 1.0, 6 * M + 1)
    t = np.array([[0.0, 0.25, 1.0], [3.0e4, 0.1 * s, 0.0], [0.3, -0.2, 1.0]])
    return y, t, np.array([1.0, 1.0, 0.0])


def test_mdn_loss_at_and_past_the_log_sigma_clip_equals_the_spec():
    y, t, v = mdn_rows()
    nll, _ = mdn_cuda.mdn_forward(y, t, v, M)
    want = mdn_nll(y, t, v, M, smax=MDN_SMAX)
    assert want[2] == 0.0 and np.all(np.isfinite(want))
    np.testing.assert_allclose(to_host(nll), want, rtol=TOL, atol=0)


def test_mdn_gradient_at_and_past_the_log_sigma_clip_equals_the_cpu_twin():
    y, t, v = mdn_rows()
    g = np.array([1.3, -0.6, 2.0])
    _, saved = mdn_cuda.mdn_forward(y, t, v, M)
    d = to_host(mdn_cuda.mdn_backward(g, saved, y, t, M))
    _, saved_c = mdn.mdn_forward(y, t, v, M)
    want = mdn.mdn_backward(g, saved_c, y, t, M)
    assert np.all(d[2] == 0.0)
    # past the clip a log-sigma gets no gradient; at it, neither (the clip's open interval)
    assert want[0, 1 + 3 * M + 1] == 0.0 and want[1, 1 + 3 * M + 1] == 0.0
    assert want[0, 1 + 3 * M] == 0.0 and want[1, 1 + 3 * M] == 0.0
    for n in range(2):
        np.testing.assert_allclose(d[n], want[n], rtol=1e-11, atol=1e-12 * np.abs(want[n]).max(), err_msg=f"row {n}")
