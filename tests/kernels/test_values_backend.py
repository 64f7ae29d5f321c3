"""lnrnn/backend.py: every op of the CPU namespace is the kernel module's function of that very name, and
the namespace's inference ops use the population statistics they are given."""
import importlib

import numpy as np

from lnrnn import backend

MODULES = ("layernorm", "batchnorm", "lstm", "rnn", "bn_lstm", "bn_rnn", "window")


def _defined_in(op, suffix=""):
    """The lnrnn.kernels module (of MODULES, plus ``suffix``) whose own function ``op`` is."""
    found = []
    for name in MODULES:
        mod = importlib.import_module(f"lnrnn.kernels.{name}{suffix}")
        f = vars(mod).get(op)
        if f is not None and getattr(f, "py_func", f).__module__ == mod.__name__:
            found.append(f)
    assert len(found) == 1, (op, found)
    return found[0]


def test_every_cpu_op_is_bound_to_its_own_function():
    k = backend.kernels("cpu")
    for op in backend.OPS:
        assert getattr(k, op) is _defined_in(op), op


def test_batchnorm_inference_uses_the_population_statistics():
    """x (T,B,F) at step t is normalized with the statistics of row min(t, Ts-1): here T 3, Ts 2."""
    k = backend.kernels("cpu")
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 4, 5))
    gain, bias = rng.uniform(0.5, 1.5, 5), rng.standard_normal(5)
    rm, rv = rng.standard_normal((2, 5)), rng.uniform(0.5, 2.0, (2, 5))
    eps = 1e-5
    before = (rm.copy(), rv.copy())
    y = k.to_host(k.batchnorm_forward_infer(x, gain, bias, rm, rv, eps))
    rows = [0, 1, 1]
    want = np.stack([gain * (x[t] - rm[r]) / np.sqrt(rv[r] + eps) + bias for t, r in enumerate(rows)])
    np.testing.assert_allclose(y, want, rtol=1e-12)
    np.testing.assert_array_equal(rm, before[0])
    np.testing.assert_array_equal(rv, before[1])     # untouched
