"""Planted bugs in the synchronized BN cells (lnrnn/kernels/bn_sync.py; format: tests/mutants/mutants.py).

    python tests/mutants/run.py --only 'bn-sync-*'
"""

SYNC = "lnrnn/kernels/bn_sync.py"
T = "tests/kernels/test_bn_sync_speed_bits.py"

MUTANTS = [
    dict(name="bn-sync-x-grads-added-per-thread-chunk", file=SYNC,
         old="    _step_totals(sums, dgain, dbias)\n",
         new="    for q in range(nch):\n"
             "        part = sums[q * T // nch:(q + 1) * T // nch].sum(axis=0)\n"
             "        dbias += part[:G]\n"
             "        dgain += part[G:]\n",
         tests=[f"{T}::test_same_bits_on_one_and_two_threads"],
         why="the x side's gain and bias gradients summed per thread's chunk of steps, then the chunks added: "
             "the order follows the thread count"),
    dict(name="bn-sync-x-sums-skip-mask", file=SYNC,
         old="        col_sums(xw[t], lengths, t, shift[t], out[t])\n",
         new="        col_sums(xw[t], np.full_like(lengths, xw.shape[0]), t, shift[t], out[t])\n",
         tests=[f"{T}::test_sync_equals_fused_float64"],
         why="the x side's statistics count padded rows: masked batches get other means and variances"),
]
