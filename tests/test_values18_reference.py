"""The NumPy spec (lnrnn/reference.py) judged without any kernel (a kernel test would copy a bug of the spec):
BatchNorm's running statistics and inference rows by hand, LayerNorm by its formula written out, and the
backwards of BatchNorm and of the masked BN-LSTM against central differences of the spec's own forward."""
import numpy as np

from gradcheck_util import TOLERANCE, numeric_grad, rel_error
from lnrnn import reference as ref
from lnrnn.kernels.masks import step_mask

MOM = 0.1
EPS = 1e-5


def test_running_statistics_by_hand_with_a_mask():
    """Row t after one training pass: (1 - m) old + m batch mean, and (1 - m) old + m unbiased variance of
    the active rows; steps t >= Ts are not recorded."""
    rng = np.random.default_rng(0)
    T, B, F, Ts = 3, 5, 4, 2
    x = rng.standard_normal((T, B, F)) * 2.0 + 1.0
    lengths = np.array([3, 1, 2, 3, 2])
    rm0, rv0 = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    rm, rv = rm0.copy(), rv0.copy()
    ref.batchnorm_forward_train(x, np.ones(F), np.zeros(F), rm, rv, MOM, EPS, lengths)
    for t in range(Ts):
        xa = x[t][t < lengths]
        np.testing.assert_allclose(rm[t], (1 - MOM) * rm0[t] + MOM * xa.mean(0), rtol=1e-13)
        np.testing.assert_allclose(rv[t], (1 - MOM) * rv0[t] + MOM * xa.var(0, ddof=1), rtol=1e-13)


def test_inference_normalizes_step_t_with_running_row_t_then_the_last():
    rng = np.random.default_rng(1)
    T, B, F, Ts = 4, 3, 2, 2
    x = rng.standard_normal((T, B, F))
    g, b = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 2.0, (Ts, F))
    y = ref.batchnorm_forward_infer(x, g, b, rm, rv, EPS)
    for t in range(T):
        r = min(t, Ts - 1)
        np.testing.assert_allclose(y[t], (x[t] - rm[r]) / np.sqrt(rv[r] + EPS) * g + b, rtol=1e-13, atol=1e-14)


def test_layernorm_forward_is_the_formula_with_eps_inside_the_sqrt():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 5)) * 0.3
    g, b = rng.uniform(0.5, 1.5, 5), rng.standard_normal(5)
    eps = 0.5  # large, so that 1/(std + eps) and 1/sqrt(var + eps) differ by far more than rounding
    y, mean, rstd = ref.layernorm_forward(x, g, b, eps)
    m = x.sum(1) / 5
    v = ((x - m[:, None]) ** 2).sum(1) / 5
    np.testing.assert_allclose(rstd, 1 / np.sqrt(v + eps), rtol=1e-13)
    np.testing.assert_allclose(y, (x - m[:, None]) / np.sqrt(v + eps)[:, None] * g + b, rtol=1e-13, atol=1e-14)


def test_batchnorm_backward_by_central_differences():
    """Training mode with a mask: dx, dgain, dbias of sum(G y) over the active (row, step)s."""
    rng = np.random.default_rng(3)
    T, B, F = 2, 4, 3
    x = rng.standard_normal((T, B, F))
    g, b = rng.uniform(0.5, 1.5, F), rng.standard_normal(F)
    lengths = np.array([2, 1, 2, 2])
    Gy = rng.standard_normal((T, B, F)) * step_mask(lengths, T, B)[:, :, None]
    run = (np.zeros((T, F)), np.ones((T, F)))

    def loss():
        y, _, _ = ref.batchnorm_forward_train(x, g, b, run[0].copy(), run[1].copy(), MOM, EPS, lengths)
        return float(np.sum(y * Gy))

    _, mean, rstd = ref.batchnorm_forward_train(x, g, b, run[0].copy(), run[1].copy(), MOM, EPS, lengths)
    dx, dg, db = ref.batchnorm_backward(Gy, x, mean, rstd, g, True, lengths)
    for name, got, arr in (("dx", dx, x), ("dgain", dg, g), ("dbias", db, b)):
        err = rel_error(got, numeric_grad(loss, arr))
        assert err <= TOLERANCE, f"{name}: {err:.3g}"
    assert np.abs(dx).max() > 1e-3


def test_masked_bn_lstm_backward_by_central_differences():
    """The spec's BN-LSTM in training with rows ending early: every gradient against central differences
    of sum(Gy y) over the active (row, step)s, with dy given everywhere (dy at a padded step is ignored)."""
    rng = np.random.default_rng(4)
    T, B, I, H = 3, 4, 2, 2
    G = 4 * H
    lengths = np.array([3, 1, 2, 3])
    a = dict(x=rng.standard_normal((T, B, I)), h0=0.5 * rng.standard_normal((B, H)),
             c0=0.5 * rng.standard_normal((B, H)), Wx=0.5 * rng.standard_normal((I, G)),
             Wh=0.4 * rng.standard_normal((H, G)), b=0.2 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.5, G),
             gh=rng.uniform(0.5, 1.5, G), gc=rng.uniform(0.5, 1.5, H), bc=0.2 * rng.standard_normal(H))
    run = [np.zeros((T, G)), np.ones((T, G)), np.zeros((T, G)), np.ones((T, G)), np.zeros((T, H)), np.ones((T, H))]
    dy = rng.standard_normal((T, B, H))  # nonzero at padded steps too
    m = step_mask(lengths, T, B)[:, :, None]

    def forward():
        return ref.bn_lstm_forward(*a.values(), *[r.copy() for r in run], True, MOM, EPS, lengths)

    def loss():
        return float(np.sum(forward()[0] * dy * m))

    saved = forward()[3]
    grads = ref.bn_lstm_backward(dy, saved, a["x"], a["h0"], a["c0"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"])
    names = ["x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc"]
    bad = {}
    for name, got in zip(names, grads):
        err = rel_error(got, numeric_grad(loss, a[name]))
        if not err <= TOLERANCE:
            bad[name] = err
    assert not bad, f"gradients off: {bad}"
