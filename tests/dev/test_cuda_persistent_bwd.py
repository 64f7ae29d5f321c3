"""The persistent LN-LSTM BPTT (dev/lstm_persistent_cuda.py, ``lstm_backward`` and ``run_backward``) equals
lstm_cuda's own backward (every per-step intermediate its sequence kernel writes, and every gradient
lstm_backward returns) and the CPU twin, with and without Graves's gate clip; and central differences
judge the whole persistent path (forward and backward).

As for the forward (tests/dev/test_cuda_persistent.py): under Numba's simulator the persistent kernel runs
with one block and the stepped driver with 1, 2, 3 and 5 blocks, units dividing unevenly among them;
blocks of 8 threads. On a GPU (NUMBA_ENABLE_CUDASIM=0) the persistent kernel also runs with several blocks.

No finite differences here: the persistent forward equals lstm_cuda's (outputs and every saved tensor,
tests/dev/test_cuda_persistent.py) and its backward equals lstm_cuda's on those saved tensors (below), and
lstm_cuda's forward and backward are judged by central differences (tests/kernels/test_cuda_gradcheck.py), so
a gradient check of the variant would judge the same numbers a third time.
"""
import numpy as np
import pytest

# small_blocks: the autouse fixture; importing test_cuda_persistent skips this module without CUDA
from test_cuda_persistent import EPS, SIM, forward, host, small_blocks  # noqa: F401

from lnrnn import config
from dev import lstm_persistent_cuda as pers
from lnrnn.kernels import lstm, lstm_cuda
from lnrnn.kernels.cuda.arrays_cuda import to_device, transpose, zeros
from test_cuda_kernels import LSTM_FWD, LSTM_GRADS, TOL32, TOL64, close, problem

CLIP = 0.05  # bites on problem()'s gate derivatives (checked: the CPU twin's gradients change)


def backward(p, dy, saved, clip, persistent, driver="persistent", nblocks=None):
    """The LN backward, the persistent variant's (with this driver and number of blocks) or lstm_cuda's
    -> {name: host grad}."""
    args = (dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"])
    if persistent:
        grads = pers.lstm_backward(*args, clip, driver, nblocks)
    else:
        grads = lstm_cuda.lstm_backward(*args, lstm.NORM_LN, 2, clip)
    return dict(zip(LSTM_GRADS, host(grads)))


def cpu_backward(p, dy, clip):
    """The CPU twin's forward and backward in float64 -> {name: grad}."""
    saved = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], lstm.NORM_LN, EPS, 2)[3]
    return dict(zip(LSTM_GRADS, lstm.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"],
                                                    p["gh"], p["gc"], lstm.NORM_LN, 2, clip)))


def test_clip_bites():
    p, dy = problem(np.random.default_rng(7), "lstm", 5, 3, 2, 7)
    a, b = cpu_backward(p, dy, 0.0), cpu_backward(p, dy, CLIP)
    assert all(close(a[k], b[k]) > 1e-3 for k in ("Wh", "b", "x"))


# (driver, blocks, (T, B, I, H), clip): H = 7 over 1 block, 2 blocks (3+4), 3 blocks (2+2+3); H = 13 over 5
# blocks (3+3+3+2+2); I = 5 > config.FOLD_MAX_I saves xhat_x. h0 and c0 are nonzero (problem()). Each
# driver and split without the clip, and the clip (one branch of the phase functions both drivers share)
# on one block and on several.
CASES = [("persistent", 1, (5, 3, 2, 7), 0.0), ("persistent", 1, (5, 3, 2, 7), CLIP),
         ("stepped", 2, (5, 3, 2, 7), 0.0), ("stepped", 3, (5, 3, 2, 7), 0.0), ("stepped", 3, (5, 3, 2, 7), CLIP),
         ("stepped", 5, (3, 2, 5, 13), 0.0)]
if not SIM:  # a GPU runs a cooperative grid of several blocks
    CASES += [("persistent", nb, shape, clip) for nb, shape in ((3, (5, 3, 2, 7)), (4, (5, 3, 2, 13)),
                                                                (5, (3, 2, 5, 13))) for clip in (0.0, CLIP)]


@pytest.mark.parametrize("driver,nb,shape,clip", CASES,
                         ids=[f"{d}-nb{n}-H{s[3]}-I{s[2]}-{'clip' if c else 'clip0'}" for d, n, s, c in CASES])
def test_float64_equals_cuda_backward_and_cpu_twin(driver, nb, shape, clip):
    """Every gradient of lstm_backward on lstm_cuda's forward's saved tensors, against lstm_cuda's own
    backward and the CPU twin."""
    T, B, I, H = shape
    p, dy = problem(np.random.default_rng(H + nb), "lstm", T, B, I, H)
    _, _, saved = forward(p, False)
    grads = backward(p, dy, saved, clip, True, driver, nb)
    grads_o = backward(p, dy, saved, clip, False)
    grads_c = cpu_backward(p, dy, clip)
    for k in LSTM_GRADS:
        assert close(grads[k], grads_o[k]) < TOL64, f"{k} vs lstm_cuda's backward"
        assert close(grads[k], grads_c[k]) < TOL64, f"{k} vs CPU twin"


