"""The synthesis stack (lnrnn/model/window.py) of two layers, float64, a window of K = 2 components over an
alphabet of C = 4 characters (K != C, so each slot of the state has its own width), texts of 1, 4 and 3
characters: a sequence run in two calls with layer 1's (h, c, kappa, w) and layer 2's (h, c) carried against one
call, kappa's final value against the carried-in one plus the window's steps; the stack's dx, layer 1's and layer
2's weight gradients and the gradients of the carried-in state (h, c, kappa, w of layer 1) against central
differences of sum(dy y), without a norm and with LayerNorm; one inference step's step_phi and step_end against
the window's definition (phi(t, u) for u = 1..U, and at ulen[b] + 1) from layer 1's h_t and kappa_t."""
import numpy as np
import pytest

from lnrnn.model.window import WindowStack
from gradcheck_util import numeric_grad

T, B, I, H, K, C, U = 4, 3, 2, 3, 2, 4, 5
ULEN = np.array([1, 4, 3], np.int64)
TOL, TOL_GRAD = 1e-10, 1e-6


def problem(seed):
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, C, (B, U)).astype(np.int64)
    x = rng.standard_normal((T, B, I))
    state = [(0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)), rng.uniform(0.0, 2.0, (B, K)),
              0.5 * rng.standard_normal((B, C))),
             (0.5 * rng.standard_normal((B, H)), 0.5 * rng.standard_normal((B, H)))]
    return x, (codes, ULEN.copy()), state


def make(norm, seed=3):
    s = WindowStack("lstm", norm, I, H, num_layers=2, alphabet_size=C, window=K, dtype=np.float64, seed=seed)
    rng = np.random.default_rng(seed + 100)
    L1 = s.layers[0]
    L1.params["Wp"][...] = 0.4 * rng.standard_normal((H, 3 * K))  # a window that moves with h
    L1.params["bp"][...] = np.concatenate([0.2 + 0.2 * rng.standard_normal(K), -0.5 + 0.2 * rng.standard_normal(K),
                                           -0.3 + 0.2 * rng.standard_normal(K)])
    if norm == "ln":
        for L in s.layers:
            for n in ("gx", "gh", "gc"):
                L.params[n][...] = 1.0 + 0.2 * rng.standard_normal(L.params[n].shape)
            for n in ("bx", "bh", "bc"):
                L.params[n][...] = 0.2 * rng.standard_normal(L.params[n].shape)
    return s


def test_two_calls_with_the_state_carried_equal_one_call():
    s = make("none")
    x, text, state = problem(1)
    y, states = s.forward(x, state, training=False, text=text)
    ya, sa = s.forward(x[:2], state, training=False, text=text)
    yb, sb = s.forward(x[2:], sa, training=False, text=text)
    np.testing.assert_allclose(np.concatenate([ya, yb]), y, rtol=TOL, atol=TOL)
    for got, want in zip(sb[0] + sb[1], states[0] + states[1]):
        np.testing.assert_allclose(got, want, rtol=TOL, atol=TOL)
    # kappa_T = kappa_0 + sum_t exp(k_hat_t), k_hat_t from layer 1's h_t
    L1 = s.layers[0]
    steps = np.exp(y[:, :, :H] @ L1.params["Wp"][:, 2 * K:] + L1.params["bp"][2 * K:]).sum(axis=0)
    np.testing.assert_allclose(states[0][2], state[0][2] + steps, rtol=TOL, atol=TOL)


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_gradients_equal_central_differences(norm):
    s = make(norm)
    x, text, state = problem(2)
    dy = np.random.default_rng(20).standard_normal((T, B, 2 * H))
    s.zero_grad()
    s.forward(x, state, training=True, text=text)
    dx = s.backward(dy)
    got = {k: v.copy() for k, v in s.grads.items()}
    dstate1 = [np.array(d) for d in s.dstate0[0]]

    def loss():
        y, _ = s.forward(x, state, training=True, text=text, keep=False)
        return float(np.sum(dy * y))

    np.testing.assert_allclose(dx, numeric_grad(loss, x, eps=1e-6, order=2), rtol=TOL_GRAD, atol=TOL_GRAD,
                               err_msg="dx")
    for name, d, v in zip(("dh0", "dc0", "dkappa0", "dw0"), dstate1, state[0]):
        np.testing.assert_allclose(d, numeric_grad(loss, v, eps=1e-6, order=2), rtol=TOL_GRAD, atol=TOL_GRAD,
                                   err_msg=name)
    params = s.params
    for name in sorted(got):
        if name.endswith(("Wx", "Wh", "Wp", "bp", "b", "gx", "gc")):
            np.testing.assert_allclose(got[name], numeric_grad(loss, params[name], eps=1e-6, order=2),
                                       rtol=TOL_GRAD, atol=TOL_GRAD, err_msg=f"d{name}")


def test_step_phi_and_phi_past_the_text_equal_the_definition():
    s = make("none")
    x, text, state = problem(3)
    y_t, states = s.step(x[0], state, t=0, text=text)
    L1 = s.layers[0]
    p = y_t[:, :H] @ L1.params["Wp"] + L1.params["bp"]
    alpha, beta = np.exp(p[:, :K]), np.exp(p[:, K:2 * K])
    kappa = state[0][2] + np.exp(p[:, 2 * K:])
    np.testing.assert_allclose(states[0][2], kappa, rtol=TOL, atol=TOL)
    phi = lambda b, u: np.sum(alpha[b] * np.exp(-beta[b] * (kappa[b] - u) ** 2))  # noqa: E731
    for b in range(B):
        want = [phi(b, u) if u <= ULEN[b] else 0.0 for u in range(1, U + 1)]
        np.testing.assert_allclose(s.step_phi[b], want, rtol=TOL, atol=TOL)
        np.testing.assert_allclose(s.step_end[b], phi(b, ULEN[b] + 1), rtol=TOL, atol=TOL)
