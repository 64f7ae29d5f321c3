"""lnrnn/compiling.py: the locators ours defers to, read from NUMBA_CACHE_LOCATOR_CLASSES (dotted paths imported
by module and class, bare names from numba.core.caching, ours left out) or, unset, Numba's own list without
ours; each looked up here independently with importlib."""
import importlib

import pytest
from numba.core import caching, config

from lnrnn import compiling


@pytest.mark.parametrize("spec,want", [
    ("numba.core.caching.InTreeCacheLocator", ["numba.core.caching.InTreeCacheLocator"]),
    ("lnrnn.compiling.KernelCacheLocator, numba.core.caching.UserWideCacheLocator ,InTreeCacheLocator",
     ["numba.core.caching.UserWideCacheLocator", "numba.core.caching.InTreeCacheLocator"]),
    (" UserProvidedCacheLocator,,lnrnn.compiling.KernelCacheLocator", ["numba.core.caching.UserProvidedCacheLocator"]),
])
def test_locators_from_the_environment_list(monkeypatch, spec, want):
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", spec)
    expected = []
    for path in want:
        module, cls = path.rsplit(".", 1)
        expected.append(getattr(importlib.import_module(module), cls))
    assert compiling._numba_locators() == expected


def test_locators_without_the_environment_list(monkeypatch):
    monkeypatch.setattr(config, "CACHE_LOCATOR_CLASSES", "")
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl")
    got = compiling._numba_locators()
    assert compiling.KernelCacheLocator not in got and got
    assert got == [c for c in impl._locator_classes if c.__module__ != "lnrnn.compiling"]
