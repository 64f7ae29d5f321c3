"""CUDA block sizes that are not powers of two: the block reductions and the cells.

The other CUDA tests run 4, 8, 32 or 128 threads per block, where a reduction that halves the active
threads (n // 2) is right by accident. Real launches are not so kind: an LN-LSTM with H = 20 runs its
sequence kernels on 96-thread blocks (seq_threads(4H = 80) rounds to a warp multiple), and the tile
and block-size settings are free. Here: rows_cuda.block_sum (one value per thread of a 1-D block)
for every size 1..33 and 96; batchnorm_cuda.lane_sums and split_matvec with odd shapes; and the
LayerNorm, LSTM/LN-LSTM, RNN/LN-RNN, BatchNorm and BN cells against their CPU twins with blocks of
6, 24 and 96 threads and GEMM/column tiles of 3 and 5 (9 and 25 threads, 3 and 5 lanes).

Runs under Numba's CUDA simulator (tests/conftest.py; one OS thread per CUDA thread: tiny shapes) or
on a GPU (NUMBA_ENABLE_CUDASIM=0).
"""

import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402

from numba import cuda, float64  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda, gemm_cuda, rows_cuda
from bn_problems import bn_problem  # noqa: E402
from test_cuda_kernels import close, simulator_race_free  # noqa: E402  (one copy of the simulator fixes)

EPS = 1e-5
TOL64 = 1e-12  # float64: max |cuda - cpu| / max |cpu|


@pytest.fixture(autouse=True)
def simulator_setup(monkeypatch):
    with simulator_race_free(monkeypatch):
        yield


host = arrays_cuda.to_host


def geometry(monkeypatch, tpb=None, tile=None, sequence=None):
    """Threads per block of row kernels and sequence kernels (their cap), GEMM/column tile edge, path."""
    if tpb is not None:
        monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
        monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", tpb)
    if tile is not None:
        monkeypatch.setattr(gemm_cuda, "TILE", tile)
    if sequence is not None:
        monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", sequence)


# ------------------------------------------------------------------------------------------------
# The reductions themselves
# ------------------------------------------------------------------------------------------------
_SUM_KERNELS = {}


def sum_kernel(n):
    """A kernel where every thread of a 1-D block of n threads calls block_sum twice (the second call
    reuses the shared scratch: the trailing barrier matters) and writes what it got back."""
    if n not in _SUM_KERNELS:
        @cuda.jit
        def k(vals, out):
            sh = cuda.shared.array(n, float64)
            b = cuda.blockIdx.x
            tid = cuda.threadIdx.x
            s = rows_cuda.block_sum(sh, vals[b, tid])
            s2 = rows_cuda.block_sum(sh, vals[b, tid] * 2.0 + 1.0)
            out[b, tid, 0] = s
            out[b, tid, 1] = s2
        _SUM_KERNELS[n] = k
    return _SUM_KERNELS[n]


@pytest.mark.parametrize("n", list(range(1, 34)) + [48, 96])
def test_block_sum_every_block_size(n):
    """Small integers (sums exact in float64): any lost or doubled partial shows as a wrong integer.
    Two blocks, so a shared array of the wrong block is noticed too."""
    rng = np.random.default_rng(n)
    vals = rng.integers(1, 1000, (2, n)).astype(np.float64)
    out = np.zeros((2, n, 2))
    d_out = cuda.to_device(out)
    sum_kernel(n)[2, n](cuda.to_device(vals), d_out)
    out = d_out.copy_to_host()
    for b in range(2):
        want = vals[b].sum(), (vals[b] * 2 + 1).sum()
        for w, got in zip(want, (out[b, :, 0], out[b, :, 1])):
            assert (got == w).all(), f"{n} threads, block {b}: block_sum gave {sorted(set(got))}, want {w}"


