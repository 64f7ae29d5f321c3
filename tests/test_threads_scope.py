"""``import lnrnn`` leaves the user's process as it was: BLAS thread counts and the environment
are unchanged by the import and after lnrnn's calls; inside them BLAS runs single-threaded, and the OpenMP
runtime behind Numba's threading layer waits passively. Each check runs in a fresh interpreter, since a
process's BLAS and OpenMP are set up once."""
import json
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PROBE = r"""
import json, os, sys
from threadpoolctl import threadpool_info, threadpool_limits
import numpy as np, scipy.linalg

def blas():
    return sorted((p["filepath"], p["num_threads"]) for p in threadpool_info() if p["user_api"] == "blas")

threadpool_limits(3, user_api="blas")        # the user's own choice, made before lnrnn arrives
env_before = {k: os.environ.get(k) for k in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_WAIT_POLICY")}
user = blas()
import lnrnn
after_import = blas()
inside = []
from lnrnn.model.layers import RecurrentStack
stack = RecurrentStack("lstm", "ln", input_size=2, hidden_size=4, num_layers=1, seed=0)
with lnrnn.kernel_threads():
    with lnrnn.kernel_threads():              # nested: still limited, restored only by the outer block
        pass
    inside = blas()
    stack.forward(np.ones((3, 2, 2), np.float32))
after_forward = blas()
from lnrnn.model.models import build_model
model = build_model(dict(cell="lstm", norm="none", input_size=1, hidden_size=4, num_layers=1, dtype="float32",
                         forget_bias=1.0, head={"kind": "classifier", "outputs": 3, "per_step": False}))
from lnrnn.api import Run, predict
predict(Run("memory", {}, model), np.zeros((5, 6)))
after_predict = blas()
print(json.dumps(dict(user=user, after_import=after_import, inside=inside, after_forward=after_forward,
                      after_predict=after_predict, env_before=env_before,
                      env_after={k: os.environ.get(k) for k in env_before})))
"""


def run_probe(code, env_extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "OMP_NUM_THREADS", "OMP_WAIT_POLICY")}
    env.update(env_extra or {})
    env["PYTHONPATH"] = ROOT + os.pathsep + env.get("PYTHONPATH", "")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return r


def test_import_and_calls_leave_blas_threads_and_environment_alone():
    res = json.loads(run_probe(PROBE).stdout.strip().splitlines()[-1])
    user = dict(map(tuple, res["user"]))   # the BLAS libraries the user had loaded -> their thread counts
    assert user and set(user.values()) == {3}, user

    def users_libs(key):                   # lnrnn may load MKL for itself (single-threaded); not the user's
        return {path: n for path, n in res[key] if path in user}
    assert users_libs("after_import") == user                 # import lnrnn changed no thread count
    assert users_libs("after_forward") == user                # nor did a forward inside kernel_threads
    assert users_libs("after_predict") == user                # nor an API call
    assert res["inside"] and all(n == 1 for _, n in res["inside"]), res["inside"]  # but inside: one thread
    assert res["env_after"] == res["env_before"] == {"OPENBLAS_NUM_THREADS": None, "MKL_NUM_THREADS": None,
                                                     "OMP_WAIT_POLICY": None}


OMP_PROBE = r"""
import ctypes, os, sys
import lnrnn
print("LAYER", lnrnn.THREADING_LAYER, "ENV", os.environ.get("OMP_WAIT_POLICY"), flush=True)
if lnrnn.THREADING_LAYER == "omp":
    gomp = ctypes.CDLL("libgomp.so.1")
    gomp.omp_display_env(0)       # GNU OpenMP prints the settings it read at load, on stderr
"""


def _omp_settings(env_extra=None):
    r = run_probe(OMP_PROBE, env_extra)
    layer = r.stdout.split()[1]
    if layer != "omp":
        pytest.skip(f"Numba's threading layer here is {layer}, not OpenMP")
    return r.stdout, r.stderr


def test_openmp_waits_passively_without_touching_the_environment():
    out, err = _omp_settings()
    if "OMP_WAIT_POLICY" not in err:
        pytest.skip("this libgomp does not display its settings")
    assert "ENV None" in out                                   # not in os.environ, not inherited by children
    assert "OMP_WAIT_POLICY = 'PASSIVE'" in err, err


def test_a_users_wait_policy_stands():
    out, err = _omp_settings({"OMP_WAIT_POLICY": "active"})
    if "OMP_WAIT_POLICY" not in err:
        pytest.skip("this libgomp does not display its settings")
    assert "ENV active" in out and "OMP_WAIT_POLICY = 'ACTIVE'" in err, err


def test_keep_malloc_leaves_the_allocator_alone(monkeypatch):
    """LNRNN_KEEP_MALLOC=1 leaves glibc's malloc as it is (no mallopt: not tuned); without it, tuned on glibc."""
    import platform

    from lnrnn import threadscope
    monkeypatch.setenv("LNRNN_KEEP_MALLOC", "1")
    assert threadscope._reuse_freed_memory() is False
    monkeypatch.delenv("LNRNN_KEEP_MALLOC")
    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert threadscope._reuse_freed_memory() is True   # what lnrnn.kernels' import does anyway
