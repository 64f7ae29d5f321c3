"""The LN-LSTM kernels compiled fresh and the same kernels loaded from Numba's on-disk cache give
bit-identical results.

Users meet both: the first `lnrnn train` after an install compiles, later runs load the cache. Were they
to differ at rounding level (float32 gradients up to 2.4e-4 apart on this problem), a first run and its
rerun with the same seed would diverge. Each run is a fresh process sharing one
NUMBA_CACHE_DIR: the first compiles and writes the cache (it reports no cache hits), the second must load
it (cache hits) and reproduce every output bit for bit.
"""
import os
import subprocess
import sys
import testpaths

import numpy as np

ROOT = testpaths.ROOT

SCRIPT = r"""
import sys
sys.path.insert(0, sys.argv[2])
import lnrnn  # noqa: F401
import numpy as np
from lnrnn.kernels import lstm as L
T, B, I, H = 12, 40, 3, 48
G = 4 * H
f = np.float32
rng = np.random.default_rng(0)
x = rng.standard_normal((T, B, I)).astype(f)
h0 = (0.1 * rng.standard_normal((B, H))).astype(f)
c0 = (0.1 * rng.standard_normal((B, H))).astype(f)
Wx = (0.3 * rng.standard_normal((I, G))).astype(f)
Wh = (rng.standard_normal((H, G)) / np.sqrt(H)).astype(f)
b, gx, bx, gh, bh = [(1 + 0.1 * rng.standard_normal(G)).astype(f) for _ in range(5)]
gc, bc = [(1 + 0.1 * rng.standard_normal(H)).astype(f) for _ in range(2)]
dy = rng.standard_normal((T, B, H)).astype(f)
out = {}
for norm in (L.NORM_NONE, L.NORM_LN):
    y, hT, cT, saved = L.lstm_forward(x, h0, c0, Wx, Wh, b, gx, bx, gh, bh, gc, bc, norm, 1e-5, 2)
    grads = L.lstm_backward(dy, saved, x, h0, c0, Wx, Wh, gx, gh, gc, norm, 2)
    for i, a in enumerate((y, hT, cT) + tuple(grads)):
        out[f"{norm}_{i}"] = a
np.savez(sys.argv[1], **out)
hits = sum(sum(fn.stats.cache_hits.values()) for fn in (L._forward_rows, L._backward_rows))
print("cache hits", hits)
"""


def run(path, cache_dir):
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache_dir))
    r = subprocess.run([sys.executable, "-c", SCRIPT, str(path), ROOT], env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-2000:]
    return int(r.stdout.strip().splitlines()[-1].split()[-1])


def test_compiled_and_cache_loaded_lstm_kernels_agree_bitwise(tmp_path):
    cache = tmp_path / "numba_cache"
    assert run(tmp_path / "cold.npz", cache) == 0, "the first process should compile, not load"
    assert run(tmp_path / "cached.npz", cache) > 0, "the second process should load the kernels from the cache"
    cold, cached = np.load(tmp_path / "cold.npz"), np.load(tmp_path / "cached.npz")
    assert sorted(cold.files) == sorted(cached.files) and len(cold.files) == 2 * 15
    for k in cold.files:
        np.testing.assert_array_equal(cold[k], cached[k], err_msg=k)