@pytest.mark.parametrize("lanes,cols,m", [(3, 2, 5), (5, 3, 8), (2, 4, 3), (6, 1, 1), (7, 4, 2)])
def test_lane_sums_several_values_odd_lanes(lanes, cols, m):
    """lane_sums of m values a thread, more values than lanes or fewer: each column's sum of each value, twice in
    a row on the same scratch (the second call's values differ, so a stale total shows)."""
    from lnrnn.kernels.batchnorm_cuda import lane_sums

    @cuda.jit
    def k(vals, out):
        sh = cuda.shared.array((m, lanes, cols), float64)
        tot = cuda.shared.array((m, cols), float64)
        tx, ty = cuda.threadIdx.x, cuda.threadIdx.y
        for call in range(2):
            for r in range(m):
                sh[r, ty, tx] = vals[r, ty, tx] * (call + 1) + call
            lane_sums(sh, tot, m)
            for r in range(m):
                out[call, r, ty, tx] = tot[r, tx]

    vals = np.random.default_rng(lanes * m).integers(1, 100, (m, lanes, cols)).astype(np.float64)
    out = cuda.to_device(np.zeros((2, m, lanes, cols)))
    k[1, (cols, lanes)](cuda.to_device(vals), out)
    got = out.copy_to_host()
    for call in range(2):
        want = (vals * (call + 1) + call).sum(1)  # (m, cols)
        assert (got[call] == want[:, None, :]).all(), f"call {call}"


@pytest.mark.parametrize("H,N,tpb", [(5, 7, 6), (3, 20, 24), (7, 7, 24), (20, 80, 96), (30, 30, 24)])
def test_split_matvec_odd_groups(H, N, tpb):
    """out = v @ W (N,H) with tpb // H thread groups (idle threads left over) or H > tpb (strided)."""
    groups = rows_cuda.split_groups(H, tpb)
    matvec = rows_cuda.split_matvec(H, N, tpb)
    GH = groups * H  # a shared array's shape takes names, not products (the GPU's typing)

    @cuda.jit
    def k(v, W, out):
        vs = cuda.shared.array(N, float64)
        os_ = cuda.shared.array(H, float64)
        red = cuda.shared.array(GH, float64)
        tid, n = cuda.threadIdx.x, cuda.blockDim.x
        for j in range(tid, N, n):
            vs[j] = v[j]
        cuda.syncthreads()
        matvec(vs, W, os_, red, tid, n, 0.0)
        cuda.syncthreads()
        for j in range(tid, H, n):
            out[j] = os_[j]

    rng = np.random.default_rng(H * N)
    v, W = rng.standard_normal(N), rng.standard_normal((N, H))
    out = cuda.to_device(np.zeros(H))
    k[1, tpb](cuda.to_device(v), cuda.to_device(W), out)
    assert close(out.copy_to_host(), v @ W) < TOL64


@pytest.mark.parametrize("t", [3, 5])
def test_gemm_and_column_sums_odd_tiles(t, monkeypatch):
    geometry(monkeypatch, tile=t)
    rng = np.random.default_rng(t)
    A, W, D = rng.standard_normal((13, 7)), rng.standard_normal((7, 11)), rng.standard_normal((61, 11))
    X = rng.standard_normal((61, 11))
    assert close(host(gemm_cuda.matmul(arrays_cuda.to_device(A), arrays_cuda.to_device(W))), A @ W) < TOL64
    assert close(host(gemm_cuda.matmul(arrays_cuda.to_device(A), arrays_cuda.to_device(D[:13]), trans_a=True)), A.T @ D[:13]) < TOL64
    assert close(host(gemm_cuda.colsum(arrays_cuda.to_device(D))), D.sum(0)) < TOL64  # 61 rows: several row ranges
    assert close(host(gemm_cuda.colsum_prod(arrays_cuda.to_device(D), arrays_cuda.to_device(X))), (D * X).sum(0)) < TOL64


# ------------------------------------------------------------------------------------------------
# Ops and cells against their CPU twins
# ------------------------------------------------------------------------------------------------
@pytest.mark.parametrize("tpb", [6, 24, 96])
def test_layernorm_blocks(tpb, monkeypatch):
    from lnrnn.kernels import layernorm, layernorm_cuda
    geometry(monkeypatch, tpb=tpb)
    rng = np.random.default_rng(tpb)
    N, F = 3, 101  # F not a multiple of any block: threads with one more feature than others
    x, g, b, dy = rng.standard_normal((N, F)) * 3 + 1, rng.standard_normal(F), rng.standard_normal(F), \
        rng.standard_normal((N, F))
    y, m, r = layernorm_cuda.layernorm_forward(x, g, b, EPS)
    want = layernorm.layernorm_forward(x, g, b, EPS, 2)
    for a, e in zip(host((y, m, r)), want):
        assert close(a, e) < TOL64
    for a, e in zip(host(layernorm_cuda.layernorm_backward(dy, x, m, r, g)),
                    layernorm.layernorm_backward(dy, x, want[1], want[2], g, 2)):
        assert close(a, e) < TOL64


