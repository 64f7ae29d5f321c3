"""LayerNorm op, RNN and LSTM kernels (norm none/ln): compiled kernels against the NumPy reference,
the reference against finite differences, float32 against float64, chunking of the batch."""
import numpy as np
import pytest

from lnrnn import reference as R
from lnrnn.gradcheck import TOLERANCE, numeric_grad, rel_error
from lnrnn.kernels.layernorm import layernorm_backward, layernorm_forward
from lnrnn.kernels.lstm import NORM_LN, NORM_NONE, lstm_backward, lstm_forward, lstm_infer
from lnrnn.kernels.rnn import rnn_backward, rnn_forward, rnn_infer

EPS = 1e-5
NORM_CODE = {"none": NORM_NONE, "ln": NORM_LN}
F32_TOL = 2e-5  # float32 kernels agree with float64 to this (max abs error relative to max |value|)


def close(a, b):
    """Max abs difference scaled by the magnitude of b."""
    return float(np.max(np.abs(a - b)) / max(np.max(np.abs(b)), 1e-30))


def lstm_problem(rng, T=6, B=5, I=3, H=4, dtype=np.float64):
    G = 4 * H

    def P(*s, scale=1.0, shift=0.0):
        return (shift + scale * rng.standard_normal(s)).astype(dtype)

    return dict(x=P(T, B, I), h0=P(B, H), c0=P(B, H), Wx=P(I, G, scale=0.5), Wh=P(H, G, scale=0.5), b=P(G),
                gx=P(G, scale=0.2, shift=1), bx=P(G, scale=0.2), gh=P(G, scale=0.2, shift=1), bh=P(G, scale=0.2),
                gc=P(H, scale=0.2, shift=1), bc=P(H, scale=0.2))


def rnn_problem(rng, T=6, B=5, I=3, H=4, dtype=np.float64):
    def P(*s, scale=1.0, shift=0.0):
        return (shift + scale * rng.standard_normal(s)).astype(dtype)

    return dict(x=P(T, B, I), h0=P(B, H), Wx=P(I, H, scale=0.5), Wh=P(H, H, scale=0.5), b=P(H),
                g=P(H, scale=0.2, shift=1))


LSTM_FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
LSTM_GRADS = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
RNN_FWD = ("x", "h0", "Wx", "Wh", "b", "g")
RNN_GRADS = ("x", "h0", "Wx", "Wh", "b", "g")


def run_lstm(p, norm, dy, nchunks=2):
    y, hT, cT, saved = lstm_forward(*[p[k] for k in LSTM_FWD], NORM_CODE[norm], EPS, nchunks)
    grads = lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                          NORM_CODE[norm], nchunks)
    return y, hT, cT, dict(zip(LSTM_GRADS, grads))


def run_rnn(p, norm, dy, nchunks=2):
    y, hT, saved = rnn_forward(*[p[k] for k in RNN_FWD], NORM_CODE[norm], EPS, nchunks)
    grads = rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], NORM_CODE[norm], nchunks)
    return y, hT, dict(zip(RNN_GRADS, grads))


def ref_lstm(p, norm, dy):
    y, hT, cT, cache = R.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)
    grads = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    return y, hT, cT, dict(zip(LSTM_GRADS, grads))


def ref_rnn(p, norm, dy):
    y, hT, cache = R.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)
    grads = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
    return y, hT, dict(zip(RNN_GRADS, grads))


# ------------------------------------------------------------------------------------------------
# LayerNorm op
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("N,F,nchunks", [(7, 5, 2), (1, 3, 4), (13, 16, 3)])
def test_layernorm_matches_reference(N, F, nchunks):
    rng = np.random.default_rng(N)
    x, g, b, dy = (rng.standard_normal((N, F)) * 3 + 1, rng.standard_normal(F), rng.standard_normal(F),
                   rng.standard_normal((N, F)))
    y, m, r = layernorm_forward(x, g, b, EPS, nchunks)
    yr, mr, rr = R.layernorm_forward(x, g, b, EPS)
    assert close(y, yr) < 1e-13 and close(m, mr) < 1e-13 and close(r, rr) < 1e-13
    dx, dg, db = layernorm_backward(dy, x, m, r, g, nchunks)
    for a, e in zip((dx, dg, db), R.layernorm_backward(dy, x, mr, rr, g)):
        assert close(a, e) < 1e-12


