"""Planted bugs, round 29 (format: tests/mutants/mutants.py): the kernel cache's key and the prewarm switch:
the files whose code ends up in compiled kernels (the CUDA machinery folder among them), each file's stamp
(its modification time as well as its size), and LNRNN_PREWARM=0 turning the trainer's prewarm children off.

3 mutants. The existing targeted tests caught 2 (the stamp without mtime, armed ignoring the switch) and missed
kernel_sources leaving out kernels/cuda/: test_values_compiling_stamp's new test compares kernel_sources with a
walk of lnrnn/kernels.

    python tests/mutants/run.py --only 'v29-*'
"""
COMPILING = "lnrnn/compiling.py"
PREWARM = "lnrnn/training/prewarm.py"
COMPILING_TESTS = ["tests/test_values_compiling.py", "tests/test_values_compiling_stamp.py",
                   "tests/test_values17_compiling.py"]
PREWARM_TESTS = ["tests/training/test_prewarm.py"]

MUTANTS = [
    dict(name="v29-compiling-cuda-machinery-not-in-the-key", file=COMPILING,
         old='for d in (folder, os.path.join(folder, "cpu"), os.path.join(folder, "cuda"))',
         new='for d in (folder, os.path.join(folder, "cpu"))',
         tests=COMPILING_TESTS,
         why="an edit of kernels/cuda/ (rows_cuda's row functions, say) leaves the cached kernels that compiled "
             "them in: stale code runs"),
    dict(name="v29-compiling-stamp-without-mtime", file=COMPILING,
         old="        out.append((os.path.basename(path), st.st_mtime, st.st_size))\n",
         new="        out.append((os.path.basename(path), st.st_size))\n",
         tests=COMPILING_TESTS,
         why="an edit that keeps a helper file's size (a changed constant, a sign) does not recompile the kernels"),
    dict(name="v29-prewarm-switch-ignored-by-armed", file=PREWARM,
         old='    old, _state["armed"] = _state["armed"], bool(on) and enabled()\n',
         new='    old, _state["armed"] = _state["armed"], bool(on)\n',
         tests=PREWARM_TESTS,
         why="LNRNN_PREWARM=0 (or LNRNN_CACHE=0) still lets the first update start prewarm children"),
]
