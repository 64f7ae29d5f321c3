"""The device twins of the ragged-batch helpers (lnrnn/kernels/cuda/arrays_cuda.py) against their host
definitions: reverse_valid (functional.reverse_valid), final_rows (functional.final_state's host path),
mask_steps (functional.running_mask), take_steps and put_steps (a last-step head's gather and its backward,
with and without reversed columns). Lengths cover 0, 1, a middle length and T; grid-stride launches of 7
threads per block, so no size is a multiple of the block and a thread handles several elements.

Runs under Numba's CUDA simulator (tests/conftest.py) or on a GPU (NUMBA_ENABLE_CUDASIM=0)."""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402

from lnrnn.kernels.cuda import arrays_cuda  # noqa: E402
from lnrnn.model import functional  # noqa: E402

T, B, H = 5, 6, 3
LENGTHS = np.array([5, 0, 1, 3, 5, 2], np.int64)  # full, empty, one step, middle, full, two steps


@pytest.fixture(autouse=True)
def odd_blocks(monkeypatch):
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 7)


def dev(a):
    return arrays_cuda.to_device(np.ascontiguousarray(a))


def host(a):
    return arrays_cuda.to_host(a)


def seq(seed=0):
    """(T,B,H) whose entry at (t, b, j) is 100 t + 10 b + j: every value says where it came from."""
    t, b, j = np.meshgrid(np.arange(T), np.arange(B), np.arange(H), indexing="ij")
    return (100.0 * t + 10.0 * b + j).astype(np.float64)


def test_reverse_valid_equals_the_host_reversal():
    a = seq()
    got = host(arrays_cuda.reverse_valid(dev(a), dev(LENGTHS)))
    assert np.array_equal(got, functional.reverse_valid(a, LENGTHS))
    # by hand: row 3 (length 3) reads steps 2, 1, 0, then its padded steps 3, 4 as they are
    assert list(got[:, 3, 0] // 100) == [2, 1, 0, 3, 4]
    assert list(got[:, 1, 0] // 100) == [0, 1, 2, 3, 4]           # length 0: nothing reversed
    assert np.array_equal(host(arrays_cuda.reverse_valid(dev(got), dev(LENGTHS))), a)  # its own inverse


def test_final_rows_take_each_rows_own_last_step_or_its_initial_state():
    rng = np.random.default_rng(0)
    s_T, s0 = rng.standard_normal((B, H)), rng.standard_normal((B, H))
    a = seq()
    got = host(arrays_cuda.final_rows(dev(s_T), dev(a), dev(s0), dev(LENGTHS)))
    want = functional.final_state(backend.kernels("cpu"), (s_T,), (a,), (s0,), LENGTHS)[0]
    assert np.array_equal(got, want)
    assert np.array_equal(got[1], s0[1])                          # length 0: the initial state
    assert np.array_equal(got[2], a[0, 2]) and np.array_equal(got[3], a[2, 3])
    assert np.array_equal(got[0], s_T[0])                         # length T: the kernel's final state


def test_mask_steps_zero_every_padded_step_and_keep_nan_there():
    a = seq() + 1.0
    got = host(arrays_cuda.mask_steps(dev(a), dev(LENGTHS)))
    assert np.array_equal(got, a * functional.running_mask(LENGTHS, T, np.float64)[:, :, None])
    assert not got[:, 1].any() and not got[3:, 3].any() and got[:3, 3].all()    # row 1 runs no step, row 3 three
    a[4, 5, 0] = np.nan                                           # row 5 runs 2 steps: step 4 is padded
    assert np.isnan(host(arrays_cuda.mask_steps(dev(a), dev(LENGTHS)))[4, 5, 0])


@pytest.mark.parametrize("reversed_cols", [None, [0, 1, 0]])
def test_take_steps_and_put_steps_read_and_write_each_rows_last_step(reversed_cols):
    a = seq()
    steps = np.maximum(LENGTHS - 1, 0)
    rev = None if reversed_cols is None else dev(np.array(reversed_cols, np.int64))
    got = host(arrays_cuda.take_steps(dev(a), dev(steps), rev))
    want = a[steps, np.arange(B)]                                 # (B,H): row b at its own step
    if reversed_cols is not None:
        want[:, 1] = a[0, :, 1]                                   # a reversed column ends at step 0
    assert np.array_equal(got, want)
    rows = np.arange(1.0, B * H + 1).reshape(B, H)
    put = host(arrays_cuda.put_steps(dev(rows), dev(steps), T, rev))
    back = np.zeros((T, B, H))
    for b in range(B):
        for j in range(H):
            back[0 if reversed_cols is not None and reversed_cols[j] else steps[b], b, j] = rows[b, j]
    assert np.array_equal(put, back)
