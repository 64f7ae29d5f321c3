"""The NumPy spec's forwards (lnrnn/reference.py) against per-step loops written here from the papers'
equations, element by element where it is short: the LN-LSTM of Ba et al. 2016 (LN on both projections
and on the cell), the BN-LSTM of Cooijmans et al. 2016 on a padded batch (each step's statistics over its
running rows, running rows updated with momentum and the unbiased variance, rows past Ts untouched,
inference on row min(t, Ts-1)), and Graves's 2013 soft window over two steps (kappa accumulates)."""
import numpy as np

from lnrnn import reference as ref

EPS = 1e-5
MOM = 0.1


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def ln(v, g, b):
    """LayerNorm of one row, the textbook way: biased variance over the row's F entries."""
    mu = sum(v) / len(v)
    var = sum((e - mu) ** 2 for e in v) / len(v)
    return (v - mu) / np.sqrt(var + EPS) * g + b


def test_ln_lstm_forward_is_ba_et_al_step_by_step():
    rng = np.random.default_rng(830)
    T, B, I, H = 3, 2, 3, 2
    G = 4 * H
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    Wx, Wh = rng.standard_normal((I, G)), rng.standard_normal((H, G))
    b = 0.3 * rng.standard_normal(G)
    gx, bx = rng.uniform(0.5, 1.5, G), 0.2 * rng.standard_normal(G)
    gh, bh = rng.uniform(0.5, 1.5, G), 0.2 * rng.standard_normal(G)
    gc, bc = rng.uniform(0.5, 1.5, H), 0.5 * rng.standard_normal(H)
    y, hT, cT, _ = ref.lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, "ln", EPS)
    for r in range(B):  # each row on its own: LayerNorm never mixes rows
        h, c = h0[r].copy(), c0[r].copy()
        for t in range(T):
            a = ln(x[t, r] @ Wx, gx, bx) + ln(h @ Wh, gh, bh) + b
            i, f, g, o = sig(a[:H]), sig(a[H:2 * H]), np.tanh(a[2 * H:3 * H]), sig(a[3 * H:])
            c = f * c + i * g
            h = o * np.tanh(ln(c, gc, bc))
            np.testing.assert_allclose(y[t, r], h, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(hT[r], h, rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(cT[r], c, rtol=1e-12, atol=1e-13)


def bn_step(v, active, rm, rv, t, training):
    """One step of per-step BatchNorm on v (B,F) without gain or bias, by hand; updates rm, rv (Ts,F)."""
    Ts = rm.shape[0]
    if not training:
        r = min(t, Ts - 1)
        return (v - rm[r]) / np.sqrt(rv[r] + EPS)
    va = v[active]
    n = len(va)
    mu = va.sum(0) / n
    var = ((va - mu) ** 2).sum(0) / n
    if t < Ts:
        rm[t] = (1 - MOM) * rm[t] + MOM * mu
        rv[t] = (1 - MOM) * rv[t] + MOM * ((va - mu) ** 2).sum(0) / (n - 1)
    return (v - mu) / np.sqrt(var + EPS)


def test_bn_lstm_forward_is_cooijmans_et_al_on_a_padded_batch():
    rng = np.random.default_rng(831)
    T, B, I, H, Ts = 4, 4, 3, 2, 2
    G = 4 * H
    lengths = np.array([4, 2, 3, 4])  # at least two running rows at every step (an unbiased variance)
    x = rng.standard_normal((T, B, I))
    # the padded rows' inputs are far off: a statistic that counts them moves visibly
    for r in range(B):
        x[lengths[r]:, r] += 5.0
    h0, c0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    Wx, Wh = rng.standard_normal((I, G)), rng.standard_normal((H, G))
    b = 0.3 * rng.standard_normal(G)
    gx, gh = rng.uniform(0.5, 1.5, G), rng.uniform(0.5, 1.5, G)
    gc, bc = rng.uniform(0.5, 1.5, H), 0.5 * rng.standard_normal(H)
    run0 = [rng.standard_normal((Ts, G)), rng.uniform(0.5, 2, (Ts, G)), rng.standard_normal((Ts, G)),
            rng.uniform(0.5, 2, (Ts, G)), rng.standard_normal((Ts, H)), rng.uniform(0.5, 2, (Ts, H))]
    for training in (True, False):
        run = [v.copy() for v in run0]
        mine = [v.copy() for v in run0]
        y, hT, cT, _ = ref.bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, *run, training, MOM, EPS,
                                           lengths=lengths)
        h, c = h0.copy(), c0.copy()
        for t in range(T):
            act = t < lengths
            a = (gh * bn_step(h @ Wh, act, mine[2], mine[3], t, training)
                 + gx * bn_step(x[t] @ Wx, act, mine[0], mine[1], t, training) + b)
            i, f, g, o = sig(a[:, :H]), sig(a[:, H:2 * H]), np.tanh(a[:, 2 * H:3 * H]), sig(a[:, 3 * H:])
            c = f * c + i * g
            h = o * np.tanh(gc * bn_step(c, act, mine[4], mine[5], t, training) + bc)
            np.testing.assert_allclose(y[t], h, rtol=1e-11, atol=1e-12)
        np.testing.assert_allclose(hT, h, rtol=1e-11, atol=1e-12)
        np.testing.assert_allclose(cT, c, rtol=1e-11, atol=1e-12)
        for got, want, old in zip(run, mine, run0):
            np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-13)
            if not training:
                np.testing.assert_array_equal(got, old)  # inference reads the rows, never writes them