def test_layernorm_reference_gradcheck():
    rng = np.random.default_rng(1)
    x, g, b, R_ = rng.standard_normal((4, 6)), rng.standard_normal(6), rng.standard_normal(6), rng.standard_normal((4, 6))
    y, m, r = R.layernorm_forward(x, g, b)
    analytic = R.layernorm_backward(R_, x, m, r, g)

    def loss():
        return np.sum(R.layernorm_forward(x, g, b)[0] * R_)

    for a, arr in zip(analytic, (x, g, b)):
        assert rel_error(a, numeric_grad(loss, arr)) < TOLERANCE


def test_layernorm_float32_stays_float32():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((5, 8)).astype(np.float32)
    g, b = np.ones(8, np.float32), np.zeros(8, np.float32)
    y, m, r = layernorm_forward(x, g, b, np.float32(EPS), 2)
    assert y.dtype == m.dtype == r.dtype == np.float32
    assert close(y, R.layernorm_forward(x.astype(np.float64), g, b)[0]) < F32_TOL


# ------------------------------------------------------------------------------------------------
# Activations
# ------------------------------------------------------------------------------------------------
def test_sigmoid_row_float32_accuracy_in_place_and_not():
    from lnrnn.kernels.cpu.rows import sigmoid_row
    a = np.concatenate([np.linspace(-90, 90, 4001), [-1e30, 1e30, 0.0, -0.0, 1e-8]]).astype(np.float32)
    with np.errstate(over="ignore"):  # exp(1e30) = inf: the reference is exactly 0 there
        ref = 1.0 / (1.0 + np.exp(-a.astype(np.float64)))
    kb = np.empty(2 * a.size, np.int32)
    y = np.empty_like(a)
    sigmoid_row(y, a, kb)
    assert y.dtype == np.float32
    assert np.abs(y - ref).max() < 2e-7
    tail = ref > 1e-30  # relative accuracy wherever float32 is not denormal
    assert (np.abs(y - ref)[tail] / ref[tail]).max() < 1e-6
    z = a.copy()
    sigmoid_row(z, z, kb)  # y aliasing a, as the cells call it
    assert np.array_equal(z, y)
    y64 = np.empty(a.size)
    sigmoid_row(y64, a.astype(np.float64), kb)
    assert np.abs(y64 - ref).max() < 1e-15


# ------------------------------------------------------------------------------------------------
# Cells: kernel == reference; reference == finite differences; float32 ~ float64; chunking
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("nchunks", [1, 2, 3, 8])
@pytest.mark.parametrize("I", [1, 3, 6])  # I <= config.FOLD_MAX_I: x Wx, dx, dWx inside the time loop
def test_lstm_kernel_matches_reference(norm, nchunks, I):
    rng = np.random.default_rng(3)
    p = lstm_problem(rng, I=I)
    dy = rng.standard_normal((6, 5, 4))
    y, hT, cT, g = run_lstm(p, norm, dy, nchunks)
    yr, hr, cr, gr = ref_lstm(p, norm, dy)
    assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12 and close(cT, cr) < 1e-12
    for k in ("x", "h0", "c0", "Wx", "Wh", "b") + (LSTM_GRADS[6:] if norm == "ln" else ()):
        assert close(g[k], gr[k]) < 1e-11, k
    if norm == "none":  # gradients of the unused LN parameters are zeros
        assert all(not g[k].any() for k in LSTM_GRADS[6:])


