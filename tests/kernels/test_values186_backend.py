"""lnrnn/backend.py's cuda_usable on a stand-in CUDA (no simulator, numba.cuda's is_available and
get_current_device replaced): no GPU gives the one 'no NVIDIA GPU' reason, a device its name (bytes decoded) and
compute capability major.minor; an unknown device name is refused naming it and the devices there are."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn import backend


@pytest.fixture
def fake_cuda(monkeypatch):
    from numba import cuda
    backend.cuda_usable.cache_clear()
    monkeypatch.setattr(backend, "simulator_enabled", lambda: False)

    def replace(**functions):
        for name, fn in functions.items():
            monkeypatch.setattr(cuda, name, fn, raising=False)

    yield replace
    backend.cuda_usable.cache_clear()


def _no_device():
    raise AssertionError("get_current_device called without a GPU")


def test_no_gpu_is_the_one_reason(fake_cuda):
    fake_cuda(is_available=lambda: False, get_current_device=_no_device)
    assert backend.cuda_usable() == (False, "no NVIDIA GPU with a working CUDA driver was found")


@pytest.mark.parametrize("name,cc", [(b"Fake H200", (9, 0)), ("Fake A10", (8, 6))])
def test_a_gpu_is_named_with_its_capability_major_minor(fake_cuda, name, cc):
    dev = SimpleNamespace(name=name, compute_capability=cc)
    fake_cuda(is_available=lambda: True, get_current_device=lambda: dev)
    text = name.decode() if isinstance(name, bytes) else name
    assert backend.cuda_usable() == (True, f"{text} (compute capability {cc[0]}.{cc[1]})")


def test_an_unknown_device_is_refused_by_name():
    with pytest.raises(ValueError) as e:
        backend.check_device("tpu")
    assert str(e.value) == "unknown device 'tpu'; expected one of cpu, cuda"
    assert backend.kernels("cpu").is_device(np.zeros(2)) is False
