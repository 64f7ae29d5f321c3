"""lnrnn/model/functional.py hands the plain and LN kernels the batch's own fixed row blocks: forward (kept or not,
with and without lengths) and backward split B rows into threads.batch_blocks(B) chunks, the blocks that make the
results the same bits on any thread count (lnrnn/config.py's reproducibility note) and that let two threads share
a batch. Watched at run_chunks in lnrnn.kernels.lstm and lnrnn.kernels.rnn, with blocks of at least 4 rows, B 24
(4 blocks) and I 2, H 3 (a count taken from either would be 2), the plain and LN LSTM and RNN, float64."""
import numpy as np
import pytest

import lnrnn.kernels.lstm
import lnrnn.kernels.rnn
from lnrnn.kernels.cpu.threads import batch_blocks, block_rows
from lnrnn.model import cells, functional

T, B, I, H = 3, 24, 2, 3
ROWS = 4


@pytest.fixture
def chunks(monkeypatch):
    """[(function name, rows, chunks), ...] of every run_chunks call in the LSTM and RNN kernel modules."""
    seen = []
    for mod in (lnrnn.kernels.lstm, lnrnn.kernels.rnn):
        def watch(fn, n, nchunks, *args, _real=mod.run_chunks):
            seen.append((fn.__name__, n, nchunks))
            return _real(fn, n, nchunks, *args)
        monkeypatch.setattr(mod, "run_chunks", watch)
    return seen


def test_the_sizes_tell_the_counts_apart():
    with block_rows(ROWS):
        assert batch_blocks(B) == 4
        assert batch_blocks(I) == batch_blocks(H) == batch_blocks(T) == 2


@pytest.mark.parametrize("name", ["lstm", "ln-lstm", "rnn", "ln-rnn"])
def test_forward_and_backward_run_on_the_batchs_blocks(chunks, name):
    spec = cells.get(name)
    rng = np.random.default_rng(4460)
    p = {n: np.ascontiguousarray(v + rng.normal(0.0, 0.3, v.shape))
         for n, v in spec.init_params(rng, I, H, np.float64, forget_bias=1.0).items()}
    x = rng.standard_normal((T, B, I))
    state = tuple(rng.normal(0.0, 0.5, (B, H)) for _ in range(spec.nstate))
    lengths = rng.integers(0, T + 1, B).astype(np.int64)
    s = functional.setup(spec, H, np.float64)
    with block_rows(ROWS):
        for kw in ({}, {"keep": False}, {"lengths": lengths}, {"lengths": lengths, "keep": False}):
            del chunks[:]
            y, _, saved = functional.forward(s, x, state, p, {}, **kw)
            assert y.shape == (T, B, H)
            assert chunks == [("_forward_rows", B, 4)], kw
        del chunks[:]
        y, _, saved = functional.forward(s, x, state, p, {})
        dx, _, _ = functional.backward(s, rng.standard_normal(y.shape), saved, x, state, p)
        assert dx.shape == x.shape
        assert chunks == [("_forward_rows", B, 4), ("_backward_rows", B, 4)]
