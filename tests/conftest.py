# Numba's CUDA simulator must be chosen before numba is first imported, so it is set here, before any
# test module is collected: the CUDA twins then run on the CPU (tests/test_cuda_*.py). On a machine
# with a GPU, run them on the device with NUMBA_ENABLE_CUDASIM=0.
import os

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")
