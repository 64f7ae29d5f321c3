"""sigmoid_row (lnrnn/kernels/cpu/rows.py) against 1 / (1 + exp(-a)) in float64 from libm (math.exp), over the
whole range: float64 rows to rounding (libm on both sides) from -700 to 700; float32 rows to a relative 1e-6
from -87 to 87 (where its exp reduction stops: 2^k from 2^-126 to 2^126), at 0, ±87, the tails, and subnormal
arguments; beyond ±87 the float32 row is clamped: 1 for large a, and below -87 a result within 2e-38 of the
exact one (which is subnormal past -87.3)."""
import math

import numpy as np
import pytest

from lnrnn.kernels.cpu.rows import sigmoid_row


def exact(a):
    out = []
    for v in np.asarray(a, dtype=np.float64):
        v = float(v)
        out.append(1.0 / (1.0 + math.exp(-v)) if v > -700 else math.exp(v))
    return np.array(out)


def run(a):
    y = np.empty_like(a)
    sigmoid_row(y, a, np.empty(2 * a.size, np.int32))
    return y


def test_float64_row_matches_libm_to_rounding():
    a = np.concatenate([np.linspace(-700.0, 700.0, 1401), [0.0, 1e-300, -1e-300, 5e-324, 36.7, -36.7]])
    y = run(a)
    want = exact(a)
    assert np.max(np.abs(y - want) / want) < 1e-14


@pytest.mark.parametrize("lo,hi", [(-87.0, -20.0), (-20.0, 20.0), (20.0, 87.0)])
def test_float32_row_over_the_reduced_range(lo, hi):
    a = np.concatenate([np.linspace(lo, hi, 4001), [lo, hi, 0.0]]).astype(np.float32)
    y = run(a)
    want = exact(a)
    assert y.dtype == np.float32
    assert np.max(np.abs(y - want) / want) < 1e-6
    assert np.max(np.abs(y - want)) < 1e-7


def test_float32_row_at_zero_subnormal_arguments_and_beyond_the_clamp():
    tiny = np.float32(1e-40)  # subnormal arguments: sigmoid is 1/2 to float32 precision
    a = np.array([0.0, tiny, -tiny, np.float32(1.4e-45)], np.float32)
    assert run(a).tolist() == [0.5] * 4
    big = np.array([87.0, 88.0, 100.0, 1e4, np.inf], np.float32)
    assert np.all(np.abs(run(big) - 1.0) <= 2.0 ** -24)
    low = np.array([-87.5, -88.0, -95.0, -104.0, -200.0], np.float32)
    y = run(low)
    assert np.all(y >= 0.0) and np.all(np.abs(y - exact(low)) < 2e-38)
