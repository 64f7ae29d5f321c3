"""The BN-LSTM's CPU kernels (lnrnn/kernels/bn_lstm.py, the x side in lnrnn/kernels/bn_cell_x.py) against
lnrnn.reference's BN-LSTM in float64, whole results: y, hT, cT and every array of ``saved`` (the x side's saved
statistics, x Wx or the fold path's per-step input mean and covariance written here in NumPy, the h side's and the
cell's statistics, the activated gates, the cell, tanh of its BN), every running row and all ten gradients (and
the same with Graves's clip), at a narrow input (I = 3 <= FOLD_MAX_I: the fold path) and a wide one (I = 6),
training and inference, on one part and on two (four row blocks of 1, 2, 1, 2 rows: two blocks a part). Shapes
are ragged (T 5, B 6, H 5) and rows have their own lengths (4, 2, 0, 3, 1, 3: 5, 4, 3, 1 and 0 active rows a
step), inputs far from zero mean, and each side has its own number of running rows (x 3, h 2, cell 6: T past
two of them, a cell row past T). Also: the running rows after training against their definition (momentum, the
active rows' mean and unbiased variance of x_t Wx, h_{t-1} Wh and c_t; rows of later steps and of an empty
step untouched) and inference's saved statistics against the running rows; the gradients against central
differences of the reference's loss over the active (row, step)s; float32 against the float64 reference."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.config import FOLD_MAX_I
from lnrnn.kernels import bn_lstm
from gradcheck_util import numeric_grad
from test_values100_bn_lstm import split

T, B, H = 5, 6, 5
G = 4 * H
I_FOLD, I_WIDE = 3, 6
ROWS = (3, 2, 6)  # running rows of the x side, the h side, the cell
LENGTHS = np.array([4, 2, 0, 3, 1, 3], np.int64)
ACTIVE = np.arange(T)[:, None] < LENGTHS[None, :]
MOM, EPS = 0.2, 1e-3
KEYS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")
BKEYS = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
GRADS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "gh", "gc", "bc")  # bn_lstm_backward's order
assert 1 < I_FOLD <= FOLD_MAX_I < I_WIDE
assert ACTIVE.sum(1).tolist() == [5, 4, 3, 1, 0]


def problem(seed, I, dtype=np.float64):
    """(parameters by name, running rows [rmx, rvx, rmh, rvh, rmc, rvc], dy); x about a mean far from zero,
    gains and biases away from their defaults."""
    rng = np.random.default_rng(seed)
    shift = np.linspace(-1.5, 2.0, I)
    p = dict(x=rng.standard_normal((T, B, I)) * np.linspace(0.7, 1.6, I) + shift,
             h0=0.6 * rng.standard_normal((B, H)), c0=0.7 * rng.standard_normal((B, H)),
             Wx=0.5 * rng.standard_normal((I, G)), Wh=0.5 * rng.standard_normal((H, G)),
             b=0.3 * rng.standard_normal(G), gx=rng.uniform(0.5, 1.0, G), gh=rng.uniform(1.1, 1.7, G),
             gc=rng.uniform(0.6, 1.5, H), bc=0.3 * rng.standard_normal(H))
    run = []
    for rows, width in zip(ROWS, (G, G, H)):
        run += [0.5 * rng.standard_normal((rows, width)), rng.uniform(0.4, 2.5, (rows, width))]
    dy = rng.standard_normal((T, B, H))
    cast = lambda a: a.astype(dtype)  # noqa: E731
    return {k: cast(v) for k, v in p.items()}, [cast(r) for r in run], cast(dy)


def kernel(p, run, training, dy, parts, clip=0.0):
    """-> y, hT, cT, saved, grads (bn_lstm_backward's order), grads with clip (None when clip is 0)."""
    with split(parts):
        y, hT, cT, saved = bn_lstm.bn_lstm_forward(*[p[k] for k in KEYS], *run, training, MOM, EPS, 0,
                                                   lengths=LENGTHS)
        grads = bn_lstm.bn_lstm_backward(dy, saved, *[p[k] for k in BKEYS], 0)
        clipped = bn_lstm.bn_lstm_backward(dy, saved, *[p[k] for k in BKEYS], 0, clip=clip) if clip else None
    return y, hT, cT, saved, grads, clipped


def spec(p, run, training, dy, clip=0.0):
    """The reference in float64 -> y, hT, cT, its saved dict, grads, grads with clip; run updated in place."""
    q = {k: np.asarray(v, np.float64) for k, v in p.items()}
    dy = np.asarray(dy, np.float64)
    y, hT, cT, saved = ref.bn_lstm_forward(*[q[k] for k in KEYS], *run, training, MOM, EPS, LENGTHS)
    grads = ref.bn_lstm_backward(dy, saved, *[q[k] for k in BKEYS])
    clipped = ref.bn_lstm_backward(dy, saved, *[q[k] for k in BKEYS], clip=clip) if clip else None
    return y, hT, cT, saved, grads, clipped


def input_moments(x, training):
    """The fold path's saved xs (T,I+I*I) by definition: per step the active rows' mean of x_t and their biased
    covariance, row-major; zeros in inference and at a step with no active row."""
    I = x.shape[2]
    xs = np.zeros((T, I + I * I))
    for t in range(T):
        a = x[t][ACTIVE[t]].astype(np.float64)
        if training and len(a):
            mu = a.mean(0)
            xs[t, :I] = mu
            xs[t, I:] = ((a - mu).T @ (a - mu) / len(a)).ravel()
    return xs


def close(got, want, what, rtol=1e-9, atol=1e-10):
    got = np.asarray(got)
    assert got.shape == np.shape(want), f"{what}: shape {got.shape}, want {np.shape(want)}"
    np.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=what)