def cell_problem(rng, cell, T, B, I, H):
    Gw = 4 * H if cell == "lstm" else H
    P = lambda *s, sc=1.0, sh=0.0: sh + sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=P(T, B, I), h0=P(B, H), Wx=P(I, Gw, sc=0.5), Wh=P(H, Gw, sc=0.5), b=P(Gw))
    if cell == "lstm":
        p.update(c0=P(B, H), gx=P(Gw, sc=0.2, sh=1), bx=P(Gw, sc=0.2), gh=P(Gw, sc=0.2, sh=1), bh=P(Gw, sc=0.2),
                 gc=P(H, sc=0.2, sh=1), bc=P(H, sc=0.2))
        order = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
    else:
        p["g"] = P(H, sc=0.2, sh=1)
        order = ("x", "h0", "Wx", "Wh", "b", "g")
    return {k: p[k] for k in order}, rng.standard_normal((T, B, H))


def run_cell(k, cell, p, dy, norm):
    code = {"none": 0, "ln": 1}[norm]
    if cell == "lstm":
        y, hT, cT, saved = k.lstm_forward(*p.values(), code, EPS, 2)
        grads = k.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                                code, 2)
        outs = (y, hT, cT)
    else:
        y, hT, saved = k.rnn_forward(*p.values(), code, EPS, 2)
        grads = k.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], code, 2)
        outs = (y, hT)
    return [k.to_host(a) for a in (*outs, *saved, *grads)]


def assert_cell_twins(cell, norm, T, B, I, H):
    p, dy = cell_problem(np.random.default_rng(H), cell, T, B, I, H)
    got = run_cell(backend.kernels("cuda"), cell, p, dy, norm)
    want = run_cell(backend.kernels("cpu"), cell, p, dy, norm)
    assert len(got) == len(want)
    for j, (a, e) in enumerate(zip(got, want)):
        assert a.shape == e.shape and close(a, e) < TOL64, f"{cell}/{norm}: output {j} of forward+saved+grads"


@pytest.mark.parametrize("norm", ["ln", "none"])
def test_ln_lstm_h20_runs_96_thread_blocks(norm, monkeypatch):
    """The default geometry (config untouched) for H = 20: sequence kernels of 96 threads."""
    assert arrays_cuda.seq_threads(4 * 20) == 96
    assert_cell_twins("lstm", norm, T=2, B=2, I=2, H=20)


@pytest.mark.parametrize("path", [True, False], ids=["sequence", "per-step"])
@pytest.mark.parametrize("tpb", [6, 24])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_cells_blocks_of_6_and_24(cell, tpb, path, monkeypatch):
    """Row kernels and sequence kernels on 6- or 24-thread blocks, H = 5 (LSTM: G = 20) or 7: blocks
    wider and narrower than H, with idle threads; GEMM tiles of 3 (9 threads)."""
    geometry(monkeypatch, tpb=tpb, tile=3, sequence=path)
    H = 5 if cell == "lstm" else 7
    assert_cell_twins(cell, "ln", T=3, B=2, I=3, H=H)


@pytest.mark.parametrize("path", [True, False], ids=["sequence", "per-step"])
@pytest.mark.parametrize("norm", ["ln", "none"])
def test_lstm_threads_owning_several_units(norm, path, monkeypatch):
    """H = 13 hidden units on 6-thread blocks: a thread owns up to three units (k = tid, tid + 6, tid + 12;
    rows_cuda.units), only thread 0 a third one, in the per-step kernels and the sequence kernels."""
    geometry(monkeypatch, tpb=6, tile=3, sequence=path)
    assert rows_cuda.units(13, 6) == 3 and rows_cuda.units(12, 6) == 2 and rows_cuda.units(5, 6) == 1
    assert_cell_twins("lstm", norm, T=3, B=2, I=3, H=13)


def test_ln_rnn_96_thread_blocks(monkeypatch):
    """An LN-RNN with H = 70 runs 96-thread sequence blocks by default (70 rounded up to a warp)."""
    assert arrays_cuda.seq_threads(70) == 96
    assert_cell_twins("rnn", "ln", T=2, B=1, I=2, H=70)


