"""The attention window's CPU kernel (lnrnn/kernels/window.py), eighteenth pass (round 333 of the planted bugs,
tests/mutants/mutants_values333.py), float64 unless said: phi, kappa and the window vector w written out here
from Graves (2013) eq. 46-51 (p_t = h_t Wp + bp, alpha, beta and kappa's increment the exps of its three blocks,
phi(t,u) = sum_k alpha_k exp(-beta_k (kappa_k - u)^2) at the 1-based u <= ulen[b], 0 past it, w_t[c] the sum
of phi over the positions holding code c) for K 1 and 3 and U 1, 4 and 7 with text lengths 0, 1 and U in one
batch, and h_t against lnrnn.reference (the NumPy spec); a sequence in two calls (h, c, kappa and w carried)
equal to one call; the float32 exp of the window's passes at its floor (-87 kept, the next float below it 0)
and within 4e-7 of exp; every parameter's and initial state's gradient (NORM_NONE and LayerNorm, K = 3,
rows of their own lengths) against central differences of sum(dy y + dw w) over the active (step, row) pairs."""
import numba
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from gradcheck_util import numeric_grad
from test_values146_window import NAMES, backward_and_loss, forward, window_params

T, B, I, H, C = 3, 3, 2, 3, 4
FULL = np.full(B, T, np.int64)


def problem(U, K, seed):
    """x (T,B,I), (h0, c0, kappa0, w0), text (codes, ulen = 0, 1, U; codes past ulen are 77, never read) and
    float64 parameters."""
    rng = np.random.default_rng(seed)
    chars = np.full((B, U), 77, np.int64)
    chars[1, 0] = 2
    chars[2] = rng.integers(0, C, U)
    if U >= 4:
        chars[2, 1:4] = [3, 1, 3]                    # code 3 twice: its column of w sums two positions
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.5, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    return x, state, (chars, np.array([0, 1, U], np.int64)), window_params(rng, I, H, C, K)


def by_hand(y, kappa0, text, p):
    """Eq. 46-51 one (row, step, position) at a time from h_t = y -> phi (T,B,U), w (T,B,C), kappa (T,B,K)."""
    chars, ulen = text
    K = p["Wp"].shape[1] // 3
    phi, w, kap = np.zeros((T, B, chars.shape[1])), np.zeros((T, B, C)), np.zeros((T, B, K))
    for b in range(B):
        kappa = np.array(kappa0[b], np.float64)
        for t in range(T):
            q = y[t, b] @ p["Wp"] + p["bp"]
            alpha, beta = np.exp(q[:K]), np.exp(q[K:2 * K])
            kappa = kappa + np.exp(q[2 * K:])
            kap[t, b] = kappa
            for u in range(1, ulen[b] + 1):
                v = 0.0
                for k in range(K):
                    v += alpha[k] * np.exp(-beta[k] * (kappa[k] - u) ** 2)
                phi[t, b, u - 1] = v
                w[t, b, chars[b, u - 1]] += v
    return phi, w, kap


def spec(x, state, text, p, norm):
    z = np.zeros((0, 0))
    return ref.window_lstm_forward(x, *state, *text, *(p[n] for n in NAMES), z, z, z, z, z, z, norm)


@pytest.mark.parametrize("U", [1, 4, 7])
@pytest.mark.parametrize("K", [1, 3])
def test_phi_kappa_and_w_written_out_for_text_lengths_0_1_and_u(K, U):
    x, state, text, p = problem(U, K, 40 + 3 * K + U)
    y, w, hT, cT, kT, wT, phi, _ = forward(x, state, text, p, NORM_NONE, lengths=FULL)
    want_y = spec(x, state, text, p, "none")[0]
    np.testing.assert_allclose(y, want_y, rtol=1e-12, atol=1e-13)
    want_phi, want_w, want_k = by_hand(y, state[2], text, p)
    np.testing.assert_allclose(phi, want_phi, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(w, want_w, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(wT, want_w[-1], rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(kT, want_k[-1], rtol=1e-12)
    assert np.all(w[:, 0] == 0.0) and np.all(phi[:, 0] == 0.0)        # ulen 0: no window at all
    assert np.all(w[:, 1, [0, 1, 3]] == 0.0)                           # ulen 1: only code 2's column
    np.testing.assert_allclose(w[:, 1, 2], phi[:, 1, 0], rtol=1e-15)


def test_two_calls_carrying_h_c_kappa_and_w_equal_one_call():
    x, state, text, p = problem(7, 3, 61)
    x5 = np.concatenate([x, np.random.default_rng(62).standard_normal((2, B, I))])
    whole = forward(x5, state, text, p, NORM_LN, keep=False, lengths=np.full(B, 5, np.int64))
    first = forward(x5[:2], state, text, p, NORM_LN, keep=False, lengths=np.full(B, 2, np.int64))
    second = forward(x5[2:], list(first[2:6]), text, p, NORM_LN, keep=False, lengths=FULL)
    np.testing.assert_allclose(np.concatenate([first[0], second[0]]), whole[0], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.concatenate([first[1], second[1]]), whole[1], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(np.concatenate([first[6], second[6]]), whole[6], rtol=1e-12, atol=1e-14)
    for g, e in zip(second[2:6], whole[2:6]):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-14)


@numba.njit
def _exps(z, out):
    for j in range(z.shape[0]):
        out[j] = window._exp(z[j])


def test_float32_exp_keeps_minus_87_drops_below_and_stays_within_4e_7():
    floor = np.float32(-87.0)
    below = np.nextafter(floor, np.float32(-np.inf))
    z = np.concatenate([[floor, below, np.float32(-100.0)],
                        np.linspace(-86.9, 0.0, 4001).astype(np.float32)]).astype(np.float32)
    got = np.empty_like(z)
    _exps(z, got)
    want = np.exp(z.astype(np.float64))                                # exp(-87) = 1.6458e-38, a normal float32
    assert abs(got[0] - want[0]) / want[0] < 4e-7
    assert got[1] == 0.0 and got[2] == 0.0
    assert np.max(np.abs(got[3:] - want[3:]) / want[3:]) < 4e-7


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_every_gradient_against_central_differences(norm):
    x, state, text, p = problem(4, 3, 70 + norm)
    lengths = np.array([3, 1, 2], np.int64)
    _, _, got, loss = backward_and_loss(x, state, text, p, norm, 71, lengths=lengths)
    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x] + state):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-8,
                                   err_msg=name)
    for name, g in zip(NAMES, got[5:]):
        if norm == NORM_NONE and name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            assert g.shape == p[name].shape and not g.any(), name
            continue
        np.testing.assert_allclose(g, numeric_grad(loss, p[name], eps=1e-6, order=2), rtol=1e-6, atol=1e-8,
                                   err_msg=name)