def check_against_spec(got, want, run_got, run_want, p, training, tol=1.0):
    """Every output of the kernel against the reference's (tol scales the float64 tolerances)."""
    y, hT, cT, saved, grads, clipped = got
    y_r, hT_r, cT_r, sv, grads_r, clipped_r = want
    r, a = 1e-9 * tol, 1e-10 * tol
    close(y, y_r, "y", r, a)
    close(hT, hT_r, "hT", r, a)
    close(cT, cT_r, "cT", r, a)
    steps = sv["steps"]
    st = lambda key: np.stack([s[key] for s in steps])  # noqa: E731
    xs_or_xw, mean_x, rstd_x, hw, mean_h, rstd_h, gates, c, mean_c, rstd_c, tc, y_s, lengths, mode = saved
    I = p["x"].shape[2]
    if I <= FOLD_MAX_I:
        assert xs_or_xw.dtype == np.float64
        close(xs_or_xw, input_moments(p["x"], training), "saved xs", r, a)
    else:
        close(xs_or_xw, st("xw"), "saved xw", r, a)
    for name, arr, key in (("mean_x", mean_x, "mx"), ("rstd_x", rstd_x, "sx"), ("hw", hw, "hw"),
                           ("mean_h", mean_h, "mh"), ("rstd_h", rstd_h, "sh"), ("c", c, "c"),
                           ("mean_c", mean_c, "mc"), ("rstd_c", rstd_c, "sc"), ("tc", tc, "tc")):
        close(arr, st(key), f"saved {name}", r, a)
    close(gates, np.concatenate([st("i"), st("f"), st("g"), st("o")], axis=2), "saved gates", r, a)
    assert y_s is y or np.array_equal(y_s, y), "saved y"
    assert lengths.tolist() == LENGTHS.tolist() and lengths.dtype == np.int64, "saved lengths"
    assert mode is training, "saved training flag"
    for k, (g, w) in enumerate(zip(run_got, run_want)):
        close(g, w, f"running array {k}", 1e-11 * tol, 1e-12 * tol)
    for name, g, w in zip(GRADS, grads, grads_r):
        close(g, w, f"d{name}", 1e-8 * tol, 1e-9 * tol)
    if clipped is not None:
        for name, g, w in zip(GRADS, clipped, clipped_r):
            close(g, w, f"d{name} with clip", 1e-8 * tol, 1e-9 * tol)


@pytest.mark.parametrize("training", [True, False], ids=["training", "inference"])
@pytest.mark.parametrize("I", [I_FOLD, I_WIDE], ids=["fold", "wide"])
def test_every_output_against_the_reference(I, training):
    """y, hT, cT, saved, the running rows and every gradient (plain and clipped at 0.05) against the reference, on
    one part and on two."""
    p, run, dy = problem(37700 + I + 10 * training, I)
    run_s = [r.copy() for r in run]
    want = spec(p, run_s, training, dy, clip=0.05)
    assert np.abs(want[5][5] - want[4][5]).max() > 1e-3  # the clip binds
    for parts in (1, 2):
        run_k = [r.copy() for r in run]
        got = kernel(p, run_k, training, dy, parts, clip=0.05)
        check_against_spec(got, want, run_k, run_s, p, training)
    if not training:
        assert all(np.array_equal(a, b) for a, b in zip(run_s, run))


