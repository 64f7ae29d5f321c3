"""Graves's synthesis layer with its soft window, lnrnn/kernels/window.py: the NumPy spec
(reference.window_lstm_forward/backward) against central differences, the kernel against the spec, the
kernel's own backward against central differences, and the kernel's inference and text-mask rules, and
its results under any thread count."""
import numba
import numpy as np
import pytest

from gradcheck_util import TOLERANCE, numeric_grad, rel_error, sample_idx
from lnrnn import reference as ref
from lnrnn.kernels import window
from lnrnn.kernels.codes import NORM_BN, NORM_LN, NORM_NONE
from lnrnn.kernels.masks import step_mask

EPS = 1e-5
MOM = 0.1
TOL_FWD = 1e-12   # float64 kernel vs reference, forward (summation order only)
TOL_BWD = 1e-10   # ... backward
TOL32 = 2e-4      # float32 kernel vs float64 reference (7 steps, BN and the window's exps in float32)
CLIP = 0.05       # bites at these sizes (asserted)
MAX_IDX = 12      # central differences at most this many random elements of each array

NORMS = {"none": NORM_NONE, "ln": NORM_LN, "bn": NORM_BN}
# shapes that are not round; lengths: masks on points (a row padded throughout, two or more rows active at
# every step, so BN_t's variance is never of one row); ulen: masks on characters (a text of none, one, all U)
SHAPE = dict(T=7, B=5, I=3, H=6, K=3, C=9, U=6, lengths=[7, 4, 7, 0, 6], ulen=[6, 3, 0, 5, 1])
SMALL = dict(T=5, B=4, I=2, H=3, K=2, C=5, U=4, lengths=[5, 3, 5, 2], ulen=[4, 2, 0, 3])
# (norm, training): BN both ways, the others once (training does not change them)
MODES = [("none", True), ("ln", True), ("bn", True), ("bn", False)]
MODE_IDS = ["none", "ln", "bn-train", "bn-infer"]
GRADS = ("x", "h0", "c0", "kappa0", "w0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc", "Wp", "bp")
FORWARD_OUT = ("y", "w", "hT", "cT", "kappaT", "wT", "phi")


def problem(T, B, I, H, K, C, U, lengths, ulen, seed=0):
    """float64: a = the forward's inputs and parameters in argument order (chars past ulen random codes),
    run = BN's running statistics (Ts = T + 1 rows), lengths, and the upstream dy, dw."""
    rng = np.random.default_rng(seed)
    G = 4 * H

    def nrm(*shape, sc=1.0, mu=0.0):
        return mu + sc * rng.standard_normal(shape)

    a = dict(x=nrm(T, B, I), h0=nrm(B, H, sc=0.5), c0=nrm(B, H, sc=0.5), kappa0=rng.uniform(0.0, 1.0, (B, K)),
             w0=rng.uniform(0.0, 0.5, (B, C)), chars=rng.integers(0, C, (B, U)), ulen=np.array(ulen, np.int64),
             Wx=nrm(I + C, G, sc=0.4), Wh=nrm(H, G, sc=0.4), b=nrm(G, sc=0.1), gx=nrm(G, sc=0.1, mu=1.0),
             bx=nrm(G, sc=0.1), gh=nrm(G, sc=0.1, mu=1.0), bh=nrm(G, sc=0.1), gc=nrm(H, sc=0.1, mu=1.0),
             bc=nrm(H, sc=0.1), Wp=nrm(H, 3 * K, sc=0.3),
             # alpha ~ 1, beta ~ e^-1 (a window a few characters wide), kappa moves ~0.6 a step: over T steps
             # the window sweeps most of the text
             bp=np.concatenate([nrm(K, sc=0.1), nrm(K, sc=0.1, mu=-1.0), nrm(K, sc=0.1, mu=-0.5)]))
    Ts = T + 1
    run = [nrm(Ts, G, sc=0.1), rng.uniform(0.5, 2.0, (Ts, G)), nrm(Ts, G, sc=0.1), rng.uniform(0.5, 2.0, (Ts, G)),
           nrm(Ts, H, sc=0.1), rng.uniform(0.5, 2.0, (Ts, H))]
    return a, run, np.array(lengths, np.int64), nrm(T, B, H), nrm(T, B, C)


def cast(a, dtype):
    return {k: (v.astype(dtype) if v.dtype.kind == "f" else v) for k, v in a.items()}


def ref_forward(a, run, norm, training, lengths):
    return ref.window_lstm_forward(*a.values(), *run, norm, training, MOM, EPS, lengths)


