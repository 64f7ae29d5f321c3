"""Planted bugs, round 28 (format: tests/mutants/mutants.py): lnrnn.threadscope's promises that the earlier
rounds left alone: the environment left as found once Numba's threading layer has started with passive
OpenMP waiting, the user's BLAS thread counts back only when the outermost of nested kernel_threads() blocks
closes, and the public calls (scoped) running inside such a block.

3 mutants. The existing targeted tests caught 2 (the environment, the nested block) and missed scoped running its
function outside the block: the probe of test_threads_scope counts BLAS threads inside an explicit
kernel_threads() and after predict, never inside a scoped call. test_values9_threadscope's new test counts them
inside a scoped function under the caller's own limit of 2, and after it.

    python tests/mutants/run.py --only 'v28-*'
"""
SCOPE = "lnrnn/threadscope.py"
SCOPE_TESTS = ["tests/test_threads_scope.py", "tests/test_values9_threadscope.py"]

MUTANTS = [
    dict(name="v28-scope-wait-policy-left-in-the-environment", file=SCOPE,
         old='        if given is None:\n            del os.environ["OMP_WAIT_POLICY"]\n',
         new='        if given is None:\n            pass\n',
         tests=SCOPE_TESTS,
         why="OMP_WAIT_POLICY=passive stays in os.environ after the threading layer starts: the user's child "
             "processes inherit it"),
    dict(name="v28-scope-inner-close-restores", file=SCOPE,
         old="            if _users == 0:\n                _limiter.restore_original_limits()\n",
         new="            if _users <= 1:\n                _limiter.restore_original_limits()\n",
         tests=SCOPE_TESTS,
         why="a nested kernel_threads() block gives the user's BLAS threads back when it closes, while the "
             "outer block still runs kernels"),
    dict(name="v28-scope-scoped-runs-unscoped", file=SCOPE,
         old="        with kernel_threads():\n            return func(*args, **kwargs)\n",
         new="        return func(*args, **kwargs)\n",
         tests=SCOPE_TESTS,
         why="lnrnn.predict, evaluate_run, read and sample run with the user's BLAS thread counts (each chunk "
             "thread's BLAS then asks for every core)"),
]
