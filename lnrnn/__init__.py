"""lnrnn: Numba-accelerated normalized recurrent networks with hand-written BPTT.

Threading: lnrnn's kernels split the batch over Numba threads (``prange``) and call single-threaded
BLAS inside each thread; nested BLAS threads run several times slower. We therefore ask OpenBLAS/MKL
for one thread unless the user already chose otherwise. This only takes effect when lnrnn is imported
before NumPy; ``lnrnn info`` reports what is in force.
"""
import os as _os

for _var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
