"""lnrnn/config.py's PJIT and EXACT_PJIT keep their parallel options for every compilation: functions decorated with
them, compiled one after another and each for two signatures, get no automatic parallel loop (a NumPy reduction,
an array expression, a slice assignment, an allocation), while a prange loop is still one (so the count can be
non-zero). Numba reads a dict of parallel options by popping them out of it: a dict shared by the decorators held
the options for the first compilation only."""
import warnings

import numpy as np
import pytest
from numba import njit, prange

from lnrnn import config


def reduction(a):
    return np.sum(a)


def expression(a):
    return a * 2.0 + 1.0


def assignment(a):
    a[:] = 0.0
    return a


def allocation(a):
    return np.zeros(a.shape[0]) + a


def explicit(a):
    s = 0.0
    for i in prange(a.shape[0]):
        s += a[i]
    return s


def parallel_loops(flags, fn):
    """Numba's parallel loops (parfors) of fn compiled with flags for float64 and float32, one count each."""
    f = njit(**dict(flags, cache=False))(fn)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                   # Numba's "no transformation for parallel" notes
        for dt in (np.float64, np.float32):
            f(np.ones(7, dt))
    return [len(o.metadata["parfor_diagnostics"].initial_parfors) for o in f.overloads.values()]


@pytest.mark.parametrize("name", ["PJIT", "EXACT_PJIT"])
def test_every_compilation_keeps_the_options(name):
    flags = getattr(config, name)
    for fn in (reduction, expression, assignment, allocation, reduction, expression):
        assert parallel_loops(flags, fn) == [0, 0], fn.__name__
    assert parallel_loops(flags, explicit) == [1, 1]
    assert parallel_loops(flags, reduction) == [0, 0]


def test_the_flags_are_the_stated_options():
    assert config.PARALLEL["prange"] and not any(v for k, v in config.PARALLEL.items() if k != "prange")
    for name, fastmath in (("PJIT", config.FASTMATH), ("EXACT_PJIT", False)):
        flags = getattr(config, name)
        assert flags["fastmath"] == fastmath and flags["cache"] == config.CACHE and flags["error_model"] == "numpy"
        assert {k: getattr(flags["parallel"], k) for k in config.PARALLEL} == config.PARALLEL