@pytest.mark.parametrize("t", [3, 5])
def test_batchnorm_odd_tiles(t, monkeypatch):
    """Blocks of t x t threads: t features, t lanes over a batch of 7 (lanes with 1 or 2 rows)."""
    from lnrnn.kernels import batchnorm, batchnorm_cuda
    geometry(monkeypatch, tile=t)
    rng = np.random.default_rng(t)
    T, B, F, Ts = 3, 7, 8, 2
    x, g, b, dy = rng.standard_normal((T, B, F)) * 2 + 1, rng.standard_normal(F), rng.standard_normal(F), \
        rng.standard_normal((T, B, F))
    rm, rv = rng.standard_normal((Ts, F)), rng.uniform(0.5, 1.5, (Ts, F))
    rm_g, rv_g, rm_c, rv_c = rm.copy(), rv.copy(), rm.copy(), rv.copy()
    out = host(batchnorm_cuda.bn_forward(x, g, b, rm_g, rv_g, True, 0.1, EPS))
    want = batchnorm.bn_forward(x, g, b, rm_c, rv_c, True, 0.1, EPS)
    for a, e in zip(out, want):
        assert close(a, e) < TOL64
    assert close(rm_g, rm_c) < TOL64 and close(rv_g, rv_c) < TOL64
    for a, e in zip(host(batchnorm_cuda.bn_backward(dy, x, out[1], out[2], g, True)),
                    batchnorm.bn_backward(dy, x, want[1], want[2], g, True)):
        assert close(a, e) < TOL64


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("training", [True, False])
def test_bn_cells_lanes_owning_three_rows_with_masks(cell, training, monkeypatch):
    """3 x 3 blocks over a batch of 8: each lane owns up to three rows (the step kernels' local arrays hold 3), the
    last lane two; rows of length 0, T and between, so a lane's rows mix active and padded ones. Outputs, saved
    statistics, gradients and the running rows against the CPU twin; padded rows' dx exactly zero."""
    geometry(monkeypatch, tile=3)
    monkeypatch.setattr(f"lnrnn.kernels.bn_{cell}.FOLD_MAX_I", 0)
    T, B = 4, 8
    a, run, dy = bn_problem(np.random.default_rng(21), cell, T, B, 2, 4, 3)
    lengths = np.array([4, 0, 1, 4, 2, 3, 4, 1], np.int64)
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc") if cell == "lstm" else ("x", "h0", "Wx", "Wh", "gx", "gh")
    res = []
    for dev in ("cuda", "cpu"):
        k = backend.kernels(dev)
        r = [x.copy() for x in run]
        out = getattr(k, f"bn_{cell}_forward")(*a.values(), *r, training, 0.1, EPS, lengths=lengths)
        grads = getattr(k, f"bn_{cell}_backward")(dy, out[-1], *[a[key] for key in keys])
        res.append([k.to_host(x) for x in (*grads, *out[:-1], *out[-1][:-1])] + r)
    for j, (x, e) in enumerate(zip(*res)):
        assert x.shape == e.shape and close(x, e) < TOL64, f"output {j}"
    assert np.all(res[0][0][~(np.arange(T)[:, None] < lengths)] == 0)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_cells_odd_tiles(cell, monkeypatch):
    """BN cells with 3 x 3 blocks: H = 7 hidden units over three tiles (the last one partial), 3 lanes
    over a batch of 5. The CPU cells take their wide-input path (FOLD_MAX_I = 0), which saves x Wx as the
    CUDA twins do, so the saved tuples compare slot by slot (the narrow path, which saves the inputs'
    per-step statistics there, equals the wide one in tests/kernels/test_bn_cells.py)."""
    geometry(monkeypatch, tile=3)
    monkeypatch.setattr(f"lnrnn.kernels.bn_{cell}.FOLD_MAX_I", 0)
    rng = np.random.default_rng(9)
    T, B, I, H, Ts = 3, 5, 2, 7, 2
    a, run, dy = bn_problem(rng, cell, T, B, I, H, Ts)
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc") if cell == "lstm" else ("x", "h0", "Wx", "Wh", "gx", "gh")
    res = []
    for dev in ("cuda", "cpu"):
        k = backend.kernels(dev)
        r = [x.copy() for x in run]
        out = getattr(k, f"bn_{cell}_forward")(*a.values(), *r, True, 0.1, EPS)
        grads = getattr(k, f"bn_{cell}_backward")(dy, out[-1], *[a[key] for key in keys])
        res.append([k.to_host(x) for x in (*out[:-1], *out[-1][:-1], *grads)] + r)
    for j, (x, e) in enumerate(zip(*res)):
        assert x.shape == e.shape and close(x, e) < TOL64, f"output {j}"
