"""ctc_cuda and mdn_cuda against definitions written here, in float64 under Numba's simulator (or on a GPU):

- CTC's loss -log p(l | x) with p summed over every one of the C^Tb paths of a row (each collapsed by hand: repeats
  merged, then blanks dropped) and its gradient dloss (softmax - the paths' posterior counts) per step, zero past a
  row's steps: a repeated label [1 1] over 4 steps, an empty label, [2 1] over exactly 2 steps, [1] over 4 steps
  and [2] over 1 step (5 rows, S = 5 positions over blocks of 4 threads), dloss different in every row; row 3's
  blank masked off at its first step by a logit of -inf (the only way log(exp(a) + exp(-inf)) is ever asked for
  with a finite a: the unreachable positions of a row otherwise lie beyond the reachable ones on both sides);
- the mixture density loss (M = 2) against reference.mdn_nll and its gradient against central differences of
  sum(dnll nll) of the spec, with a padded point (valid 0: loss and gradient 0), a point 6 standard deviations
  from every mean, end-of-stroke logits of both signs and rho away from 0; N = 5 over blocks of 4 threads."""
import itertools

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402
from lnrnn.kernels import ctc_cuda, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_host  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402

T, C = 4, 3
LABELS = [[1, 1], [], [2, 1], [1], [2]]
INPUT_LENGTHS = [4, 3, 2, 4, 1]
DLOSS = np.array([1.3, -0.6, 0.9, 2.1, 0.5])
M, N = 2, 5
TOL = 1e-10


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def collapse(path):
    merged = [c for i, c in enumerate(path) if i == 0 or c != path[i - 1]]
    return [c for c in merged if c != 0]


def ctc_by_paths(logits):
    """loss (B,), dlogits (T,B,C) of every row from the sum over all its paths."""
    B = len(LABELS)
    p = np.exp(logits - logits.max(2, keepdims=True))
    p /= p.sum(2, keepdims=True)
    loss, d = np.zeros(B), np.zeros((T, B, C))
    for b, (lab, tb) in enumerate(zip(LABELS, INPUT_LENGTHS)):
        total, post = 0.0, np.zeros((tb, C))
        for path in itertools.product(range(C), repeat=tb):
            if collapse(path) == lab:
                q = np.prod([p[t, b, c] for t, c in enumerate(path)])
                total += q
                post[np.arange(tb), list(path)] += q
        loss[b] = -np.log(total)
        d[:tb, b] = DLOSS[b] * (p[:tb, b] - post / total)
    return loss, d


def test_ctc_loss_and_gradient_equal_the_sum_over_paths():
    rng = np.random.default_rng(207)
    B = len(LABELS)
    logits = rng.standard_normal((T, B, C)) * 1.5
    logits[0, 3, 0] = -np.inf  # the blank masked off at row 3's first step: alpha[0, 0] is -inf, alpha[0, 1] not
    labels = np.full((B, 2), 2, np.int64)  # padded with a class, so a read past a label finds a valid code
    for b, lab in enumerate(LABELS):
        labels[b, :len(lab)] = lab
    il = np.array(INPUT_LENGTHS, np.int64)
    ll = np.array([len(lab) for lab in LABELS], np.int64)
    want_loss, want_d = ctc_by_paths(logits)
    loss, saved = ctc_cuda.ctc_forward(logits, labels, il, ll)
    np.testing.assert_allclose(to_host(loss), want_loss, rtol=TOL, atol=TOL)
    d = to_host(ctc_cuda.ctc_backward(DLOSS, saved, labels, il, ll))
    np.testing.assert_allclose(d, want_d, rtol=0, atol=TOL)


def mdn_problem():
    rng = np.random.default_rng(2071)
    y = 0.5 * rng.standard_normal((N, 6 * M + 1))
    y[:, 0] = [-2.0, 1.5, 0.3, -0.7, 2.5]            # end-of-stroke logits of both signs
    y[:, 1 + 5 * M:] = [[0.9, -0.6]] * N             # rho clearly away from 0, different per component
    y[:, 1 + 4 * M:1 + 5 * M] += [0.8, -0.9]         # sigma2 apart from sigma1
    t = np.zeros((N, 3))
    t[:, 2] = [1, 0, 1, 0, 1]
    s1, s2 = np.exp(y[:, 1 + 3 * M:1 + 4 * M]), np.exp(y[:, 1 + 4 * M:1 + 5 * M])
    t[:, 0] = y[:, 1 + M] + 0.7 * s1[:, 0]
    t[:, 1] = y[:, 1 + 2 * M] - 0.4 * s2[:, 0]
    t[3, 0] = y[3, 1 + M:1 + 2 * M].max() + 6.0 * s1[3].max()    # a far point
    t[3, 1] = y[3, 1 + 2 * M:1 + 3 * M].min() - 6.0 * s2[3].max()
    v = np.ones(N)
    v[2] = 0.0  # a padded point
    return y, t, v


def test_mdn_loss_against_the_spec_and_gradient_against_central_differences():
    y, t, v = mdn_problem()
    dnll = np.array([0.7, -1.2, 3.0, 1.1, 0.4])
    want = mdn_nll(y, t, v, M)
    assert want[2] == 0.0 and want[3] > 15.0
    nll, saved = mdn_cuda.mdn_forward(y, t, v, M)
    np.testing.assert_allclose(to_host(nll), want, rtol=1e-11, atol=1e-11)
    d = to_host(mdn_cuda.mdn_backward(dnll, saved, y, t, M))
    h, num = 1e-6, np.zeros_like(y)
    for idx in np.ndindex(*y.shape):
        yp, ym = y.copy(), y.copy()
        yp[idx] += h
        ym[idx] -= h
        num[idx] = (dnll @ mdn_nll(yp, t, v, M) - dnll @ mdn_nll(ym, t, v, M)) / (2 * h)
    assert not d[2].any()
    np.testing.assert_allclose(d, num, rtol=1e-6, atol=1e-6)
