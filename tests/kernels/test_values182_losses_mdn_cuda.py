"""losses_cuda's row kernels and mdn_cuda's loss and gradient against definitions written here in NumPy and
lnrnn/reference.py, in float64 under Numba's simulator (or on a GPU):

- softmax_xent over rows masked off and rows labelled -1 (loss 0 and gradient 0 there, whatever the buffers held:
  rows and d start as NaN), d = scale (softmax(z) - onehot);
- squared_error with scale and tolerance far apart (d = 2 scale err; within when every |err| < tolerance);
- clip_and_scale on a d of 5 rows by 3 (not square): clip(d, -bound, bound) scale;
- ctc_rows' edit distance by the memoized Levenshtein recursion, with a row whose best path is all blanks (the
  distance is then its label count) and a row with one step;
- the mixture density loss of 2 components against reference.mdn_nll (densities taken directly), with a padded
  point (valid 0: loss and gradient 0), a far point (6 standard deviations off) and a point of very different
  sigma1 and sigma2; its gradient against central differences of sum(dnll nll) of the spec.

Blocks of 4 threads, the grid capped at 2 blocks (several blocks and a grid-stride loop)."""
import numpy as np

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from gradcheck_util import numeric_grad  # noqa: E402
from lnrnn import reference as ref  # noqa: E402
from lnrnn.kernels import losses_cuda, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from test_values159_losses_cuda import levenshtein, small_blocks  # noqa: E402,F401  (small_blocks: autouse)

TOL = 1e-13


def nan_device(shape):
    return to_device(np.full(shape, np.nan))


def test_softmax_xent_leaves_nothing_on_unscored_rows():
    rng = np.random.default_rng(182)
    B, C = 6, 4
    hw, b = rng.standard_normal((B, C)) * 2, rng.standard_normal(C)
    labels = np.array([2, -1, 0, 3, -1, 1], np.int64)
    mask = np.array([1.0, 1.0, 0.0, 1.0, 0.0, 1.0])  # row 1: labelled -1; row 2: masked; row 4: both
    scale = 0.4
    z = hw + b
    logp = z - z.max(1, keepdims=True)
    logp -= np.log(np.exp(logp).sum(1, keepdims=True))
    on = (mask != 0) & (labels >= 0)
    safe = np.where(on, labels, 0)
    want_loss = np.where(on, -logp[np.arange(B), safe], 0.0)
    want_d = scale * (np.exp(logp) - np.eye(C)[safe]) * on[:, None]
    d, rows = nan_device((B, C)), nan_device((B, 2))
    losses_cuda.softmax_xent(to_device(hw), to_device(b), to_device(labels), to_device(mask), scale, d, rows)
    got = to_host(rows)
    np.testing.assert_allclose(got[:, 0], want_loss, rtol=TOL, atol=TOL)
    np.testing.assert_array_equal(got[:, 1], (on & (z.argmax(1) == labels)).astype(float))
    np.testing.assert_allclose(to_host(d), want_d, rtol=0, atol=TOL)


def test_squared_error_scale_and_tolerance_apart():
    rng = np.random.default_rng(1821)
    B, O = 5, 3
    hw, b = rng.standard_normal((B, O)), rng.standard_normal(O)
    target = hw + b + 0.3 * rng.standard_normal((B, O))
    target[2] = hw[2] + b + np.array([0.05, -0.1, 0.08])  # within tol = 0.15
    mask = np.array([1.0, 0.0, 1.0, 1.0, 1.0])
    scale, tol = 0.7, 0.15
    err = (hw + b - target) * mask[:, None]
    d, rows = nan_device((B, O)), nan_device((B, 2))
    losses_cuda.squared_error(to_device(hw), to_device(b), to_device(target), to_device(mask), scale, tol, d, rows)
    got = to_host(rows)
    np.testing.assert_allclose(got[:, 0], (err ** 2).sum(1), rtol=TOL, atol=TOL)
    np.testing.assert_array_equal(got[:, 1], ((np.abs(err) < tol).all(1) & (mask != 0)).astype(float))
    np.testing.assert_allclose(to_host(d), 2 * scale * err, rtol=0, atol=TOL)


