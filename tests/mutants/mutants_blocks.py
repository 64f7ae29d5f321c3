"""Planted bugs in the batch's fixed row blocks, which make results independent of the thread count
(lnrnn/kernels/cpu/threads.py, bn_parts.py, bn_rnn.py; format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'blocks-*'
"""

THR = "lnrnn/kernels/cpu/threads.py"
BNR = "lnrnn/kernels/bn_rnn.py"
BNP = "lnrnn/kernels/bn_parts.py"
T = "tests/kernels/test_blocks.py"

MUTANTS = [
    dict(name="blocks-follow-threads", file=THR,
         old="    n = 1\n    while 2 * n <= B and 2 * n <= max(2, B // rows):\n        n *= 2\n    return n\n",
         new="    return max(1, min(B, numba.get_num_threads()))\n",
         tests=[f"{T}::test_layer_step_is_the_same_bits_on_any_thread_count[lstm-ln-narrow-float64]"],
         why="one block per thread, as before fixed blocks: the partial sums and GEMM shapes follow the threads"),
    dict(name="blocks-thread-runs-one-chunk", file=THR,
         old="    for q in range(q0, q1):\n        rows(q, *chunk_bounds(n, nch, q), *args)\n",
         new="    for q in range(q0, min(q1, q0 + 1)):\n        rows(q, *chunk_bounds(n, nch, q), *args)\n",
         tests=[f"{T}::test_run_chunks_runs_every_chunk_once_on_at_most_the_threads[8]"],
         why="a thread given several chunks runs only its first: rows of the others are never computed"),
    dict(name="blocks-bn-moments-of-the-part", file=BNP,
         old="        b0, b1 = chunk_bounds(B, nblk, k)\n        rows_moments(x2, lengths, t, b0, b1, ex[k])\n",
         new="        b0, b1 = chunk_bounds(B, nblk, k0)[0], chunk_bounds(B, nblk, k1 - 1)[1]\n"
             "        rows_moments(x2, lengths, t, b0, b1, ex[k])\n",
         tests=[f"{T}::test_bn_parts_give_the_same_bits_however_many[lstm-narrow-float64]"],
         why="every block's moments are its part's rows': a part of several blocks counts its rows several times"),
    dict(name="blocks-bn-backward-sums-one-row", file=BNP,
         old="        e = ex[k]\n        rows_bwd_sums(",
         new="        e = ex[k0]\n        rows_bwd_sums(",
         tests=[f"{T}::test_bn_parts_give_the_same_bits_however_many[lstm-wide-float32]"],
         why="a part's blocks write the BN backward sums into its first block's row: all but the last are lost"),
    dict(name="blocks-bn-rnn-fold-sums-per-part", file=BNR,
         old="                               ex[t % 2, k, 2 * H:2 * H + I * H].reshape((I, H)), dx[t])\n",
         new="                               ex[t % 2, kb0, 2 * H:2 * H + I * H].reshape((I, H)), dx[t])\n",
         tests=[f"{T}::test_bn_parts_give_the_same_bits_however_many[rnn-narrow-float64]"],
         why="the BN-RNN's fold sums of a part's blocks overwrite one row: the x side's batch sums miss rows"),
    dict(name="blocks-bn-rnn-product-first-block", file=BNR,
         old="        blocks_mul(h0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k1)\n",
         new="        blocks_mul(h0 if t == 0 else y[t - 1], Wh, P, hw[t], B, nblk, k0, k0 + 1)\n",
         tests=[f"{T}::test_bn_parts_give_the_same_bits_however_many[rnn-narrow-float32]"],
         why="a part computes h_{t-1} Wh for its first block only: its other rows keep stale values"),
]
