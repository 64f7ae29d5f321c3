# Numba's CUDA simulator must be chosen before numba is first imported, so it is set here, before any
# test module is collected: the CUDA twins then run on the CPU (tests/*/test_cuda_*.py, tests/*/test_*_cuda.py). On a machine
# with a GPU, run them on the device with NUMBA_ENABLE_CUDASIM=0.
import os
import sys

import numpy as np

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

# The tests mirror the package (tests/kernels/, tests/model/, tests/training/, ...). A test imports the
# helpers of another test file by its module name (``from test_cli import invoke``): every test folder
# is on sys.path before any test module is collected, whichever folder pytest reaches first. Module
# names are unique across the folders (tests/test_structure.py checks).
_TESTS = os.path.dirname(os.path.abspath(__file__))
for _name in sorted(os.listdir(_TESTS)):
    _folder = os.path.join(_TESTS, _name)
    if _name not in ("mutants", "__pycache__") and os.path.isdir(_folder) and _folder not in sys.path:
        sys.path.insert(0, _folder)
if _TESTS not in sys.path:
    sys.path.insert(0, _TESTS)


def _strict_simulator_reshape():
    """The simulator reshapes any array as NumPy does; a GPU's device arrays reshape only where numba-cuda's
    layout model (its dummyarray: pure Python) finds a view, else 'operation requires copying'. The
    simulator's reshape and ravel are made to ask that model first, so that a kernel driver that
    reshapes a strided view fails here, not first on a GPU."""
    import importlib.util

    import numba_cuda
    from numba.cuda.simulator.cudadrv.devicearray import FakeCUDAArray

    path = os.path.join(os.path.dirname(numba_cuda.__file__), "numba", "cuda", "cudadrv", "dummyarray.py")
    spec = importlib.util.spec_from_file_location("_numba_cuda_dummyarray", path)
    dummy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dummy)

    def strict(name):
        plain = getattr(FakeCUDAArray, name)

        def method(self, *args, **kwargs):
            a = self._ary
            shape = tuple(args[0] if len(args) == 1 and isinstance(args[0], tuple) else args)  # reshape's
            if name == "ravel" or shape != a.shape:
                d = dummy.Array.from_desc(0, a.shape, a.strides, a.itemsize)
                order = {k: v for k, v in kwargs.items() if k == "order"}
                try:
                    _, extents = d.ravel(**order) if name == "ravel" else d.reshape(*shape, **order)
                except NotImplementedError:
                    extents = None
                if extents != [d.extent]:
                    raise NotImplementedError("operation requires copying")
            return plain(self, *args, **kwargs)
        method.__doc__ = plain.__doc__
        return method

    FakeCUDAArray.reshape = strict("reshape")
    FakeCUDAArray.ravel = strict("ravel")


def _simulator_blocks_as_greenlets():
    """The simulator runs a block as one Python thread per CUDA thread, and its BlockManager waits for them by
    polling every thread in a loop that holds the GIL: a thread with work then runs only when the poller is
    switched out, and starting and switching OS threads took most of a simulated kernel's time. Here a
    block's CUDA threads are greenlets (lnrnn's own dependency) run one after another on the launching
    thread: each runs until it reaches syncthreads() or ends, and when every live one has, the next round
    resumes them all: the simulator's own rule (all live threads blocked -> release them all). What a thread
    sees is the simulator's: threadIdx, blockIdx, laneid and the syncthreads family are read from the
    current greenlet's thread record, shared arrays and atomics are the simulator's own; an exception in a
    thread is raised with the simulator's tid/ctaid prefix and ends the block. With debug=True the plain
    manager runs."""
    import threading
    import types

    from greenlet import getcurrent, greenlet
    from numba.cuda.simulator import kernel as sim
    from numba.cuda.simulator import kernelapi

    class SimThread(sim.BlockThread):
        """The simulator's own thread record (indices, thread_id, the syncthreads family), never started: its
        greenlet runs the kernel, and a barrier hands control back to the block's loop."""
        def syncthreads(self):
            self._manager._launcher.switch()                   # back to the block's loop until the next round

    def current_thread():
        return getattr(getcurrent(), "sim_thread", None) or threading.current_thread()

    shim = types.SimpleNamespace(**{k: getattr(threading, k) for k in dir(threading) if not k.startswith("__")})
    shim.current_thread = current_thread
    kernelapi.threading = shim

    plain_run = sim.BlockManager.run

    def manager_run(self, grid_point, *args):
        if self._debug:
            return plain_run(self, grid_point, *args)
        self._launcher = getcurrent()
        live = []
        for block_point in np.ndindex(*self._block_dim):
            t = SimThread(None, self, grid_point, block_point, self._debug)

            def body(t=t):
                try:
                    self._f(*args)
                except Exception as e:                         # as BlockThread.run words it
                    where = f"tid={list(t.threadIdx)} ctaid={list(t.blockIdx)}"
                    t.exception = (type(e)(f"{where}: {e}" if str(e) else where), sys.exc_info()[2])
            g = greenlet(body)
            g.sim_thread = t
            live.append((t, g))
        while live:
            for t, g in live:
                g.switch()                                     # until its next syncthreads() or its end
                if t.exception:
                    raise t.exception[0].with_traceback(t.exception[1])
            live = [(t, g) for t, g in live if not g.dead]

    sim.BlockManager.run = manager_run


if os.environ["NUMBA_ENABLE_CUDASIM"] == "1":
    _strict_simulator_reshape()
    _simulator_blocks_as_greenlets()


# The files that take longest from a fresh clone on 2 cores (compiling included), longest first.
# pyproject.toml's addopts hand whole files to the xdist workers in collection order
# (--dist loadfile --no-loadscope-reorder): these start first, so that no long file is left to run
# alone at the end while the other workers wait; the other files follow in their own order and fill
# the gaps. Only the order changes: every test runs, in one worker with the rest of its file.
LONGEST_FIRST = (
    "test_jax.py", "test_mpi.py", "test_reproducible_ranks.py", "test_reproducible.py", "test_cache_blas.py",
    "test_notebooks.py", "test_commands_careful.py", "test_runs.py", "test_prewarm.py", "test_cuda_backend.py",
    "test_values_distributed_options.py", "test_blocks.py", "test_bn_cells.py",
)


def pytest_collection_modifyitems(items):
    rank = {name: k for k, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(LONGEST_FIRST)))  # stable: a file keeps its order
