"""The window op's CUDA twin (lnrnn/kernels/window_cuda.py) under Numba's simulator, on shapes no block size
divides: one step of the window's own kernels (the BN path's) over texts of 1, 0 and 4 characters, forward
against the definition (phi(u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for u = 1..ulen, 0 past it and on the
empty text; w = sum_u phi(u) onehot(chars[u])) into outputs that held NaN, and backward against central differences
of sum(dw w) + sum(dkappa kappa) at a step where row 0 runs, row 1 is at its first padded step and row 2 is past
it (dy and dw read for row 0 only); the stack's column joins and splits against NumPy's concatenate and slices;
the norm check taking the three norms and refusing a fourth.

B = 3, H = 5, K = 2, C = 3, U = 4 on blocks of 4 threads (3K, H and U wider than a block, K and C narrower).
float64: to 1e-12, central differences to 1e-7."""
import numpy as np
import pytest

pytest.importorskip("numba_cuda", reason="numba-cuda is not installed (pip install 'lnrnn[cuda]')")

from lnrnn import backend, config  # noqa: E402

_ok, _why = backend.cuda_usable()
if not _ok:
    pytest.skip(f"CUDA kernels cannot run here: {_why}", allow_module_level=True)

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from gradcheck_util import numeric_grad  # noqa: E402
from test_cuda_kernels import simulator_race_free  # noqa: E402

B, H, K, C, U = 3, 5, 2, 3, 4
TPB = 4
ULEN = np.array([1, 0, 4], np.int64)
S = 2
LENGTHS = np.array([3, 2, 1], np.int64)  # at step 2: row 0 runs, row 1's first padded step, row 2 past it
TOL, TOL_GRAD = 1e-12, 1e-7


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", TPB)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


def step_problem():
    rng = np.random.default_rng(103)
    bp = np.concatenate([0.3 * rng.standard_normal(K) + 0.3, 0.2 * rng.standard_normal(K) - 0.6,
                         0.2 * rng.standard_normal(K) - 0.2])
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    for b in range(B):
        chars[b, ULEN[b]:] = C + 5  # past the text: never read
    return dict(h=rng.standard_normal((B, H)), Wp=0.4 * rng.standard_normal((H, 3 * K)), bp=bp,
                kappa_prev=rng.uniform(0.0, 3.0, (B, K)), chars=chars, dy=rng.standard_normal((B, H)),
                dw=rng.standard_normal((B, C)), dw_next=rng.standard_normal((B, C)), dkappa=rng.standard_normal((B, K)))


def window_of_p(p, kappa_prev, chars):
    """abk (B,3K), kappa (B,K), phi (B,U), w (B,C) by the definition, loops over the text."""
    abk = np.exp(p)
    kappa = kappa_prev + abk[:, 2 * K:]
    phi, w = np.zeros((B, U)), np.zeros((B, C))
    for b in range(B):
        for u in range(ULEN[b]):
            for k in range(K):
                phi[b, u] += abk[b, k] * np.exp(-abk[b, K + k] * (kappa[b, k] - (u + 1)) ** 2)
            w[b, chars[b, u]] += phi[b, u]
    return abk, kappa, phi, w


def step_forward(a):
    fwd, _ = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    out = tuple(to_device(np.full(s, np.nan)) for s in ((B, 3 * K), (B, K), (B, U), (B, C)))
    fwd[B, TPB](to_device(a["h"]), (to_device(a["Wp"]), to_device(a["bp"]), to_device(a["kappa_prev"]),
                                    to_device(a["chars"]), to_device(ULEN)), out)
    return [to_host(o) for o in out]


def test_window_step_forward_and_backward_at_a_row_first_padded_step():
    a = step_problem()
    got = step_forward(a)
    want = window_of_p(a["h"] @ a["Wp"] + a["bp"], a["kappa_prev"], a["chars"])
    for name, g, e in zip(("abk", "kappa", "phi", "w"), got, want):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    assert np.all(got[2][1] == 0.0) and np.all(got[3][1] == 0.0)  # the empty text
    assert np.all(got[2][0, 1:] == 0.0) and got[2][0, 0] > 0.0  # one character

    on = (S < LENGTHS)[:, None]
    assert on[:, 0].tolist() == [True, False, False]
    dw_all = np.where(on, a["dw"], 0.0) + a["dw_next"]

    def loss(p, kappa_prev):
        _, kap, _, w = window_of_p(p, kappa_prev, a["chars"])
        return float(np.sum(dw_all * w) + np.sum(a["dkappa"] * kap))

    h, kappa_prev = a["h"].copy(), a["kappa_prev"].copy()
    p = h @ a["Wp"] + a["bp"]
    want_dp = numeric_grad(lambda: loss(p, kappa_prev), p, eps=1e-6, order=2)
    want_dh = np.where(on, a["dy"], 0.0) + want_dp @ a["Wp"].T
    want_dkappa = numeric_grad(lambda: loss(p, kappa_prev), kappa_prev, eps=1e-6, order=2)

    _, bwd = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    dkappa = to_device(a["dkappa"].copy())
    dh, dp = to_device(np.full((B, H), np.nan)), to_device(np.full((B, 3 * K), np.nan))
    up = (to_device(a["dy"]), to_device(a["dw"]), to_device(a["dw_next"]))
    win = (dkappa, to_device(got[0]), to_device(got[1]), to_device(a["chars"]), to_device(ULEN),
           to_device(np.ascontiguousarray(a["Wp"].T)))
    bwd[B, TPB](up, to_device(LENGTHS), S, win, dh, dp)
    for name, g, e in (("dp", dp, want_dp), ("dh", dh, want_dh), ("dkappa_prev", dkappa, want_dkappa)):
        np.testing.assert_allclose(to_host(g), e, rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=name)


def test_columns_joined_and_taken_equal_numpy():
    rng = np.random.default_rng(1031)
    parts = [rng.standard_normal((2, B, w)) for w in (2, 0, 3, 1)]
    joined = window_cuda.join_columns(parts)
    np.testing.assert_array_equal(to_host(joined), np.concatenate(parts, axis=2))
    add = rng.standard_normal((2, B, 3))
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 2, 5)), parts[2])
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 2, 5, add)), parts[2] + add)
    np.testing.assert_array_equal(to_host(window_cuda.take_columns(joined, 5, 6)), parts[3])


def test_norm_check_takes_the_three_norms_and_refuses_a_fourth():
    assert [window_cuda._check_norm(n) for n in (NORM_NONE, NORM_LN, NORM_BN)] == [NORM_NONE, NORM_LN, NORM_BN]
    with pytest.raises(ValueError, match="NORM_NONE, NORM_LN or NORM_BN"):
        window_cuda._check_norm(3)
