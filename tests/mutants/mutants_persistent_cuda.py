"""Planted bugs in the persistent LN-LSTM forward and BPTT (dev/lstm_persistent_cuda.py; format:
tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'cuda-persistent-*' --only 'cuda-mdn-*'
"""

PERS = "dev/lstm_persistent_cuda.py"
T = "tests/dev/test_cuda_persistent.py"
CASE = f"{T}::test_float64_equals_cpu_twin_and_cuda_forward"
BWD = "tests/dev/test_cuda_persistent_bwd.py::test_float64_equals_cuda_backward_and_cpu_twin"

MUTANTS = [
    dict(name="cuda-persistent-partials-skip-block-0", file=PERS,
         old="        s = one - one\n        for jj in range(nb):\n            s += P[jj, b, 0]",
         new="        s = one - one\n        for jj in range(1, nb):\n            s += P[jj, b, 0]",
         tests=[f"{CASE}[stepped-nb3-H7-I2]"],
         why="a row's sum is combined over blocks 1..NB-1: block 0's partial is left out of every mean"),
    dict(name="cuda-persistent-c-partial-short-range", file=PERS,
         old="            for k in range(u0, u1):\n                s += c[t, b, k]",
         new="            for k in range(u0, u1 - 1):\n                s += c[t, b, k]",
         tests=[f"{CASE}[stepped-nb3-H7-I2]"],
         why="each block's partial sum of c_t stops one unit short of its range"),
    dict(name="cuda-persistent-stepped-barrier-dropped", file=PERS,
         old="        for ph in range(PHASES):  # the kernel boundary after each phase is the grid barrier\n"
             "            stepped[nb, tpb](t, ph, ph + 1, ",
         new="        for ph in range(1):\n"
             "            stepped[nb, tpb](t, 0, PHASES, ",
         tests=[f"{CASE}[stepped-nb3-H7-I2]"],
         why="both phases of a step in one launch: a block combines the others' partials before they wrote "
             "them (the grid barrier between the phases is gone)"),
    dict(name="cuda-persistent-m2-uncentered", file=PERS,
         old="                    d = hw[b, g * U + kk] - m\n",
         new="                    d = hw[b, g * U + kk]\n",
         tests=[f"{CASE}[persistent-nb1-H7-I2]"],
         why="a block's hw partial is the sum of squares, not about its own mean: Chan's combination is wrong"),
    dict(name="cuda-persistent-h-from-wrong-step", file=PERS,
         old="                    ch, tk, h = h_unit(c, gates, st, gc, bc, t - 1, b, i)\n                    hs[r, i] = h",
         new="                    ch, tk, h = h_unit(c, gates, st, gc, bc, t - 1, b, i)\n                    hs[r, i] = y[t - 1, b, i]",
         tests=[f"{CASE}[stepped-nb2-H7-I2]"],
         why="h_{t-1} is read from the saved y, which only its owner block has written by then"),
    dict(name="cuda-persistent-bwd-clip-skips-output-gate", file=PERS,
         old="                for g4 in range(4):\n",
         new="                for g4 in range(3):\n",
         tests=[f"{BWD}[persistent-nb1-H7-I2-clip]"],
         why="Graves's clip leaves dL/da of the output gate unclipped (bwd_row clips all four gates)"),
    dict(name="cuda-persistent-bwd-stepped-barrier-dropped", file=PERS,
         old="        for ph in range(PHASES):  # one launch per phase: each kernel boundary is a grid barrier\n"
             "            stepped[nb, tpb](t, ph, ph + 1, dy,",
         new="        for ph in range(1):\n"
             "            stepped[nb, tpb](t, 0, PHASES, dy,",
         tests=[f"{BWD}[stepped-nb3-H7-I2-clip0]"],
         why="both BPTT phases of a step in one launch: a block combines the other blocks' cell LayerNorm "
             "partials before they wrote them"),
    dict(name="cuda-persistent-bwd-dhw-read-not-recomputed", file=PERS,
         old="                    ds[r, jc] = dhw_col(DA, hhat, gh, st, rstd[1, s, b], s, b, jc)",
         new="                    ds[r, jc] = dHW[s, b, jc]",
         tests=[f"{BWD}[stepped-nb2-H7-I2-clip0]"],
         why="dL/d(h Wh) of step t+1 is read from dHW, which only its owner block has written by then (the "
             "barrier that would publish it is the one the design saves)"),
    dict(name="cuda-persistent-shape-a-sum", file=PERS,
         old="        hs = cuda.shared.array((R, H1), dt)  # h_{t-1} of R rows",
         new="        hs = cuda.shared.array((R, H + 1), dt)  # h_{t-1} of R rows",
         tests=["tests/kernels/test_cuda_gpu_typing.py"],
         why="a shared array shaped by a sum: the simulator runs it, a GPU's compiler cannot type it (the "
             "first GPU run of this kernel failed so)"),
    dict(name="cuda-mdn-float64-compare", file="lnrnn/kernels/mdn_cuda.py",
         old="    def fwd(yhat, target, valid, M, nll, gamma, z1, z2, e, pi):\n        start = cuda.grid(1)\n"
             "        for n in range(start, yhat.shape[0], cuda.gridsize(1)):\n            if valid[n] == zero:",
         new="    def fwd(yhat, target, valid, M, nll, gamma, z1, z2, e, pi):\n        start = cuda.grid(1)\n"
             "        for n in range(start, yhat.shape[0], cuda.gridsize(1)):\n            if valid[n] == 0.0:",
         tests=["tests/kernels/test_cuda_backend.py::test_kernels_compile_to_ptx_for_a_real_gpu"],
         why="a float32 kernel compares in float64 (a Python number against its float32 mask)"),
    dict(name="cuda-persistent-shared-row-a-sum", file=PERS,
         old="        ds = cuda.shared.array((R, G1), dt)  # dL/d(h Wh) of R rows",
         new="        ds = cuda.shared.array((R, G + 1), dt)  # dL/d(h Wh) of R rows",
         tests=["tests/kernels/test_cuda_backend.py::test_kernels_compile_to_ptx_for_a_real_gpu"],
         why="a shared array shaped by a sum in the BPTT kernel: the GPU target cannot type it (found here by "
             "typing the kernel, not by reading the source)"),
]
