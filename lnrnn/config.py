"""One place for every tunable of lnrnn: numerics, compilation flags, threading.

Kernels import their decorator flags from here; nothing else hard-codes them.
"""
import os

# Layer/batch normalization epsilon, added to the (biased) variance inside the square root.
EPS = 1e-5
# BatchNorm running-average momentum: running = (1 - m) * running + m * batch_statistic.
BN_MOMENTUM = 0.1
# Initial BatchNorm gain for the recurrent-BN cells (Cooijmans et al. 2016, section 4).
BN_GAIN_INIT = 0.1

# Numba compilation flags. fastmath is limited to flags that keep IEEE values (no nnan/ninf/afn):
# reassociation lets LLVM vectorise the LayerNorm sums and contraction use FMA; results move by a
# few ulp. (Numba's cache does not notice a change here: clear __pycache__ after editing.)
FASTMATH = {"reassoc", "contract", "nsz"}
# cache=True writes compiled code next to the sources (or NUMBA_CACHE_DIR) so later runs skip the compile.
CACHE = os.environ.get("LNRNN_NO_CACHE", "") == ""

# CUDA launch geometry (the simulator runs one OS thread per CUDA thread: keep tests small).
THREADS_PER_BLOCK = 128

JIT = dict(cache=CACHE, fastmath=FASTMATH)
PJIT = dict(cache=CACHE, fastmath=FASTMATH, parallel=True)
