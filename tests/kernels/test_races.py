"""Threaded reductions are race-free: every CPU kernel whose threads reduce partial sums, at a size
where the threads really overlap, called many times.

Our CPU kernels are deterministic: each thread owns its chunk and its partial row, and the partials
are added in a fixed order afterwards. So every repeat must equal the first call bit for bit, and the
first call must equal the NumPy reference (lnrnn.reference) to rounding. A shared partial row (the
race the issue describes: about 6% of BatchNorm backward calls wrong at T64 B32 F512, never at the
tiny sizes of the other tests) breaks the first check: lost updates change the value, and even
without a lost update the order of the additions, hence the bits, follows the thread schedule.
tests/mutants/mutants.py plants those races (``python tests/mutants/run.py --only race-``).

The prange kernels need two Numba threads or more to overlap (numba.config.NUMBA_NUM_THREADS, the
core count unless set); the cell kernels run one Python thread per batch chunk (threads.run_chunks)
and the BN cells one per part (threads.run_synced), so they use more chunks than cores as well.
"""

import numba
import numpy as np
import pytest

from bn_problems import bn_problem
from lnrnn import backend
from lnrnn import reference as ref
from lnrnn.kernels.cpu import gemm, threads
from lnrnn.kernels.batchnorm import bn_backward
from lnrnn.kernels.layernorm import layernorm_backward

EPS = 1e-5
TOL = 1e-10  # float64 kernel vs float64 reference: summation order only
MAX_THREADS = numba.config.NUMBA_NUM_THREADS
needs_threads = pytest.mark.skipif(MAX_THREADS < 2, reason="one Numba thread: prange chunks cannot overlap")


@pytest.fixture(autouse=True)
def all_threads():
    """Every Numba thread this process may use (another test may have lowered the count)."""
    old = numba.get_num_threads()
    numba.set_num_threads(MAX_THREADS)
    yield
    numba.set_num_threads(old)


def bits(arrays):
    """The exact bytes of a tuple of arrays (so -0.0 != 0.0 and NaN == NaN, unlike ==)."""
    return [np.ascontiguousarray(a).tobytes() for a in arrays]


def assert_repeatable(call, repeats, names):
    """call() -> tuple of arrays; every one of ``repeats`` further calls equals the first bit for bit.
    Returns the first result."""
    first = call()
    want = bits(first)
    for k in range(repeats):
        got = bits(call())
        bad = [n for n, a, b in zip(names, got, want) if a != b]
        assert not bad, f"call {k + 2} of {repeats + 1} differs from the first in {bad}: a race between threads"
    return first


def assert_close(name, got, want, tol=TOL):
    got, want = np.asarray(got, np.float64), np.asarray(want, np.float64)
    assert got.shape == want.shape, name
    err = np.max(np.abs(got - want) / (1.0 + np.abs(want)), initial=0.0)
    assert err <= tol, f"{name}: max error {err:.3g} > {tol:.3g} against the NumPy reference"


# ------------------------------------------------------------------------------------------------
# prange over chunks, per-chunk partial rows
# ------------------------------------------------------------------------------------------------
@needs_threads
@pytest.mark.parametrize("training", [True, False])
def test_batchnorm_backward_time_chunks(training):
    """bn_backward: prange over config.BN_TIME_CHUNKS chunks of steps, per-chunk dgain/dbias rows.
    T64 B32 F512: the size at which a shared row gave wrong gains in about 6% of calls."""
    rng = np.random.default_rng(0)
    T, B, F = 64, 32, 512
    x = rng.standard_normal((T, B, F)) * 2 + 0.5
    dy = rng.standard_normal((T, B, F))
    gain = rng.uniform(0.5, 1.5, F)
    mean, rstd = x.mean(1), 1.0 / np.sqrt(x.var(1) + EPS)
    dx, dg, db = assert_repeatable(lambda: bn_backward(dy, x, mean, rstd, gain, training), 60,
                                   ("dx", "dgain", "dbias"))
    for name, got, want in zip(("dx", "dgain", "dbias"), (dx, dg, db),
                               ref.batchnorm_backward(dy, x, mean, rstd, gain, training)):
        assert_close(name, got, want)