@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("nchunks", [1, 2, 3, 8])
@pytest.mark.parametrize("I", [1, 3, 6])
def test_rnn_kernel_matches_reference(norm, nchunks, I):
    rng = np.random.default_rng(4)
    p = rnn_problem(rng, I=I)
    dy = rng.standard_normal((6, 5, 4))
    y, hT, g = run_rnn(p, norm, dy, nchunks)
    yr, hr, gr = ref_rnn(p, norm, dy)
    assert close(y, yr) < 1e-12 and close(hT, hr) < 1e-12
    for k in RNN_GRADS if norm == "ln" else RNN_GRADS[:5]:
        assert close(g[k], gr[k]) < 1e-11, k


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_reference_gradcheck(norm):
    rng = np.random.default_rng(5)
    p = lstm_problem(rng, T=5, B=3, I=2, H=3)
    Rm = rng.standard_normal((5, 3, 3))

    def loss():
        return np.sum(R.lstm_forward(*[p[k] for k in LSTM_FWD], norm, EPS)[0] * Rm)

    _, _, _, g = ref_lstm(p, norm, Rm)
    for k in LSTM_GRADS if norm == "ln" else LSTM_GRADS[:6]:
        assert rel_error(g[k], numeric_grad(loss, p[k])) < TOLERANCE, k


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_rnn_reference_gradcheck(norm):
    rng = np.random.default_rng(6)
    p = rnn_problem(rng, T=5, B=3, I=2, H=3)
    Rm = rng.standard_normal((5, 3, 3))

    def loss():
        return np.sum(R.rnn_forward(*[p[k] for k in RNN_FWD], norm, EPS)[0] * Rm)

    _, _, g = ref_rnn(p, norm, Rm)
    for k in RNN_GRADS if norm == "ln" else RNN_GRADS[:5]:
        assert rel_error(g[k], numeric_grad(loss, p[k])) < TOLERANCE, k


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_float32_agrees_with_float64(norm):
    rng = np.random.default_rng(7)
    p64 = lstm_problem(rng, T=8, B=6, I=5, H=7)
    p32 = {k: v.astype(np.float32) for k, v in p64.items()}
    dy = rng.standard_normal((8, 6, 7))
    y64, _, _, g64 = run_lstm(p64, norm, dy)
    y32, _, _, g32 = run_lstm(p32, norm, dy.astype(np.float32))
    assert y32.dtype == np.float32 and g32["Wx"].dtype == np.float32
    assert close(y32, y64) < F32_TOL
    for k in g64:
        assert close(g32[k], g64[k]) < 10 * F32_TOL, k


@pytest.mark.parametrize("I", [1, 3, 6])
def test_ln_lstm_float32_weights_with_large_row_means(I):
    """The LN-LSTM takes its LayerNorms' means out through centered weights (lstm.ln_weights) and a
    narrow input's variance in closed form: in float32, with weights whose rows have a mean 5x their
    spread, it still agrees with the float64 reference to the bounds of the other float32 tests."""
    rng = np.random.default_rng(17)
    p64 = lstm_problem(rng, T=8, B=6, I=I, H=7)
    p64["Wx"] += 5.0
    p64["Wh"] += 5.0
    p32 = {k: v.astype(np.float32) for k, v in p64.items()}
    dy = rng.standard_normal((8, 6, 7))
    yr, _, _, gr = ref_lstm(p64, "ln", dy)
    y32, _, _, g32 = run_lstm(p32, "ln", dy.astype(np.float32))
    assert close(y32, yr) < F32_TOL
    for k in gr:
        assert close(g32[k], gr[k]) < 10 * F32_TOL, k


