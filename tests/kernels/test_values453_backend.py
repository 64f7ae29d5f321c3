"""lnrnn/backend.py's cuda_usable where Numba's CUDA simulator is on (made so here, whatever the host: the answer
cannot depend on a GPU being there or not): CUDA is usable, the reason says it is the simulator on the CPU, no
driver or device is asked about, and require_cuda lets the simulator through; the answer is cached until
cuda_usable.cache_clear()."""
import pytest

from lnrnn import backend
from test_values186_backend import fake_cuda  # noqa: F401  (the fixture)

SIMULATOR = "Numba's CUDA simulator (NUMBA_ENABLE_CUDASIM=1), on the CPU"


def _never():
    pytest.fail("a driver or device was asked about under the simulator")


def test_the_simulator_is_usable_and_named(fake_cuda, monkeypatch):  # noqa: F811
    fake_cuda(is_available=_never, get_current_device=_never)
    monkeypatch.setattr(backend, "simulator_enabled", lambda: True)
    assert backend.cuda_usable() == (True, SIMULATOR)
    backend.require_cuda()                                           # raises CudaUnavailable otherwise
    monkeypatch.setattr(backend, "simulator_enabled", lambda: False)
    assert backend.cuda_usable() == (True, SIMULATOR)                # cached
    backend.cuda_usable.cache_clear()
    fake_cuda(is_available=lambda: False)
    assert backend.cuda_usable()[0] is False                         # asked again: no GPU without the simulator
