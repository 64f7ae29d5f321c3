"""Planted bugs in the BN cells' step kernels on the device (bn_lstm_cuda and bn_rnn_cuda: a lane's batch rows
held in its local arrays across the lane sums, compiled per rows a lane owns; batchnorm_cuda.lane_sums: several
values a thread summed over the lanes in one exchange), format: tests/mutants/mutants.py. Each is caught by the
twin-equality tests under Numba's simulator; the block-size tests run 3 x 3 blocks over a batch of 8, where a
lane owns up to three rows, active and padded ones mixed. batchnorm_cuda's col_stats and col_backward (the x
side's BatchNorm, all steps at once or the window layer's step by step) take lane_sums too; local_rstd (a column
held in local arrays: BN-RNN's h side, BN-LSTM's c_t) and fold_running (the running rows' rule) serve all of them.

    python tests/mutants/run.py --only 'cuda-bn-rows-*'
"""

CUDA = "tests/kernels/test_cuda_kernels.py"
BLOCKS = "tests/kernels/test_cuda_blocksizes.py"
BNC = "lnrnn/kernels/batchnorm_cuda.py"
BNL = "lnrnn/kernels/bn_lstm_cuda.py"
BNR = "lnrnn/kernels/bn_rnn_cuda.py"
BATCHNORM = [f"{CUDA}::test_batchnorm_matches_cpu", f"{CUDA}::test_batchnorm_masked_matches_cpu",
             f"{BLOCKS}::test_batchnorm_odd_tiles"]
CELLS = [f"{BLOCKS}::test_bn_cells_lanes_owning_three_rows_with_masks", f"{CUDA}::test_bn_cells_match_cpu",
         f"{CUDA}::test_bn_cells_masked_match_cpu"]
LANES = [f"{BLOCKS}::test_lane_sums_several_values_odd_lanes"]

MUTANTS = [
    dict(name="cuda-bn-rows-lane-sums-last-lane", file=BNC,
         old="        s = sh[r, 0, tx]\n        for q in range(1, cuda.blockDim.y):\n",
         new="        s = sh[r, 0, tx]\n        for q in range(1, cuda.blockDim.y - 1):\n",
         tests=LANES,
         why="lane_sums drops the last lane's value from every sum"),
    dict(name="cuda-bn-rows-lane-sums-values-past-the-lanes", file=BNC,
         old="    for r in range(cuda.threadIdx.y, m, cuda.blockDim.y):\n",
         new="    for r in range(cuda.threadIdx.y, min(m, cuda.blockDim.y), cuda.blockDim.y):\n",
         tests=LANES,
         why="with more values than lanes, the values past the lane count are never summed (a 4-gate sum on "
             "3 lanes)"),
    dict(name="cuda-bn-rows-col-stats-count-from-the-sum", file=BNC,
         old="    n = tot[1, tx]  # active rows",
         new="    n = tot[0, tx]  # active rows",
         tests=BATCHNORM,
         why="BatchNorm's column statistics take the column's sum for its count of active rows"),
    dict(name="cuda-bn-rows-col-backward-count-slot", file=BNC,
         old="    inv_n = one / max(tot[2, tx], one)\n",
         new="    inv_n = one / max(tot[1, tx], one)\n",
         tests=BATCHNORM,
         why="BatchNorm's column backward takes 1/n from its second sum instead of the count"),
    dict(name="cuda-bn-rows-lstm-lane-rows-rounded-down", file=BNL,
         old="    return _kernels(np.dtype(dtype), t, units(B, t)), t\n",
         new="    return _kernels(np.dtype(dtype), t, max(1, B // t)), t\n",
         tests=CELLS,
         why="the rows a lane owns rounded down: where the lanes do not divide B, the last rows are never computed"),
    dict(name="cuda-bn-rows-rnn-lane-rows-rounded-down", file=BNR,
         old="    return _kernels(np.dtype(dtype), t, units(B, t)), t\n",
         new="    return _kernels(np.dtype(dtype), t, max(1, B // t)), t\n",
         tests=CELLS,
         why="the rows a lane owns rounded down: where the lanes do not divide B, the last rows are never computed"),
    dict(name="cuda-bn-rows-lstm-count-from-a-gate-sum", file=BNL,
         old="            n = tot[4, tx]  # active rows",
         new="            n = tot[3, tx]  # active rows",
         tests=CELLS,
         why="the active-row count read from the output gate's sum slot"),
    dict(name="cuda-bn-rows-lstm-backward-count-slot", file=BNL,
         old="        inv = one / max(tot[2, tx], one)\n",
         new="        inv = one / max(tot[1, tx], one)\n",
         tests=CELLS,
         why="the backward's 1/n taken from the cell's second sum instead of the count"),
    dict(name="cuda-bn-rows-lstm-gate-xhat-sums-are-bias-sums", file=BNL,
         old="            sh[4 + q, lane, tx] = s24[q]\n",
         new="            sh[4 + q, lane, tx] = s14[q]\n",
         tests=CELLS,
         why="the gates' sum of dL/da * xhat exchanged as the plain sum of dL/da: dgh and dL/d(hw) wrong"),
    dict(name="cuda-bn-rows-lstm-cell-mean-counts-padded-rows", file=BNL,
         old="                    if act[r] > zero:\n                        csum += c\n",
         new="                    if b < B:\n                        csum += c\n",
         tests=CELLS,
         why="BN_t of c_t sums the padded rows' cells into its mean"),
    dict(name="cuda-bn-rows-lstm-inference-cell-backward-no-rstd", file=BNL,
         old="                    dcbn = gcj * rc * dcn[r]\n",
         new="                    dcbn = gcj * dcn[r]\n",
         tests=CELLS,
         why="inference mode's cell BatchNorm backward leaves out the running 1/std"),
    dict(name="cuda-bn-rows-rnn-backward-xhat-without-mean", file=BNR,
         old="                xm[r] = hw_t[b, j] - m\n",
         new="                xm[r] = hw_t[b, j]\n",
         tests=CELLS,
         why="the BN-RNN backward's xhat is not centred: dgh and dL/d(hw) wrong"),
    dict(name="cuda-bn-rows-local-variance-about-zero", file=BNC,
         old="            d = vals[r] - m\n",
         new="            d = vals[r]\n",
         tests=CELLS,
         why="local_rstd sums squares about zero, not about the mean: BN-RNN's h side and BN-LSTM's c_t get the "
             "wrong 1/std"),
]