def test_plan_steps_names_a_steps_rows_in_whole_cache_lines():
    """lstm.fetch_table and plan_steps (the regions a step's product asks for while it runs): for each array
    (T',B,X) the rows [lo, hi) of step (t + offset) mod T', from the cache line holding their first byte to
    their last byte; nothing for a step before 0, an empty array or a strided one."""
    from lnrnn.kernels.lstm import fetch_table, plan_steps
    for dtype in (np.float32, np.float64):
        a = np.zeros((4, 6, 37), dtype)
        two = np.zeros((2, 6, 5), dtype)  # lstm_infer's c: two steps in turns
        arrays = (a, two, a, np.zeros((0, 0, 0), dtype), np.zeros((4, 6, 8), dtype)[:, :, ::2])
        tab = fetch_table(arrays, (0, 0, -2, 0, 0))
        plan = np.full((5, 2), -1, np.int64)
        for t, lo, hi in [(3, 1, 5), (1, 0, 6), (2, 5, 6)]:
            n = plan_steps(plan, tab, t, lo, hi)
            want = [(a, t), (two, t % 2)] + ([(a, t - 2)] if t >= 2 else [])
            assert n == len(want)
            for (arr, s), (addr, nbytes) in zip(want, plan[:n]):
                first, end = arr[s, lo].ctypes.data, arr[s, hi - 1].ctypes.data + arr.shape[2] * arr.itemsize
                assert addr % 64 == 0 and addr <= first < addr + 64 and addr + nbytes == end
        assert plan_steps(plan, tab, 2, 3, 3) == 0  # no rows


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_centered_weights_as_numpy_in_float64(dtype):
    """codes.centered (compiled) against its NumPy definition, each row's mean taken in float64 and the
    difference rounded once: float32 bit for bit, float64 within an ulp of the row's scale, on rows
    whose mean is 5x their spread, rows of magnitudes spread over 10^+-4 and a row of G = 1."""
    from lnrnn.kernels.codes import centered
    rng = np.random.default_rng(19)
    cases = [rng.standard_normal((7, 1024)) + 5.0,
             rng.standard_normal((5, 1600)) * np.exp(3.0 * rng.standard_normal((5, 1600))),
             rng.standard_normal((3, 1))]
    for W in cases:
        W = W.astype(dtype)
        want = (W - W.mean(axis=1, keepdims=True, dtype=np.float64)).astype(dtype)
        got = centered(W)
        assert got.dtype == dtype and got.shape == W.shape
        if dtype == np.float32:
            assert np.array_equal(got, want)
        else:
            scale = np.abs(W).max(axis=1, keepdims=True)
            assert np.all(np.abs(got - want) <= np.finfo(dtype).eps * scale)


@pytest.mark.parametrize("norm,I,kept", [("none", 1, False), ("none", 6, False), ("ln", 1, False), ("ln", 6, True)])
def test_lstm_saved_input_projection_only_where_read(norm, I, kept):
    """saved[4] (xhat_x) is kept only for LN with a wide input; the plain LSTM's backward never reads
    x Wx and a narrow input's xhat_x is recomputed (lstm.py's saved-tuple docs)."""
    p = lstm_problem(np.random.default_rng(18), T=3, B=2, I=I, H=2)
    saved = lstm_forward(*[p[k] for k in LSTM_FWD], NORM_CODE[norm], EPS, 2)[3]
    assert saved[4].shape == ((3, 2, 8) if kept else (0, 0, 0))


@pytest.mark.parametrize("rec", ["rgemm", "blas"])  # dWh^T on rgemm (blas.grad_t_add), or dWh by gemm_add
@pytest.mark.parametrize("rows", [1, 6])  # m = 3 rows per chunk: blocks of 1 step; of 2, 2, 1
def test_lstm_dwh_in_blocks_of_few_rows(rows, rec, monkeypatch):
    """The LSTM backward adds dWh block by block (config.DWH_BLOCK_ROWS rows of each chunk): blocks of
    one step, or of two steps with a partial last block, still give the reference's gradients, on
    either of the block products (rgemm's transposed one or the BLAS's)."""
    import lnrnn.kernels.lstm as L
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(blas, "DWH_BLOCK_ROWS", rows)
    monkeypatch.setattr(blas, "DWH_BLAS_MIN_ROWS", 1)  # the BLAS's blocks as small as asked
    monkeypatch.setattr(L, "REC", rec)
    rng = np.random.default_rng(22)
    p = lstm_problem(rng, T=5, I=1)
    dy = rng.standard_normal((5, 5, 4))
    _, _, _, g = run_lstm(p, "ln", dy, nchunks=2)
    _, _, _, gr = ref_lstm(p, "ln", dy)
    assert close(g["Wh"], gr["Wh"]) < 1e-11 and close(g["h0"], gr["h0"]) < 1e-11


