"""BN-LSTM and BN-RNN (Cooijmans et al. 2016), lnrnn/kernels/bn_lstm.py and bn_rnn.py: kernel == NumPy
reference, both == finite differences."""
import contextlib

import numpy as np
import pytest

from bn_problems import bn_problem
from gradcheck_util import numeric_grad, rel_error, sample_idx
from lnrnn import reference as ref
from lnrnn.kernels import bn_lstm, bn_rnn
from lnrnn.kernels.cpu import threads

EPS = 1e-5
MOM = 0.1
TOL64 = 1e-11    # float64 kernel vs reference (summation order only)
TOL32 = 2e-3     # float32 kernel vs float64 reference: rounding through T steps, BN and sums over T*B
GRAD_TOL = 1e-6  # float64 central differences
FD_EPS = 3e-5    # with the 4th-order stencil: worst 2e-7 over 6 seeds; plain 2nd order at 1e-6 reached 9e-6
MAX_IDX = 40     # gradient-check at most this many random elements of each array

SMALL = dict(T=6, B=5, I=2, H=3, Ts=4)   # odd sizes; T > Ts
WIDE = dict(T=5, B=3, I=4, H=20, Ts=6)   # 20 hidden units: 10/10 over two parts, 6/7/7 over three
WIDE_IN = dict(WIDE, I=6)                # I > config.FOLD_MAX_I: x Wx as one GEMM and BN_t over all T
# (SMALL and WIDE take the narrow-input path: BN_t of x Wx from the inputs' statistics, see below)
# impl: "reference"; "kernel" (default par_min: one thread at these sizes); "kernel-par" (par_min=0:
# the time loop split over numba.get_num_threads() parts meeting at a barrier every step); "kernel-par3"
# (three parts, more than CI's two cores: uneven splits, and barriers that must yield to a descheduled part).


def make(cell, T, B, I, H, Ts, dtype=np.float64, seed=0):
    """Inputs and parameters as a dict in forward-argument order, running stats, upstream dy."""
    return bn_problem(np.random.default_rng(seed), cell, T, B, I, H, Ts, dtype, var_hi=2.0)


def forward(impl, cell, a, run, training):
    """-> (y, hT[, cT], saved); run (running stats) is updated in place when training."""
    if impl == "reference":
        fwd = ref.bn_lstm_forward if cell == "lstm" else ref.bn_rnn_forward
        return fwd(*a.values(), *run, training, MOM, EPS)
    fwd = bn_lstm.bn_lstm_forward if cell == "lstm" else bn_rnn.bn_rnn_forward
    with parts(impl):
        return fwd(*a.values(), *run, training, MOM, EPS, *extra(impl))


def extra(impl):
    return (0,) if impl.startswith("kernel-par") else ()


@contextlib.contextmanager
def parts(impl):
    """Three parts for "kernel-par3" (threads.PART_THREADS), the default thread count otherwise."""
    old = threads.PART_THREADS
    threads.PART_THREADS = 3 if impl == "kernel-par3" else None
    try:
        yield
    finally:
        threads.PART_THREADS = old


def backward(impl, cell, dy, saved, a):
    ex = () if impl == "reference" else extra(impl)
    with parts(impl):
        if cell == "lstm":
            bwd = ref.bn_lstm_backward if impl == "reference" else bn_lstm.bn_lstm_backward
            return bwd(dy, saved, a["x"], a["h0"], a["c0"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], *ex)
        bwd = ref.bn_rnn_backward if impl == "reference" else bn_rnn.bn_rnn_backward
        return bwd(dy, saved, a["x"], a["h0"], a["Wx"], a["Wh"], a["gx"], a["gh"], *ex)


def assert_close(name, got, want, tol):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, name
    err = np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0)
    assert err <= tol, f"{name}: max error {err:.3g} > {tol:.3g}"


