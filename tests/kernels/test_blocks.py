"""The batch's fixed row blocks (lnrnn.kernels.cpu.threads.batch_blocks): every CPU layer gives the same bits
whatever the number of threads, and however many parts a BN cell's time loop is split into.

In one process: numba.set_num_threads(1) and 2 (up to NUMBA_NUM_THREADS), and for the BN cells
threads.PART_THREADS 1, 2 and 3 (parts that own an uneven share of the blocks). tests/kernels/test_reproducible.py
checks whole training runs in child processes with 1, 2 and 3 threads.
"""
import numba
import numpy as np
import pytest

from lnrnn.kernels.cpu import threads
from lnrnn.kernels.cpu.threads import batch_blocks, chunk_bounds, run_chunks
from lnrnn.model.layers import RecurrentLayer
from lnrnn.threadscope import kernel_threads

CELLS = [("lstm", "none"), ("lstm", "ln"), ("lstm", "bn"), ("rnn", "none"), ("rnn", "ln"), ("rnn", "bn")]


@pytest.mark.parametrize("B", [1, 2, 3, 31, 64, 65, 127, 128, 200, 1000])
def test_batch_blocks_depend_on_the_batch_alone(B):
    n = batch_blocks(B)
    assert 1 <= n <= B
    assert n & (n - 1) == 0, "a power of two: 2, 4, 8 threads share the blocks evenly"
    if B >= 2:
        assert n >= 2, "two threads share even a small batch"
    if n > 2:
        assert B // n >= threads.BLOCK_ROWS, "at least BLOCK_ROWS rows a block"
    assert 2 * n > max(2, B // threads.BLOCK_ROWS) or 2 * n > B, "the largest such power of two"
    old = numba.get_num_threads()
    try:
        for k in range(1, numba.config.NUMBA_NUM_THREADS + 1):
            numba.set_num_threads(k)
            assert batch_blocks(B) == n
    finally:
        numba.set_num_threads(old)


def _record(q, lo, hi, seen):
    seen.append((q, lo, hi))


@pytest.mark.parametrize("nchunks", [1, 3, 8])
def test_run_chunks_runs_every_chunk_once_on_at_most_the_threads(nchunks):
    """More chunks than threads: each runs once, with its own rows, whatever thread takes it."""
    seen = []
    run_chunks(_record, 50, nchunks, seen)
    assert sorted(seen) == [(q, *chunk_bounds(50, nchunks, q)) for q in range(nchunks)]


def _step(cell, norm, I, H, B, T, dtype, lengths):
    rng = np.random.default_rng(3)
    x = rng.standard_normal((T, B, I)).astype(dtype)
    dy = rng.standard_normal((T, B, H)).astype(dtype)
    layer = RecurrentLayer(cell, norm, I, H, dtype=dtype, seed=4, max_steps=T)
    with kernel_threads():
        y, state = layer.forward(x, lengths=lengths)
        dx, dstate = layer.backward(dy)
    out = {"y": y, "dx": dx, **{f"state{k}": s for k, s in enumerate(state)},
           **{f"dstate{k}": s for k, s in enumerate(dstate)},
           **{f"grad {n}": g.copy() for n, g in layer.grads.items()},
           **{f"buffer {n}": b.copy() for n, b in layer.buffers.items()}}
    return {k: np.ascontiguousarray(v).tobytes() for k, v in out.items()}


def _differ(runs):
    first = runs[0]
    return sorted({k for r in runs[1:] for k in first if r[k] != first[k]})


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="one Numba thread: the thread count cannot change")
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("I", [1, 9], ids=["narrow", "wide"])
@pytest.mark.parametrize("cell,norm", CELLS, ids=[f"{c}-{n}" for c, n in CELLS])
def test_layer_step_is_the_same_bits_on_any_thread_count(cell, norm, I, dtype):
    """Forward, backward, every gradient and running statistic: equal bytes for 1, 2, ... threads.
    B = 150: four blocks of 37-38 rows (uneven over 3 threads); masked rows; the BN cells split into
    parts (BN_PAR_MIN_WORK is reached: B*G >= 8192)."""
    T, B, H = 9, 150, 64
    lengths = np.random.default_rng(5).integers(0, T + 1, B)
    lengths[:3] = T
    old = numba.get_num_threads()
    runs = []
    try:
        for k in range(1, min(3, numba.config.NUMBA_NUM_THREADS) + 1):
            numba.set_num_threads(k)
            runs.append(_step(cell, norm, I, H, B, T, dtype, lengths))
    finally:
        numba.set_num_threads(old)
    assert batch_blocks(B) == 4
    bad = _differ(runs)
    assert not bad, f"{cell}/{norm}: these differ between thread counts: {bad}"


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=["float64", "float32"])
@pytest.mark.parametrize("I", [1, 9], ids=["narrow", "wide"])
@pytest.mark.parametrize("cell", ["lstm", "rnn"])
def test_bn_parts_give_the_same_bits_however_many(cell, I, dtype):
    """A BN cell's time loop split into 1, 2 or 3 parts (threads.PART_THREADS; 3 parts own 1, 1 and 2 of
    the four blocks): the statistics come from every block's moments in block order, so all agree."""
    T, B, H = 7, 130, 64
    lengths = np.random.default_rng(6).integers(0, T + 1, B)
    lengths[:2] = T
    old = threads.PART_THREADS
    runs = []
    try:
        for parts in (1, 2, 3):
            threads.PART_THREADS = parts
            runs.append(_step(cell, "bn", I, H, B, T, dtype, lengths))
    finally:
        threads.PART_THREADS = old
    bad = _differ(runs)
    assert not bad, f"bn-{cell}: these differ between part counts: {bad}"


