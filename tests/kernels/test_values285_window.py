"""The synthesis window's CPU kernel (lnrnn/kernels/window.py), thirteenth pass, float64, at T 3, B 3, U 5,
K 3 Gaussians and C 4 codes with ragged texts (5, 2 and 0 characters; codes past a text's length are garbage):
kappa, phi and w of every step against Graves's formulas written out here from the kernel's own h_t (p_t = h_t Wp
+ bp, alpha = exp(a_hat), beta = exp(b_hat), kappa_t = kappa_{t-1} + exp(k_hat), phi(t,u) = sum over all K of
alpha exp(-beta (kappa - u)^2) at the 1-based u up to the text's length, w_t[c] the sum of phi over the u whose
code is c), h_t against lnrnn.reference.window_lstm_forward; the gradients of kappa0, w0, Wp and bp against
central differences in float64 (test_values146_window's backward_and_loss) over ragged steps (3, 2, 3)."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.kernels.codes import NORM_LN, NORM_NONE
from lnrnn.kernels.window import window_sequences
from gradcheck_util import numeric_grad
from test_values146_window import backward_and_loss, window_params
from test_values261_window import MOMENTUM, EPS, NAMES, REF_NORM, run, stats

T, B, I, H, C, U, K = 3, 3, 2, 2, 4, 5, 3
ULEN = np.array([5, 2, 0], np.int64)


def problem(seed):
    rng = np.random.default_rng(seed)
    chars = np.array([[3, 0, 3, 1, 2], [2, 2, 9, -4, 7], [5, 8, 1, 1, 1]], np.int64)   # past ulen: never read
    x = rng.standard_normal((T, B, I))
    state = [0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.5, (B, K)),
             0.5 * rng.standard_normal((B, C))]
    p = window_params(rng, I, H, C, K)
    return x, state, (chars, ULEN.copy()), p


def formulas_hold(out, x, state, chars, ulen, p, norm, lengths):
    """The kernel's outputs ``out`` (window_lstm_forward's tuple) against Graves's formulas from its own h_t:
    h_t against the reference, then kappa, phi and w of every step; returns the last step's kappa (B,K)."""
    T, B = x.shape[:2]
    U, K, C = chars.shape[1], state[2].shape[1], state[3].shape[1]
    y, w, phi = out[0], out[1], out[6]
    assert phi.shape == (T, B, U) and w.shape == (T, B, C)
    kappa_saved = window_sequences(out[7])[1]
    want_h = ref.window_lstm_forward(x, *state, chars, ulen, *(p[n] for n in NAMES), *stats(), REF_NORM[norm],
                                     True, MOMENTUM, EPS, lengths)[0]
    np.testing.assert_allclose(y, want_h, rtol=1e-11, atol=1e-12)
    kappa = state[2].copy()
    for t in range(T):
        pt = y[t] @ p["Wp"] + p["bp"]
        alpha, beta = np.exp(pt[:, :K]), np.exp(pt[:, K:2 * K])
        kappa = kappa + np.exp(pt[:, 2 * K:])
        np.testing.assert_allclose(kappa_saved[t], kappa, rtol=1e-13, err_msg=f"kappa at step {t}")
        for b in range(B):
            want_phi = np.zeros(U)
            want_w = np.zeros(C)
            for u in range(ulen[b]):
                want_phi[u] = sum(alpha[b, k] * np.exp(-beta[b, k] * (kappa[b, k] - (u + 1)) ** 2) for k in range(K))
                want_w[chars[b, u]] += want_phi[u]
            np.testing.assert_allclose(phi[t, b], want_phi, rtol=1e-12, atol=1e-300, err_msg=f"phi {t} {b}")
            np.testing.assert_allclose(w[t, b], want_w, rtol=1e-12, atol=1e-300, err_msg=f"w {t} {b}")
    return kappa


@pytest.mark.parametrize("norm", [NORM_NONE, NORM_LN], ids=["none", "ln"])
def test_kappa_phi_and_w_are_the_formulas_written_out(norm):
    x, state, (chars, ulen), p = problem(28510 + norm)
    lengths = np.full(B, T, np.int64)
    out = run(x, state, (chars, ulen), p, norm, lengths=lengths)
    kappa = formulas_hold(out, x, state, chars, ulen, p, norm, lengths)
    np.testing.assert_allclose(out[4], kappa, rtol=1e-13)


def test_window_gradients_against_central_differences_over_ragged_texts():
    x, state, text, p = problem(28520)
    lengths = np.array([3, 2, 3], np.int64)
    _, _, got, loss = backward_and_loss(x, state, text, p, NORM_NONE, 28521, run=run, lengths=lengths)
    for name, g, v in (("dkappa0", got[3], state[2]), ("dw0", got[4], state[3]), ("dh0", got[1], state[0]),
                       ("dWp", got[14], p["Wp"]), ("dbp", got[15], p["bp"])):
        np.testing.assert_allclose(g, numeric_grad(loss, v, eps=1e-6, order=2), rtol=1e-6, atol=1e-8,
                                   err_msg=name)