@pytest.mark.parametrize("dtype,tol", [(np.float64, TOL64), (np.float32, TOL32)])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl,size", [("kernel", SMALL), ("kernel", WIDE), ("kernel-par", WIDE),
                                       ("kernel-par3", WIDE), ("kernel-par3", SMALL), ("kernel", WIDE_IN),
                                       ("kernel-par3", WIDE_IN)],
                         ids=["small", "wide", "wide-par", "wide-par3", "small-par3", "wide-in", "wide-in-par3"])
def test_kernel_matches_reference(impl, cell, training, dtype, tol, size):
    a, run, dy = make(cell, dtype=dtype, **size)
    run_k = [r.copy() for r in run]
    out_k = forward(impl, cell, a, run_k, training)
    a64 = {k: v.astype(np.float64) for k, v in a.items()}
    run_r = [r.astype(np.float64) for r in run]
    out_r = forward("reference", cell, a64, run_r, training)
    names = ["y", "hT", "cT"] if cell == "lstm" else ["y", "hT"]
    for name, got, want in zip(names, out_k, out_r):
        assert got.dtype == dtype, name
        assert_close(name, got, want, tol)
    for k, (got, want, old) in enumerate(zip(run_k, run_r, run)):
        assert_close(f"running stat {k}", got, want, tol)
        if training:  # rows t < min(T, Ts) moved, the rest did not
            n = min(size["T"], size["Ts"])
            assert np.all(got[:n] != old[:n]) and np.array_equal(got[n:], old[n:])
        else:
            assert np.array_equal(got, old)
    g_k = backward(impl, cell, dy, out_k[-1], a)
    g_r = backward("reference", cell, dy.astype(np.float64), out_r[-1], a64)
    gnames = ["dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dgh", "dgc", "dbc"] if cell == "lstm" else \
        ["dx", "dh0", "dWx", "dWh", "db", "dgx", "dgh"]
    assert len(g_k) == len(g_r) == len(gnames)
    for name, got, want in zip(gnames, g_k, g_r):
        assert got.dtype == dtype, name
        # parameter gradients are sums over T*B terms
        assert_close(name, got, want, tol if name in ("dx", "dh0", "dc0") else tol * size["B"] * size["T"])


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl,size", [("reference", SMALL), ("kernel", SMALL), ("kernel", WIDE),
                                       ("kernel-par", WIDE), ("kernel-par", WIDE_IN)],
                         ids=["reference-small", "kernel-small", "kernel-wide", "kernel-par-wide",
                              "kernel-par-wide-in"])
def test_gradcheck(impl, cell, training, size):
    a, run, R = make(cell, seed=1, **size)
    assert_gradients(impl, cell, training, a, R, R, FD_EPS,
                     lambda: forward(impl, cell, a, [r.copy() for r in run], training))


def assert_gradients(impl, cell, training, a, R, R_loss, fd_eps, run_forward):
    """Every input's gradient from backward(R) against central differences of sum(y * R_loss), y from
    run_forward() (which must give the running statistics fresh copies: they mutate in training)."""
    def loss():
        return np.sum(run_forward()[0] * R_loss)

    grads = backward(impl, cell, R, run_forward()[-1], a)
    rng = np.random.default_rng(2)
    for (name, arr), g in zip(a.items(), grads):
        idx = sample_idx(arr, MAX_IDX, rng)
        err = rel_error(g.reshape(-1)[idx], numeric_grad(loss, arr, fd_eps, idx, order=4))
        assert err <= GRAD_TOL, f"{impl} {cell} training={training} d{name}: rel error {err:.3g}"


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_inference_reuses_last_running_row(cell):
    """Beyond Ts the inference forward equals the forward with the last row repeated to T."""
    size = dict(SMALL, Ts=2)
    a, run, _ = make(cell, **size)
    y = forward("kernel", cell, a, run, False)[0]
    grown = [np.concatenate([r, np.repeat(r[-1:], size["T"] - 2, axis=0)]) for r in run]
    y_grown = forward("kernel", cell, a, grown, False)[0]
    np.testing.assert_array_equal(y, y_grown)
    y_other = forward("kernel", cell, a, [r + 0.5 for r in grown], False)[0]
    assert not np.allclose(y, y_other)  # the running stats are actually used


