"""lnrnn/commands/info.py: the lines say what the parts they report say: CUDA usable or not with the
reason, the threads in use and Numba's maximum, the batch blocks of each named batch size."""
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