@needs_threads
def test_batchnorm_backward_float32_time_chunks():
    """The same in float32, the dtype training uses (the issue's 6% was measured there)."""
    rng = np.random.default_rng(1)
    T, B, F = 64, 32, 512
    x = (rng.standard_normal((T, B, F)) * 2 + 0.5).astype(np.float32)
    dy = rng.standard_normal((T, B, F)).astype(np.float32)
    gain = rng.uniform(0.5, 1.5, F).astype(np.float32)
    mean = x.mean(1)
    rstd = (1.0 / np.sqrt(x.var(1) + EPS)).astype(np.float32)
    dx, dg, db = assert_repeatable(lambda: bn_backward(dy, x, mean, rstd, gain, True), 60, ("dx", "dgain", "dbias"))
    want = ref.batchnorm_backward(*(a.astype(np.float64) for a in (dy, x, mean, rstd, gain)))
    for name, got, w in zip(("dx", "dgain", "dbias"), (dx, dg, db), want):
        assert_close(name, got, w, 1e-4)


@needs_threads
def test_layernorm_backward_row_chunks():
    """layernorm_backward: prange over row chunks (more chunks than threads), per-chunk dgain/dbias."""
    rng = np.random.default_rng(2)
    N, F = 2048, 256
    x = rng.standard_normal((N, F)) * 3 + 1
    dy = rng.standard_normal((N, F))
    gain = rng.uniform(0.5, 1.5, F)
    _, mean, rstd = ref.layernorm_forward(x, gain, np.zeros(F))
    out = assert_repeatable(lambda: layernorm_backward(dy, x, mean, rstd, gain, 8), 60, ("dx", "dgain", "dbias"))
    for name, got, want in zip(("dx", "dgain", "dbias"), out, ref.layernorm_backward(dy, x, mean, rstd, gain)):
        assert_close(name, got, want)


@needs_threads
@pytest.mark.parametrize("tw", [False, True])  # one GEMM a chunk, or blocks of rows on rgemm (gemm.grad_blocks)
def test_column_sums_and_weight_gradient_gemm(tw, monkeypatch):
    """gemm.matmul_tn (the T*B-row weight-gradient GEMM): per-chunk partials, reduced after, on either product."""
    monkeypatch.setattr(gemm, "grad_blocks", lambda K, N, itemsize: (100, tw))
    rng = np.random.default_rng(3)
    N, M, K = 4096, 96, 40
    D, A = rng.standard_normal((N, M)), rng.standard_normal((N, K))
    (tn,) = assert_repeatable(lambda: (gemm.matmul_tn(A, D, 8),), 40, ("matmul_tn",))
    assert_close("matmul_tn", tn, A.T @ D)


# ------------------------------------------------------------------------------------------------
# Cells: one Python thread per batch chunk (threads.run_chunks), per-chunk parameter-gradient partials
# ------------------------------------------------------------------------------------------------
LSTM_FWD = ("x", "h0", "c0", "Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")
LSTM_GRADS = ("dx", "dh0", "dc0", "dWx", "dWh", "db", "dgx", "dbx", "dgh", "dbh", "dgc", "dbc")
RNN_FWD = ("x", "h0", "Wx", "Wh", "b", "g")
RNN_GRADS = ("dx", "dh0", "dWx", "dWh", "db", "dg")
CHUNKS = 4  # batch chunks, each on its own thread: more than CI's two cores


def cell_problem(cell, T, B, I, H, seed):
    rng = np.random.default_rng(seed)
    G = 4 * H if cell == "lstm" else H
    P = lambda *s, sc=1.0, sh=0.0: sh + sc * rng.standard_normal(s)  # noqa: E731
    p = dict(x=P(T, B, I), h0=P(B, H, sc=0.5), Wx=P(I, G, sc=0.5), Wh=P(H, G, sc=0.3), b=P(G, sc=0.2))
    if cell == "lstm":
        p.update(c0=P(B, H, sc=0.5), gx=P(G, sc=0.2, sh=1), bx=P(G, sc=0.2), gh=P(G, sc=0.2, sh=1),
                 bh=P(G, sc=0.2), gc=P(H, sc=0.2, sh=1), bc=P(H, sc=0.2))
    else:
        p["g"] = P(H, sc=0.2, sh=1)
    return {k: p[k] for k in (LSTM_FWD if cell == "lstm" else RNN_FWD)}, P(T, B, H)


