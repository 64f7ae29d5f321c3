"""One training update on the device: the optimizers' and clipping's CUDA twin (lnrnn/kernels/optim_cuda.py)
against the CPU optimizers of lnrnn/training/optim.py (whose arithmetic, lnrnn/kernels/optim.py, is the
spec), under Numba's simulator (or on a GPU with NUMBA_ENABLE_CUDASIM=0).

Blocks of 6 threads (not a power of two: the in-block sums take their odd branch) over 203 parameters
(not a multiple of 6), with the grid capped at 4 blocks so every thread strides over several elements,
and uncapped (34 blocks, the last one partly idle)."""
import math

import numpy as np
import pytest

from lnrnn.training.optim import OPTIMIZERS, clip_grad_norm, make_optimizer

P = 203          # parameters: not a multiple of any block size used here
KINDS = sorted(OPTIMIZERS)


GRIDS = {"strided": (6, 4), "one-element-per-thread": (6, 1024)}   # threads per block, most blocks


@pytest.fixture(params=["strided"])
def small_blocks(request, monkeypatch):
    from lnrnn import backend, config
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    from lnrnn.kernels import optim_cuda
    tpb, max_blocks = GRIDS[request.param]
    monkeypatch.setattr(config, "THREADS_PER_BLOCK", tpb)
    monkeypatch.setattr(optim_cuda, "MAX_BLOCKS", max_blocks)
    return optim_cuda


def _gradients(rng, dtype, steps=3):
    """Three gradients: the first and last well above the clipping limit, the second below it."""
    out = []
    for k in range(steps):
        g = rng.standard_normal(P)
        g *= (20.0 if k != 1 else 0.2) / np.linalg.norm(g)
        out.append(g.astype(dtype))
    return out


MAX_NORM = 1.0


@pytest.mark.parametrize("kind,small_blocks", [(k, "strided") for k in KINDS] + [("adam", "one-element-per-thread")],
                         indirect=["small_blocks"])
def test_three_updates_equal_the_cpu_optimizer(small_blocks, kind):
    """Parameters, every optimizer slot and the clipped norms after three clipped updates (float64)."""
    from lnrnn.kernels import arrays_cuda
    optim_cuda = small_blocks
    rng = np.random.default_rng(3)
    p_cpu = rng.standard_normal(P)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer(kind, 0.01), make_optimizer(kind, 0.01)
    norm = arrays_cuda.to_device(np.zeros(1))
    clipped = []
    for g in _gradients(rng, np.float64):
        g_cpu, g_dev = g.copy(), arrays_cuda.to_device(g)
        want = clip_grad_norm(g_cpu, MAX_NORM)
        optim_cuda.clip_grad_norm(g_dev, MAX_NORM, norm)
        got = norm.copy_to_host()[0]
        assert got == pytest.approx(want, rel=1e-13)
        np.testing.assert_allclose(g_dev.copy_to_host(), g_cpu, rtol=1e-13, atol=0)  # scaled alike (or not)
        clipped.append(want > MAX_NORM)
        cpu.step(p_cpu, g_cpu)
        dev.step(p_dev, g_dev)
    assert clipped == [True, False, True]
    got = p_dev.copy_to_host()
    assert np.abs(got - p_cpu).max() <= 1e-12 * np.abs(p_cpu).max()
    want_state, got_state = cpu.state_dict(), dev.state_dict()
    assert got_state["step"] == want_state["step"] == 3
    assert set(got_state["slots"]) == set(want_state["slots"])
    for slot, arrays in want_state["slots"].items():
        assert set(got_state["slots"][slot]) == set(arrays)
        for name, a in arrays.items():
            b = got_state["slots"][slot][name]
            assert isinstance(b, np.ndarray) and a.any()
            assert np.abs(b - a).max() <= 1e-12 * np.abs(a).max(), (slot, name)


@pytest.mark.parametrize("kind", ["adam", "rmsprop-graves"])
def test_float32_updates_stay_float32_and_close(small_blocks, kind):
    from lnrnn.kernels import arrays_cuda
    optim_cuda = small_blocks
    rng = np.random.default_rng(4)
    p_cpu = rng.standard_normal(P).astype(np.float32)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer(kind, 0.01), make_optimizer(kind, 0.01)
    norm = arrays_cuda.to_device(np.zeros(1))
    for g in _gradients(rng, np.float32):
        g_cpu, g_dev = g.copy(), arrays_cuda.to_device(g)
        clip_grad_norm(g_cpu, MAX_NORM)
        optim_cuda.clip_grad_norm(g_dev, MAX_NORM, norm)
        cpu.step(p_cpu, g_cpu)
        dev.step(p_dev, g_dev)
    got = p_dev.copy_to_host()
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, p_cpu, rtol=2e-6, atol=2e-6)


def test_resumed_device_optimizer_continues_as_the_cpu_one(small_blocks):
    """A device optimizer's state_dict (host arrays) loaded into a fresh one goes back to the device and
    continues as the CPU optimizer does; loading a CPU optimizer's state works alike."""
    from lnrnn.kernels import arrays_cuda
    from lnrnn.model.flat import FlatArrays
    rng = np.random.default_rng(5)
    layout = FlatArrays(np.zeros(P), [("a", (100,), 0), ("b", (103,), 100)])
    p_cpu = rng.standard_normal(P)
    p_dev = arrays_cuda.to_device(p_cpu)
    cpu, dev = make_optimizer("adam", 0.01), make_optimizer("adam", 0.01)
    grads = _gradients(rng, np.float64, steps=4)
    for g in grads[:2]:
        cpu.step(p_cpu, g.copy())
        dev.step(p_dev, arrays_cuda.to_device(g))
    state = dev.state_dict(layout)
    assert set(state["slots"]["m"]) == {"a", "b"}
    fresh = make_optimizer("adam", 0.5)
    fresh.load_state_dict(state, layout)
    for g in grads[2:]:
        cpu.step(p_cpu, g.copy())
        fresh.step(p_dev, arrays_cuda.to_device(g))
    np.testing.assert_allclose(p_dev.copy_to_host(), p_cpu, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("small_blocks", list(GRIDS), indirect=True)
def test_clipping_of_a_gradient_that_is_not_finite_leaves_it(small_blocks):
    """A NaN gradient: the norm is NaN (the trainer stops on it) and nothing is scaled, as on the CPU;
    no clipping limit (0): the norm is reported and nothing is scaled."""
    from lnrnn.kernels import arrays_cuda
    optim_cuda = small_blocks
    norm = arrays_cuda.to_device(np.zeros(1))
    g = np.linspace(-3, 5, P)
    g[P - 2] = np.nan
    d = arrays_cuda.to_device(g)
    optim_cuda.clip_grad_norm(d, MAX_NORM, norm)
    assert math.isnan(norm.copy_to_host()[0])
    np.testing.assert_array_equal(d.copy_to_host(), g)
    g = np.linspace(-3, 5, P)
    d = arrays_cuda.to_device(g)
    optim_cuda.clip_grad_norm(d, 0.0, norm)
    assert norm.copy_to_host()[0] == pytest.approx(np.linalg.norm(g), rel=1e-13)
    np.testing.assert_array_equal(d.copy_to_host(), g)


def test_twins_share_names_and_arguments():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    import inspect

    from lnrnn.kernels import optim, optim_cuda
    for name in ("sgd_update", "rmsprop_update", "rmsprop_momentum_update", "adam_update", "clip_grad_norm"):
        cpu, gpu = getattr(optim, name), getattr(optim_cuda, name)
        assert list(inspect.signature(cpu).parameters) == list(inspect.signature(gpu).parameters)