# ---------------------------------------------------------------------------------------------
# Masks: sequences of different lengths (lengths (B,), row b active at step t iff t < lengths[b])
# ---------------------------------------------------------------------------------------------
# Each size's lengths hold 0, T and values between; "gap" also leaves the last steps with no active row.
WIDE6 = dict(WIDE, B=6)
MASKS = {"mixed": (SMALL, [6, 0, 3, 6, 1]), "gap": (SMALL, [4, 2, 0, 4, 1]),
         "wide": (WIDE6, [5, 2, 0, 4, 5, 3]), "wide-gap": (WIDE6, [3, 1, 3, 0, 2, 3]),
         "wide-in": (dict(WIDE6, I=6), [5, 2, 0, 4, 5, 3])}


def forward_masked(impl, cell, a, run, training, lengths):
    if impl == "reference":
        fwd = ref.bn_lstm_forward if cell == "lstm" else ref.bn_rnn_forward
        return fwd(*a.values(), *run, training, MOM, EPS, lengths=lengths)
    fwd = bn_lstm.bn_lstm_forward if cell == "lstm" else bn_rnn.bn_rnn_forward
    with parts(impl):
        return fwd(*a.values(), *run, training, MOM, EPS, *(extra(impl) or (PAR_MIN_DEFAULT,)), lengths=lengths)


PAR_MIN_DEFAULT = bn_lstm.PAR_MIN_WORK
# Masked steps can have 1 or 2 active rows, whose BN has 1/std up to 1/sqrt(eps): rounding noise in the
# loss is magnified, so the difference step is larger than FD_EPS (truncation, O(step^4), stays ~1e-8).
FD_EPS_MASKED = 1e-4


def active_mask(T, lengths):
    """(T,B,1) float 0/1: 1 where row b is active at step t."""
    return (np.arange(T)[:, None] < np.asarray(lengths)[None, :])[:, :, None].astype(np.float64)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl,mask", [("kernel", "mixed"), ("kernel", "gap"), ("kernel", "wide"),
                                       ("kernel-par", "wide"), ("kernel-par3", "wide-gap"), ("kernel-par3", "gap"),
                                       ("kernel-par", "wide-in")])
def test_masked_kernel_matches_reference(impl, cell, training, mask):
    size, lengths = MASKS[mask]
    lengths = np.array(lengths, np.int64)
    a, run, dy = make(cell, **size)
    run_k, run_r = [r.copy() for r in run], [r.copy() for r in run]
    out_k = forward_masked(impl, cell, a, run_k, training, lengths)
    out_r = forward_masked("reference", cell, a, run_r, training, lengths)
    for k, (got, want) in enumerate(zip(out_k[:-1], out_r[:-1])):
        assert np.all(np.isfinite(got)), k
        assert_close(f"output {k}", got, want, TOL64)
    for k, (got, want, old) in enumerate(zip(run_k, run_r, run)):
        assert_close(f"running stat {k}", got, want, TOL64)
        if training:  # a step with no active row leaves its running row alone
            empty = [t for t in range(min(size["T"], size["Ts"])) if not np.any(t < lengths)]
            assert np.array_equal(got[empty], old[empty])
    g_k = backward(impl, cell, dy, out_k[-1], a)
    g_r = backward("reference", cell, dy, out_r[-1], a)
    for k, (got, want) in enumerate(zip(g_k, g_r)):
        assert_close(f"grad {k}", got, want, TOL64 * size["B"] * size["T"])


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl,mask", [("reference", "mixed"), ("kernel", "mixed"), ("kernel", "gap"),
                                       ("kernel-par", "wide")])
