"""lnrnn/kernels/window.py's text and window arithmetic, in float64 against sums by hand: codes past a
row's ulen are never read, so padding that is no code at all (negative, or past C) is taken and changes
nothing, while a bad code before ulen is refused; w_t's column of a character is the sum of phi over every
position holding it (texts with repeated characters); kappa_t is kappa0 plus the running sum of exp(k_hat)
over steps 0..t, read back from win (saved) and from the final state."""
import numpy as np
import pytest

from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_LN
from test_window import problem

EPS, MOM = 1e-5, 0.1
SHAPE = dict(T=4, B=3, I=2, H=3, K=2, C=4, U=5, lengths=[4, 4, 4], ulen=[5, 2, 3])


def forward(a, keep=True):
    return window.window_lstm_forward(*a.values(), *[np.zeros((0, 0))] * 6, NORM_LN, True, MOM, EPS,
                                      np.array(SHAPE["lengths"], np.int64), keep)


def test_padding_past_ulen_is_never_read_and_a_bad_code_before_it_is_refused():
    a, _, _, _, _ = problem(**SHAPE, seed=2)
    ulen = a["ulen"]
    clean = dict(a, chars=a["chars"].copy())
    garbage = dict(a, chars=a["chars"].copy())
    for b in range(3):
        clean["chars"][b, ulen[b]:] = 0
        garbage["chars"][b, ulen[b]:] = [-3, 99, SHAPE["C"], -1, 7][:5 - ulen[b]]   # not codes
    want = forward(clean, keep=False)
    got = forward(garbage, keep=False)
    for w, g in zip(want[:7], got[:7]):
        np.testing.assert_array_equal(g, w)
    bad = dict(a, chars=clean["chars"].copy())
    bad["chars"][1, ulen[1] - 1] = SHAPE["C"]                                       # the row's last character
    with pytest.raises(ValueError, match="character codes"):
        forward(bad, keep=False)


def test_w_sums_phi_over_repeated_characters_and_kappa_is_the_running_sum():
    a, _, _, _, _ = problem(**SHAPE, seed=4)
    a["chars"] = np.array([[1, 1, 2, 1, 3], [2, 2, 0, 0, 0], [3, 0, 3, 1, 1]], np.int64)  # repeats in every row
    y, w, hT, cT, kT, wT, phi, saved = forward(a)
    T, B, C, K = SHAPE["T"], SHAPE["B"], SHAPE["C"], SHAPE["K"]
    for t in range(T):
        for b in range(B):
            n = a["ulen"][b]
            for c in range(C):
                want = sum(phi[t, b, u] for u in range(n) if a["chars"][b, u] == c)
                assert w[t, b, c] == pytest.approx(want, rel=1e-12, abs=1e-300), (t, b, c)
    assert w[:, 0, 1].min() > 0 and w[:, 2, 3].min() > 0
    win, kappa = saved[9], saved[10]                                            # (T,B,3K) [alpha|beta|exp(k_hat)]
    run = a["kappa0"][None] + np.cumsum(win[:, :, 2 * K:], axis=0)             # (T,B,K)
    np.testing.assert_allclose(kappa, run, rtol=1e-13)
    np.testing.assert_allclose(kT, run[-1], rtol=1e-13)
    # phi itself from those kappas, the 1-based positions 1..ulen[b], zero past them
    u = np.arange(1, SHAPE["U"] + 1, dtype=np.float64)
    al, be = win[:, :, :K], win[:, :, K:2 * K]
    e = (al[..., None] * np.exp(-be[..., None] * (run[..., None] - u) ** 2)).sum(axis=2)   # (T,B,U)
    on = u[None, None, :] <= a["ulen"][None, :, None]
    np.testing.assert_allclose(phi, np.where(on, e, 0.0), rtol=1e-12, atol=1e-300)
