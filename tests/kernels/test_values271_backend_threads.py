"""The backend choice and the thread scope, each against the module docstrings: require_cuda's refusal word for
word where CUDA is not usable and silence where it is; an unknown device named with quotes among the choices; the
reason cuda_usable gives for a GPU whose driver names it in bytes, for no GPU and for a driver that fails (numba.cuda
stood in, so no GPU is needed); every op of the CPU namespace bound to the kernel module of its own name; and a
kernel_threads() block nested in another that ends by an exception leaving the outer block's one BLAS thread in
place, the caller's counts back once the outer one ends (also by an exception)."""
import importlib
import importlib.util
import sys
import types

import numba
import pytest

from lnrnn import backend, threadscope


def test_require_cuda_refuses_with_the_reason_and_passes_when_usable(monkeypatch):
    why = "the numba-cuda package is not installed (pip install 'lnrnn[cuda]')"
    monkeypatch.setattr(backend, "cuda_usable", lambda: (False, why))
    with pytest.raises(backend.CudaUnavailable) as e:
        backend.require_cuda()
    assert str(e.value) == ("CUDA is not usable here: the numba-cuda package is not installed "
                            "(pip install 'lnrnn[cuda]'); use --device cpu (device='cpu') instead.")
    monkeypatch.setattr(backend, "cuda_usable", lambda: (True, "a stand-in GPU"))
    assert backend.require_cuda() is None
    assert backend.check_device("cuda") == "cuda"


def test_an_unknown_device_is_named_among_the_choices():
    with pytest.raises(ValueError) as e:
        backend.check_device("gpu")
    assert str(e.value) == "unknown device 'gpu'; expected one of cpu, cuda"


@pytest.fixture
def fake_cuda(monkeypatch):
    real_find = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: object() if name == "numba_cuda" else real_find(name, *a))
    monkeypatch.setattr(backend, "numpy_compat", lambda: None)
    monkeypatch.setattr(backend, "simulator_enabled", lambda: False)
    cuda = types.SimpleNamespace()
    monkeypatch.setattr(numba, "cuda", cuda, raising=False)
    monkeypatch.setitem(sys.modules, "numba.cuda", cuda)
    backend.cuda_usable.cache_clear()
    yield cuda
    backend.cuda_usable.cache_clear()


def test_the_reason_names_the_gpu_or_what_failed(fake_cuda):
    fake_cuda.is_available = lambda: True
    fake_cuda.get_current_device = lambda: types.SimpleNamespace(name=b"NVIDIA H200", compute_capability=(9, 0))
    assert backend.cuda_usable() == (True, "NVIDIA H200 (compute capability 9.0)")
    backend.cuda_usable.cache_clear()
    fake_cuda.is_available = lambda: False
    assert backend.cuda_usable() == (False, "no NVIDIA GPU with a working CUDA driver was found")
    backend.cuda_usable.cache_clear()

    def broken():
        raise RuntimeError("driver 535 too old")
    fake_cuda.is_available, fake_cuda.get_current_device = (lambda: True), broken
    assert backend.cuda_usable() == (False, "the CUDA driver failed to initialize (RuntimeError: driver 535 too old)")


def test_every_cpu_op_is_the_kernel_module_function_of_its_name():
    # the module of each op, by the name's prefix (lnrnn/kernels/<module>.py)
    modules = {"layernorm": "layernorm", "lstm": "lstm", "rnn": "rnn", "batchnorm": "batchnorm",
               "bn_lstm": "bn_lstm", "bn_rnn": "bn_rnn", "window": "window", "join": "window", "take": "window"}
    k = backend.kernels("cpu")
    assert k.device == "cpu"
    for op in backend.OPS:
        prefix = "bn_" + op.split("_")[1] if op.startswith("bn_") else op.split("_")[0]
        module = importlib.import_module(f"lnrnn.kernels.{modules[prefix]}")
        assert getattr(k, op) is getattr(module, op), op


def _blas_counts():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    return sorted((p["filepath"], p["num_threads"]) for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas")


def test_an_inner_block_ending_by_an_exception_leaves_the_outer_limit_in_place():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    threadscope.prepare_process()
    threadscope._blas_controller()
    with threadpoolctl.threadpool_limits(2, user_api="blas"):
        before = _blas_counts()
        assert any(n == 2 for _, n in before), before
        with pytest.raises(KeyError):
            with threadscope.kernel_threads():
                with pytest.raises(ValueError):
                    with threadscope.kernel_threads():
                        raise ValueError("inner")
                inside = _blas_counts()
                raise KeyError("outer")
        assert {n for _, n in inside} == {1}, inside
        assert _blas_counts() == before
        assert threadscope._users == 0
