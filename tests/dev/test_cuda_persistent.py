"""The persistent LN-LSTM forward (dev/lstm_persistent_cuda.py, a kernel variant the package does not ship)
equals the CPU twin and lstm_cuda's own forward: outputs, every saved tensor, and the gradients
lstm_cuda.lstm_backward computes from its saved tensors.

Under Numba's simulator a grid sync holds for one block only, so the persistent kernel runs with one
block and the stepped driver (one launch per phase, the same phase functions) with 1, 2, 3 and 5
blocks, units dividing unevenly among them; blocks of 8 threads and shapes that are no multiple of
anything. On a GPU (NUMBA_ENABLE_CUDASIM=0) the persistent kernel also runs with several blocks.
"""
import numpy as np
import pytest

from cuda_guard import skip_unless_cuda

skip_unless_cuda()

from lnrnn import backend, config  # noqa: E402

from dev import lstm_persistent_cuda as pers  # noqa: E402
from lnrnn.kernels import lstm, lstm_cuda  # noqa: E402
from lnrnn.kernels.cuda import arrays_cuda
from test_cuda_kernels import (LSTM_FWD, LSTM_GRADS, TOL32, TOL64, close, problem,  # noqa: E402
                               simulator_race_free)
import testpaths  # noqa: E402

EPS = 1e-5
SIM = backend.simulator_enabled()
host = arrays_cuda.to_host


@pytest.fixture(autouse=True)
def small_blocks(monkeypatch):
    """Blocks of 8 threads (several passes of every strided loop) and the simulator's fixes."""
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", 8)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 8)
    with simulator_race_free(monkeypatch):
        yield


def forward(p, persistent, driver="persistent", nblocks=None):
    """The LN forward, the persistent variant's (with this driver and number of blocks) or lstm_cuda's
    -> host arrays ((y, hT, cT), saved) and the device saved tuple."""
    if persistent:
        y, hT, cT, saved = pers.lstm_forward(*[p[k] for k in LSTM_FWD], EPS, driver, nblocks)
    else:
        y, hT, cT, saved = lstm_cuda.lstm_forward(*[p[k] for k in LSTM_FWD], lstm.NORM_LN, EPS, 2)
    return host((y, hT, cT)), host(saved), saved


def backward(p, dy, saved):
    grads = lstm_cuda.lstm_backward(dy, saved, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"], p["gx"], p["gh"],
                                    p["gc"], lstm.NORM_LN, 2)
    return dict(zip(LSTM_GRADS, host(grads)))


def assert_same(outs, saved, outs_e, saved_e, tol, what):
    for k, (a, e) in enumerate(zip(outs, outs_e)):
        assert a.dtype == e.dtype and close(a, e) < tol, f"{what}: output {k}"
    assert len(saved) == len(saved_e)
    for k, (a, e) in enumerate(zip(saved, saved_e)):
        assert a.shape == e.shape and a.dtype == e.dtype, f"{what}: saved[{k}] layout"
        assert close(a, e) < tol, f"{what}: saved[{k}]"


# (driver, blocks, (T, B, I, H)): H = 7 over 1 block, 2 blocks (3+4), 3 blocks (2+2+3); H = 13 over 5
# blocks (3+3+3+2+2); I = 5 > config.FOLD_MAX_I saves xhat_x. h0 and c0 are nonzero (problem()).
# The variant is kept outside the package, for study: these cases reach each of its branches once (one
# block and several, even and uneven unit splits, both input paths); the stepped driver with one block
# does the persistent kernel's arithmetic bit for bit (test_block_order_makes_the_bits).
CASES = [("persistent", 1, (5, 3, 2, 7)), ("stepped", 2, (5, 3, 2, 7)), ("stepped", 3, (5, 3, 2, 7)),
         ("stepped", 5, (3, 2, 5, 13))]
if not SIM:  # a GPU runs a cooperative grid of several blocks
    CASES += [("persistent", 3, (5, 3, 2, 7)), ("persistent", 4, (5, 3, 2, 13)), ("persistent", 5, (3, 2, 5, 13))]


@pytest.mark.parametrize("driver,nb,shape", CASES, ids=[f"{d}-nb{n}-H{s[3]}-I{s[2]}" for d, n, s in CASES])
def test_float64_equals_cpu_twin_and_cuda_forward(driver, nb, shape):
    T, B, I, H = shape
    p, dy = problem(np.random.default_rng(H + nb), "lstm", T, B, I, H)
    outs, saved, saved_dev = forward(p, True, driver, nb)
    outs_o, saved_o, saved_odev = forward(p, False)
    yc, hc, cc, saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], lstm.NORM_LN, EPS, 2)
    assert_same(outs, saved, (yc, hc, cc), saved_c, TOL64, "vs CPU twin")
    assert_same(outs, saved, outs_o, saved_o, TOL64, "vs lstm_cuda's forward")
    # lstm_cuda's backward, unchanged, on the persistent forward's saved tensors
    grads, grads_o = backward(p, dy, saved_dev), backward(p, dy, saved_odev)
    for k in LSTM_GRADS:
        assert close(grads[k], grads_o[k]) < TOL64, k


