"""The CPU LSTM and RNN (lnrnn/kernels/lstm.py, rnn.py) on the per-step product this process did not choose
at import (LNRNN_REC_GEMM rgemm / blas: lnrnn/kernels/cpu/blas.py reads it once), in a child process, against
the NumPy spec (lnrnn/reference.py) in float64: forward, infer and every gradient, plain and LN, a narrow
and a wide input, 5 rows on 2 chunks. The problems are test_values147_lstm's and test_values147_rnn's. The
child compiles the kernels for its product the first time (about a minute on one core; Numba's cache then
keeps them)."""
import json
import os
import subprocess
import sys

from lnrnn.kernels.cpu import blas

CHILD = r"""
import json, os, sys
import numpy as np
sys.path[:0] = [sys.argv[1], os.path.dirname(sys.argv[1])]
from lnrnn import reference as R
from lnrnn.kernels.cpu import blas
from lnrnn.kernels.lstm import lstm_backward, lstm_forward, lstm_infer
from lnrnn.kernels.rnn import rnn_backward, rnn_forward, rnn_infer
import test_values147_lstm as L
import test_values147_rnn as N


def worst(got, want):
    return max(float(np.max(np.abs(g - w)) / max(1.0, float(np.max(np.abs(w))))) for g, w in zip(got, want))


out = dict(rec=blas.REC, err=[])
for norm in ("none", "ln"):
    for I in (3, 7):
        p = L.problem(14840 + I, 3, 5, I, 3)
        dy = np.random.default_rng(14860 + I).standard_normal((3, 5, 3))
        y, hT, cT, cache = R.lstm_forward(*[p[k] for k in L.FWD], norm, L.EPS)
        want = R.lstm_backward(dy, cache, p["Wx"], p["Wh"], p["gx"], p["gh"], p["gc"], norm)
        yk, hk, ck, saved = lstm_forward(*[p[k] for k in L.FWD], L.NORM[norm], L.EPS, 2)
        yi = lstm_infer(*[p[k] for k in L.FWD], L.NORM[norm], L.EPS, 2)[0]
        got = L.kernel_backward(p, saved, dy, norm, 2)
        out["err"].append(["lstm", norm, I, max(worst((yk, hk, ck, yi), (y, hT, cT, y)), worst(got, want))])
        p = N.problem(14880 + I, 3, 5, I, 3)
        y, hT, cache = R.rnn_forward(*[p[k] for k in N.FWD], norm, N.EPS)
        want = R.rnn_backward(dy, cache, p["Wx"], p["Wh"], p["g"], norm)
        yk, hk, saved = rnn_forward(*[p[k] for k in N.FWD], N.NORM[norm], N.EPS, 2)
        yi = rnn_infer(*[p[k] for k in N.FWD], N.NORM[norm], N.EPS, 2)[0]
        got = N.kernel_backward(p, saved, dy, norm, 2)
        out["err"].append(["rnn", norm, I, max(worst((yk, hk, yi), (y, hT, y)), worst(got, want))])
print(json.dumps(out))
"""


def test_the_other_per_step_product_against_the_spec():
    other = "blas" if blas.REC == "rgemm" else "rgemm"
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, LNRNN_REC_GEMM=other, NUMBA_NUM_THREADS="1")
    res = subprocess.run([sys.executable, "-c", CHILD, here], env=env, capture_output=True, text=True,
                         timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    out = json.loads(res.stdout.strip().splitlines()[-1])
    assert out["rec"] == other, out
    assert len(out["err"]) == 8, out
    for cell, norm, I, err in out["err"]:
        assert err < 1e-10, (other, cell, norm, I, err)
