"""lnrnn/kernels/cpu/threads.py against its definitions: chunk_bounds puts every row in exactly one chunk, in order,
nearly equal; run_chunks runs every chunk exactly once with its own rows on 1, 2 and 3 threads; batch_blocks is
fixed by B (and block_rows) whatever the thread count, and block_rows refuses fewer than one row; a weight gradient
over chunks (gemm.matmul_tn) is the same bits on 1, 2 and 3 threads; readonly gives read-only views and leaves the
caller's arrays writable; dry_run restores the mode it found, nested too."""
import threading

import numba
import numpy as np
import pytest

from lnrnn.kernels.cpu import gemm, threads
from lnrnn.kernels.cpu.threads import batch_blocks, chunk_bounds, run_chunks


@pytest.mark.parametrize("n", [0, 1, 7, 33, 65])
@pytest.mark.parametrize("nchunks", [1, 2, 3, 7, 8])
def test_chunk_bounds_cover_every_row_once_nearly_equal(n, nchunks):
    bounds = [chunk_bounds(n, nchunks, k) for k in range(nchunks)]
    rows = [r for lo, hi in bounds for r in range(lo, hi)]
    assert rows == list(range(n)), "every row exactly once, in order"
    sizes = [hi - lo for lo, hi in bounds]
    assert max(sizes) - min(sizes) <= 1
    assert all(s in (n // nchunks, -(-n // nchunks)) for s in sizes)


def record(q, lo, hi, seen, lock):
    with lock:
        seen.append((q, lo, hi, threading.get_ident()))


@pytest.mark.parametrize("nthreads", [1, 2, 3])
@pytest.mark.parametrize("n,nchunks", [(7, 3), (33, 8), (65, 4), (2, 5), (1, 1)])
def test_run_chunks_runs_every_chunk_once_with_its_rows(monkeypatch, nthreads, n, nchunks):
    """Chunk q gets rows chunk_bounds(n, nch, q) of nch = min(nchunks, n) chunks, once, on at most nthreads
    threads, the calling thread among them."""
    monkeypatch.setattr(numba, "get_num_threads", lambda: nthreads)
    seen, lock = [], threading.Lock()
    run_chunks(record, n, nchunks, seen, lock)
    nch = max(1, min(nchunks, n))
    assert sorted(s[:3] for s in seen) == [(q, *chunk_bounds(n, nch, q)) for q in range(nch)]
    idents = {s[3] for s in seen}
    assert len(idents) <= nthreads
    assert threading.get_ident() in idents, "the calling thread runs chunks too"
    assert [s[0] for s in seen if s[3] == threading.get_ident()] == list(range(len(
        [s for s in seen if s[3] == threading.get_ident()]))), "the calling thread runs the first chunks"


def blocks_by_definition(B, rows):
    """The largest power of two n with n <= B and, past n = 2, at least `rows` rows a block (B // n >= rows)."""
    n = 1
    for cand in (2 ** e for e in range(12)):
        if cand <= B and (cand <= 2 or B // cand >= rows):
            n = cand
    return n


@pytest.mark.parametrize("rows", [1, 7, 33])
def test_batch_blocks_follow_block_rows_whatever_the_threads(monkeypatch, rows):
    got = {}
    for nthreads in (1, 2, 3):
        monkeypatch.setattr(numba, "get_num_threads", lambda: nthreads)
        with threads.block_rows(rows):
            got[nthreads] = [batch_blocks(B) for B in range(1, 140)]
    assert got[1] == got[2] == got[3] == [blocks_by_definition(B, rows) for B in range(1, 140)]


@pytest.mark.parametrize("bad", [0, -1])
def test_block_rows_below_one_are_refused(bad):
    before = batch_blocks(65)
    with pytest.raises(ValueError, match="at least 1"):
        with threads.block_rows(bad):
            pass
    assert batch_blocks(65) == before


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("tw", [False, True])
def test_weight_gradient_is_the_same_bits_on_1_2_and_3_threads(monkeypatch, dtype, tw):
    """matmul_tn over batch_blocks(N) chunks, on 1, 2 and 3 threads: bit-identical, and A^T D to rounding."""
    monkeypatch.setattr(gemm, "grad_blocks", lambda K, N, itemsize: (7, tw))
    rng = np.random.default_rng(71)
    A = rng.standard_normal((65, 33)).astype(dtype)
    D = rng.standard_normal((65, 7)).astype(dtype)
    got = {}
    for nthreads in (1, 2, 3):
        monkeypatch.setattr(numba, "get_num_threads", lambda: nthreads)
        got[nthreads] = gemm.matmul_tn(A, D, batch_blocks(65))
    assert np.array_equal(got[1], got[2]) and np.array_equal(got[1], got[3])
    want = A.astype(np.float64).T @ D.astype(np.float64)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    assert np.abs(got[1] - want).max() <= tol * np.abs(want).max() * 8


def test_readonly_views_leave_the_callers_arrays_writable():
    a = np.arange(6.0)
    b = np.zeros((2, 3))
    frozen = np.ones(3)
    frozen.flags.writeable = False
    ra, (rb, rf), k = threads.readonly(a, (b, frozen), 5)
    assert k == 5
    assert not ra.flags.writeable and not rb.flags.writeable and not rf.flags.writeable
    assert a.flags.writeable and b.flags.writeable, "the caller's arrays stay writable"
    assert rf is frozen, "an array already read-only is passed as it is"
    assert np.shares_memory(ra, a) and np.shares_memory(rb, b), "views, not copies"
    a[0] = 7.0
    assert ra[0] == 7.0


def test_dry_run_restores_the_mode_it_found_nested_too():
    assert threads._dry["mode"] is None
    with threads.dry_run("skip"):
        with threads.dry_run("compile"):
            assert threads._dry["mode"] == "compile"
        assert threads._dry["mode"] == "skip", "the inner block ends, the outer one goes on"
        seen = []
        run_chunks(lambda q, lo, hi: seen.append(q), 4, 2)  # skipped: no chunk runs
        assert seen == []
    assert threads._dry["mode"] is None
    with pytest.raises(ValueError, match="'compile' or 'skip'"):
        with threads.dry_run("run"):
            pass
    assert threads._dry["mode"] is None