def ref_backward(dy, dw, cache, a, clip=0.0):
    return ref.window_lstm_backward(dy, dw, cache, a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], a["chars"],
                                    clip)


def kernel_forward(a, run, norm, training, lengths, keep=True):
    return window.window_lstm_forward(*a.values(), *run, NORMS[norm], training, MOM, EPS, lengths, keep)


def kernel_backward(dy, dw, saved, a, norm, clip=0.0):
    return window.window_lstm_backward(dy, dw, saved, a["x"], a["h0"], a["c0"], a["kappa0"], a["w0"], a["chars"],
                                       a["ulen"], a["Wx"], a["Wh"], a["gx"], a["gh"], a["gc"], a["Wp"], NORMS[norm],
                                       clip)


def assert_close(name, got, want, tol):
    """max |got - want| relative to max |want| (zeros must come out zero)."""
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64) * np.ones(np.shape(got))
    assert got.shape == want.shape, f"{name}: shape {got.shape} != {want.shape}"
    err = np.max(np.abs(got - want), initial=0.0) / max(np.max(np.abs(want), initial=0.0), 1e-300)
    assert err <= tol, f"{name}: relative error {err:.3g} > {tol:.3g}"


def masked_loss(y, w, Gy, Gw, lengths):
    """sum(y Gy) + sum(w Gw) over the active (row, step)s: the loss whose gradient the backward gets from
    dy = Gy, dw = Gw (it ignores both at padded steps)."""
    m = step_mask(lengths, y.shape[0], y.shape[1])[:, :, None]
    return float(np.sum(m * y * Gy) + np.sum(m * w * Gw))


def check_central_differences(fwd, bwd, a, run, lengths, Gy, Gw, rng):
    """Every gradient of bwd against central differences of masked_loss through fwd, on at most MAX_IDX
    random elements of each array -> {name: relative error}."""
    def loss():
        y, w = fwd([v.copy() for v in run])[:2]
        return masked_loss(y, w, Gy, Gw, lengths)

    grads = bwd()
    errors = {}
    for name, g in zip(GRADS, grads):
        idx = sample_idx(a[name], MAX_IDX, rng)
        num = numeric_grad(loss, a[name], idx=idx)
        errors[name] = rel_error(np.asarray(g).reshape(-1)[idx], num)
    return errors


@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_reference_backward_matches_central_differences(norm, training):
    """The spec itself, with masks on points and characters, clip off."""
    a, run, lengths, Gy, Gw = problem(**SMALL)

    def fwd(r):
        return ref_forward(a, r, norm, training, lengths)

    def bwd():
        return ref_backward(Gy, Gw, fwd([v.copy() for v in run])[-1], a)

    errors = check_central_differences(fwd, bwd, a, run, lengths, Gy, Gw, np.random.default_rng(1))
    bad = {k: v for k, v in errors.items() if not v <= TOLERANCE}
    assert not bad, f"reference gradients off: {bad}"


@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_kernel_backward_matches_central_differences(norm, training):
    """The kernel judged by finite differences of its own forward (not through the reference)."""
    a, run, lengths, Gy, Gw = problem(**SMALL, seed=2)

    def fwd(r):
        return kernel_forward(a, r, norm, training, lengths)

    def bwd():
        return kernel_backward(Gy, Gw, fwd([v.copy() for v in run])[-1], a, norm)

    errors = check_central_differences(fwd, bwd, a, run, lengths, Gy, Gw, np.random.default_rng(3))
    bad = {k: v for k, v in errors.items() if not v <= TOLERANCE}
    assert not bad, f"kernel gradients off: {bad}"


@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_kernel_matches_reference(norm, training):
    """float64: forward outputs and BN's running statistics to 1e-12, every gradient to 1e-10."""
    a, run, lengths, dy, dw = problem(**SHAPE)
    run_ref, run_ker = [v.copy() for v in run], [v.copy() for v in run]
    want = ref_forward(a, run_ref, norm, training, lengths)
    got = kernel_forward(a, run_ker, norm, training, lengths)
    # the problem exercises the window: some character gets real weight, and every row with text moves
    phi = want[6]
    assert phi.max() > 0.1 and np.all(phi[:, np.asarray(SHAPE["ulen"]) == 0] == 0.0)
    for name, g, w in zip(FORWARD_OUT, got[:7], want[:7]):
        assert_close(name, g, w, TOL_FWD)
    for k, (g, w) in enumerate(zip(run_ker, run_ref)):
        assert_close(f"running statistics {k}", g, w, TOL_FWD)
    if norm == "bn" and training:
        assert not np.array_equal(run_ker[0], run[0]), "the running statistics were not updated"
    c_seq, kappa_seq = window.window_sequences(got[-1])
    assert_close("c sequence", c_seq, np.stack([s["c"] for s in want[-1]["steps"]]), TOL_FWD)
    assert_close("kappa sequence", kappa_seq, np.stack([s["win"]["kappa"] for s in want[-1]["steps"]]), TOL_FWD)
    g_want = ref_backward(dy, dw, want[-1], a)
    g_got = kernel_backward(dy, dw, got[-1], a, norm)
    for name, g, w in zip(GRADS, g_got, g_want):
        assert_close(name, g, w, TOL_BWD)