def test_masked_gradcheck(impl, cell, training, mask):
    """The loss counts active steps only (sum of y * R * mask); backward is given R itself and must ignore
    it at padded steps. Central differences also cover the padded inputs, whose gradient is zero."""
    size, lengths = MASKS[mask]
    lengths = np.array(lengths, np.int64)
    a, run, R = make(cell, seed=1, **size)
    assert_gradients(impl, cell, training, a, R, R * active_mask(size["T"], lengths), FD_EPS_MASKED,
                     lambda: forward_masked(impl, cell, a, [r.copy() for r in run], training, lengths))


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl", ["kernel", "kernel-par3"])
def test_padded_rows_are_outside_everything(impl, cell, training):
    """Padded (row, step)s get exactly zero dx (and rows of length 0 zero dh0/dc0); new values at padded
    inputs, in h0/c0 of rows of length 0 and in dy at padded steps change nothing of the active rows'
    outputs, the running statistics or any gradient."""
    size, lengths = MASKS["mixed"] if impl == "kernel" else MASKS["wide"]
    lengths = np.array(lengths, np.int64)
    T, B = size["T"], size["B"]
    a, run, dy = make(cell, **size)
    act = active_mask(T, lengths)[:, :, 0].astype(bool)  # (T,B)
    run1 = [r.copy() for r in run]
    out1 = forward_masked(impl, cell, a, run1, training, lengths)
    g1 = backward(impl, cell, dy, out1[-1], a)
    dx = g1[0]
    assert np.all(dx[~act] == 0) and np.any(dx[act] != 0)
    gone = lengths == 0
    assert np.all(g1[1][gone] == 0)                      # dh0
    if cell == "lstm":
        assert np.all(g1[2][gone] == 0)                  # dc0
    # scramble everything that is padded
    rng = np.random.default_rng(9)
    b2 = dict(a)
    b2["x"] = np.where(act[:, :, None], a["x"], 5 * rng.standard_normal(a["x"].shape))
    for key in ("h0", "c0") if cell == "lstm" else ("h0",):
        b2[key] = np.where(gone[:, None], 3 * rng.standard_normal(a[key].shape), a[key])
    dy2 = np.where(act[:, :, None], dy, 7 * rng.standard_normal(dy.shape))
    run2 = [r.copy() for r in run]
    out2 = forward_masked(impl, cell, b2, run2, training, lengths)
    np.testing.assert_array_equal(out2[0][act], out1[0][act])
    for r1, r2 in zip(run1, run2):
        np.testing.assert_array_equal(r1, r2)
    g2 = backward(impl, cell, dy2, out2[-1], b2)
    for k, (u, v) in enumerate(zip(g1, g2)):
        np.testing.assert_array_equal(u, v, err_msg=f"grad {k}")


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_masks_by_definition(cell):
    """Where a mask has a plain meaning, the masked kernel is that meaning: every row of length L < T is
    the unmasked run of the first L steps (with the running rows >= L untouched), and rows of length 0
    are as if absent from the batch (the others' outputs, running statistics and gradients)."""
    size = dict(SMALL, Ts=6)
    T, B = size["T"], size["B"]
    a, run, dy = make(cell, **size)
    keys = ("x", "h0", "c0") if cell == "lstm" else ("x", "h0")
    # all rows of length L
    L = 4
    run_m, run_u = [r.copy() for r in run], [r.copy() for r in run]
    out_m = forward_masked("kernel", cell, a, run_m, True, np.full(B, L, np.int64))
    a_u = dict(a, x=a["x"][:L])
    out_u = forward("kernel", cell, a_u, run_u, True)
    assert_close("y", out_m[0][:L], out_u[0], TOL64)  # not bitwise: x Wx is one GEMM over T*B or L*B rows
    for r_m, r_u, r0 in zip(run_m, run_u, run):
        assert_close("running", r_m, r_u, TOL64)
        np.testing.assert_array_equal(r_m[L:], r0[L:])  # steps >= L ran no row
    g_m = backward("kernel", cell, dy, out_m[-1], a)
    g_u = backward("kernel", cell, dy[:L], out_u[-1], a_u)
    assert_close("dx", g_m[0][:L], g_u[0], TOL64)
    for k, (u, v) in enumerate(zip(g_m[1:], g_u[1:])):
        assert_close(f"grad {k + 1}", u, v, TOL64 * B * T)
    # rows of length 0 are absent
    keep = np.array([0, 2, 3])
    lengths = np.where(np.isin(np.arange(B), keep), T, 0).astype(np.int64)
    run_m, run_s = [r.copy() for r in run], [r.copy() for r in run]
    out_m = forward_masked("kernel", cell, a, run_m, True, lengths)
    a_s = {k: np.ascontiguousarray(v[:, keep] if k == "x" else v[keep]) if k in keys else v for k, v in a.items()}
    out_s = forward("kernel", cell, a_s, run_s, True)
    assert_close("y", out_m[0][:, keep], out_s[0], TOL64)
    for r_m, r_s in zip(run_m, run_s):
        assert_close("running", r_m, r_s, TOL64)
    g_m = backward("kernel", cell, dy, out_m[-1], a)
    g_s = backward("kernel", cell, dy[:, keep], out_s[-1], a_s)
    assert_close("dx", g_m[0][:, keep], g_s[0], TOL64)
    n_state = len(keys) - 1
    for k in range(1, 1 + n_state):
        assert_close(f"d{keys[k]}", g_m[k][keep], g_s[k], TOL64)
    for k in range(1 + n_state, len(g_m)):
        assert_close(f"grad {k}", g_m[k], g_s[k], TOL64 * B * T)