@pytest.mark.parametrize("driver,nb", [("persistent", 1), ("stepped", 3)])
def test_float32_near_cpu_twin(driver, nb):
    p, dy = problem(np.random.default_rng(11), "lstm", 5, 3, 2, 7)
    p32 = {k: v.astype(np.float32) for k, v in p.items()}
    outs, saved, saved_dev = forward(p32, True, driver, nb)
    yc, hc, cc, saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], lstm.NORM_LN, EPS, 2)
    for k, (a, e) in enumerate(zip(outs + saved, (yc, hc, cc) + saved_c)):
        assert a.dtype == np.float32 and a.shape == e.shape and close(a, e) < TOL32, k
    grads = backward(p32, dy.astype(np.float32), saved_dev)
    grads_c = dict(zip(LSTM_GRADS, lstm.lstm_backward(dy, saved_c, p["x"], p["h0"], p["c0"], p["Wx"], p["Wh"],
                                                      p["gx"], p["gh"], p["gc"], lstm.NORM_LN, 2)))
    for k in LSTM_GRADS:
        assert close(grads[k], grads_c[k]) < 10 * TOL32, k


def test_rows_staged_in_chunks(monkeypatch):
    """Shared memory for 2 staged rows of h_{t-1} only (B = 3: chunks of 2 and 1 rows)."""
    T, B, I, H, nb = 4, 3, 2, 7, 2
    U = 4  # max units of a block: 7 over 2 blocks
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", 8 * (H * 4 * U + B * 4 * U + 2 * B + 2 * (H + 1)))
    assert pers.plan(B, H, np.float64, nb)[2] == 2
    p, _ = problem(np.random.default_rng(3), "lstm", T, B, I, H)
    outs, saved, _ = forward(p, True, "stepped", nb)
    yc, hc, cc, saved_c = lstm.lstm_forward(*[p[k] for k in LSTM_FWD], lstm.NORM_LN, EPS, 2)
    assert_same(outs, saved, (yc, hc, cc), saved_c, TOL64, "vs CPU twin")


def test_block_order_makes_the_bits():
    """No atomics: two runs give the same bits, and the persistent and stepped drivers with one block
    do the same arithmetic (same bits too)."""
    p, _ = problem(np.random.default_rng(5), "lstm", 4, 3, 2, 7)
    a = forward(p, True, "stepped", 3)[:2]
    b = forward(p, True, "stepped", 3)[:2]
    for x, z in zip(a[0] + a[1], b[0] + b[1]):
        assert np.array_equal(x, z)
    c = forward(p, True, "stepped", 1)[:2]
    d = forward(p, True, "persistent", 1)[:2]
    for x, z in zip(c[0] + c[1], d[0] + d[1]):
        assert np.array_equal(x, z)


def test_refusals():
    """A grid it cannot launch is an error in one sentence (the simulator syncs a grid of one block only);
    an unknown driver is refused."""
    p = problem(np.random.default_rng(1), "lstm", 2, 2, 2, 5)[0]
    if SIM:
        with pytest.raises(RuntimeError, match="cannot run B=2 H=5 float64 with driver 'persistent' and 3 blocks"):
            forward(p, True, "persistent", 3)
    with pytest.raises(ValueError, match="driver"):
        forward(p, True, "fused", 1)


def test_the_package_does_not_import_the_variant():
    """lnrnn ships lstm_cuda's kernels alone: no module of the package imports dev/ or names the variant."""
    import ast
    import os
    root = os.path.join(testpaths.ROOT, "lnrnn")
    found = []
    for dirpath, _, files in os.walk(root):
        for name in (f for f in files if f.endswith(".py")):
            path = os.path.join(dirpath, name)
            with open(path) as f:
                tree = ast.parse(f.read())
            for node in ast.walk(tree):
                mods = ([a.name for a in node.names] if isinstance(node, ast.Import)
                        else [node.module or ""] + [a.name for a in node.names] if isinstance(node, ast.ImportFrom)
                        else [])
                found += [f"{path}: {m}" for m in mods if m.split(".")[0] == "dev" or "persistent" in m]
    assert not found, found


@pytest.mark.parametrize("T,B,I,H,fit64", [(784, 64, 1, 128, True), (28, 128, 28, 256, True),
                                            (300, 32, 3, 400, False)])
def test_benchmark_shapes_fit_an_h100(T, B, I, H, fit64, monkeypatch):
    """S1-S3 of bench/gpu_step.py fit 132 blocks of 256 threads under the static 48 KB limit in float32
    (float64: S1 and S2; S3's Wh slice alone, 400 x 16 doubles, takes 51 KB); 2048 units do not fit."""
    monkeypatch.setattr(config, "CUDA_SHARED_BYTES", 48 * 1024)
    monkeypatch.setattr(config, "CUDA_SEQ_MAX_THREADS", 512)
    for dt in (np.float32, np.float64):
        pl = pers.plan(B, H, dt, 132)
        if dt == np.float64 and not fit64:
            assert pl is None and pers.shared_bytes(B, H, dt, 132) is None
            continue
        nb, U, R, tpb = pl
        assert nb == min(132, H) and U == -(-H // nb) and 1 <= R <= B and tpb == pers.MAX_THREADS
        least, used = pers.shared_bytes(B, H, dt, 132)
        assert least <= used <= 48 * 1024
    assert pers.plan(64, 2048, np.float32, 132) is None and not pers.fits(T, 64, 2048, np.float32, 132)