def test_lstm_dwh_block_rows_follow_the_l2_rule(monkeypatch):
    """dWh's blocks (blas.dwh_block_rows): a quarter of config.DWH_L2_BYTES of gathered rows where the
    partial of dWh (H,G) fits in it and a wide input's dWx (I,G) in a quarter of it (S1's float32 128 rows,
    float64 64; I 63 at H 128; S2's float32 64, a partial of exactly 1 MB), config.DWH_BLOCK_ROWS where they
    do not (S2 in float64, S3, I 319 at H 160, I 65 at H 256, H 257); with big (the host chose rgemm's
    blocks for large partials) also a quarter of config.DWH_BIG_BYTES where both partials fit in that (S3's
    float32 163 rows; H 512's 4 MB exactly, 128 rows; the synthesis network's upper layers, I 463 at H 400,
    163 rows; I 319 at H 160, 409 rows), never for a partial beyond DWH_BIG_BYTES (H 513, S3 in float64, a
    dWx of I 656 at H 400), and the small partials' blocks unchanged."""
    from lnrnn.kernels.cpu import blas as L
    monkeypatch.setattr(L, "DWH_L2_BYTES", 1 << 20)
    monkeypatch.setattr(L, "DWH_BIG_BYTES", 4 << 20)
    monkeypatch.setattr(L, "DWH_BLOCK_ROWS", 4096)
    for big in (False, True):
        assert L.dwh_block_rows(128, 0, 4, big) == 128 and L.dwh_block_rows(128, 0, 8, big) == 64
        assert L.dwh_block_rows(128, 63, 4, big) == 128
        assert L.dwh_block_rows(256, 28, 4, big) == 64 and L.dwh_block_rows(256, 64, 4, big) == 64
        assert L.dwh_block_rows(4, 0, 8, big) == 2048
        assert L.dwh_block_rows(2, 0, 4, big) == 4096  # never more than DWH_BLOCK_ROWS
        assert L.dwh_block_rows(513, 0, 4, big) == 4096 and L.dwh_block_rows(400, 0, 8, big) == 4096
        assert L.dwh_block_rows(400, 656, 4, big) == 4096  # dWx (656,1600) 4.2 MB
    assert L.dwh_block_rows(256, 28, 8) == 4096 and L.dwh_block_rows(257, 0, 4) == 4096
    assert L.dwh_block_rows(400, 0, 4) == 4096 and L.dwh_block_rows(160, 319, 4) == 4096
    assert L.dwh_block_rows(256, 65, 4) == 4096 and L.dwh_block_rows(400, 463, 4) == 4096
    assert L.dwh_block_rows(160, 319, 4, True) == (4 << 20) // 4 // (640 * 4)     # 409
    assert L.dwh_block_rows(256, 65, 4, True) == (4 << 20) // 4 // (1024 * 4)     # 256
    assert L.dwh_block_rows(400, 463, 4, True) == (4 << 20) // 4 // (1600 * 4)    # 163
    assert L.dwh_block_rows(400, 655, 4, True) == 163  # dWx (655,1600) 4.19 MB, within 4 MiB
    assert L.dwh_block_rows(256, 28, 8, True) == 128 and L.dwh_block_rows(257, 0, 4, True) == 255
    assert L.dwh_block_rows(400, 0, 4, True) == 163 and L.dwh_block_rows(512, 0, 4, True) == 128
    assert L.dwh_budget(400, 0, 4, True) == 4 << 20 and L.dwh_budget(400, 0, 4, False) == 0
    assert L.dwh_budget(128, 0, 4, True) == 1 << 20 and L.dwh_budget(513, 0, 4, True) == 0
    monkeypatch.setattr(L, "DWH_BLOCK_ROWS", 6)
    assert L.dwh_block_rows(4, 0, 8) == 6 and L.dwh_block_rows(128, 0, 4) == 6
    assert L.dwh_block_rows(400, 0, 4, True) == 6


