"""Values of the CPU plumbing around the kernels (lnrnn/kernels/cpu/blas.py and threads.py): the per-step
product's choice by rule, by LNRNN_REC_GEMM / LNRNN_DWH_GEMM and as a fresh process reports it; the dWh/dWx
block sizes against their rule worked out by hand; the fixed row blocks and the chunks a batch is dealt,
counted and bounded by hand at sizes that are not multiples of the block rows."""
import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import numba
import pytest

from lnrnn.config import DWH_BIG_BYTES, DWH_BLOCK_ROWS, DWH_L2_BYTES
from lnrnn.kernels.cpu import blas, threads
from lnrnn.mkl import MKL_PATH

ROOT = Path(__file__).resolve().parents[2]


# ---- the per-step product's choice ----

def test_rule_by_cpu_kind(monkeypatch):
    monkeypatch.setattr(blas.rg, "AVX512", False)
    assert blas._rule(True) == ("blas", "the CPU has no AVX-512, where rgemm's 256-bit tile is slower than a BLAS")
    assert blas._rule(False)[0] == "blas"
    monkeypatch.setattr(blas.rg, "AVX512", True)
    monkeypatch.setattr(blas, "cpuinfo", lambda field: "")
    assert blas._rule(True) == ("blas", "MKL on a CPU of vendor unidentified: its packed GEMM is as fast as rgemm "
                                        "or faster")
    assert blas._rule(False) == ("rgemm", "AVX-512 without MKL: rgemm outruns np.dot on the per-step shapes")
    monkeypatch.setattr(blas, "cpuinfo", lambda field: "AuthenticAMD")
    assert blas._rule(True) == ("rgemm", "AVX-512 on a CPU of vendor AuthenticAMD, where rgemm outruns MKL's "
                                         "packed GEMM")


def test_rec_gemm_asked_for_wins_over_numpy_blas(monkeypatch):
    monkeypatch.setenv("LNRNN_BLAS", "numpy")
    monkeypatch.delenv("LNRNN_DWH_GEMM", raising=False)
    monkeypatch.setenv("LNRNN_REC_GEMM", "blas")
    assert blas._choose_rec(True) == ("blas", "LNRNN_REC_GEMM=blas asks for it",
                                      "blas", "the per-step products run on the BLAS")
    monkeypatch.setenv("LNRNN_REC_GEMM", " RGEMM ")
    assert blas._choose_rec(False) == ("rgemm", "LNRNN_REC_GEMM=rgemm asks for it",
                                       "blas", "not measured: LNRNN_REC_GEMM chose the per-step product")
    monkeypatch.setenv("LNRNN_DWH_GEMM", "rgemm")
    assert blas._choose_rec(False)[2:] == ("rgemm", "LNRNN_DWH_GEMM=rgemm asks for it")


def test_unknown_rec_gemm_noted_beside_the_measurement(monkeypatch):
    monkeypatch.delenv("LNRNN_BLAS", raising=False)
    monkeypatch.delenv("LNRNN_DWH_GEMM", raising=False)
    monkeypatch.setenv("LNRNN_REC_GEMM", "fast")
    monkeypatch.setattr(blas.rg, "AVX512", False)
    seen = []

    def choose(blas_name, cpu, rule):
        seen.append((blas_name, rule))
        return "rgemm", "measured by hand", "rgemm", "blocks measured by hand"
    monkeypatch.setattr(blas.rec_choice, "choose", choose)
    got = blas._choose_rec(False)
    assert got == ("rgemm", "measured by hand (LNRNN_REC_GEMM=fast is neither rgemm nor blas: ignored)",
                   "rgemm", "blocks measured by hand")
    no_avx = ("blas", "the CPU has no AVX-512, where rgemm's 256-bit tile is slower than a BLAS")
    assert seen == [("numpy", no_avx)]


def test_dwh_gemm_blas_asked_for_on_rgemm(monkeypatch):
    monkeypatch.setenv("LNRNN_DWH_GEMM", "Blas")
    assert blas._asked_dwh("rgemm", "w", "rgemm", "measured") == ("rgemm", "w", "blas",
                                                                   "LNRNN_DWH_GEMM=blas asks for it")
    # on the BLAS, dWh's blocks are the BLAS's whatever is asked
    assert blas._asked_dwh("blas", "w", "rgemm", "measured") == ("blas", "w", "blas",
                                                                  "the per-step products run on the BLAS")


def test_fresh_process_with_rec_gemm_blas_reports_it():
    env = dict(os.environ, LNRNN_REC_GEMM="blas")
    env.pop("LNRNN_DWH_GEMM", None)
    code = ("import json; from lnrnn.kernels.cpu import blas as b; print(json.dumps([b.REC, b.REC_WHY, b.DWH, "
            "b.DWH_WHY, b.BLAS, b.rec_mul is b.blas_mul, b.rows_mul is b.gemm_mul]))")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=120, check=True).stdout
    want_blas = (f"MKL, packed GEMM per time step and sgemm/dgemm ({os.path.basename(MKL_PATH)})" if MKL_PATH
                 else "np.dot (NumPy/SciPy BLAS)")
    assert json.loads(out.strip().splitlines()[-1]) == [
        "blas", "LNRNN_REC_GEMM=blas asks for it", "blas", "the per-step products run on the BLAS", want_blas,
        True, True]


# ---- dWh / dWx block sizes ----

