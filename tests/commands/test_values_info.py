"""lnrnn/commands/info.py: the lines say what the parts they report say: CUDA usable or not with the
reason, the threads in use and Numba's maximum, the batch blocks of each named batch size, where the LSTM
backward's large dWh partials take their blocks."""
import re

import numba
import pytest

from lnrnn import backend
from lnrnn.commands import info
from lnrnn.kernels.cpu.threads import batch_blocks


def _line(lines, start):
    found = [line for line in lines if line.startswith(start)]
    assert len(found) == 1, lines
    return found[0]


@pytest.mark.parametrize("usable,why,text", [
    (False, "no NVIDIA GPU with a working CUDA driver was found", "CUDA: not usable: no NVIDIA GPU"),
    (True, "Numba's CUDA simulator", "CUDA: usable: Numba's CUDA simulator"),
])
def test_the_cuda_line(monkeypatch, usable, why, text):
    monkeypatch.setattr(backend, "cuda_usable", lambda: (usable, why))
    assert _line(info.info_lines(), "CUDA: ").startswith(text)


def test_the_threads_line(monkeypatch):
    layer, threads, most = info._threading()
    assert threads == numba.get_num_threads() and most == numba.config.NUMBA_NUM_THREADS and threads <= most
    monkeypatch.setattr(info, "_threading", lambda: ("workqueue", 3, 8))
    assert _line(info.info_lines(), "numba threading layer: ") == \
        "numba threading layer: workqueue; threads: 3 in use of 8 (NUMBA_NUM_THREADS)"


def test_the_batch_blocks_line():
    line = _line(info.info_lines(), "batch blocks: ")
    said = {int(b): int(n) for b, n in re.findall(r"B (\d+): (\d+)", line)}
    assert sorted(said) == [64, 128, 256]
    for B, n in said.items():
        assert n == batch_blocks(B), B
    assert said[64] < said[256]         # blocks of at least BLOCK_ROWS rows: a larger batch holds more


@pytest.mark.parametrize("dwh,start", [
    ("rgemm", "weight gradients (dWh, dWx) whose partials outgrow L2: blocks in L2 on rgemm: "),
    ("blas", "weight gradients (dWh, dWx) whose partials outgrow L2: large blocks on the BLAS: ")])
def test_the_dwh_line(monkeypatch, dwh, start):
    from lnrnn.kernels.cpu import blas
    monkeypatch.setattr(blas, "DWH", dwh)
    monkeypatch.setattr(blas, "DWH_WHY", "the reason given")
    assert _line(info.info_lines(), "weight gradients (dWh, dWx)") == start + "the reason given"


@pytest.mark.parametrize("tuned,start", [(True, "malloc: large freed buffers reused"),
                                         (False, "malloc: default allocator")])
def test_the_malloc_line(monkeypatch, tuned, start):
    import lnrnn
    monkeypatch.setattr(lnrnn, "MALLOC_TUNED", tuned)
    assert _line(info.info_lines(), "malloc: ").startswith(start)


def test_the_blas_pools_only(monkeypatch):
    import threadpoolctl
    pools = [{"user_api": "openmp", "internal_api": "openmp", "version": None, "num_threads": 4,
              "filepath": "libgomp.so.1"},
             {"user_api": "blas", "internal_api": "openblas", "version": "0.3.27", "num_threads": 2,
              "filepath": "libopenblas.so"},
             {"user_api": "other", "internal_api": "x", "num_threads": 1, "filepath": "x.so"}]
    monkeypatch.setattr(threadpoolctl, "threadpool_info", lambda: pools)
    lines = info._blas()
    assert lines[0] == "openblas 0.3.27 (2 threads, libopenblas.so)"
    assert not any("openmp" in line or line.startswith("x ") for line in lines), lines
