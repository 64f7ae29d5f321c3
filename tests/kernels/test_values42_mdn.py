"""One step of the mixture in lnrnn/kernels/mdn.py, by hand: the mixture weights of each row are the
softmax of that row's own (1 + bias) pi_hat (rows of very different sizes side by side, each row's weights
summing to 1); a step reads its rows' stream in one order (the component's uniforms, the normals z1 of x1,
the normals z2 of x2, the pen's uniforms: a seed gives the points it always gave), x1 = mu1 + s1 z1 and
x2 = mu2 + s2 (rho z1 + sqrt(1 - rho^2) z2) of the chosen component; and the pen lifts where the pen's uniform
falls below e = sigmoid(e_hat): e_hat = +-40 fixes the pen, e_hat = 0 splits the rows by their own uniforms."""
import numpy as np

from lnrnn.kernels.mdn import mdn_sample, mdn_split

M = 3


def softmax_row(z):
    """Softmax of one row by plain sums (the row's max subtracted)."""
    e = [np.exp(v - max(z)) for v in z]
    s = sum(e)
    return np.array([v / s for v in e])


def test_mixture_weights_are_each_rows_own_softmax_under_the_bias():
    rng = np.random.default_rng(1)
    y = rng.normal(0, 1, (4, 6 * M + 1))
    y[0, 1:1 + M] = [300.0, 301.0, 299.5]        # a row far above the others: its shift is its own
    y[1, 1:1 + M] = [-2.0, 0.5, 0.0]
    y[2, 1:1 + M] = [-400.0, -401.0, -399.0]
    for bias in (0.0, 0.6):
        _, pi, *_ = mdn_split(y, M, bias)
        for b in range(4):
            np.testing.assert_allclose(pi[b], softmax_row(list((1 + bias) * y[b, 1:1 + M])), rtol=1e-12)
        np.testing.assert_allclose(pi.sum(axis=1), 1.0, rtol=1e-12)


def test_a_step_reads_its_stream_in_order():
    """Components far apart in weight (pi_hat 0 and -60: the first always chosen), mu (1, -2), s (0.5, 2),
    rho 0.6 (rho_hat = artanh(0.6 / RHO)); the points by hand from the same generator's draws."""
    from lnrnn.kernels.codes import MDN_RHO as RHO
    B = 5
    y = np.zeros((B, 6 * M + 1))
    y[:, 1:1 + M] = [0.0, -60.0, -60.0]
    y[:, 1 + M], y[:, 1 + 2 * M] = 1.0, -2.0
    y[:, 1 + 3 * M], y[:, 1 + 4 * M] = np.log(0.5), np.log(2.0)
    y[:, 1 + 5 * M] = np.arctanh(0.6 / RHO)
    p = mdn_sample(y, M, np.random.default_rng(4))
    g = np.random.default_rng(4)
    g.random(B)
    z1, z2 = g.standard_normal(B), g.standard_normal(B)
    np.testing.assert_allclose(p[:, 0], 1.0 + 0.5 * z1, rtol=1e-12)
    np.testing.assert_allclose(p[:, 1], -2.0 + 2.0 * (0.6 * z1 + np.sqrt(1 - 0.36) * z2), rtol=1e-12)


def test_the_pen_lifts_below_e_by_the_fourth_draw():
    B = 6
    y = np.zeros((B, 6 * M + 1))
    y[:, 0] = [40.0, -40.0, 0.0, 0.0, 0.0, 0.0]     # e = 1, 0, then 0.5 for the last four
    p = mdn_sample(y, M, np.random.default_rng(9))
    g = np.random.default_rng(9)
    g.random(B), g.standard_normal(B), g.standard_normal(B)
    u = g.random(B)                                 # the pen's uniforms
    want = [1.0, 0.0] + [1.0 if u[b] < 0.5 else 0.0 for b in range(2, B)]
    np.testing.assert_array_equal(p[:, 2], want)
    big = np.zeros((2000, 6 * M + 1))
    big[:, 0] = np.log(0.1 / 0.9)                   # e = 0.1: about 200 lifts, never near 1800
    assert 120 < mdn_sample(big, M, np.random.default_rng(2))[:, 2].sum() < 280