@pytest.mark.parametrize("nrows,tw", [(3, True), (1, True), (1000, True), (4096, False)])
def test_dwh_on_either_product(nrows, tw, monkeypatch):
    """dWh over all T*B rows on rgemm's transposed product in blocks of nrows rows (uneven last blocks, one
    block a part) or in one GEMM a part (blas.grad_blocks' two answers, whichever this host gives): every
    gradient the reference's, twice in a row (a partial left from the call before would show)."""
    monkeypatch.setattr(window, "grad_blocks", lambda K, N, itemsize: (nrows, tw))
    a, run, lengths, dy, dw = problem(**SHAPE)
    want = ref_forward(a, [v.copy() for v in run], "ln", True, lengths)
    g_want = ref_backward(dy, dw, want[-1], a)
    for _ in range(2):
        got = kernel_forward(a, [v.copy() for v in run], "ln", True, lengths)
        for name, g, w in zip(GRADS, kernel_backward(dy, dw, got[-1], a, "ln"), g_want):
            assert_close(name, g, w, TOL_BWD)


@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_clipped_backward_matches_reference(norm, training):
    """Graves's gate clip against the reference with the same clip; the clip changes the gradients here."""
    a, run, lengths, dy, dw = problem(**SHAPE, seed=4)
    want = ref_forward(a, [v.copy() for v in run], norm, training, lengths)
    got = kernel_forward(a, [v.copy() for v in run], norm, training, lengths)
    g_want = ref_backward(dy, dw, want[-1], a, CLIP)
    g_got = kernel_backward(dy, dw, got[-1], a, norm, CLIP)
    for name, g, w in zip(GRADS, g_got, g_want):
        assert_close(name, g, w, TOL_BWD)
    unclipped = kernel_backward(dy, dw, got[-1], a, norm)
    assert not np.allclose(unclipped[7], g_got[7]), "the clip never bit: db is the unclipped one"


@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_float32_matches_float64_reference(norm, training):
    """float32 forward and backward against the float64 reference, relative to each array's largest."""
    a, run, lengths, dy, dw = problem(**SHAPE, seed=5)
    want = ref_forward(a, [v.copy() for v in run], norm, training, lengths)
    g_want = ref_backward(dy, dw, want[-1], a)
    a32 = cast(a, np.float32)
    run32 = [v.astype(np.float32) for v in run]
    got = kernel_forward(a32, run32, norm, training, lengths)
    for name, g, w in zip(FORWARD_OUT, got[:7], want[:7]):
        assert g.dtype == np.float32, name
        assert_close(name, g, w, TOL32)
    g_got = kernel_backward(dy.astype(np.float32), dw.astype(np.float32), got[-1], a32, norm)
    for name, g, w in zip(GRADS, g_got, g_want):
        assert g.dtype == np.float32, name
        assert_close(name, g, w, TOL32)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_inference_equals_training_forward_bit_for_bit(norm, training, dtype):
    """keep=False (one step of each saved array) gives keep=True's y, w, phi, final state and running
    statistics, bit for bit."""
    a, run, lengths, _, _ = problem(**SHAPE, seed=6)
    a = cast(a, dtype)
    run_keep, run_infer = [v.astype(dtype) for v in run], [v.astype(dtype) for v in run]
    kept = kernel_forward(a, run_keep, norm, training, lengths, keep=True)
    inferred = kernel_forward(a, run_infer, norm, training, lengths, keep=False)
    assert inferred[-1] is None
    for name, k, i in zip(FORWARD_OUT, kept[:7], inferred[:7]):
        assert np.array_equal(k, i), name
    for k, i in zip(run_keep, run_infer):
        assert np.array_equal(k, i)


