"""The NumPy spec's backwards (lnrnn/reference.py) against central differences of the spec's own forwards in
float64 (gradcheck_util.numeric_grad, order 2, step 1e-6): the LN-LSTM's and RNN's every input and parameter, the
total dL/dh_t that ``record`` collects (against differences of the loss of steps t..T-1 run from h_t), Graves's
derivative clip on a one-step problem (where dL/db is the preactivation gradient itself, so the clipped
backward must give clip(dL/db) and x^T clip(dL/db)), BatchNorm's gain and input on a padded batch, the
training BN-LSTM over several steps, and one step of the soft window."""
import numpy as np
import pytest

from gradcheck_util import TOLERANCE, numeric_grad, rel_error
from lnrnn import reference as ref

EPS = 1e-5
MOM = 0.1


def grad(f, arr):
    return numeric_grad(f, arr, eps=1e-6, order=2)


def lstm_problem(rng, T=3, B=2, I=3, H=2):
    G = 4 * H
    return dict(x=rng.standard_normal((T, B, I)), h0=rng.standard_normal((B, H)), c0=rng.standard_normal((B, H)),
                Wx=0.7 * rng.standard_normal((I, G)), Wh=0.7 * rng.standard_normal((H, G)),
                b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G), bx=0.2 * rng.standard_normal(G),
                gh=rng.uniform(0.5, 1.5, G), bh=0.2 * rng.standard_normal(G), gc=rng.uniform(0.5, 1.5, H),
                bc=0.3 * rng.standard_normal(H))


ORDER = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_lstm_backward_is_the_central_difference_of_its_forward(norm):
    rng = np.random.default_rng(840)
    p = lstm_problem(rng)
    R = rng.standard_normal((3, 2, 2))

    def loss():
        y = ref.lstm_forward(*(p[k] for k in ORDER), norm, EPS)[0]
        return float(np.sum(y * R))

    _, _, _, cache = ref.lstm_forward(*(p[k] for k in ORDER), norm, EPS)
    out = ref.lstm_backward(R, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    names = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
    for name, g in zip(names, out):
        if norm == "none" and name in ("gx", "bx", "gh", "bh", "gc", "bc"):
            assert not np.any(g), name  # no normalization, no gradient
            continue
        assert rel_error(g, grad(loss, p[name])) < TOLERANCE, name


def test_record_holds_the_total_gradient_of_every_h_t():
    """dL/dh_t (direct plus through later steps) equals the derivative, w.r.t. h_t as an initial state, of
    sum(h_t R_t) + the loss of steps t+1..T-1 run from (h_t, c_t)."""
    rng = np.random.default_rng(841)
    T, H = 4, 2
    p = lstm_problem(rng, T=T, H=H)
    R = rng.standard_normal((T, 2, H))
    for norm in ("ln", "none"):
        args = [p[k] for k in ORDER]
        y, _, _, cache = ref.lstm_forward(*args, norm, EPS)
        record = []
        ref.lstm_backward(R, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm, record=record)
        assert len(record) == T
        for t in range(T):
            h_t = y[t].copy()
            c_t = cache[t]["c_new"].copy()

            def tail():
                rest = ref.lstm_forward(p["x"][t + 1:], h_t, c_t, *args[3:], norm, EPS)[0] if t + 1 < T else 0.0
                return float(np.sum(h_t * R[t]) + np.sum(rest * R[t + 1:]))

            assert rel_error(record[T - 1 - t], grad(tail, h_t)) < TOLERANCE, (norm, t)


def test_the_clip_bounds_each_preactivation_gradient_from_both_sides():
    rng = np.random.default_rng(842)
    H, I = 3, 2
    G = 4 * H
    p = lstm_problem(rng, T=1, B=1, I=I, H=H)
    p["Wx"] *= 3.0
    R = 4.0 * rng.standard_normal((1, 1, H))

    def loss():
        return float(np.sum(ref.lstm_forward(*(p[k] for k in ORDER), "none", EPS)[0] * R))

    true_db = grad(loss, p["b"])           # one step, one row: dL/db is dL/d(preactivations)
    clip = 0.5 * np.abs(true_db).max()
    assert (true_db < -clip).any() or (true_db > clip).any()
    if not (true_db < -clip).any():        # make the bound bite on the negative side too
        R, true_db = -R, -true_db
    assert (true_db < -clip).any()
    want = np.clip(true_db, -clip, clip)
    _, _, _, cache = ref.lstm_forward(*(p[k] for k in ORDER), "none", EPS)
    out = ref.lstm_backward(R, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "none", clip=clip)
    np.testing.assert_allclose(out[5], want, rtol=1e-6, atol=1e-9)                    # db
    np.testing.assert_allclose(out[3], np.outer(p["x"][0, 0], want), rtol=1e-6, atol=1e-9)  # dWx
    np.testing.assert_allclose(out[0][0, 0], p["Wx"] @ want, rtol=1e-6, atol=1e-9)     # dx
    assert out[5].shape == (G,)
    for off in (0.0, np.inf):                                                          # off: the gradient
        out = ref.lstm_backward(R, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], "none", clip=off)
        assert rel_error(out[5], true_db) < TOLERANCE