def test_lstm_dwh_blocks_steps_and_product():
    """blas.dwh_blocks: whole steps of a chunk's m rows per block (at least one, at most T), and rgemm's
    transposed product where rgemm runs the per-step products and the block fills at most half of its L2
    budget. S1 (H 128, 32 rows a chunk, T 784): 4 steps on rgemm either way; S3 (H 400, 16 rows, T 300):
    10 steps on rgemm where the host chose rgemm's blocks, else 256 steps (4096 rows) on the BLAS; per-step
    products on the BLAS: the BLAS's blocks whatever was chosen for dWh; a short sequence: T steps.
    The BLAS's blocks shorter than config.DWH_BLAS_MIN_ROWS rows are made as many as blocks of that many
    rows would be, the steps spread evenly: S1 on the BLAS 8 steps of 32 rows (not the L2 rule's 4), S2 (H
    256, 32 rows, T 28) 4 blocks of 7 steps (not 14 of the L2 rule's 2, nor 8, 8, 8, 4), 10 steps 2 blocks
    of 5, 5 steps one block; larger blocks as they were."""
    from lnrnn.kernels.cpu.blas import DWH_BIG_BYTES, DWH_BLAS_MIN_ROWS, DWH_BLOCK_ROWS, DWH_L2_BYTES, dwh_blocks
    assert (DWH_L2_BYTES, DWH_BIG_BYTES, DWH_BLOCK_ROWS, DWH_BLAS_MIN_ROWS) == (1 << 20, 4 << 20, 4096, 256)
    for dwh in ("rgemm", "blas"):
        assert dwh_blocks(128, 0, 32, 784, 4, "rgemm", dwh) == (4, True)
        assert dwh_blocks(128, 0, 32, 784, 4, "blas", dwh) == (8, False)
        assert dwh_blocks(256, 28, 32, 28, 4, "blas", dwh) == (7, False)
        assert dwh_blocks(256, 28, 32, 28, 4, "rgemm", dwh) == (2, True)     # rgemm's own blocks stay small
        assert dwh_blocks(256, 28, 32, 10, 4, "blas", dwh) == (5, False)
        assert dwh_blocks(256, 28, 32, 5, 4, "blas", dwh) == (5, False)
        assert dwh_blocks(256, 28, 37, 28, 4, "blas", dwh) == (7, False)     # 7 steps of 37 rows: 259
        assert dwh_blocks(256, 28, 43, 28, 4, "blas", dwh) == (6, False)     # 6 of 43: 258 (5 blocks, last 4)
        assert dwh_blocks(256, 28, 256, 28, 4, "blas", dwh) == (1, False)    # a step's rows are enough
        assert dwh_blocks(256, 28, 255, 28, 4, "blas", dwh) == (2, False)
        assert dwh_blocks(4, 0, 32, 784, 4, "blas", dwh) == (128, False)      # L2 blocks already larger: kept
        assert dwh_blocks(400, 0, 16, 300, 4, "blas", dwh) == (256, False)
        assert dwh_blocks(400, 0, 16, 300, 8, "rgemm", dwh) == (256, False)
    assert dwh_blocks(400, 0, 16, 300, 4, "rgemm", "rgemm") == (10, True)
    assert dwh_blocks(400, 0, 16, 300, 4, "rgemm", "blas") == (256, False)
    assert dwh_blocks(400, 0, 16, 6, 4, "rgemm", "rgemm") == (6, True)
    assert dwh_blocks(400, 0, 400, 300, 4, "rgemm", "rgemm") == (1, False)  # at least a step: 400 rows, 2.56 MB
    assert dwh_blocks(400, 0, 320, 300, 4, "rgemm", "rgemm") == (1, True)   # 320 rows: 2.05 MB, half of 4 MB
    assert dwh_blocks(400, 0, 328, 300, 4, "rgemm", "rgemm") == (1, False)  # 328 rows: 2.1 MB
    assert dwh_blocks(16, 0, 4, 3, 8, "rgemm", "blas") == (3, True)         # a short sequence on any host
    # the synthesis network's upper layers (I 463 = x | h_below | window, H 400, 16 rows a chunk): 10 steps on
    # rgemm where the host chose rgemm's blocks for large partials, else 4096-row blocks on the BLAS
    assert dwh_blocks(400, 463, 16, 500, 4, "rgemm", "rgemm") == (10, True)
    assert dwh_blocks(400, 463, 16, 500, 4, "rgemm", "blas") == (256, False)


