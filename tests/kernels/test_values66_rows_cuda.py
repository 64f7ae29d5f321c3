"""The row kernels on the device against their definitions, float64, under Numba's CUDA simulator (tests/conftest.py)
or on a GPU: LayerNorm (lnrnn/kernels/layernorm_cuda.py) on more rows than features and more features than rows
over blocks of 4 threads, with a gain and bias off 1 and 0 and eps 0.3, forward by the formula and backward
against central differences of that formula and the CPU twin; the mixture density (mdn_cuda) against the NumPy
spec reference.mdn_nll with pen-down and pen-up points and a padded row, its backward against central
differences of the spec; the last-step heads' objectives (losses_cuda) against softmax cross-entropy and squared
error written here in NumPy, with rows not scored (mask 0 with a label that is the row's argmax, label -1)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.gradcheck import numeric_grad  # noqa: E402
from lnrnn.kernels import layernorm, layernorm_cuda, losses_cuda, mdn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.reference import mdn_nll  # noqa: E402
from test_cuda_kernels import small_blocks  # noqa: E402,F401  (autouse: small blocks, a race-free simulator)

EPS = 0.3
host = arrays_cuda.to_host
dev = arrays_cuda.to_device


@pytest.fixture(autouse=True)
def four_threads(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 4)


def ln_def(x, g, b):
    """LayerNorm of each row by its definition: biased variance, eps inside the square root."""
    m = x.mean(axis=1, keepdims=True)
    return g * (x - m) / np.sqrt(((x - m) ** 2).mean(axis=1, keepdims=True) + EPS) + b


@pytest.mark.parametrize("N,F", [(6, 3), (2, 7)], ids=["rows-over-features", "features-over-rows"])
def test_layernorm_forward_and_backward_by_definition(N, F):
    """Forward: y, mean and rstd by the formula. Backward: dx, dgain, dbias against central differences of
    sum(dy * ln_def) and against the CPU twin."""
    rng = np.random.default_rng(6610 + N)
    x, dy = rng.standard_normal((N, F)) * 2 + 0.5, rng.standard_normal((N, F))
    g, b = rng.uniform(0.4, 1.8, F), rng.standard_normal(F) * 0.3
    y, mean, rstd = host(layernorm_cuda.layernorm_forward(x, g, b, EPS))
    assert np.abs(y - ln_def(x, g, b)).max() < 1e-12
    assert np.abs(mean - x.mean(axis=1)).max() < 1e-12
    assert np.abs(rstd - 1 / np.sqrt(x.var(axis=1) + EPS)).max() < 1e-12
    dx, dg, db = host(layernorm_cuda.layernorm_backward(dy, x, mean, rstd, g))
    f = lambda: float(np.sum(dy * ln_def(x, g, b)))  # noqa: E731
    for got, arr in ((dx, x), (dg, g), (db, b)):
        assert np.abs(got - numeric_grad(f, arr, eps=1e-5, order=2)).max() < 1e-7
    for got, want in zip((dx, dg, db), layernorm.layernorm_backward(dy, x, mean, rstd, g, 1)):
        assert np.abs(got - want).max() < 1e-12


def mdn_problem(rng, N, M):
    y = rng.standard_normal((N, 6 * M + 1))
    t = rng.standard_normal((N, 3))
    t[:, 2] = np.arange(N) % 2  # pen down and up in turn
    v = np.ones(N)
    v[2] = 0.0  # a padded point
    return y, t, v


def test_mdn_forward_and_backward_by_the_spec():
    """N = 7 points over blocks of 4 threads, M = 2 components: nll equals reference.mdn_nll (0 on the padded
    point), the responsibilities sum to 1; dL/d(outputs) equals central differences of sum(dnll * nll)."""
    rng = np.random.default_rng(6620)
    N, M = 7, 2
    y, t, v = mdn_problem(rng, N, M)
    dnll = rng.standard_normal(N)
    nll, saved = mdn_cuda.mdn_forward(y, t, v, M)
    want = mdn_nll(y, t, v, M)
    assert np.abs(host(nll) - want).max() < 1e-12 * max(1.0, np.abs(want).max())
    assert host(nll)[2] == 0.0
    gamma = host(saved[0])
    assert np.abs(gamma[v == 1].sum(axis=1) - 1.0).max() < 1e-12
    d = host(mdn_cuda.mdn_backward(dnll, saved, y, t, M))
    num = numeric_grad(lambda: float(np.dot(dnll, mdn_nll(y, t, v, M))), y, eps=1e-5, order=2)
    assert np.abs(d - num).max() < 1e-6 * max(1.0, np.abs(num).max())
    assert not np.any(d[2])


def test_softmax_xent_by_definition_with_rows_not_scored():
    """B = 5 rows over blocks of 4 threads, C = 3: row 1 masked (label = its argmax), row 3 labelled -1. Scored
    rows: d = scale (softmax - onehot), loss -log p(label), correct where argmax = label; rows not scored: all 0."""
    rng = np.random.default_rng(6630)
    hw, b = rng.standard_normal((5, 3)) * 2, rng.standard_normal(3)
    z = hw + b
    labels = np.array([0, int(z[1].argmax()), 2, -1, int(z[4].argmax())], np.int64)
    mask = np.array([1.0, 0.0, 1.0, 1.0, 1.0])
    scale = 0.25
    d, rows = arrays_cuda.empty((5, 3), np.float64), arrays_cuda.empty((5, 2), np.float64)
    losses_cuda.softmax_xent(dev(hw), dev(b), dev(labels), dev(mask), scale, d, rows)
    d, rows = host(d), host(rows)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    on = (mask != 0) & (labels >= 0)
    assert on.tolist() == [True, False, True, False, True]
    safe = np.where(on, labels, 0)
    want_d = np.where(on[:, None], scale * (p - np.eye(3)[safe]), 0.0)
    assert np.abs(d - want_d).max() < 1e-15
    want_loss = np.where(on, -np.log(p[np.arange(5), safe]), 0.0)
    assert np.abs(rows[:, 0] - want_loss).max() < 1e-13
    assert rows[:, 1].tolist() == [float(on[r] and z[r].argmax() == labels[r]) for r in range(5)]
    assert rows[1, 1] == 0.0 and rows[4, 1] == 1.0


def test_squared_error_by_definition_with_a_row_not_scored():
    """B = 5 rows, O = 2: d = 2 scale (hw + b - target) mask, loss the row's sum of squared errors."""
    rng = np.random.default_rng(6640)
    hw, b, target = rng.standard_normal((5, 2)), rng.standard_normal(2), rng.standard_normal((5, 2))
    mask = np.array([1.0, 1.0, 0.0, 1.0, 1.0])
    scale, tol = 0.3, 10.0
    d, rows = arrays_cuda.empty((5, 2), np.float64), arrays_cuda.empty((5, 2), np.float64)
    losses_cuda.squared_error(dev(hw), dev(b), dev(target), dev(mask), scale, tol, d, rows)
    err = (hw + b - target) * mask[:, None]
    assert np.abs(host(d) - 2 * scale * err).max() < 1e-15
    assert np.abs(host(rows)[:, 0] - (err ** 2).sum(axis=1)).max() < 1e-15