@pytest.mark.parametrize("clip", [0.0, CLIP], ids=["clip0", "clip"])
def test_intermediates_equal_sequence_kernel(clip):
    """DA, DCN, dHW, dXW of every step and dh0, dc0: run_backward (stepped, 3 blocks over 7 units) against
    lstm_cuda's sequence kernel on the same inputs."""
    T, B, I, H, nb = 4, 3, 5, 7, 3
    G = 4 * H
    p, dy = problem(np.random.default_rng(13), "lstm", T, B, I, H)
    _, _, saved = forward(p, False)
    gates, c, tc, y, xp, hhat, chat, rstd = saved
    assert xp.shape == (T, B, G)  # I > FOLD_MAX_I: xhat_x saved
    d = {k: to_device(p[k]) for k in ("c0", "gx", "gh", "gc", "Wh")}
    ddy = to_device(dy)
    sv = (gates, xp, hhat, c, tc, chat)
    outs = []
    for ours in (True, False):
        grads = tuple(zeros(s, ddy.dtype) for s in ((T, B, G), (T, B, H), (T, B, G), (T, B, G)))
        dh0, dc0 = zeros((B, H), ddy.dtype), zeros((B, H), ddy.dtype)
        if ours:
            assert pers.run_backward(ddy, sv, d["c0"], rstd, (d["gx"], d["gh"], d["gc"]), d["Wh"], clip, grads, dh0,
                                     dc0, "stepped", nb)
        else:
            stpb, seq = lstm_cuda._seq_geometry(H, ddy.dtype)
            assert seq
            lstm_cuda._seq_kernels(np.dtype(ddy.dtype), stpb, H)[1][B, stpb](
                ddy, sv, d["c0"], rstd, (d["gx"], d["gh"], d["gc"]), transpose(d["Wh"]), True, clip, grads, dh0, dc0)
        outs.append(host(grads + (dh0, dc0)))
    for name, a, e in zip(("DA", "DCN", "dHW", "dXW", "dh0", "dc0"), *outs):
        assert close(a, e) < TOL64, name


@pytest.mark.parametrize("driver,nb", [("persistent", 1), ("stepped", 3)])
def test_float32_near_cpu_twin(driver, nb):
    p, dy = problem(np.random.default_rng(11), "lstm", 5, 3, 2, 7)
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    _, _, saved = forward(p32, False)
    grads = backward(p32, dy.astype(np.float32), saved, CLIP, True, driver, nb)
    grads_c = cpu_backward(p, dy, CLIP)
    for k in LSTM_GRADS:
        assert grads[k].dtype == np.float32 and close(grads[k], grads_c[k]) < 10 * TOL32, k


def test_rows_staged_in_chunks(monkeypatch):
    """Shared memory for 2 staged rows of dL/d(h Wh) only (B = 3: chunks of 2 and 1 rows)."""
    T, B, I, H, nb = 4, 3, 2, 7, 2
    G, U = 4 * H, 4  # max units of a block: 7 over 2 blocks
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", 8 * (G * U + 4 * B + 2 * (G + 1 + 4 * U)))
    assert pers.plan(B, H, np.float64, nb, backward=True)[2] == 2
    p, dy = problem(np.random.default_rng(3), "lstm", T, B, I, H)
    _, _, saved = forward(p, False)
    grads, grads_c = backward(p, dy, saved, CLIP, True, "stepped", nb), cpu_backward(p, dy, CLIP)
    for k in LSTM_GRADS:
        assert close(grads[k], grads_c[k]) < TOL64, k


def test_block_order_makes_the_bits():
    """No atomics: two runs give the same bits, and the persistent and stepped drivers with one block
    do the same arithmetic (same bits too)."""
    p, dy = problem(np.random.default_rng(5), "lstm", 4, 3, 2, 7)
    _, _, saved = forward(p, False)
    a, b = (backward(p, dy, saved, CLIP, True, "stepped", 3) for _ in range(2))
    c, d = backward(p, dy, saved, CLIP, True, "stepped", 1), backward(p, dy, saved, CLIP, True, "persistent", 1)
    for k in LSTM_GRADS:
        assert np.array_equal(a[k], b[k]) and np.array_equal(c[k], d[k]), k


def test_refusals():
    """A grid it cannot launch is an error in one sentence (the simulator syncs a grid of one block only);
    an unknown driver is refused."""
    p, dy = problem(np.random.default_rng(1), "lstm", 2, 2, 2, 5)
    _, _, saved = forward(p, False)
    if SIM:
        with pytest.raises(RuntimeError, match="cannot run B=2 H=5 float64 with driver 'persistent' and 3 blocks"):
            backward(p, dy, saved, 0.0, True, "persistent", 3)
    with pytest.raises(ValueError, match="driver"):
        backward(p, dy, saved, 0.0, True, "fused", 1)


@pytest.mark.parametrize("T,B,I,H,fit64", [(784, 64, 1, 128, True), (28, 128, 28, 256, True),
                                            (300, 32, 3, 400, False)])
def test_benchmark_shapes_fit_an_h100(T, B, I, H, fit64, monkeypatch):
    """The backward at S1-S3 of bench/gpu_step.py fits 132 blocks of 256 threads under the static 48 KB
    limit in float32 (float64: S1 and S2; S3's Wh slice alone, 16 x 1600 doubles, takes 51 KB)."""
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", 48 * 1024)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 512)
    for dt in (np.float32, np.float64):
        pl = pers.plan(B, H, dt, 132, backward=True)
        if dt == np.float64 and not fit64:
            assert pl is None and pers.shared_bytes(B, H, dt, 132, backward=True) is None
            continue
        nb, U, R, tpb = pl
        assert nb == min(132, H) and U == -(-H // nb) and 1 <= R <= B and tpb == pers.MAX_THREADS
        least, used = pers.shared_bytes(B, H, dt, 132, backward=True)
        assert least <= used <= 48 * 1024