def test_block_rows_setting_is_scoped_and_checked():
    """block_rows(n) sets the rows a block holds at least for the block of code, and restores what was."""
    base = batch_blocks(256)
    with threads.block_rows(16):
        assert batch_blocks(64) == 4 and batch_blocks(256) == 16
        with threads.block_rows(64):
            assert batch_blocks(256) == 4
        assert batch_blocks(256) == 16
    assert batch_blocks(256) == base == 256 // threads.BLOCK_ROWS
    with pytest.raises(ValueError, match="at least 1"):
        with threads.block_rows(0):
            pass
    assert batch_blocks(256) == base


# ---- a run's --block-rows ----

from test_cli import TINY, assert_clean_error, assert_ok, invoke  # noqa: E402


def test_block_rows_must_be_positive(tmp_path):
    out = tmp_path / "run"
    assert_clean_error(invoke("train", *TINY, "--block-rows", 0, "--out", out), "--block-rows must be at least 1")
    assert not out.exists(), "nothing written for a refused option"


@pytest.fixture(scope="module")
def small_blocks(tmp_path_factory):
    """A tiny float64 LN-LSTM run with blocks of 8 rows (a batch of 32: four blocks instead of two)."""
    out = tmp_path_factory.mktemp("blocks") / "run"
    assert_ok(invoke("train", *TINY, "--dtype", "float64", "--max-steps", 4, "--block-rows", 8, "--out", out))
    return out


def test_block_rows_is_kept_applied_and_checked_on_resume(small_blocks, tmp_path):
    import json

    from lnrnn.training.checkpoint import load_checkpoint

    assert json.load(open(small_blocks / "config.json"))["block-rows"] == 8
    # the trainer ran under it: the default blocks give other bits (an LN-LSTM of float64 parameters)
    other = tmp_path / "default-blocks"
    assert_ok(invoke("train", *TINY, "--dtype", "float64", "--max-steps", 4, "--out", other))
    mine, theirs = load_checkpoint(str(small_blocks))[1], load_checkpoint(str(other))[1]
    assert mine.keys() == theirs.keys()
    assert any(not np.array_equal(mine[k], theirs[k]) for k in mine), \
        "--block-rows 8 trained to the same bits as the default blocks: the setting was not applied"
    # resuming with another value would be another run: refused in one line
    assert_clean_error(invoke("train", *TINY, "--dtype", "float64", "--max-steps", 6, "--block-rows", 16,
                              "--out", small_blocks, "--resume"), "--block-rows 8, not 16")


def test_a_runs_evaluation_uses_its_block_rows(small_blocks, monkeypatch):
    """lnrnn eval (evaluate_run), predict and sample run under the run's own blocks: its own numbers."""
    import lnrnn
    import lnrnn.api

    seen = []
    real = lnrnn.api.block_rows

    def spy(rows):
        seen.append((rows, batch_blocks(32)))
        return real(rows)
    monkeypatch.setattr(lnrnn.api, "block_rows", spy)
    run = lnrnn.load_run(str(small_blocks))
    assert run.block_rows == 8
    lnrnn.evaluate_run(run)
    x = np.random.default_rng(0).random((5, 64)).astype(np.float64)
    lnrnn.predict(run, x)
    assert [r for r, _ in seen] == [8, 8], seen