def test_grad_block_rows_by_hand():
    # K=512, N=2048, float32: the partial is 4 MiB, over L2 (1 MiB): rgemm's big budget (4 MiB) where big,
    # a quarter of it (1 MiB) over a row of D (8 KiB) is 128 rows; not big: DWH_BLOCK_ROWS
    assert (DWH_L2_BYTES, DWH_BIG_BYTES, DWH_BLOCK_ROWS) == (1 << 20, 4 << 20, 4096)
    assert blas.grad_block_rows(512, 2048, 0, 4, big=True) == (4 << 20) // 4 // (2048 * 4) == 128
    assert blas.grad_block_rows(512, 2048, 0, 4, big=False) == 4096
    # K=64, N=256, float64: fits L2; a quarter of 1 MiB over 2 KiB rows = 128
    assert blas.grad_block_rows(64, 256, 0, 8) == 128


def test_dwh_blocks_by_hand():
    # S2 on the BLAS: H=256, I=28, float32, chunks of 32 rows, T=28: L2 rows 64 -> 2 steps of 32, under 256
    # rows: ceil(256/32)=8 steps a block, ceil(28/8)=4 blocks, ceil(28/4)=7 steps each
    assert blas.dwh_blocks(256, 28, 32, 28, 4, "blas", "blas") == (7, False)
    # H=64, float64, rows 128 a block, chunks of 300 rows: one step a block, 300 rows x 2 KiB = 600 KiB is
    # over half of 1 MiB: not rgemm's transposed product
    assert blas.dwh_blocks(64, 0, 300, 10, 8, "rgemm", "blas") == (1, False)
    # chunks of 48 rows: 128 // 48 = 2 steps, 96 rows x 2 KiB under 512 KiB: rgemm's
    assert blas.dwh_blocks(64, 0, 48, 10, 8, "rgemm", "blas") == (2, True)


def test_grad_blocks_follow_the_per_step_product(monkeypatch):
    monkeypatch.setattr(blas, "REC", "rgemm")
    monkeypatch.setattr(blas, "DWH", "blas")
    monkeypatch.setattr(blas, "GRAD", "rgemm")
    # K=64, N=256, float64: 128 rows, 128 x 2 KiB = 256 KiB <= 512 KiB: rgemm's transposed product
    assert blas.grad_blocks(64, 256, 8) == (128, True)
    monkeypatch.setattr(blas, "REC", "blas")
    assert blas.grad_blocks(64, 256, 8) == (128, False)


# ---- row blocks and chunks ----

def test_batch_blocks_by_hand():
    # the largest power of two n with n <= B and n <= max(2, B // 32)
    want = {1: 1, 2: 2, 3: 2, 63: 2, 95: 2, 96: 2, 127: 2, 128: 4, 255: 4, 256: 8, 1000: 16, 1023: 16, 1024: 32}
    assert {B: threads.batch_blocks(B) for B in want} == want
    assert [threads.chunk_bounds(95, 2, k) for k in range(2)] == [(0, 47), (47, 95)]
    assert [threads.chunk_bounds(1000, 16, k) for k in (0, 1, 2, 15)] == [(0, 62), (62, 125), (125, 187),
                                                                           (937, 1000)]


def test_block_rows_truncates_to_whole_rows():
    with threads.block_rows(2.6):  # 2 rows a block at least: 16 // 2 = 8 blocks
        assert threads.batch_blocks(16) == 8
        assert threads.batch_blocks(15) == 4
    with pytest.raises(ValueError) as e, threads.block_rows(0.5):
        pass
    assert str(e.value) == "block rows must be at least 1, not 0"
    assert threads.batch_blocks(16) == 2


def _record():
    calls = []

    def rows(q, lo, hi, tag):
        calls.append((q, lo, hi, tag, threading.current_thread().name))
    return calls, rows


def test_run_chunks_never_more_chunks_than_rows():
    calls, rows = _record()
    threads.run_chunks(rows, 3, 5, "x")
    assert sorted(c[:4] for c in calls) == [(0, 0, 1, "x"), (1, 1, 2, "x"), (2, 2, 3, "x")]
    calls, rows = _record()
    threads.run_chunks(rows, 7, 3, "y")
    assert sorted(c[:4] for c in calls) == [(0, 0, 2, "y"), (1, 2, 4, "y"), (2, 4, 7, "y")]


def test_run_chunks_on_three_threads_deals_whole_runs_and_reraises(monkeypatch):
    monkeypatch.setattr(numba, "get_num_threads", lambda: 3)
    calls, rows = _record()
    threads.run_chunks(rows, 7, 5, "z")
    # 5 chunks of 7 rows: k*7//5 = 0, 1, 2, 4, 5, 7; 3 threads: chunks [0,1), [1,3), [3,5)
    assert sorted(c[:4] for c in calls) == [(0, 0, 1, "z"), (1, 1, 2, "z"), (2, 2, 4, "z"), (3, 4, 5, "z"),
                                            (4, 5, 7, "z")]
    name = {c[0]: c[4] for c in calls}
    assert name[0] == threading.current_thread().name
    assert name[1] == name[2] != name[0] and name[3] == name[4] != name[0]

    def failing(q, lo, hi):
        if q == 4:
            raise RuntimeError(f"chunk {q} rows {lo}-{hi}")
    with pytest.raises(RuntimeError, match="^chunk 4 rows 5-7$"):
        threads.run_chunks(failing, 7, 5)