def test_lengths_are_checked():
    a, run, _ = make("rnn", **SMALL)
    for bad in ([1, 2, 3], [0, 1, 2, 3, 7], [-1, 0, 0, 0, 0], np.ones(5)):
        with pytest.raises(ValueError, match="lengths"):
            forward_masked("kernel", "rnn", a, run, True, np.asarray(bad))


# ---------------------------------------------------------------------------------------------
# Narrow inputs (I <= config.FOLD_MAX_I): BN_t of x_t Wx from the per-step mean and covariance of x_t,
# x Wx never formed, its BN backward inside the time loop (bn_cell_x.fold_stats, fold_col_forward/backward)
# ---------------------------------------------------------------------------------------------
FOLD_LENGTHS = [6, 0, 3, 6, 1, 6, 4]   # B = 7: a row of length 0, one of 1, rows ending early


def gemm_path(monkeypatch, cell):
    """Make the kernels take the wide-input path (x Wx, bn_forward/bn_backward over all T) at any I."""
    monkeypatch.setattr(bn_lstm if cell == "lstm" else bn_rnn, "FOLD_MAX_I", 0)


@pytest.mark.parametrize("masked", [False, True], ids=["full", "masked"])
@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("impl", ["kernel", "kernel-par", "kernel-par3"])
@pytest.mark.parametrize("I", [1, 3])
def test_narrow_input_matches_reference_and_gemm_path(I, impl, cell, training, masked, monkeypatch):
    """At I = 1 (pixel MNIST) and I = 3 (strokes), on one, two and three parts, in both modes, with and
    without masks: outputs, running statistics, the x side's saved statistics and every gradient equal
    the NumPy reference and the wide-input path (the same arithmetic reordered: float64 to 1e-11)."""
    size = dict(T=6, B=7, I=I, H=20, Ts=4)
    lengths = np.array(FOLD_LENGTHS, np.int64) if masked else None
    a, run, dy = make(cell, **size)
    run_f, run_g, run_r = [r.copy() for r in run], [r.copy() for r in run], [r.copy() for r in run]
    out_f = forward_masked(impl, cell, a, run_f, training, lengths)
    assert out_f[-1][0].shape == (size["T"], I + I * I)   # the narrow path ran: no x Wx saved
    out_r = forward_masked("reference", cell, a, run_r, training, lengths)
    g_f = backward(impl, cell, dy, out_f[-1], a)
    g_r = backward("reference", cell, dy, out_r[-1], a)
    gemm_path(monkeypatch, cell)
    out_g = forward_masked(impl, cell, a, run_g, training, lengths)
    assert out_g[-1][0].shape == (size["T"], size["B"], a["Wx"].shape[1])   # x Wx
    g_g = backward(impl, cell, dy, out_g[-1], a)
    for k, (got, want, other) in enumerate(zip(out_f[:-1], out_r[:-1], out_g[:-1])):
        assert_close(f"output {k}", got, want, TOL64)
        assert_close(f"output {k} vs wide path", got, other, TOL64)
    for k, (got, want, other, old) in enumerate(zip(run_f, run_r, run_g, run)):
        assert_close(f"running stat {k}", got, want, TOL64)
        assert_close(f"running stat {k} vs wide path", got, other, TOL64)
        if not training:
            assert np.array_equal(got, old)
    for k in (1, 2):   # mean_x, rstd_x (T,G)
        assert_close(f"saved {k} vs wide path", out_f[-1][k], out_g[-1][k], TOL64)
    for k, (got, want, other) in enumerate(zip(g_f, g_r, g_g)):
        tol = TOL64 * (1 if k == 0 else size["B"] * size["T"])
        assert_close(f"grad {k}", got, want, tol)
        assert_close(f"grad {k} vs wide path", got, other, tol)
    if masked:
        act = active_mask(size["T"], lengths)[:, :, 0].astype(bool)
        assert np.all(g_f[0][~act] == 0) and np.any(g_f[0][act] != 0)   # dx of padded (step, row)s


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_narrow_input_float32_and_clip(cell):
    """float32 at I = 1 on two parts against the float64 reference, with a large input offset (the
    statistics are taken about the batch mean, so x - mean does not cancel), and the BN-LSTM's gate clip
    on the narrow path equal to the reference's."""
    size = dict(T=8, B=6, I=1, H=12, Ts=8)
    a, run, dy = make(cell, dtype=np.float32, **size)
    a["x"] = a["x"] * np.float32(0.2) + np.float32(3.0)
    run_k = [r.copy() for r in run]
    out_k = forward("kernel-par", cell, a, run_k, True)
    a64 = {k: v.astype(np.float64) for k, v in a.items()}
    out_r = forward("reference", cell, a64, [r.astype(np.float64) for r in run], True)
    for k, (got, want) in enumerate(zip(out_k[:-1], out_r[:-1])):
        assert_close(f"output {k}", got, want, TOL32)
    g_k = backward("kernel-par", cell, dy, out_k[-1], a)
    g_r = backward("reference", cell, dy.astype(np.float64), out_r[-1], a64)
    for k, (got, want) in enumerate(zip(g_k, g_r)):
        assert got.dtype == np.float32
        assert_close(f"grad {k}", got, want, TOL32 * (1 if k == 0 else size["B"] * size["T"]))
    if cell == "lstm":
        b64 = dict(a64, x=a64["x"][:, :, :1])
        keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc")
        out_k = forward("kernel-par", cell, b64, [r.astype(np.float64) for r in run], True)
        out_r = forward("reference", cell, b64, [r.astype(np.float64) for r in run], True)
        dy64 = dy.astype(np.float64) * 30.0
        with parts("kernel-par"):
            g_k = bn_lstm.bn_lstm_backward(dy64, out_k[-1], *[b64[k] for k in keys], 0, clip=0.3)
        g_r = ref.bn_lstm_backward(dy64, out_r[-1], *[b64[k] for k in keys], clip=0.3)
        g_u = ref.bn_lstm_backward(dy64, out_r[-1], *[b64[k] for k in keys])
        assert np.abs(g_r[5] - g_u[5]).max() > 1e-6   # the bound is reached
        for k, (got, want) in enumerate(zip(g_k, g_r)):
            assert_close(f"clipped grad {k}", got, want, TOL64 * size["B"] * size["T"])
