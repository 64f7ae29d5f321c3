"""The attention window's CPU kernel (lnrnn/kernels/window.py), sixteenth pass, float64: phi, kappa and w of every
step against Graves (2013) eq. 46-51 written out here from the h_t the kernel returns (p_t = h_t Wp + bp,
alpha, beta and kappa's increment its three blocks' exps, kappa_t = kappa_{t-1} + exp(k_hat), phi(t,u) =
sum_k alpha_k exp(-beta_k (kappa_k - u)^2) at the 1-based u <= ulen[b] and 0 past it, w_t[c] the sum of phi
over the positions holding code c) at U 1, 4 and 7 with text lengths 0, 1 and U in one batch of three rows (two
row chunks), with and without keep; the backward (NORM_NONE and LayerNorm) against central differences of
sum(dy y + dw w) over the active (step, row) pairs, from a state carried over from a first call of two steps;
the code check's refusal word for word."""
import numpy as np
import pytest

from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_sequences
from gradcheck_util import numeric_grad
from test_values146_window import backward_and_loss, forward, window_params

T, B, I, H, C, K = 4, 3, 2, 3, 4, 2
LENGTHS = np.array([4, 2, 3], np.int64)
NAMES_GRAD = ("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")


def problem(U, seed):
    """x (T,B,I), the initial state (h0, c0, kappa0, w0), text (chars, ulen = 0, 1, U) and parameters; codes past
    each row's ulen are 99 (never read)."""
    rng = np.random.default_rng(seed)
    chars = np.full((B, U), 99, np.int64)
    chars[1, 0] = 3
    chars[2] = rng.integers(0, C, U)
    if U > 2:
        chars[2, :3] = [2, 0, 2]                     # a code met twice
    ulen = np.array([0, 1, U], np.int64)
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 3.0, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    return x, state, (chars, ulen), window_params(rng, I, H, C, K)


def graves(y, kappa0, text, p):
    """Eq. 46-51 from the layer's h_t (T,B,H) -> phi (T,B,U), w (T,B,C), kappa (T,B,K)."""
    chars, ulen = text
    U = chars.shape[1]
    phi, w, kap = np.zeros((T, B, U)), np.zeros((T, B, C)), np.zeros((T, B, K))
    for b in range(B):
        kappa = kappa0[b].copy()
        for t in range(T):
            ph = y[t, b] @ p["Wp"] + p["bp"]
            alpha, beta, step = np.exp(ph[:K]), np.exp(ph[K:2 * K]), np.exp(ph[2 * K:])
            kappa = kappa + step
            kap[t, b] = kappa
            for u in range(1, ulen[b] + 1):
                v = sum(alpha[k] * np.exp(-beta[k] * (kappa[k] - u) ** 2) for k in range(K))
                phi[t, b, u - 1] = v
                w[t, b, chars[b, u - 1]] += v
    return phi, w, kap


@pytest.mark.parametrize("keep", [True, False])
@pytest.mark.parametrize("U", [1, 4, 7])
def test_phi_kappa_and_w_by_graves_formulas(U, keep):
    x, state, text, p = problem(U, 300 + U)
    y, w, hT, cT, kT, wT, phi, saved = forward(x, state, text, p, NORM_NONE, keep=keep,
                                               lengths=np.full(B, T, np.int64))
    want_phi, want_w, want_k = graves(y, state[2], text, p)
    assert phi.shape == (T, B, U)
    np.testing.assert_allclose(phi, want_phi, rtol=1e-12, atol=1e-14)
    assert not phi[:, 0].any()                                         # ulen 0: no character
    assert not phi[:, 1, 1:].any()                                     # ulen 1: only u = 1
    np.testing.assert_allclose(w, want_w, rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(wT, want_w[T - 1], rtol=1e-12, atol=1e-14)
    np.testing.assert_allclose(kT, want_k[T - 1], rtol=1e-12)
    if keep:
        np.testing.assert_allclose(window_sequences(saved)[1], want_k, rtol=1e-12)


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN])
def test_backward_from_a_carried_state_against_central_differences(norm):
    x, state, text, p = problem(4, 31 + norm)
    first = forward(x[:2], state, text, p, norm, keep=False, lengths=np.full(B, 2, np.int64))
    carried = [first[2], first[3], first[4], first[5]]               # h, c, kappa, w after two steps
    x2 = np.random.default_rng(32).standard_normal((T, B, I))
    _, _, got, loss = backward_and_loss(x2, carried, text, p, norm, 33, lengths=LENGTHS)
    for name, g, v in zip(("dx", "dh0", "dc0", "dkappa0", "dw0"), got[:5], [x2] + carried):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-7, err_msg=name)
    for name, g in zip(NAMES_GRAD, got[5:]):
        if norm == NORM_NONE and name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            assert not g.any(), name
            continue
        np.testing.assert_allclose(g, numeric_grad(loss, p[name], eps=1e-6, order=2), rtol=1e-6, atol=1e-7,
                                   err_msg=name)


def test_code_past_c_refused_naming_c():
    x, state, (chars, ulen), p = problem(4, 5)
    chars[2] = [1, 6, 3, 0]
    with pytest.raises(ValueError) as e:
        forward(x, state, (chars, ulen), p, NORM_NONE, lengths=LENGTHS)
    assert str(e.value) == "character codes must lie in [0, C) = [0, 4), got 0..6"
