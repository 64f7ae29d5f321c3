"""lnrnn/compiling.py by value: where Numba caches a function that uses lnrnn. Its locator is lnrnn's, so the
BLAS choice is in the file names (``...-<tag>.pyXY``); the index drop_unreadable_index checks is the one Numba
reads (``_file_base`` equals Numba's own file name base, for a nested function's ``<locals>`` too); and a user's
NUMBA_CACHE_LOCATOR_CLASSES naming lnrnn's locator leaves it out of the inner locators (the function is cached
as usual, no endless lookup)."""
import numba
import numpy as np
import pytest

import lnrnn.kernels.cpu.blas  # noqa: F401  (installs lnrnn's cache locator with the BLAS choice)
from lnrnn import compiling
from lnrnn.compiling import KernelCacheLocator


def _plus_one(x):
    return x + np.float64(1.0)   # np: this module's globals hold lnrnn too, so the function counts as lnrnn's


def _nested():
    def inner(x):
        return x * 2.0
    return inner


def _impl(disp):
    return disp._cache._impl


@pytest.mark.parametrize("fn", [_plus_one, _nested()], ids=["module level", "nested"])
def test_a_function_using_lnrnn_is_cached_under_lnrnns_locator_and_names(fn):
    disp = numba.njit(cache=True)(fn)
    impl = _impl(disp)
    assert isinstance(impl.locator, KernelCacheLocator)
    tag = KernelCacheLocator.tag
    assert tag and f"-{tag}.py" in impl.filename_base          # the BLAS choice is in the file names
    # the index lnrnn checks before Numba reads it is Numba's own
    assert compiling._file_base(fn, impl.locator.get_disambiguator()) == impl.filename_base
    assert "<" not in impl.filename_base and ">" not in impl.filename_base


def test_a_nested_functions_base_drops_the_angle_brackets_of_its_qualname():
    fn = _nested()
    assert "<locals>" in fn.__qualname__
    base = compiling._file_base(fn, "7-x")
    assert base.startswith("test_values32_compiling._nested.locals.inner-7-x.py")


def test_a_users_locator_list_naming_lnrnns_leaves_it_out_of_the_inner_ones(monkeypatch):
    from numba.core import caching
    user_wide = getattr(caching, "UserWideCacheLocator", None) or getattr(caching, "_UserWideCacheLocator")
    monkeypatch.setattr(compiling.config, "CACHE_LOCATOR_CLASSES", f"{compiling._OURS}, {user_wide.__name__}")
    assert compiling._numba_locators() == [user_wide]
    disp = numba.njit(cache=True)(_plus_one)                  # decorating looks the locators up: no recursion
    assert isinstance(_impl(disp).locator, KernelCacheLocator)
    assert not any(c is KernelCacheLocator for c in compiling._numba_locators())
