"""lnrnn.jax's test of 64-bit types for every thread (lnrnn/interop/jax.py, _x64_everywhere): it follows the
process-wide setting where JAX keeps one (off: False, on: True), and on a JAX that keeps it otherwise (a setting
without a global value, or no jax._src.config) it trusts this thread's setting, so a float64 stack runs there and
gives the same y as here (I = 2, H = 3, B = 4, T = 5)."""
import os
import sys
import types

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.interop.jax as ij  # noqa: E402
import lnrnn.jax as lj  # noqa: E402
from test_values314_jax import B, H, I, T  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files


def _y():
    p = lj.init(jax.random.PRNGKey(477), "lstm", "ln", I, H, dtype=jnp.float64)
    x = np.random.default_rng(477).uniform(-1, 1, (T, B, I))
    y, _ = lj.apply(p, x, cell="lstm", norm="ln")
    return np.asarray(y)


def test_the_process_wide_setting_decides_where_jax_keeps_one():
    jax.config.update("jax_enable_x64", False)
    try:
        assert ij._x64_everywhere() is False
    finally:
        jax.config.update("jax_enable_x64", True)
    assert ij._x64_everywhere() is True


def test_a_jax_whose_setting_has_no_global_value_trusts_this_thread(monkeypatch):
    want = _y()
    assert want.dtype == np.float64 and np.isfinite(want).all()
    older = types.ModuleType("jax._src.config")   # its enable_x64 without get_global: AttributeError
    older.enable_x64 = object()
    monkeypatch.setitem(sys.modules, "jax._src.config", older)   # JAX's own modules keep theirs
    assert ij._x64_everywhere() is True
    np.testing.assert_array_equal(_y(), want)     # float64 runs, not refused, and the same y


def test_a_jax_without_the_config_module_trusts_this_thread(monkeypatch):
    monkeypatch.setitem(sys.modules, "jax._src.config", None)   # importing it now raises ImportError
    with pytest.raises(ImportError):
        from jax._src.config import enable_x64  # noqa: F401
    assert ij._x64_everywhere() is True
