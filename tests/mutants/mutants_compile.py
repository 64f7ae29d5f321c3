"""Planted bugs in the kernel cache's sharing between processes (lnrnn/compiling.py: compile_once);
format: tests/mutants/mutants.py.

    python tests/mutants/run.py --only 'compile-*'
"""

C = "lnrnn/compiling.py"
T = "tests/kernels/test_cache_blas.py::test_a_compilation_waits_for_anothers_lock_then_runs"

MUTANTS = [
    dict(name="compile-once-never-installed", file=C,
         old="        dispatcher.Dispatcher.compile = compile_once(dispatcher.Dispatcher.compile)\n",
         new="        pass\n",
         tests=[T],
         why="every process started on a cold cache compiles every kernel itself again"),
    dict(name="compile-once-does-not-wait", file=C,
         old="                    time.sleep(0.05)\n",
         new="                    break\n",
         tests=[T],
         why="a held lock is passed by (compiling.exclusive): the waiter compiles what another process is compiling"),
]
