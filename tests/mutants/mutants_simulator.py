"""Planted bugs in the tests' own runner of the simulator's blocks (tests/conftest.py: a block's CUDA threads
as greenlets), caught by tests/kernels/test_simulator_blocks.py: a runner that computes otherwise than the
simulator would make every CUDA twin test check the twins against a different machine. (Thread indices, lanes
and the syncthreads family are the simulator's own BlockThread record there, not restated.)"""

F = "tests/conftest.py"
T = "tests/kernels/test_simulator_blocks.py"

MUTANTS = [
    dict(name="sim-one-round", file=F,
         old="        while live:\n            for t, g in live:\n",
         new="        if live:\n            for t, g in live:\n",
         tests=[f"{T}::test_shared_memory_and_a_barrier_in_a_2d_block"],
         why="threads never pass their first syncthreads(): what a thread does after a barrier never runs"),
    dict(name="sim-error-swallowed", file=F,
         old="                if t.exception:\n                    raise t.exception[0].with_traceback(t.exception[1])\n",
         new="",
         tests=[f"{T}::test_an_error_in_one_thread_names_it"],
         why="an exception in a simulated thread is dropped: an out-of-bounds index in a kernel passes"),
    dict(name="sim-threads-in-reverse", file=F,
         old="            for t, g in live:\n",
         new="            for t, g in reversed(live):\n",
         tests=[f"{T}::test_a_missing_barrier_shows"],
         why="thread (0, 0) runs last: a read of what the others write, with no barrier between, sees their "
             "values, so a missing syncthreads() goes unnoticed in that pattern"),
]
