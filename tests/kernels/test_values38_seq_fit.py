"""Where the sequence kernels serve (arrays_cuda.seq_fits, through rnn_cuda's and lstm_cuda's path choice): a block
whose shared arrays fill config.CUDA_SHARED_BYTES exactly still runs them, one element more falls back to the
per-step launches, and the RNN and LSTM twins on the exact fit (float64 and float32: a byte budget, not an
element count) equal the CPU twins. H = 5 on blocks of 8 threads (H not a multiple of the block).

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import config  # noqa: E402

from lnrnn.kernels import lstm, lstm_cuda, rnn, rnn_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from test_cuda_kernels import (TOL64, assert_twins, problem, run_lstm, run_rnn, set_geometry,  # noqa: E402,F401
                               small_blocks)  # small_blocks: the autouse geometry fixture

T, B, I, H, TPB = 3, 2, 2, 5, 8


def shared_elements(cell):
    """The elements of shared memory a block of the cell's sequence backward holds, written out from its arrays
    (rnn_cuda.bwd_seq: scratch 2 tpb, dh and dv H each, the split recurrent sums groups * H; lstm_cuda's backward:
    scratch 4 tpb, dh H, dv G, the same sums)."""
    groups = max(1, TPB // H)
    return 2 * TPB + 2 * H + groups * H if cell == "rnn" else 4 * TPB + H + 4 * H + groups * H


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_seq_fits_at_the_byte_budget_and_not_past_it(dtype, monkeypatch):
    size = np.dtype(dtype).itemsize
    monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", True)
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", 96 * size)
    assert arrays_cuda.seq_fits(96, dtype)
    assert arrays_cuda.seq_fits(95, dtype)
    assert not arrays_cuda.seq_fits(97, dtype)
    monkeypatch.setattr(config, "CUDA_SEQUENCE_KERNELS", False)
    assert not arrays_cuda.seq_fits(1, dtype)


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_twins_on_an_exact_fit_run_the_sequence_kernels_and_match_the_cpu(cell, monkeypatch):
    set_geometry(monkeypatch, TPB, "sequence")
    mod, twin, run, path = ((rnn, rnn_cuda, run_rnn, rnn_cuda.rnn_path) if cell == "rnn"
                            else (lstm, lstm_cuda, run_lstm, lstm_cuda.lstm_path))
    n = shared_elements(cell)
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", n * 8 - 1)    # a byte short of n
    assert path(H, np.float64, T=T) == "step"
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", n * 8)        # exactly n float64 elements
    assert path(H, np.float64, T=T) == "seq"
    assert path(H, np.float32, T=T) == "seq"
    p, dy = problem(np.random.default_rng(3803), cell, T, B, I, H)
    assert_twins(run(twin, p, dy, "ln"), run(mod, p, dy, "ln"), TOL64)
