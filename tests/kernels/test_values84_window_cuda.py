"""The window op's CUDA twin (lnrnn/kernels/window_cuda.py) under Numba's simulator. One step of the window's
kernels against the window's definition written out in NumPy (p = h Wp + bp, [alpha | beta | exp(k_hat)] =
exp(p), kappa = kappa_prev + exp(k_hat), phi(u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) for u = 1..ulen, 0
past it, w = sum_u phi(u) onehot(chars[u])), into outputs that held NaN; its backward against central differences
of sum((dw + dw_next) w) + sum(dkappa kappa) in p, h and kappa_prev (a padded row: dw_next alone, its dy ignored).
The text check at the boundary: a text that fills its row is taken, one longer is refused. The whole layer
(forward and backward, no norm) against the CPU twin on test_values84_window's problem: initial h, c, kappa and w
carried in, texts of 1, 5 and 3 characters.

One step: B = 3, H = 5, K = 3, C = 4, U = 5 on blocks of 4 threads (3K, H and U wider than a block, C not a
multiple of it). The layer: T = 4, B = 3, I = 2, H = 3, K = 2, C = 4, U = 5, row kernels of 4 threads, tiles of
3. float64: to 1e-12 (the one step, the forward), 1e-7 (central differences), 1e-10 (the layer's gradients)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import window_cuda  # noqa: E402
from lnrnn.kernels.codes import NORM_NONE  # noqa: E402
from lnrnn.kernels.cuda import gemm_cuda  # noqa: E402
from lnrnn.kernels.cuda.arrays_cuda import to_device, to_host  # noqa: E402
from lnrnn.kernels.window import window_lstm_backward  # noqa: E402
from gradcheck_util import numeric_grad  # noqa: E402
from test_cuda_kernels import simulator_race_free  # noqa: E402
import test_values84_window as cpu  # noqa: E402  (the layer's problem and the CPU twin's call)

B, H, K, C, U = 3, 5, 3, 4, 5
TPB = 4
ULEN = np.array([1, 5, 3], np.int64)  # one character, the whole row, three
LENGTHS, S = np.array([4, 2, 3], np.int64), 2  # at step 2 row 1 is padded
TOL, TOL_GRAD, TOL_LAYER = 1e-12, 1e-7, 1e-10


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", TPB)
    monkeypatch.setattr(gemm_cuda, "TILE", 3)
    with simulator_race_free(monkeypatch):
        yield


# One step's problems: this file's (K 3, C 4, U 5; texts of 1, 5 and 3 characters), and one with an empty text and K, C
# narrower than a block (K 2, C 3, U 4; texts of 1, 0 and 4 characters, kappa_prev from 0); both at step S = 2,
# where row 1 is at its first padded step (its dy and dw ignored, dw_next still taken).
STEPS = {"texts-1-5-3": dict(seed=84, K=K, C=C, U=U, ulen=ULEN, lengths=LENGTHS, kappa_low=0.5),
         "texts-1-0-4": dict(seed=103, K=2, C=3, U=4, ulen=np.array([1, 0, 4], np.int64),
                             lengths=np.array([3, 2, 1], np.int64), kappa_low=0.0)}


def step_problem(case="texts-1-5-3"):
    c = STEPS[case]
    K, C, U, ulen = c["K"], c["C"], c["U"], c["ulen"]
    rng = np.random.default_rng(c["seed"])
    bp = np.concatenate([0.3 * rng.standard_normal(K) + 0.3, 0.2 * rng.standard_normal(K) - 0.6,
                         0.2 * rng.standard_normal(K) - 0.2])
    chars = rng.integers(0, C, (B, U)).astype(np.int64)
    for b in range(B):
        chars[b, ulen[b]:] = C + 3  # padding: never read
    return dict(h=rng.standard_normal((B, H)), Wp=0.4 * rng.standard_normal((H, 3 * K)), bp=bp,
                kappa_prev=rng.uniform(c["kappa_low"], 3.0, (B, K)), chars=chars, dy=rng.standard_normal((B, H)),
                dw=rng.standard_normal((B, C)), dw_next=rng.standard_normal((B, C)), dkappa=rng.standard_normal((B, K)),
                ulen=ulen, lengths=c["lengths"], C=C)


def window_of_p(p, kappa_prev, chars, ulen, C):
    """abk (B,3K), kappa (B,K), phi (B,U), w (B,C) by the definition."""
    (B, K), U = kappa_prev.shape, chars.shape[1]
    abk = np.exp(p)
    alpha, beta = abk[:, :K], abk[:, K:2 * K]
    kappa = kappa_prev + abk[:, 2 * K:]
    phi, w = np.zeros((B, U)), np.zeros((B, C))
    for b in range(B):
        for u in range(ulen[b]):
            phi[b, u] = np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - (u + 1)) ** 2))
            w[b, chars[b, u]] += phi[b, u]
    return abk, kappa, phi, w


def step_forward(a):
    fwd, _ = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    K, U, C = a["kappa_prev"].shape[1], a["chars"].shape[1], a["C"]
    out = tuple(to_device(np.full(s, np.nan)) for s in ((B, 3 * K), (B, K), (B, U), (B, C)))
    fwd[B, TPB](to_device(a["h"]), (to_device(a["Wp"]), to_device(a["bp"]), to_device(a["kappa_prev"]),
                                    to_device(a["chars"]), to_device(a["ulen"])), out)
    return [to_host(o) for o in out]


@pytest.mark.parametrize("case", list(STEPS))
def test_one_step_forward_equals_the_definition(case):
    """abk, kappa, phi and w as defined; phi 0 past each text (all of it on an empty text), w 0 on an empty text."""
    a = step_problem(case)
    got = step_forward(a)
    want = window_of_p(a["h"] @ a["Wp"] + a["bp"], a["kappa_prev"], a["chars"], a["ulen"], a["C"])
    for name, g, e in zip(("abk", "kappa", "phi", "w"), got, want):
        np.testing.assert_allclose(g, e, rtol=TOL, atol=TOL, err_msg=name)
    for b, n in enumerate(a["ulen"]):
        assert np.all(got[2][b, n:] == 0.0) and np.all(got[2][b, :n] > 0.0), b
        assert np.all(got[3][b] == 0.0) == (n == 0), b


@pytest.mark.parametrize("case", list(STEPS))
def test_one_step_backward_equals_central_differences(case):
    """dp, dh and dkappa_prev against central differences; at step S a row at or past its end takes no dy or dw."""
    a = step_problem(case)
    abk, kappa, _, _ = step_forward(a)
    active = (S < a["lengths"])[:, None]
    assert not active[1, 0], "row 1 at its first padded step"
    dw_all = np.where(active, a["dw"] + a["dw_next"], a["dw_next"])

    def loss(p, kappa_prev):
        _, kap, _, w = window_of_p(p, kappa_prev, a["chars"], a["ulen"], a["C"])
        return float(np.sum(dw_all * w) + np.sum(a["dkappa"] * kap))

    p = a["h"] @ a["Wp"] + a["bp"]
    h, kappa_prev = a["h"].copy(), a["kappa_prev"].copy()
    want_dp = numeric_grad(lambda: loss(p, kappa_prev), p, eps=1e-6, order=2)
    want_dh = np.where(active, a["dy"], 0.0) + numeric_grad(lambda: loss(h @ a["Wp"] + a["bp"], kappa_prev), h,
                                                            eps=1e-6, order=2)
    want_dkappa = numeric_grad(lambda: loss(p, kappa_prev), kappa_prev, eps=1e-6, order=2)

    _, bwd = window_cuda._window_kernels(np.dtype(np.float64), TPB)
    dkappa = to_device(a["dkappa"].copy())
    dh, dp = to_device(np.full((B, H), np.nan)), to_device(np.full(p.shape, np.nan))
    up = (to_device(a["dy"]), to_device(a["dw"]), to_device(a["dw_next"]))
    win = (dkappa, to_device(abk), to_device(kappa), to_device(a["chars"]), to_device(a["ulen"]),
           to_device(np.ascontiguousarray(a["Wp"].T)))
    bwd[B, TPB](up, to_device(a["lengths"]), S, win, dh, dp)
    for name, g, e in (("dp", dp, want_dp), ("dh", dh, want_dh), ("dkappa_prev", dkappa, want_dkappa)):
        np.testing.assert_allclose(to_host(g), e, rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=name)


def test_text_filling_its_row_is_taken_and_a_longer_one_refused():
    chars = np.array([[0, 9, 9, 9, 9], [0, 1, 2, 3, 3], [3, 2, 1, -4, 8]], np.int64)
    d_chars, d_ulen = window_cuda._text(chars, ULEN, B, C)
    np.testing.assert_array_equal(to_host(d_chars), chars)
    np.testing.assert_array_equal(to_host(d_ulen), ULEN)
    with pytest.raises(ValueError, match="ulen"):
        window_cuda._text(chars, np.array([1, U + 1, 3], np.int64), B, C)


def test_layer_equals_the_cpu_twin():
    a = cpu.problem(5)
    rng = np.random.default_rng(50)
    dy, dw = rng.standard_normal((cpu.T, cpu.B, cpu.H)), rng.standard_normal((cpu.T, cpu.B, cpu.C))
    want = cpu.forward(a)
    none = np.empty((0, 0))
    got = window_cuda.window_lstm_forward(
        a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"], a["ulen"], a["Wx"], a["Wh"], a["b"], a["gx"],
        a["bx"], a["gh"], a["bh"], a["gc"], a["bc"], a["Wp"], a["bp"], *(none,) * 6, NORM_NONE, True, 0.1, 1e-5,
        None, True)
    for name, g, e in zip(("y", "w", "hT", "cT", "kappaT", "wT", "phi"), got[:7], want[:7]):
        np.testing.assert_allclose(to_host(g), e, rtol=TOL, atol=TOL, err_msg=name)
    args = (a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"], a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"],
            a["gc"], a["Wp"], NORM_NONE, 0.0)
    grads_w = window_lstm_backward(dy, dw, want[7], *args)
    grads = window_cuda.window_lstm_backward(dy, dw, got[7], *args)
    for name, g, e in zip(cpu.GRAD_OF, grads, grads_w):
        np.testing.assert_allclose(to_host(g), e, rtol=TOL_LAYER, atol=TOL_LAYER, err_msg=f"d{name}")
