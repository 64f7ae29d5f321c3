"""Integer codes shared by the CPU and CUDA twins.

Design note: the codes that select a variant inside a kernel (which normalization a plain/LN cell
applies) are plain integers, because Numba specializes on them cheaply and both twins must agree on
them. They live here, in a module that imports no other kernel module (NumPy, Numba's njit and the
config alone), so that a CUDA twin can use them without importing its CPU sibling (importing ``lstm.py``
loads the BLAS choice of ``blas.py``, MKL included) and a CPU module without importing anything of
numba.cuda. ``lstm.py`` and ``rnn.py``
re-export them (``from lnrnn.kernels.lstm import NORM_LN`` keeps working). The same reason holds for
the host-side rules both twins apply to their arguments: ``clip_bound`` and ``centered`` (compiled
for the CPU by Numba's njit, not numba.cuda: it runs on the host for both twins).
"""
import numpy as np
from numba import njit

from lnrnn.config import JIT

NORM_NONE = 0  # plain cell: no normalization
NORM_LN = 1    # layer-normalized cell (Ba, Kiros & Hinton 2016)
NORM_BN = 2    # batch-normalized cell, per-step statistics (Cooijmans et al. 2016): the window layer's code (window.py)

# Mixture density output (mdn.py, mdn_cuda.py): log-sigma is clipped to [-MDN_SMAX, MDN_SMAX] and
# |rho| <= MDN_RHO < 1 (exactly +-1 would make a Gaussian degenerate).
MDN_SMAX = 10.0
MDN_RHO = 1.0 - 1e-4

# Connectionist temporal classification (ctc.py, ctc_cuda.py): the blank is class 0, as in PyTorch's
# ctc_loss; labels are classes 1..C-1 (reference.CTC_BLANK is the spec's copy, tested equal).
CTC_BLANK = 0


def clip_bound(clip):
    """Graves's gate clip as every LSTM backward takes it (CPU, CUDA, synchronized BN): the bound when
    0 < clip < inf, else 0.0, which means off (0, inf and NaN alike)."""
    return float(clip) if 0.0 < clip < float("inf") else 0.0


@njit(**JIT)
def centered(W):
    """W (K,G) minus the mean of each row, computed in float64 and rounded once to W's dtype: the LN-LSTM's
    centered weights (lstm.ln_weights), on the host for both twins. Compiled: the NumPy expression
    (W - W.mean(axis=1, keepdims=True, dtype=np.float64)).astype(W.dtype) made a (K,G) float64 temporary
    and took 0.27 ms at K256 G1024 (S2's Wh) against 0.12 ms here, once every forward (a 2-core Zen 4
    VM). The float64 row sums run in another order than NumPy's pairwise sum: float32 weights come out
    as NumPy's bit for bit wherever the rounding to float32 hides the mean's last float64 digits (every
    case tested), float64 weights within an ulp of their row's scale (tests/kernels/test_kernels.py)."""
    K, G = W.shape
    out = np.empty((K, G), W.dtype)  # (K,G)
    for k in range(K):
        s = 0.0
        for j in range(G):
            s += np.float64(W[k, j])
        m = s / G
        for j in range(G):
            out[k, j] = np.float64(W[k, j]) - m
    return out