@pytest.mark.parametrize("I", [1, 8])  # I = 1: dWx partials inside the time loop (config.FOLD_MAX_I); 8: per-step GEMMs
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_lstm_backward_chunk_partials(norm, I):
    k = backend.kernels("cpu")
    code = {"none": 0, "ln": 1}[norm]
    p, dy = cell_problem("lstm", T=12, B=48, I=I, H=32, seed=4)
    y, _, _, saved = k.lstm_forward(*p.values(), code, EPS, CHUNKS)

    def call():
        return k.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"],
                               code, CHUNKS)

    got = assert_repeatable(call, 25, LSTM_GRADS)
    r_y, _, _, cache = ref.lstm_forward(*p.values(), norm, EPS)
    assert_close("y", y, r_y)
    want = ref.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
    for name, g, w in zip(LSTM_GRADS, got, want):
        assert_close(name, g, w)


@pytest.mark.parametrize("I", [1, 8])
@pytest.mark.parametrize("norm", ["none", "ln"])
def test_rnn_backward_chunk_partials(norm, I):
    k = backend.kernels("cpu")
    code = {"none": 0, "ln": 1}[norm]
    p, dy = cell_problem("rnn", T=12, B=48, I=I, H=64, seed=5)
    y, _, saved = k.rnn_forward(*p.values(), code, EPS, CHUNKS)

    got = assert_repeatable(lambda: k.rnn_backward(dy, saved, p["x"], p["h0"], p["Wx"], p["Wh"], p["g"], code, CHUNKS),
                            25, RNN_GRADS)
    r_y, _, cache = ref.rnn_forward(*p.values(), norm, EPS)
    assert_close("y", y, r_y)
    for name, g, w in zip(RNN_GRADS, got, ref.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)):
        assert_close(name, g, w)


# ------------------------------------------------------------------------------------------------
# BN cells: the time loop split by hidden units over parts that meet at a barrier every step
# ------------------------------------------------------------------------------------------------
@pytest.fixture
def three_parts(monkeypatch):
    """Three parts (more than CI's two cores, uneven 11/11/10-unit splits) wherever the BN cells'
    split uses (threads.PART_THREADS); par_min=0 in the calls forces the split at any size."""
    assert hasattr(threads, "PART_THREADS"), "the BN cells' part-count override moved: update this fixture"
    monkeypatch.setattr(threads, "PART_THREADS", 3)


@pytest.mark.parametrize("I", [6, 3], ids=["wide-input", "narrow-input"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_cell_parts(cell, I, three_parts):
    """Forward and backward of the BN cells on three parts: the barrier orders every step (a part that
    ran ahead would read a stale h_{t-1} or dh_t), and each gain-gradient column has one owner (at a
    narrow input, I <= config.FOLD_MAX_I, also each column of dWx, and each part has its own share of dx)."""
    k = backend.kernels("cpu")
    T, B, H = 10, 16, 32
    a, run, dy = bn_problem(np.random.default_rng(6), cell, T, B, I, H, Ts=8)
    fwd, bwd = getattr(k, f"bn_{cell}_forward"), getattr(k, f"bn_{cell}_backward")
    keys = ("x", "h0", "c0", "Wx", "Wh", "gx", "gh", "gc") if cell == "lstm" else ("x", "h0", "Wx", "Wh", "gx", "gh")

    def forward():
        out = fwd(*a.values(), *[r.copy() for r in run], True, 0.1, EPS, 0)
        return out[:-1], out[-1]

    outs, saved = forward()
    out_bits = bits(outs)
    for rep in range(15):
        assert bits(forward()[0]) == out_bits, f"forward call {rep + 2} differs from the first: a race between parts"
    grads = assert_repeatable(lambda: bwd(dy, saved, *[a[key] for key in keys], 0), 15,
                              [f"grad {j}" for j in range(len(keys) + 2)])
    rfwd, rbwd = getattr(ref, f"bn_{cell}_forward"), getattr(ref, f"bn_{cell}_backward")
    r_out = rfwd(*a.values(), *[r.copy() for r in run], True, 0.1, EPS)
    assert_close("y", outs[0], r_out[0])
    for j, (g, w) in enumerate(zip(grads, rbwd(dy, r_out[-1], *[a[key] for key in keys]))):
        assert_close(f"grad {j}", g, w, 1e-9)