@pytest.mark.parametrize("rec", ["rgemm", "blas"])  # dWh^T on rgemm (blas.grad_t_add), or dWh by gemm_add
@pytest.mark.parametrize("l2", [1024, 3072])  # G 16 float64, m 3 rows a chunk: blocks of 1 step; of 2, 2, 1
def test_lstm_dwh_in_l2_blocks(l2, rec, monkeypatch):
    """The L2 rule's blocks (dwh_block_rows, here with a tiny L2) of one step, or of two with a partial
    last block, still give the reference's gradients, whether dWh's blocks run on rgemm (transposed,
    where the blocks stay in L2 and rgemm runs the per-step products) or on the BLAS."""
    import lnrnn.kernels.lstm as L
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(blas, "DWH_L2_BYTES", l2)
    monkeypatch.setattr(blas, "DWH_BLAS_MIN_ROWS", 1)  # the BLAS's blocks as small as asked
    monkeypatch.setattr(L, "REC", rec)
    assert blas.dwh_block_rows(4, 0, 8) == l2 // 512
    rng = np.random.default_rng(24)
    p = lstm_problem(rng, T=5, I=1)
    dy = rng.standard_normal((5, 5, 4))
    _, _, _, g = run_lstm(p, "ln", dy, nchunks=2)
    _, _, _, gr = ref_lstm(p, "ln", dy)
    assert close(g["Wh"], gr["Wh"]) < 1e-11 and close(g["h0"], gr["h0"]) < 1e-11


@pytest.mark.parametrize("dwh", ["rgemm", "blas"])  # large partials on rgemm's blocks (the host's choice) or not
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I", [1, 6])  # a narrow input (dWx row by row), a wide one (its dWx per x block, 768 bytes)
def test_lstm_dwh_of_a_partial_beyond_l2(dwh, norm, I, monkeypatch):
    """A dWh partial (H 4: 512 bytes in float64) over config.DWH_L2_BYTES (here 256 bytes) but within
    DWH_BIG_BYTES (1536: blocks of 384 // 128 = 3 rows, one step of a 3-row chunk) takes rgemm's transposed
    blocks where the host chose them (blas.DWH), with a wide input's dWx, the BLAS's blocks of DWH_BLOCK_ROWS
    (6 rows: two steps, the last block one) where not: both give the reference's gradients, on uneven chunks."""
    import lnrnn.kernels.lstm as L
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(blas, "DWH_L2_BYTES", 256)
    monkeypatch.setattr(blas, "DWH_BIG_BYTES", 1536)
    monkeypatch.setattr(blas, "DWH_BLOCK_ROWS", 6)
    monkeypatch.setattr(blas, "DWH_BLAS_MIN_ROWS", 1)  # the BLAS's blocks as small as asked
    monkeypatch.setattr(L, "REC", "rgemm")
    monkeypatch.setattr(L, "DWH", dwh)
    monkeypatch.setattr(L, "GRAD", "rgemm")        # within L2 rgemm's blocks, as where the host measured them
    planned = []                                   # what the backward's plan of blocks was asked and gave
    monkeypatch.setattr(L, "dwh_blocks", lambda *a: planned.append((a, blas.dwh_blocks(*a))) or planned[-1][1])
    rng = np.random.default_rng(25)
    p = lstm_problem(rng, T=5, I=I)
    dy = rng.standard_normal((5, 5, 4))
    _, _, _, g = run_lstm(p, norm, dy, nchunks=2)
    _, _, _, gr = ref_lstm(p, norm, dy)
    wide = 0 if I == 1 else I
    assert planned == [((4, wide, 3, 5, 8, "rgemm", dwh, "rgemm"), (1, True) if dwh == "rgemm" else (2, False))]
    for k in ("Wh", "h0", "Wx", "b", "x"):
        assert close(g[k], gr[k]) < 1e-11, k


