"""Planted bugs in the LSTM's and RNN's row functions on the device (lstm_cuda/rnn_cuda.row_functions: a
thread's hidden units and gate columns held in its local arrays across the block's sums; rows_cuda.tree_sums,
block_sum2 and block_sum4: several sums in one tree; rows_cuda.local_stats), which the per-step kernels, the
sequence kernels and the window layer's kernels share (format: tests/mutants/mutants.py). Each is caught by
the twin-equality tests under Numba's simulator; the block-size tests run an LSTM of 13 hidden units on 6-thread
blocks, where a thread owns up to three of them.

    python tests/mutants/run.py --only 'cuda-rows-*'
"""

CUDA = "tests/kernels/test_cuda_kernels.py"
BLOCKS = "tests/kernels/test_cuda_blocksizes.py"
LSTMC = "lnrnn/kernels/lstm_cuda.py"
RNNC = "lnrnn/kernels/rnn_cuda.py"
ROWSC = "lnrnn/kernels/cuda/rows_cuda.py"

MUTANTS = [
    dict(name="cuda-rows-units-rounded-down", file=ROWSC,
         old="    return max(1, -(-int(H) // int(threads)))\n",
         new="    return max(1, int(H) // int(threads))\n",
         tests=[f"{BLOCKS}::test_lstm_threads_owning_several_units"],
         why="a thread's units rounded down: where threads do not divide H, the last units of a row are never "
             "computed"),
    dict(name="cuda-rows-tree-sums-only-the-first-two", file=ROWSC,
         old="            for r in range(m):\n",
         new="            for r in range(min(m, 2)):\n",
         tests=[CUDA],
         why="the tree adds up only the first two of four sums: the x side's LayerNorm backward (x1, x2) "
             "keeps each thread's own part"),
    dict(name="cuda-rows-x-sums-swapped", file=ROWSC,
         old="    a, b, c, d = sh[0], sh[w], sh[2 * w], sh[3 * w]\n",
         new="    a, b, c, d = sh[0], sh[w], sh[3 * w], sh[2 * w]\n",
         tests=[CUDA],
         why="block_sum4 returns its fourth sum for its third: the LN backward of x Wx takes its second sum for "
             "the first"),
    dict(name="cuda-rows-cell-stats-over-g", file=LSTMC,
         old="            m_c, r_c = local_stats(sh, cv, 1, s, H, inv_h, e, one)\n",
         new="            m_c, r_c = local_stats(sh, cv, 1, s, H, inv_g, e, one)\n",
         tests=[CUDA],
         why="the cell's LayerNorm divides its sums by G = 4H instead of H"),
    dict(name="cuda-rows-stats-variance-of-the-first-column-only", file=ROWSC,
         old="            for q in range(per):\n",
         new="            for q in range(1):\n",
         tests=[CUDA],
         why="local_stats' variance counts only a unit's first value: the LSTM's hw variance misses f, g, o"),
    dict(name="cuda-rows-carried-dc-not-read", file=LSTMC,
         old="                uv[5 * u + 4] = dc[k]\n",
         new="                uv[5 * u + 4] = dc[k] * 0\n",
         tests=[CUDA],
         why="BPTT forgets dL/dc_t from step t+1: the cell's gradient path through time is cut"),
    dict(name="cuda-rows-second-unit-skipped", file=LSTMC,
         old="        for u in range(nu):\n            k = tid + u * n\n            if k < H:\n                if ln:\n"
             "                    ch = (cv[u] - m_c) * r_c\n",
         new="        for u in range(1):\n            k = tid + u * n\n            if k < H:\n                if ln:\n"
             "                    ch = (cv[u] - m_c) * r_c\n",
         tests=[f"{BLOCKS}::test_lstm_threads_owning_several_units"],
         why="only a thread's first unit gets tanh of its cell and h_t: rows wider than the block lose the rest"),
    dict(name="cuda-rows-rnn-gain-ignored", file=RNNC,
         old="                gb[2 * u] = g[k] if ln else one\n",
         new="                gb[2 * u] = one\n",
         tests=[f"{CUDA}::test_rnn_matches_cpu"],
         why="the LN-RNN's gain is read as one: h_t = tanh(ahat + b) whatever g is"),
    dict(name="cuda-rows-rnn-plain-dv-not-written", file=RNNC,
         old="                else:\n                    dv[k] = d\n",
         new="",
         tests=[f"{CUDA}::test_rnn_matches_cpu"],
         why="without LN the row's dL/d(preactivation) never reaches dv: the sequence kernel's dh = dv Wh^T "
             "reads a stale row"),
]