def test_batchnorm_statistics_count_the_running_rows_only():
    rng = np.random.default_rng(832)
    T, B, F, Ts = 3, 4, 2, 3
    lengths = np.array([3, 1, 3, 2])
    x = rng.standard_normal((T, B, F))
    x[1:, 1] = 50.0  # row 1 is padding after step 0
    x[2, 3] = -50.0
    g, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = np.zeros((Ts, F)), np.ones((Ts, F))
    y, mean, rstd = ref.batchnorm_forward_train(x, g, bias, rm, rv, MOM, EPS, lengths)
    for t in range(T):
        xa = x[t][t < lengths]
        np.testing.assert_allclose(mean[t], xa.mean(0), rtol=1e-13)
        np.testing.assert_allclose(rstd[t], 1 / np.sqrt(xa.var(0) + EPS), rtol=1e-13)
        np.testing.assert_allclose(y[t], (x[t] - xa.mean(0)) / np.sqrt(xa.var(0) + EPS) * g + bias, rtol=1e-12)
        np.testing.assert_allclose(rm[t], MOM * xa.mean(0), rtol=1e-13)
        np.testing.assert_allclose(rv[t], (1 - MOM) + MOM * xa.var(0, ddof=1), rtol=1e-13)


def test_window_over_two_steps_is_graves_written_out():
    """Graves 2013 eqs. 46-51: kappa_t = kappa_{t-1} + exp(k_hat_t), phi(t, u) = sum_k alpha exp(-beta
    (kappa - u)^2) for u = 1..ulen, w_t = sum_u phi(t, u) c_u; two steps, the second from the first's kappa."""
    rng = np.random.default_rng(833)
    B, H, K, C, U = 3, 2, 2, 4, 4
    chars = rng.integers(0, C, (B, U))
    ulen = np.array([4, 2, 0])
    Wp, bp = 0.4 * rng.standard_normal((H, 3 * K)), 0.2 * rng.standard_normal(3 * K)
    kappa = rng.uniform(0.0, 1.0, (B, K))
    for _ in range(2):
        h = rng.standard_normal((B, H))
        w, phi, kappa_new, _ = ref.window_forward(h, Wp, bp, kappa, chars, ulen, C)
        for r in range(B):
            p = h[r] @ Wp + bp
            alpha, beta, kap = np.exp(p[:K]), np.exp(p[K:2 * K]), kappa[r] + np.exp(p[2 * K:])
            np.testing.assert_allclose(kappa_new[r], kap, rtol=1e-13)
            want_w = np.zeros(C)
            for u in range(1, U + 1):
                ph = sum(alpha[k] * np.exp(-beta[k] * (kap[k] - u) ** 2) for k in range(K)) if u <= ulen[r] else 0.0
                np.testing.assert_allclose(phi[r, u - 1], ph, rtol=1e-12, atol=1e-300)
                if u <= ulen[r]:
                    want_w[chars[r, u - 1]] += ph
            np.testing.assert_allclose(w[r], want_w, rtol=1e-12, atol=1e-300)
        kappa = kappa_new
