"""The NumPy spec (lnrnn/reference.py) on the branches no compiled kernel takes, against computations written
here: a plain LSTM from a given (h0, c0) step by step (Hochreiter and Schmidhuber's cell, gate order i f g o);
the LN-LSTM's weight gradients by central differences in float64; the gate clip's off values (0 and inf) and
an element-wise clip; per-step BatchNorm (Cooijmans et al. 2016) over a padded batch whose statistics are the
active rows' alone, running rows for the first Ts steps only (more steps than the table), and inference's
backward by central differences; Graves's 2013 mixture density (eqs. 23-26) and soft window (eqs. 46-51)
term by term; the spec's CTC loss and gradient against the sum over every alignment (repeats, an empty label,
as many steps as the label needs)."""
import itertools

import numpy as np

from lnrnn import reference as ref
from gradcheck_util import numeric_grad

EPS = 1e-5


def sig(z):
    return 1.0 / (1.0 + np.exp(-z))


def central(f, a, h=1e-6):
    """Central differences (order 2, step h) of the scalar f() in every entry of a (changed in place, restored)."""
    return numeric_grad(f, a, eps=h, order=2)


def lstm_params(rng, I, H):
    G = 4 * H
    return dict(Wx=rng.standard_normal((I, G)), Wh=rng.standard_normal((H, G)), b=0.3 * rng.standard_normal(G),
                gx=rng.uniform(0.5, 1.5, G), bx=0.2 * rng.standard_normal(G), gh=rng.uniform(0.5, 1.5, G),
                bh=0.2 * rng.standard_normal(G), gc=rng.uniform(0.5, 1.5, H), bc=0.3 * rng.standard_normal(H))


def run_lstm(x, h0, c0, P, norm):
    return ref.lstm_forward(x, h0, c0, P["Wx"], P["Wh"], P["b"], P["gx"], P["bx"], P["gh"], P["bh"], P["gc"],
                            P["bc"], norm, EPS)