@pytest.mark.parametrize("rec", ["rgemm", "blas"])  # dWx^T (with dWh^T) on rgemm's blocks, or dWx by gemm_add
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("xrows,hrows", [(1, 4096), (6, 4096), (2, 6), (6, 2), (6, 9)])  # m = 3 rows a chunk
def test_lstm_wide_input_gradients_in_blocks_of_few_rows(norm, xrows, hrows, rec, monkeypatch):
    """A wide input's dWx and dx are taken per block of gathered rows (config.DWX_BLOCK_ROWS, within the
    dWh blocks of config.DWH_BLOCK_ROWS): blocks of one step, uneven last blocks, x blocks shorter and
    longer than the dWh ones, on uneven chunks, still give the reference's gradients, whether the blocks'
    dWx and dWh run on rgemm's transposed product (where rgemm runs the per-step products) or the BLAS's."""
    import lnrnn.kernels.lstm as L
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(L, "DWX_BLOCK_ROWS", xrows)
    monkeypatch.setattr(blas, "DWH_BLOCK_ROWS", hrows)
    monkeypatch.setattr(blas, "DWH_BLAS_MIN_ROWS", 1)  # the BLAS's blocks as small as asked
    monkeypatch.setattr(L, "REC", rec)
    monkeypatch.setattr(L, "GRAD", "rgemm")  # within L2 rgemm's blocks where it runs per step, as measured
    planned = []
    monkeypatch.setattr(L, "dwh_blocks", lambda *a: planned.append(blas.dwh_blocks(*a)) or planned[-1])
    rng = np.random.default_rng(23)
    p = lstm_problem(rng, T=7, B=5, I=6)
    dy = rng.standard_normal((7, 5, 4))
    _, _, _, g = run_lstm(p, norm, dy, nchunks=2)
    _, _, _, gr = ref_lstm(p, norm, dy)
    assert [tw for _, tw in planned] == [rec == "rgemm"]  # tiny partials: rgemm's wherever it runs per step
    for k in ("Wx", "x", "Wh", "h0", "b"):
        assert close(g[k], gr[k]) < 1e-11, k


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("norm", ["none", "ln"])
@pytest.mark.parametrize("I,T", [(1, 5), (3, 1), (6, 4)])
def test_infer_equals_training_forward(dtype, norm, I, T):
    """lstm_infer / rnn_infer (no saved tuple: one-step buffers) give the training forward's outputs
    bit for bit, for narrow and wide inputs, one step or several, on uneven batch chunks."""
    p = lstm_problem(np.random.default_rng(19), T=T, B=5, I=I, H=4, dtype=dtype)
    y, hT, cT, _ = lstm_forward(*[p[k] for k in LSTM_FWD], NORM_CODE[norm], EPS, 3)
    yi, hi, ci = lstm_infer(*[p[k] for k in LSTM_FWD], NORM_CODE[norm], EPS, 3)
    assert yi.dtype == dtype and (yi == y).all() and (hi == hT).all() and (ci == cT).all()
    p = rnn_problem(np.random.default_rng(20), T=T, B=5, I=I, H=4, dtype=dtype)
    y, hT, _ = rnn_forward(*[p[k] for k in RNN_FWD], NORM_CODE[norm], EPS, 3)
    yi, hi = rnn_infer(*[p[k] for k in RNN_FWD], NORM_CODE[norm], EPS, 3)
    assert yi.dtype == dtype and (yi == y).all() and (hi == hT).all()


@pytest.mark.parametrize("norm", ["none", "ln"])
def test_rnn_float32_agrees_with_float64(norm):
    rng = np.random.default_rng(8)
    p64 = rnn_problem(rng, T=8, B=6, I=5, H=7)
    p32 = {k: v.astype(np.float32) for k, v in p64.items()}
    dy = rng.standard_normal((8, 6, 7))
    y64, _, g64 = run_rnn(p64, norm, dy)
    y32, _, g32 = run_rnn(p32, norm, dy.astype(np.float32))
    assert y32.dtype == np.float32
    assert close(y32, y64) < F32_TOL
    for k in g64:
        assert close(g32[k], g64[k]) < 10 * F32_TOL, k


def test_single_step_and_single_row():
    rng = np.random.default_rng(9)
    p = lstm_problem(rng, T=1, B=1, I=1, H=2)
    dy = rng.standard_normal((1, 1, 2))
    y, hT, cT, g = run_lstm(p, "ln", dy, nchunks=4)
    yr, _, _, gr = ref_lstm(p, "ln", dy)
    assert close(y, yr) < 1e-12 and close(g["Wh"], gr["Wh"]) < 1e-11
