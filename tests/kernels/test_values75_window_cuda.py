"""The window's CUDA twin (lnrnn/kernels/window_cuda.py) one step at a time, its kernels launched here, against
the window's definition written out in NumPy: p = h Wp + bp, [alpha | beta | exp(k_hat)] = exp(p), kappa_t =
kappa_{t-1} + exp(k_hat), phi(u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for u = 1..ulen (0 past it), w =
sum_u phi(u) onehot(chars[u]); its backward against central differences of sum(dw_all w) + sum(dkappa kappa_t)
with respect to h, p and kappa_{t-1} (dw_all = dw + dw_next on a running row, dw_next alone on a padded one,
whose dy is ignored too). Also the text check at the boundary (codes of [0, C) over each row's own text, any
padding past it) and take_columns / join_columns against NumPy slicing and concatenation.

B = 3 rows (no text, a full-width one, one of 3 characters with codes past it), H = 5, K = 2, C = 6, U = 5,
blocks of 4 threads (3K, C, H and U all wider than a block). Under Numba's CUDA simulator. float64: forward to
1e-12, gradients to 1e-7 (central differences)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device  # noqa: E402
from gradcheck_util import numeric_grad  # noqa: E402

B, H, K, C, U = 3, 5, 2, 6, 5
TPB = 4
ULEN = np.array([0, 5, 3], np.int64)
LENGTHS, S = np.array([3, 1, 4], np.int64), 2  # at step 2 rows 0 and 2 run, row 1 is padded
TOL, TOL_GRAD = 1e-12, 1e-7


def problem():
    rng = np.random.default_rng(75)
    bp = np.concatenate([0.2 * rng.standard_normal(K), -0.7 + 0.2 * rng.standard_normal(K),
                         -0.2 + 0.2 * rng.standard_normal(K)])
    return dict(h=rng.standard_normal((B, H)), Wp=0.4 * rng.standard_normal((H, 3 * K)), bp=bp,
                kappa_prev=rng.uniform(0.5, 2.5, (B, K)), chars=rng.integers(0, C, (B, U)).astype(np.int64),
                dy=rng.standard_normal((B, H)), dw=rng.standard_normal((B, C)), dw_next=rng.standard_normal((B, C)),
                dkappa=rng.standard_normal((B, K)))


def window_of_p(p, kappa_prev, chars):
    """abk (B,3K), kappa (B,K), phi (B,U), w (B,C) from p (B,3K), by the definition."""
    abk = np.exp(p)
    alpha, beta, step = abk[:, :K], abk[:, K:2 * K], abk[:, 2 * K:]
    kappa = kappa_prev + step
    phi, w = np.zeros((B, U)), np.zeros((B, C))
    for b in range(B):
        for u in range(ULEN[b]):
            phi[b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2))
            w[b, chars[b, u]] += phi[b, u]
    return abk, kappa, phi, w


def forward(a):
    d = {k: to_device(a[k]) for k in ("h", "Wp", "bp", "kappa_prev", "chars")}
    out = [to_device(np.full(s, np.nan)) for s in ((B, 3 * K), (B, K), (B, U), (B, C))]
    fwd, _ = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    fwd[B, TPB](d["h"], (d["Wp"], d["bp"], d["kappa_prev"], d["chars"], to_device(ULEN)), tuple(out))
    return [o.copy_to_host() for o in out]


def test_forward_equals_the_definition():
    a = problem()
    got = forward(a)
    want = window_of_p(a["h"] @ a["Wp"] + a["bp"], a["kappa_prev"], a["chars"])
    for name, g, w in zip(("abk", "kappa", "phi", "w"), got, want):
        np.testing.assert_allclose(g, w, rtol=TOL, atol=TOL, err_msg=name)


def numeric(f, a):
    return numeric_grad(f, a, eps=1e-6, order=2)


def test_backward_equals_central_differences():
    a = problem()
    abk, kappa, _, _ = forward(a)
    active = (S < LENGTHS)[:, None]
    dw_all = np.where(active, a["dw"] + a["dw_next"], a["dw_next"])

    def loss(p, kappa_prev):
        _, kap, _, w = window_of_p(p, kappa_prev, a["chars"])
        return float(np.sum(dw_all * w) + np.sum(a["dkappa"] * kap))

    p = a["h"] @ a["Wp"] + a["bp"]
    h, kappa_prev = a["h"].copy(), a["kappa_prev"].copy()
    want_dp = numeric(lambda: loss(p, kappa_prev), p)
    want_dh = np.where(active, a["dy"], 0.0) + numeric(lambda: loss(h @ a["Wp"] + a["bp"], kappa_prev), h)
    want_dkappa = numeric(lambda: loss(p, kappa_prev), kappa_prev)

    _, bwd = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    dkappa = to_device(a["dkappa"].copy())
    dh, dp = to_device(np.full((B, H), np.nan)), to_device(np.full((B, 3 * K), np.nan))
    up = (to_device(a["dy"]), to_device(a["dw"]), to_device(a["dw_next"]))
    win = (dkappa, to_device(abk), to_device(kappa), to_device(a["chars"]), to_device(ULEN),
           to_device(np.ascontiguousarray(a["Wp"].T)))
    bwd[B, TPB](up, to_device(LENGTHS), S, win, dh, dp)
    for name, g, w in (("dp", dp, want_dp), ("dh", dh, want_dh), ("dkappa", dkappa, want_dkappa)):
        np.testing.assert_allclose(g.copy_to_host(), w, rtol=0, atol=TOL_GRAD, err_msg=name)


def test_text_codes_checked_over_each_rows_own_text():
    chars = np.array([[-1, 9, 9, 9, 9], [0, 1, 2, 3, 5], [5, 0, 4, -1, C]], np.int64)  # padding: any code
    d_chars, d_ulen = window_cuda._text(chars, ULEN, B, C)
    np.testing.assert_array_equal(d_chars.copy_to_host(), chars)
    np.testing.assert_array_equal(d_ulen.copy_to_host(), ULEN)
    for bad in (C, -1):
        wrong = chars.copy()
        wrong[2, 2] = bad  # the last character of row 2's text
        with pytest.raises(ValueError, match="character codes"):
            window_cuda._text(wrong, ULEN, B, C)


def test_take_and_join_columns_equal_numpy():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((2, 3, 7))
    add = rng.standard_normal((2, 3, 3))
    np.testing.assert_array_equal(window_cuda.take_columns(a, 2, 5).copy_to_host(), a[:, :, 2:5])
    np.testing.assert_allclose(window_cuda.take_columns(a, 2, 5, add).copy_to_host(), a[:, :, 2:5] + add,
                               rtol=TOL, atol=0)
    parts = [a[:, :, :2].copy(), np.zeros((2, 3, 0)), a[:, :, 2:].copy()]  # one of no width
    np.testing.assert_array_equal(window_cuda.join_columns(parts).copy_to_host(), a)