@pytest.mark.parametrize("norm,training", [("ln", True), ("bn", True)], ids=["ln", "bn-train"])
def test_characters_past_ulen_change_nothing(norm, training):
    """Other codes past ulen (other characters, and codes outside [0, C) that would index out of range):
    outputs and gradients identical."""
    a, run, lengths, dy, dw = problem(**SHAPE, seed=7)
    U, C = SHAPE["U"], SHAPE["C"]
    past = np.arange(U)[None, :] >= a["ulen"][:, None]
    assert past.any()
    base = kernel_forward(a, [v.copy() for v in run], norm, training, lengths)
    g_base = kernel_backward(dy, dw, base[-1], a, norm)
    rng = np.random.default_rng(8)
    for codes in (rng.integers(0, C, past.shape), np.full(past.shape, C + 1000), np.full(past.shape, -7)):
        b = dict(a, chars=np.where(past, codes, a["chars"]))
        assert not np.array_equal(b["chars"], a["chars"])
        out = kernel_forward(b, [v.copy() for v in run], norm, training, lengths)
        for name, x, y in zip(FORWARD_OUT, base[:7], out[:7]):
            assert np.array_equal(x, y), name
        for name, x, y in zip(GRADS, g_base, kernel_backward(dy, dw, out[-1], b, norm)):
            assert np.array_equal(x, y), name


def test_bad_text_is_refused():
    """A code before ulen outside [0, C), or a text length outside [0, U]: ValueError, before any kernel runs."""
    a, run, lengths, _, _ = problem(**SHAPE)
    bad = a["chars"].copy()
    bad[0, 0] = SHAPE["C"]  # row 0 reads all U characters
    with pytest.raises(ValueError, match="character codes"):
        kernel_forward(dict(a, chars=bad), run, "ln", True, lengths)
    with pytest.raises(ValueError, match="ulen"):
        kernel_forward(dict(a, ulen=a["ulen"] + SHAPE["U"]), run, "ln", True, lengths)
    for wrong in (SHAPE["U"] + 1, -1):  # one past either end
        ulen = a["ulen"].copy()
        ulen[1] = wrong
        with pytest.raises(ValueError, match=r"ulen must lie in \[0, U\]"):
            kernel_forward(dict(a, ulen=ulen), run, "ln", True, lengths)


def test_float32_exp_of_the_window():
    """window._exp in float32 (the polynomial the window's passes over the characters use): within 4e-7 of
    exp relative, exactly 0 below -87 (no subnormals), NaN for NaN; float64 exp to rounding."""
    @numba.njit
    def apply(z, out):
        for j in range(z.shape[0]):
            out[j] = window._exp(z[j])

    z = np.concatenate([np.linspace(-87.0, 0.0, 200001), np.linspace(-200.0, -87.0001, 1001), [-np.inf]])
    z32 = z.astype(np.float32)
    got = np.empty_like(z32)
    apply(z32, got)
    want = np.exp(z32.astype(np.float64))
    ok = z32 >= np.float32(-87.0)
    assert np.max(np.abs(got[ok] - want[ok]) / want[ok]) < 4e-7
    assert np.all(got[~ok] == 0.0)
    nan = np.empty(1, np.float32)
    apply(np.array([np.nan], np.float32), nan)
    assert np.isnan(nan[0])
    got64 = np.empty_like(z)
    apply(z, got64)
    assert np.allclose(got64, np.exp(z), rtol=1e-15, atol=0.0)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one Numba thread: the thread count cannot change")
@pytest.mark.parametrize("B", [5, 67])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("norm,training", MODES, ids=MODE_IDS)
def test_results_do_not_depend_on_the_thread_count(norm, training, dtype, B):
    """numba.set_num_threads(1) and 2: outputs, running statistics and gradients identical bit for bit (B = 5:
    two chunks; B = 67: four, two per thread)."""
    rng = np.random.default_rng(9)
    shape = dict(SHAPE, B=B, lengths=rng.integers(0, SHAPE["T"] + 1, B), ulen=rng.integers(0, SHAPE["U"] + 1, B))
    shape["lengths"][:2] = SHAPE["T"]  # two rows active at every step (BN_t's variance)
    a, run, lengths, dy, dw = problem(**shape, seed=10)
    a, dy, dw = cast(a, dtype), dy.astype(dtype), dw.astype(dtype)
    results = []
    old = numba.get_num_threads()
    try:
        for n in (1, 2):
            numba.set_num_threads(n)
            r = [v.astype(dtype) for v in run]
            out = kernel_forward(a, r, norm, training, lengths)
            grads = kernel_backward(dy, dw, out[-1], a, norm, CLIP)
            results.append([np.ascontiguousarray(v).tobytes() for v in (*out[:7], *r, *grads)])
    finally:
        numba.set_num_threads(old)
    names = (*FORWARD_OUT, *(f"running statistics {k}" for k in range(6)), *GRADS)
    bad = [n for n, one, two in zip(names, *results) if one != two]
    assert not bad, f"these differ between 1 and 2 threads: {bad}"