def test_clip_and_scale_on_a_non_square_d():
    d = np.random.default_rng(1822).standard_normal((5, 3))
    dd = to_device(d.copy())
    losses_cuda.clip_and_scale(dd, 0.7, 0.3)
    np.testing.assert_allclose(to_host(dd), np.clip(d, -0.7, 0.7) * 0.3, rtol=0, atol=TOL)


def test_ctc_rows_edit_distance_by_the_recursion():
    """Row 0: blanks at every step (an empty transcription against 2 labels); row 1: one step of label 2 against
    labels 1 2; row 2: 1 1 _ 2 against 2 1 2. logp is any log-softmax; loss is carried through as given."""
    T, B, C = 4, 3, 3
    steps = [[0, 0, 0, 0], [2, 0, 0, 0], [1, 1, 0, 2]]
    scores = np.full((T, B, C), -1.0)
    for r, row in enumerate(steps):
        for t, c in enumerate(row):
            scores[t, r, c] = 1.5
    logp = scores - np.log(np.exp(scores).sum(2, keepdims=True))
    labels = np.array([[1, 2, 0], [1, 2, 0], [2, 1, 2]], np.int64)
    label_lengths = np.array([2, 2, 3], np.int64)
    input_lengths = np.array([4, 1, 4], np.int64)
    loss = np.array([1.25, 2.5, 0.75])
    want = np.zeros((B, 2))
    for r in range(B):
        arg = logp[:input_lengths[r], r].argmax(1)
        hyp = [int(c) for t, c in enumerate(arg) if c != 0 and (t == 0 or c != arg[t - 1])]
        want[r] = loss[r], levenshtein(tuple(labels[r, :label_lengths[r]]), tuple(hyp))
    assert want[:, 1].tolist() == [2.0, 1.0, 1.0]
    rows = nan_device((B, 2))
    losses_cuda.ctc_rows(to_device(loss), to_device(logp), to_device(labels), to_device(input_lengths),
                         to_device(label_lengths), rows)
    np.testing.assert_array_equal(to_host(rows), want)


def mdn_problem():
    M, N = 2, 5
    rng = np.random.default_rng(1823)
    yhat = rng.standard_normal((N, 6 * M + 1)) * 0.5
    target = np.column_stack([rng.standard_normal((N, 2)), [0.0, 1.0, 0.0, 1.0, 0.0]])
    # row 2: the far point, 6 of its components' standard deviations (about 1) off every mean
    yhat[2, 1 + M:1 + 3 * M] = 0.0
    target[2, :2] = [6.0, -6.0]
    # row 3: sigma1 = e^1.2, sigma2 = e^-0.9
    yhat[3, 1 + 3 * M:1 + 4 * M] = 1.2
    yhat[3, 1 + 4 * M:1 + 5 * M] = -0.9
    valid = np.array([1.0, 0.0, 1.0, 1.0, 1.0])  # row 1: a padded point
    return M, yhat, target, valid, rng.uniform(0.5, 1.5, N)


def test_mdn_loss_and_gradient_against_the_spec():
    M, yhat, target, valid, dnll = mdn_problem()
    nll, saved = mdn_cuda.mdn_forward(yhat, target, valid, M)
    want = ref.mdn_nll(yhat, target, valid, M)
    assert want[2] > 15 and want[1] == 0.0
    np.testing.assert_allclose(to_host(nll), want, rtol=1e-12, atol=1e-13)
    d = to_host(mdn_cuda.mdn_backward(dnll, saved, yhat, target, M))
    y = yhat.copy()
    num = numeric_grad(lambda: float(np.sum(dnll * ref.mdn_nll(y, target, valid, M))), y, eps=1e-6, order=2)
    assert not d[1].any()
    np.testing.assert_allclose(d, num, rtol=0, atol=1e-6 * max(1.0, np.abs(num).max()))