def test_batchnorm_backward_on_a_padded_batch():
    rng = np.random.default_rng(843)
    T, B, F, Ts = 3, 4, 3, 3
    lengths = np.array([3, 2, 3, 1])
    x = rng.standard_normal((T, B, F))
    gain, bias = rng.uniform(0.3, 2.5, F), rng.standard_normal(F)
    rm0, rv0 = np.zeros((Ts, F)), np.ones((Ts, F))
    mask = (np.arange(T)[:, None] < lengths)[:, :, None]
    R = rng.standard_normal((T, B, F))

    def loss():
        y = ref.batchnorm_forward_train(x, gain, bias, rm0.copy(), rv0.copy(), MOM, EPS, lengths)[0]
        return float(np.sum(y * R * mask))

    _, mean, rstd = ref.batchnorm_forward_train(x, gain, bias, rm0.copy(), rv0.copy(), MOM, EPS, lengths)
    dx, dgain, dbias = ref.batchnorm_backward(R, x, mean, rstd, gain, True, lengths)
    assert rel_error(dx, grad(loss, x)) < TOLERANCE
    assert rel_error(dgain, grad(loss, gain)) < TOLERANCE
    assert rel_error(dbias, grad(loss, bias)) < TOLERANCE
    assert not np.any(dx[~mask[..., 0]])


def test_training_bn_lstm_backward_over_several_steps():
    rng = np.random.default_rng(844)
    T, B, I, H, Ts = 3, 4, 2, 2, 3
    G = 4 * H
    x = rng.standard_normal((T, B, I))
    h0, c0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    P = dict(Wx=0.7 * rng.standard_normal((I, G)), Wh=0.7 * rng.standard_normal((H, G)), b=0.3 * rng.standard_normal(G),
             gx=rng.uniform(0.5, 1.5, G), gh=rng.uniform(0.5, 1.5, G), gc=rng.uniform(0.5, 1.5, H),
             bc=0.3 * rng.standard_normal(H))
    run0 = [np.zeros((Ts, G)), np.ones((Ts, G)), np.zeros((Ts, G)), np.ones((Ts, G)), np.zeros((Ts, H)),
            np.ones((Ts, H))]
    R = rng.standard_normal((T, B, H))
    keys = ("Wx", "Wh", "b", "gx", "gh", "gc", "bc")

    def fwd():
        return ref.bn_lstm_forward(x, h0, c0, *(P[k] for k in keys), *[v.copy() for v in run0], True, MOM, EPS)

    def loss():
        return float(np.sum(fwd()[0] * R))

    saved = fwd()[3]
    out = ref.bn_lstm_backward(R, saved, x, h0, c0, P["Wx"], P["Wh"], P["gx"], P["gh"], P["gc"])
    targets = dict(x=x, h0=h0, c0=c0, **P)
    for name, g in zip(("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"), out):
        assert rel_error(g, grad(loss, targets[name])) < TOLERANCE, name


def test_window_step_backward():
    rng = np.random.default_rng(845)
    B, H, K, C, U = 3, 2, 2, 4, 4
    chars = rng.integers(0, C, (B, U))
    ulen = np.array([4, 3, 1])
    h = rng.standard_normal((B, H))
    Wp = 0.4 * rng.standard_normal((H, 3 * K))
    bp = np.concatenate([0.2 * rng.standard_normal(K), -0.5 + 0.1 * rng.standard_normal(K),
                         0.2 * rng.standard_normal(K)])
    kappa_prev = rng.uniform(0.5, 2.5, (B, K))
    Rw, Rk = rng.standard_normal((B, C)), rng.standard_normal((B, K))

    def loss():
        w, _, kappa, _ = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)
        return float(np.sum(w * Rw) + np.sum(kappa * Rk))

    cache = ref.window_forward(h, Wp, bp, kappa_prev, chars, ulen, C)[3]
    dh, dkappa_prev, dWp, dbp = ref.window_backward(Rw, Rk, cache, Wp, chars)
    for name, g, arr in (("h", dh, h), ("kappa_prev", dkappa_prev, kappa_prev), ("Wp", dWp, Wp), ("bp", dbp, bp)):
        assert rel_error(g, grad(loss, arr)) < TOLERANCE, name


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_rnn_backward_and_its_record(norm):
    rng = np.random.default_rng(846)
    T, B, I, H = 3, 2, 3, 3
    x, h0 = rng.standard_normal((T, B, I)), rng.standard_normal((B, H))
    Wx, Wh = 0.8 * rng.standard_normal((I, H)), 0.8 * rng.standard_normal((H, H))
    b, g = 0.3 * rng.standard_normal(H), rng.uniform(0.5, 1.5, H)
    R = rng.standard_normal((T, B, H))

    def loss():
        return float(np.sum(ref.rnn_forward(x, h0, Wx, Wh, b, g, norm, EPS)[0] * R))

    y, _, cache = ref.rnn_forward(x, h0, Wx, Wh, b, g, norm, EPS)
    record = []
    out = ref.rnn_backward(R, cache, Wx, Wh, g, norm, record=record)
    for name, d, arr in zip(("x", "h0", "Wx", "Wh", "b", "g"), out, (x, h0, Wx, Wh, b, g)):
        if norm == "none" and name == "g":
            assert not np.any(d)
            continue
        assert rel_error(d, grad(loss, arr)) < TOLERANCE, name
    t = 0  # dL/dh_0's total: the loss of steps 1..T-1 run from h_0, plus its own term
    h_t = y[t].copy()

    def tail():
        rest = ref.rnn_forward(x[t + 1:], h_t, Wx, Wh, b, g, norm, EPS)[0]
        return float(np.sum(h_t * R[t]) + np.sum(rest * R[t + 1:]))

    assert rel_error(record[T - 1 - t], grad(tail, h_t)) < TOLERANCE
