"""The CTC kernel's CUDA twin (lnrnn/kernels/ctc_cuda.py) against its CPU twin, under Numba's simulator
(or on a GPU): blocks of 4 threads, so the extended labels (S = 11 and 5 positions, not multiples of
4) take several strides and some threads idle at every step; ragged label and input lengths, repeated
labels, empty labels, an impossible row and a row with no steps; and the rows where the CPU twin's rescaled
recursion falls back to log space (the CUDA twin runs in log space throughout)."""
import numpy as np
import pytest

from test_ctc import fallback_problem, problem, random_problem


@pytest.fixture
def small_blocks():
    from lnrnn import backend, config
    ok, why = backend.cuda_usable()
    if not ok:
        pytest.skip(f"CUDA not usable: {why}")
    old = config.THREADS_PER_BLOCK
    config.THREADS_PER_BLOCK = 4
    yield
    config.THREADS_PER_BLOCK = old


@pytest.mark.parametrize("dtype,tol", [(np.float64, 1e-12), (np.float32, 2e-5)])
def test_cuda_twin_equals_cpu_twin(small_blocks, dtype, tol):
    from lnrnn.kernels import ctc_cuda
    from lnrnn.kernels.ctc import ctc_backward, ctc_forward
    rng = np.random.default_rng(11)
    problems = [random_problem(rng, T=9, B=7, Lmax=5, dtype=dtype), problem(rng, dtype=dtype)]
    if dtype == np.float64:                   # float32 log space (the CUDA twin's) is 1e-3 off at log p = -980
        problems.append(fallback_problem())
    for x, labels, il, ll in problems:
        g = rng.standard_normal(len(ll)).astype(dtype)
        loss, saved = ctc_forward(x, labels, il, ll)
        d = ctc_backward(g, saved, labels, il, ll)
        gloss, gsaved = ctc_cuda.ctc_forward(x, labels, il, ll)
        gd = ctc_cuda.ctc_backward(g, gsaved, labels, il, ll).copy_to_host()
        np.testing.assert_allclose(gloss.copy_to_host(), loss, rtol=tol, atol=tol)
        # saved differ past logp and logz: the CUDA twin keeps log-space alpha (ctc_cuda.py says why)
        np.testing.assert_allclose(gsaved[0].copy_to_host(), saved[0], rtol=tol, atol=tol)     # logp
        np.testing.assert_allclose(gsaved[2].copy_to_host(), saved[2], rtol=tol, atol=tol)     # logz
        np.testing.assert_allclose(gd, d, rtol=tol, atol=tol * np.abs(d).max())
        assert gd.any() and gd.dtype == dtype


def test_twins_share_names_and_arguments():
    pytest.importorskip("numba_cuda", reason="numba-cuda is not installed")
    import inspect

    from lnrnn.kernels import ctc, ctc_cuda
    for name in ("ctc_forward", "ctc_backward"):
        cpu, gpu = getattr(ctc, name), getattr(ctc_cuda, name)
        assert list(inspect.signature(cpu).parameters) == list(inspect.signature(gpu).parameters)