def test_plain_lstm_from_a_given_cell_state_is_the_textbook_cell():
    """norm 'none' from h0 and c0 unlike each other: i, f, o sigmoids, g tanh, c = f c + i g, h = o tanh c."""
    rng = np.random.default_rng(1051)
    T, B, I, H = 3, 2, 3, 2
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((B, H)), 2.0 * rng.standard_normal((B, H))
    P = lstm_params(rng, I, H)
    y, hT, cT, _ = run_lstm(x, h0, c0, P, "none")
    for r in range(B):
        h, c = h0[r].copy(), c0[r].copy()
        for t in range(T):
            a = x[t, r] @ P["Wx"] + h @ P["Wh"] + P["b"]
            i, f, g, o = sig(a[:H]), sig(a[H:2 * H]), np.tanh(a[2 * H:3 * H]), sig(a[3 * H:])
            c = f * c + i * g
            h = o * np.tanh(c)
            np.testing.assert_allclose(y[t, r], h, rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(hT[r], h, rtol=1e-12)
        np.testing.assert_allclose(cT[r], c, rtol=1e-12)


def test_ln_lstm_weight_gradients_are_central_differences():
    """L = sum(w y) of the LN-LSTM; every returned gradient of Wx, Wh, the gains and biases, x, h0 and c0
    against central differences (default clip: off)."""
    rng = np.random.default_rng(1052)
    T, B, I, H = 3, 2, 3, 2
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    P = lstm_params(rng, I, H)
    w = rng.standard_normal((T, B, H))

    def loss():
        return (w * run_lstm(x, h0, c0, P, "ln")[0]).sum()

    _, _, _, cache = run_lstm(x, h0, c0, P, "ln")
    out = ref.lstm_backward(w, cache, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"], "ln")
    dx, dh0, dc0, dWx, dWh, db, dgx, dbx, dgh, dbh, dgc, dbc = out
    for name, got in (("Wh", dWh), ("Wx", dWx), ("b", db), ("gx", dgx), ("bx", dbx), ("gh", dgh), ("bh", dbh),
                      ("gc", dgc), ("bc", dbc)):
        np.testing.assert_allclose(got, central(loss, P[name]), rtol=1e-6, atol=1e-8, err_msg=name)
    np.testing.assert_allclose(dx, central(loss, x), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dh0, central(loss, h0), rtol=1e-6, atol=1e-8)
    np.testing.assert_allclose(dc0, central(loss, c0), rtol=1e-6, atol=1e-8)


def test_gate_clip_off_at_zero_and_inf_and_elementwise_otherwise():
    da = np.array([[-3.0, -0.2, 0.0, 0.4, 2.5]])
    np.testing.assert_array_equal(ref.clip_gate_grads(da, 0.0), da)
    np.testing.assert_array_equal(ref.clip_gate_grads(da, np.inf), da)
    np.testing.assert_array_equal(ref.clip_gate_grads(da, 0.5), [[-0.5, -0.2, 0.0, 0.4, 0.5]])


def test_batchnorm_padded_batch_statistics_are_the_active_rows_and_running_rows_stop_at_ts():
    """T 4 steps, a running table of Ts 2 rows, lengths (4, 2, 1): step t's mean and biased variance over
    the rows with t < length; running rows 0 and 1 move by momentum toward the mean and the unbiased
    variance (n/(n-1), n = 1 leaves the variance's factor 1); steps 2 and 3 write nothing."""
    rng = np.random.default_rng(1053)
    T, B, F, Ts, mom = 4, 3, 3, 2, 0.25
    x = 3.0 * rng.standard_normal((T, B, F)) + 1.0
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm0, rv0 = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    rm, rv = rm0.copy(), rv0.copy()
    lengths = np.array([4, 2, 1])
    y, mean, rstd = ref.batchnorm_forward_train(x, gain, bias, rm, rv, mom, EPS, lengths)
    for t in range(T):
        rows = [b for b in range(B) if t < lengths[b]]
        n = len(rows)
        for j in range(F):
            v = [x[t, b, j] for b in rows]
            mu = sum(v) / n
            var = sum((e - mu) ** 2 for e in v) / n
            assert np.isclose(mean[t, j], mu, rtol=1e-12)
            assert np.isclose(rstd[t, j], 1.0 / np.sqrt(var + EPS), rtol=1e-10)
            for b in range(B):                     # padded rows too: normalized with the active rows' stats
                assert np.isclose(y[t, b, j], (x[t, b, j] - mu) / np.sqrt(var + EPS) * gain[j] + bias[j],
                                  rtol=1e-10)
            if t < Ts:
                assert np.isclose(rm[t, j], (1 - mom) * rm0[t, j] + mom * mu, rtol=1e-12)
                unb = var * n / max(n - 1, 1)
                assert np.isclose(rv[t, j], (1 - mom) * rv0[t, j] + mom * unb, rtol=1e-12)


def test_batchnorm_inference_backward_is_central_differences():
    """Population statistics (rows min(t, Ts-1)): y = gain (x - rm) / sqrt(rv + eps) + bias, so
    dL/dx = gain rstd dL/dy; with lengths, padded (row, step)s get 0 and add nothing to dgain, dbias."""
    rng = np.random.default_rng(1054)
    T, B, F, Ts = 3, 3, 2, 2
    x = rng.standard_normal((T, B, F))
    gain, bias = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.2, 3.0, (Ts, F))
    w = rng.standard_normal((T, B, F))
    mean = np.stack([rm[min(t, Ts - 1)] for t in range(T)])
    rstd = np.stack([1.0 / np.sqrt(rv[min(t, Ts - 1)] + EPS) for t in range(T)])

    def loss():
        return (w * ref.batchnorm_forward_infer(x, gain, bias, rm, rv, EPS)).sum()

    dx, dg, db = ref.batchnorm_backward(w, x, mean, rstd, gain, training=False)
    np.testing.assert_allclose(dx, central(loss, x), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(dg, central(loss, gain), rtol=1e-7, atol=1e-9)
    np.testing.assert_allclose(db, central(loss, bias), rtol=1e-7, atol=1e-9)
    lengths = np.array([3, 1, 2])
    on = np.arange(T)[:, None] < lengths[None, :]  # (T,B)
    dxm, dgm, dbm = ref.batchnorm_backward(w, x, mean, rstd, gain, training=False, lengths=lengths)
    wm = np.where(on[:, :, None], w, 0.0)
    np.testing.assert_allclose(dxm, wm * gain * rstd[:, None, :], rtol=1e-12)
    np.testing.assert_allclose(dgm, (wm * (x - mean[:, None]) * rstd[:, None]).sum(axis=(0, 1)), rtol=1e-12)
    np.testing.assert_allclose(dbm, wm.sum(axis=(0, 1)), rtol=1e-12)


def test_mixture_density_nll_is_graves_equations_term_by_term():
    """M 2 components; each point's -log sum_k pi_k N(x1, x2 | mu_k, sigma_k, rho_k) minus log e (pen
    lifted, e = sigmoid of the first output) or log(1 - e) (pen down); invalid points give 0."""
    rng = np.random.default_rng(1055)
    M, N = 2, 4
    yhat = rng.standard_normal((N, 6 * M + 1))
    target = np.column_stack([rng.standard_normal(N), rng.standard_normal(N), [1.0, 0.0, 1.0, 0.0]])
    valid = np.array([1, 1, 1, 0])
    got = ref.mdn_nll(yhat, target, valid, M)
    for n in range(N):
        v = yhat[n]
        e = 1.0 / (1.0 + np.exp(-v[0]))
        pi = np.exp(v[1:1 + M]) / np.exp(v[1:1 + M]).sum()
        total = 0.0
        for k in range(M):
            mu1, mu2 = v[1 + M + k], v[1 + 2 * M + k]
            s1, s2 = np.exp(v[1 + 3 * M + k]), np.exp(v[1 + 4 * M + k])
            rho = (1.0 - 1e-4) * np.tanh(v[1 + 5 * M + k])
            z1, z2 = (target[n, 0] - mu1) / s1, (target[n, 1] - mu2) / s2
            Z = z1 ** 2 + z2 ** 2 - 2 * rho * z1 * z2
            total += pi[k] * np.exp(-Z / (2 * (1 - rho ** 2))) / (2 * np.pi * s1 * s2 * np.sqrt(1 - rho ** 2))
        pen = target[n, 2]
        want = -np.log(total) - (np.log(e) if pen == 1.0 else np.log(1.0 - e))
        assert np.isclose(got[n], want if valid[n] else 0.0, rtol=1e-12), n


def test_soft_window_is_graves_equations_term_by_term():
    """K 2 Gaussians over a text of U 3 characters (row 1 shorter: 2): alpha, beta, kappa increments are
    exp of the three K-wide blocks of h Wp + bp in that order; phi(u) = sum_k alpha_k exp(-beta_k (kappa_k
    - u)^2) for u = 1..ulen; w = sum_u phi(u) one_hot(c_u)."""
    rng = np.random.default_rng(1056)
    B, H, K, U, C = 2, 3, 2, 3, 4
    h = rng.standard_normal((B, H))
    Wp, bp = 0.5 * rng.standard_normal((H, 3 * K)), 0.5 * rng.standard_normal(3 * K)
    kappa_prev = rng.uniform(0.0, 2.0, (B, K))
    chars = np.array([[1, 3, 1], [2, 0, 3]])
    ulen = np.array([3, 2])
    w, phi, kappa, _ = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
    for r in range(B):
        p = h[r] @ Wp + bp
        al, be, ka = np.exp(p[:K]), np.exp(p[K:2 * K]), kappa_prev[r] + np.exp(p[2 * K:])
        np.testing.assert_allclose(kappa[r], ka, rtol=1e-12)
        want_w = np.zeros(C)
        for u in range(1, U + 1):
            if u <= ulen[r]:
                ph = sum(al[k] * np.exp(-be[k] * (ka[k] - u) ** 2) for k in range(K))
                want_w[chars[r, u - 1]] += ph
            else:
                ph = 0.0
            assert np.isclose(phi[r, u - 1], ph, rtol=1e-12, atol=1e-300)
        np.testing.assert_allclose(w[r], want_w, rtol=1e-12)


def paths(logits, label):
    """-log p(label) and its gradient w.r.t. the logits, summed over every one of the C^T alignments."""
    T, C = logits.shape
    y = np.exp(logits - logits.max(axis=1, keepdims=True))
    y /= y.sum(axis=1, keepdims=True)
    p, post = 0.0, np.zeros((T, C))
    for path in itertools.product(range(C), repeat=T):
        read = [k for k, _ in itertools.groupby(path) if k != 0]
        if read == list(label):
            pr = np.prod(y[np.arange(T), path])
            p += pr
            post[np.arange(T), path] += pr
    if p == 0.0:
        return 0.0, np.zeros((T, C))
    return -np.log(p), y - post / p


def test_spec_ctc_equals_the_sum_over_every_alignment():
    """Rows of one batch (T 4, C 3): a repeat at the minimum length 'a _ a' needs (3 steps), a repeat with a
    step to spare, two distinct labels, an empty label (blank only) and a label longer than fits (p = 0);
    loss and dloss * gradient per row."""
    rng = np.random.default_rng(1057)
    T, C = 4, 3
    cases = [([1, 1], 3), ([2, 2], 4), ([1, 2], 4), ([], 2), ([1, 1, 1], 4)]
    B = len(cases)
    x = 1.3 * rng.standard_normal((T, B, C))
    labels = np.ones((B, 3), np.int64)
    for b, (lab, _) in enumerate(cases):
        labels[b, :len(lab)] = lab
    il = np.array([n for _, n in cases])
    ll = np.array([len(lab) for lab, _ in cases])
    dloss = rng.uniform(0.5, 2.0, B)
    loss, cache = ref.ctc_forward(x, labels, il, ll)
    d = ref.ctc_backward(dloss, cache)
    for b, (lab, n) in enumerate(cases):
        want_loss, want_grad = paths(x[:n, b], lab)
        assert np.isclose(loss[b], want_loss, rtol=1e-12, atol=1e-14), (b, lab)
        np.testing.assert_allclose(d[:n, b], dloss[b] * want_grad, rtol=1e-10, atol=1e-12, err_msg=str(lab))
        assert not d[n:, b].any()
