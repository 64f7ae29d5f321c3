"""lnrnn/model/window.py's stop-rule weight over several sampling steps, in float64: after step t,
``step_end`` (B,) is phi(t, ulen[b] + 1) = sum_k alpha_k exp(-beta_k (kappa_k - ulen[b] - 1)^2) and
``step_phi`` (B,U) is phi(t, u) for u = 1..ulen[b] (0 past it), both recomputed here from one whole-sequence
inference forward over the same inputs: p = h1 Wp + bp with the window's bias, alpha = exp(a_hat), kappa the
running sum of exp(k_hat) from a nonzero kappa0 (step 0 alone cannot tell the sum from its last term), through
reference.window_phi_at. The window's bias, alpha and beta are pulled away from 0 and 1 so that leaving any of
them out shows."""
import numpy as np

from lnrnn import reference as R
from lnrnn.model.models import build_model

I, H, C, K = 3, 4, 5, 2


def _model():
    m = build_model(dict(cell="lstm", norm="ln", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, window=K, alphabet_size=C,
                         head={"kind": "mdn", "components": 2, "per_step": True}), seed=7, max_steps=1)
    L1 = m.stack.layers[0]
    rng = np.random.default_rng(3)
    L1.params["Wp"][...] = rng.normal(0.0, 0.4, L1.params["Wp"].shape)
    # a_hat near log 2 and log 0.5, b_hat near log 0.7, k_hat near log 0.6: kappa walks the text in a few steps
    L1.params["bp"][...] = [np.log(2.0), np.log(0.5), np.log(0.7), np.log(0.4), np.log(0.6), np.log(0.5)]
    return m


def _by_hand(m, y, kappa0, ulen):
    """phi (T,B,U+2) at the 1-based u = 1..U+1 (column u-1) from h1 = y[..., :H] of a whole forward."""
    L1 = m.stack.layers[0]
    p = y[:, :, :H] @ L1.params["Wp"] + L1.params["bp"]                       # (T,B,3K)
    alpha, beta = np.exp(p[..., :K]), np.exp(p[..., K:2 * K])
    kappa = kappa0[None] + np.cumsum(np.exp(p[..., 2 * K:]), axis=0)           # (T,B,K) the running sum
    U = int(ulen.max())
    return np.stack([R.window_phi_at(kappa, alpha, beta, float(u)) for u in range(1, U + 2)], axis=-1)


def test_step_end_and_step_phi_over_five_steps_equal_the_window_by_hand():
    m = _model()
    s = m.stack
    rng = np.random.default_rng(5)
    T, B = 5, 3
    ulen = np.array([4, 1, 2], np.int64)
    codes = rng.integers(1, C, (B, int(ulen.max())))
    text = (codes, ulen)
    x = rng.normal(size=(T, B, I))
    kappa0 = rng.uniform(0.2, 0.9, (B, K))                                        # not zero: the sum shows
    h0 = [(rng.normal(0, 0.3, (B, H)), rng.normal(0, 0.3, (B, H))) for _ in range(2)]
    state0 = [h0[0] + (kappa0, np.zeros((B, C))), h0[1]]
    y, _ = s.forward(x, state0, training=False, keep=False, text=text)
    want = _by_hand(m, y, kappa0, ulen)                                         # (T,B,U+1)
    state = state0
    for t in range(T):
        _, state = s.step(x[t], state, t=t, text=text)
        end = np.asarray(s.step_end, np.float64)
        phi = np.asarray(s.step_phi, np.float64)
        np.testing.assert_allclose(end, [want[t, b, ulen[b]] for b in range(B)], rtol=1e-10, atol=1e-300)
        for b in range(B):
            np.testing.assert_allclose(phi[b, :ulen[b]], want[t, b, :ulen[b]], rtol=1e-10, atol=1e-300)
            assert np.all(phi[b, ulen[b]:] == 0.0)
    # the quantities moved enough for every term to matter
    assert np.ptp(want[:, :, -1]) > 0.05


def test_step_end_decides_the_rule_where_the_window_passes_the_text():
    """kappa from Wp = 0: a fixed increment 0.45 a step from kappa0 = 0, alpha 3, beta 2 (one Gaussian
    counted twice, K = 2 identical components): kappa_t = 0.45 (t + 1), and phi(t, U+1) > phi(t, U) exactly when
    kappa_t > U + 0.5, at t = 3 for U = 1 and t = 7 for U = 3; step_end = 2 * 3 exp(-2 (kappa_t - U - 1)^2)."""
    m = _model()
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = 0.0
    L1.params["bp"][...] = [np.log(3.0)] * K + [np.log(2.0)] * K + [np.log(0.45)] * K
    s = m.stack
    ulen = np.array([1, 3], np.int64)
    text = (np.array([[2, 0, 0], [1, 3, 2]]), ulen)
    state = None
    x = np.zeros((2, I))
    first = [None, None]
    for t in range(10):
        _, state = s.step(x, state, t=t, text=text)
        kappa = 0.45 * (t + 1)
        np.testing.assert_allclose(s.step_end, 2 * 3 * np.exp(-2 * (kappa - ulen - 1.0) ** 2), rtol=1e-12)
        for b in range(2):
            past = all(s.step_end[b] > s.step_phi[b, u] for u in range(ulen[b]))
            if past and first[b] is None:
                first[b] = t
    assert first == [3, 7]
