"""lnrnn/config.py's LNRNN_NO_CACHE as its comment and the prewarm docs read it: Numba's cache is on unless the
variable is set to something, in a fresh interpreter for each setting; every flag set (JIT, PJIT, EXACT_JIT)
carries that choice."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.mark.parametrize("value,cache", [(None, True), ("", True), ("1", False)])
def test_the_cache_is_on_unless_lnrnn_no_cache_is_set(value, cache):
    env = {k: v for k, v in os.environ.items() if k != "LNRNN_NO_CACHE"}
    if value is not None:
        env["LNRNN_NO_CACHE"] = value
    env["PYTHONPATH"] = os.pathsep.join([ROOT] + [p for p in [env.get("PYTHONPATH")] if p])
    code = ("import lnrnn.config as c; "
            "print(c.CACHE, c.JIT['cache'], c.PJIT['cache'], c.EXACT_JIT['cache'])")
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True,
                         check=True).stdout.split()
    assert out == [str(cache)] * 4
