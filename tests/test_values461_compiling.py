"""lnrnn/compiling.py's use_kernel_cache installs its two hooks once: called again (the same tag or another), Numba's
CPUCodeLibrary._optimize_final_module and Dispatcher.compile stay the functions the first call installed, not
wrapped a second time, and each is the lnrnn hook (private_helpers' and compile_once's) around Numba's own."""
import numba.core.codegen as codegen
from numba.core import dispatcher

import lnrnn.kernels.cpu.blas  # noqa: F401  (its import has called use_kernel_cache: the hooks are in place)
from lnrnn import compiling


def test_a_second_use_kernel_cache_wraps_nothing_again(monkeypatch):
    lib, disp = codegen.CPUCodeLibrary, dispatcher.Dispatcher
    optimize, compile_ = lib._optimize_final_module, disp.compile
    monkeypatch.setattr(lib, "_optimize_final_module", optimize)   # restored after the test, whatever happens
    monkeypatch.setattr(disp, "compile", compile_)
    monkeypatch.setattr(compiling.KernelCacheLocator, "tag", compiling.KernelCacheLocator.tag)
    assert optimize.__qualname__ == "private_helpers.<locals>.optimize_final_module"
    assert compile_.__qualname__ == "compile_once.<locals>.compile_shared"
    numbas = (optimize.__closure__[0].cell_contents, compile_.__closure__[0].cell_contents)
    assert all(f.__module__.startswith("numba.") for f in numbas)       # one lnrnn layer over Numba's own
    for tag in (compiling.KernelCacheLocator.tag, "t461"):
        compiling.use_kernel_cache(tag)
        assert lib._optimize_final_module is optimize and disp.compile is compile_