@pytest.mark.parametrize("I", [I_FOLD, I_WIDE], ids=["fold", "wide"])
def test_running_rows_by_their_definition_then_inference(I):
    """Training, two parts: row t < Ts of each side is (1 - m) old + m (mean, unbiased variance) of the step's
    active rows of x_t Wx, h_{t-1} Wh and c_t (h and c the kernel's own); rows t >= T and the empty step's row stay.
    Inference then saves mean = running row min(t, Ts-1), rstd = 1/sqrt(its variance + eps) for each side."""
    p, run, dy = problem(37730 + I, I)
    run_k = [r.copy() for r in run]
    y, _, _, saved, _, _ = kernel(p, run_k, True, dy, 2)
    c = saved[7]
    hprev = np.concatenate([p["h0"][None], y[:-1]])
    sides = [np.einsum("tbi,ig->tbg", p["x"], p["Wx"]), np.einsum("tbh,hg->tbg", hprev, p["Wh"]), c]
    for s, z in enumerate(sides):
        rm0, rv0, rm, rv = run[2 * s], run[2 * s + 1], run_k[2 * s], run_k[2 * s + 1]
        for t in range(rm0.shape[0]):
            a = z[t][ACTIVE[t]] if t < T else z[:0, 0]
            if t < T and len(a):
                var = a.var(0, ddof=1) if len(a) > 1 else np.zeros(a.shape[1])
                close(rm[t], (1 - MOM) * rm0[t] + MOM * a.mean(0), f"side {s} mean row {t}", 1e-11, 1e-12)
                close(rv[t], (1 - MOM) * rv0[t] + MOM * var, f"side {s} variance row {t}", 1e-11, 1e-12)
            else:
                assert np.array_equal(rm[t], rm0[t]) and np.array_equal(rv[t], rv0[t]), f"side {s} row {t}"
    run_i = [r.copy() for r in run_k]
    _, _, _, saved_i, _, _ = kernel(p, run_i, False, dy, 2)
    assert all(np.array_equal(a, b) for a, b in zip(run_i, run_k))
    for s, (im, ir) in enumerate(((1, 2), (4, 5), (8, 9))):
        rm, rv = run_k[2 * s], run_k[2 * s + 1]
        for t in range(T):
            row = min(t, rm.shape[0] - 1)
            close(saved_i[im][t], rm[row], f"inference mean side {s} step {t}", 1e-15, 0)
            close(saved_i[ir][t], 1 / np.sqrt(rv[row] + EPS), f"inference rstd side {s} step {t}", 1e-14, 0)


@pytest.mark.parametrize("I, training", [(I_FOLD, True), (I_WIDE, False)], ids=["fold-training", "wide-inference"])
def test_gradients_against_central_differences(I, training):
    """All ten gradients (two parts) against central differences of the reference's loss sum(dy y) over the
    active (row, step)s."""
    p, run, dy = problem(37740 + I, I)
    grads = kernel(p, [r.copy() for r in run], training, dy, 2)[4]
    q = {k: v.copy() for k, v in p.items()}

    def loss():
        y = ref.bn_lstm_forward(*[q[k] for k in KEYS], *[r.copy() for r in run], training, MOM, EPS, LENGTHS)[0]
        return float((dy * y)[ACTIVE].sum())

    for name, g in zip(GRADS, grads):
        num = numeric_grad(loss, q[name], eps=1e-5, order=2)
        assert np.abs(num).max() > 1e-3, name
        close(g, num, f"d{name}", 1e-6, 1e-7)


@pytest.mark.parametrize("I", [I_FOLD, I_WIDE], ids=["fold", "wide"])
def test_float32_against_the_float64_reference(I):
    """float32 inputs, training, two parts: every output float32 and within float32 rounding of the reference
    run in float64 on the same (rounded) numbers; the fold path's xs stays float64."""
    p, run, dy = problem(37750 + I, I, np.float32)
    run_s = [r.astype(np.float64) for r in run]
    want = spec(p, run_s, True, dy)
    run_k = [r.copy() for r in run]
    got = kernel(p, run_k, True, dy, 2)
    y, hT, cT, saved, grads, _ = got
    for k, a in enumerate([y, hT, cT, *saved[1:12], *grads, *run_k]):
        assert a.dtype == np.float32, f"array {k}: {a.dtype}"
    # step 3 has one active row: its statistics' variance is 0, so BN there scales every row's float32 rounding of
    # x Wx and h Wh by 1/sqrt(EPS) (about 32) times the gains; an inactive row's saved gates carry a few ulps of
    # that (rtol 3e-5 failed by 1.4x on one such entry in a fresh compile on a Zen 3 host)
    check_against_spec(got, want, run_k, run_s, p, True, tol=1e5)
