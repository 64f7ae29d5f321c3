"""lnrnn/backend.py's cuda_usable where numba-cuda is installed but numba.cuda fails to import (a broken CUDA
toolkit: the import made to fail here): CUDA is not usable, the reason names the import and its error, and the
simulator or a device is never asked about."""
import importlib.util
import sys

import numba
import pytest

from lnrnn import backend


@pytest.fixture
def broken_import(monkeypatch):
    if importlib.util.find_spec("numba_cuda") is None:
        pytest.skip("numba-cuda is not installed (the cuda extra)")
    backend.cuda_usable.cache_clear()
    monkeypatch.delattr(numba, "cuda", raising=False)
    monkeypatch.setitem(sys.modules, "numba.cuda", None)       # `from numba import cuda`: ModuleNotFoundError
    monkeypatch.setattr(backend, "simulator_enabled", lambda: pytest.fail("asked about the simulator"))
    yield
    backend.cuda_usable.cache_clear()


def test_a_failed_import_of_numba_cuda_is_not_usable_and_says_so(broken_import):
    usable, why = backend.cuda_usable()
    assert usable is False
    assert why.startswith("numba.cuda failed to import (ModuleNotFoundError: "), why
    assert "numba.cuda" in why[len("numba.cuda failed to import"):], why
