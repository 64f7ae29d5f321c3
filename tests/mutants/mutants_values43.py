"""Planted bugs, round 43 (format: tests/mutants/mutants.py): single-line slips on the data-parallel training path
and its option combinations, on lines no earlier round mutates: distributed.py's one Allreduce buffer (its type),
a shard's first row, the group's metric sums and gradient read back from it; --reproducible's block buffers (the
gradients' type, the metric sums' type in a float32 model), the BN blocks' models given the model's running
statistics, the ring adding every gathered block and handing the sums back, a rank's own blocks, the count the
model holds after the blocks; update.py's call of the group's update (--tbptt passed on, the blocks path for a
group under --reproducible); train.py's run under its --block-rows; bn_sync.py's reductions (the BN-LSTM's c_t
statistics and backward sums, the x side's counts, the BN-RNN's h side), its backward's count, a step run by
one row, step 0's previous cell state.

21 mutants. Against the existing targeted tests alone (the thread-rank tests of the distributed path, the bn_sync
kernel tests, the update's, the loop's) 15 were caught and 6 missed: a float32 model's block metric sums stored as
float32, the BN blocks' models running from their own running statistics, the ring adding only as many gathered
blocks as the rank owns, the host update dropping --tbptt on the group's (or the blocks') path, a group running the
shards' Allreduce under --reproducible, and the run not applying its --block-rows. The new value tests catch every
mutant (each listed first): test_values43_distributed_one_rank (a group of one process, distributed.SINGLE and
Group(MPI.COMM_SELF): the update equal to the plain one to the bit, with truncated BPTT, masks, state noise, the
synthesis window's text, float64 and float32; the synchronized BN cells of one rank against the fused ones from
loaded running statistics; --reproducible in one process equal to its blocks run one by one here and added in block
order, to the bit, float64 metric sums for a float32 model too, and the BN blocks over two updates starting from the
model's statistics), test_values43_distributed_shards (shards of B = 5 in 2 or 3 parts run one after the other and
added here equal to the whole batch; ranks as greenlets of one thread, whose collectives meet at a hub adding in
rank order, each holding one process's update with BN statistics synchronized; --reproducible on two such ranks the
same bits as one process), test_values43_update (a stand-in trainer's host update in a group of 2 greenlet ranks or
of one, --reproducible with --tbptt, to the bit one process's blocks; a two-update npz run with --reproducible
--block-rows 1 whose every update is the blocks of block rows 1, the default rows giving other bits on its first
batch). Considered and not written as equivalent: Group.allreduce's MPI.SUM as MPI.MAX (one rank in process: the
same; several need mpiexec), the blocks' sums and the ring's first row summed without a copy (the arrays aliased are
not read again), the x side's counts truncated instead of rounded (they are exact integers in floating point), and
the ring's check that every block reached the same reductions dropped (no correct block trips it).

    python tests/mutants/run.py --only 'v43-*'
"""
DIST = "lnrnn/training/distributed.py"
UPDATE = "lnrnn/training/update.py"
TRAIN = "lnrnn/training/train.py"
SYNC = "lnrnn/kernels/bn_sync.py"

# existing tests of these modules (the ones earlier rounds list for them, and the thread-rank tests of test_mpi and
# test_reproducible_ranks that run without mpiexec)
DIST_OLD = ["tests/training/test_values_distributed_options.py", "tests/training/test_values_distributed_options2.py",
            "tests/training/test_values16_distributed.py", "tests/training/test_values20_distributed.py",
            "tests/training/test_values21_distributed.py", "tests/training/test_values33_distributed.py",
            "tests/training/test_mpi.py::test_shards_cover_every_row_once",
            "tests/training/test_mpi.py::test_update_over_two_thread_ranks_equals_one_process",
            "tests/training/test_reproducible_ranks.py::test_blocks_give_the_gradient_of_one_call",
            "tests/training/test_reproducible_ranks.py::test_block_ring_adds_in_block_order_and_runs_one_block_at_a_time"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py",
              "tests/model/test_state_noise.py"]
TRAIN_OLD = ["tests/training/test_checkpoints_best.py", "tests/training/test_values_train_policies.py",
             "tests/training/test_values_train.py", "tests/training/test_values17_train.py",
             "tests/training/test_values33_train.py", "tests/training/test_stopping_recorder_parts.py"]
SYNC_OLD = ["tests/kernels/test_values11_bn_sync.py", "tests/kernels/test_values18_bn_sync.py",
            "tests/kernels/test_values24_bn_sync.py", "tests/kernels/test_values31_bn_sync.py",
            "tests/training/test_mpi.py::test_sync_kernels_equal_fused_in_one_process",
            "tests/training/test_mpi.py::test_update_over_two_thread_ranks_equals_one_process",
            "tests/training/test_values_distributed_options.py", "tests/training/test_values_distributed_options2.py"]

ONE = "tests/training/test_values43_distributed_one_rank.py"
SHARDS = "tests/training/test_values43_distributed_shards.py"
U43 = "tests/training/test_values43_update.py"
DIST_NEW = [ONE, SHARDS]
UPDATE_NEW = [f"{U43}::test_a_groups_reproducible_update_is_one_process_blocks_with_its_tbptt",
              f"{U43}::test_a_one_rank_groups_reproducible_update_keeps_its_tbptt"]
TRAIN_NEW = [f"{U43}::test_a_reproducible_run_updates_with_its_block_rows"]
SYNC_NEW = [ONE, SHARDS]

MUTANTS = [
    # ---- the data-parallel update: its one Allreduce buffer, the shards, what every rank holds afterwards ----
    dict(name="v43-dist-reduce-buffer-float32", file=DIST,
         old="    buf = np.empty(K + len(votes), np.float64)",
         new="    buf = np.empty(K + len(votes), model.flat[1].data.dtype)",
         tests=DIST_NEW + DIST_OLD,
         why="the metric sums travel in the gradient's dtype: a float32 run's loss and accuracy sums are rounded "
             "to float32 on their way through the Allreduce, even in one process"),
    dict(name="v43-dist-shard-start-without-extra", file=DIST,
         old="    lo = rank * base + min(rank, extra)\n",
         new="    lo = rank * base\n",
         tests=DIST_NEW + DIST_OLD,
         why="a shard's first row forgets the larger shards before it: shards overlap and the batch's last rows "
             "are never run"),
    dict(name="v43-dist-sums-of-own-shard", file=DIST,
         old="    model.last_sums = {k: float(v) for k, v in zip(keys, buf[:K])}",
         new="    model.last_sums = {k: float(model.last_sums[k]) for k in keys}",
         tests=DIST_NEW + DIST_OLD,
         why="every rank keeps its own shard's metric sums, not the group's: the means and the epoch's sums are "
             "a shard's over the whole batch's count"),
    dict(name="v43-dist-gradient-averaged-over-ranks", file=DIST,
         old="    group.allreduce(model.flat[1].data)   # (P,) the flat gradient, in place\n",
         new="    group.allreduce(model.flat[1].data)   # (P,) the flat gradient, in place\n    model.flat[1].data[...] /= group.size\n",
         tests=DIST_NEW + DIST_OLD,
         why="the summed gradient is divided by the number of ranks, as if each shard were normalized by its own "
             "count: with the global normalizer the gradient is 1/N of one process's"),
    # ---- --reproducible: the blocks' buffers, the BN blocks' models and their ring ----
    dict(name="v43-dist-blocks-gradients-float32", file=DIST,
         old="    gpart = np.empty((k1 - k0, grads.size), grads.dtype)",
         new="    gpart = np.empty((k1 - k0, grads.size), np.float32)",
         tests=DIST_NEW + DIST_OLD,
         why="each block's gradient is stored (and gathered) as float32: a float64 run's gradient is rounded"),
    dict(name="v43-dist-blocks-sums-in-gradient-dtype", file=DIST,
         old="    spart = np.empty((k1 - k0, len(keys)))",
         new="    spart = np.empty((k1 - k0, len(keys)), grads.dtype)",
         tests=DIST_NEW + DIST_OLD,
         why="a float32 model's block metric sums are stored as float32: the loss and accuracy sums, float64 on "
             "every other path, lose their digits under --reproducible"),
    dict(name="v43-dist-block-models-keep-their-statistics", file=DIST,
         old="            m.stack.load_buffers({name: v.copy() for name, v in model.stack.buffers.items()})\n",
         new="            pass\n",
         tests=DIST_NEW + DIST_OLD,
         why="the BN blocks' models are not given the model's running statistics before the update: they run "
             "from their own (the initial ones when first built), so a model whose statistics were loaded "
             "(a resumed or fine-tuned run) folds this update into the wrong rows"),
    dict(name="v43-dist-ring-adds-own-blocks", file=DIST,
         old="        for k in range(1, rows.shape[0]):\n",
         new="        for k in range(1, self.own):\n",
         tests=DIST_NEW + DIST_OLD,
         why="the ring adds only as many gathered block buffers as this rank owns: with several ranks the BN "
             "statistics leave out other ranks' blocks"),
    dict(name="v43-dist-ring-reduce-keeps-own-buffer", file=DIST,
         old="            buf[...] = self.result\n",
         new="            pass\n",
         tests=DIST_NEW + DIST_OLD,
         why="a block's reduction returns without the sums: every BN block normalizes by its own rows' sums over "
             "the whole batch's count"),
    dict(name="v43-dist-rank-blocks-of-rank-zero", file=DIST,
         old="    return (nb,) + bounds[group.rank] + (",
         new="    return (nb,) + bounds[0] + (",
         tests=DIST_NEW + DIST_OLD,
         why="every rank runs rank 0's blocks: the gathered gradient holds them twice and the others never"),
    dict(name="v43-dist-blocks-count-of-last-block", file=DIST,
         old="    model.last_count = total\n    return model.head.mean(model.last_sums, total)\n\n\ndef evaluate",
         new="    return model.head.mean(model.last_sums, total)\n\n\ndef evaluate",
         tests=DIST_NEW + DIST_OLD,
         why="under --reproducible the model's count stays its last block's: the epoch's running count (and "
             "its means) add a block's scored units per update"),
    # ---- the host update's call of the distributed paths ----
    dict(name="v43-update-blocks-drop-tbptt", file=UPDATE,
         old="return run(t.group, t.model, x, y, lengths, c.tbptt, t.step, t.votes, text)",
         new="return run(t.group, t.model, x, y, lengths, None, t.step, t.votes, text)",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="an update over the group (or --reproducible's blocks) drops --tbptt: it backpropagates through "
             "whole sequences"),
    dict(name="v43-update-groups-run-shards-under-reproducible", file=UPDATE,
         old="run = distributed.loss_and_grad_blocks if c.reproducible else distributed.loss_and_grad",
         new="run = distributed.loss_and_grad_blocks if c.reproducible and t.group.size == 1 else distributed.loss_and_grad",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="--reproducible runs the blocks in one process only: a group's ranks run the Allreduce of shards "
             "and part from one process's bits"),
    # ---- the loop: the run's --block-rows ----
    dict(name="v43-train-block-rows-not-applied", file=TRAIN,
         old="with kernel_threads(), block_rows(trainer.cfg.block_rows):",
         new="with kernel_threads():",
         tests=TRAIN_NEW + TRAIN_OLD,
         why="the run trains with the default block rows, not its --block-rows: --reproducible's blocks (and "
             "the kernels' row blocks) are not the ones the run records"),
    # ---- synchronized BatchNorm: what is reduced, and by which count ----
    dict(name="v43-sync-cell-statistics-not-reduced", file=SYNC,
         old="        reduce(bc_)\n",
         new="",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-LSTM's c_t statistics stay each rank's own (block's own) sums over the group's count"),
    dict(name="v43-sync-counts-not-reduced", file=SYNC,
         old="    reduce(buf)\n    counts = np.rint",
         new="    reduce(buf[T:])\n    counts = np.rint",
         tests=SYNC_NEW + SYNC_OLD,
         why="the x side's sums are reduced but the active rows per step are not: every statistic divides the "
             "group's sums by this rank's count"),
    dict(name="v43-sync-backward-unbiased-count", file=SYNC,
         old="    inv_n = dt(1) / dt(max(n, 1))",
         new="    inv_n = dt(1) / dt(max(n - 1, 1))",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN backward divides its batch sums by n - 1 (the running variance's unbiasing leaks in)"),
    dict(name="v43-sync-one-row-step-as-empty", file=SYNC,
         old="    if n == 0:\n",
         new="    if n <= 1:\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="a step with one active row over the group is treated as empty: mean 0 and 1/sqrt(eps) for its "
             "statistics (the running rows untouched)"),
    dict(name="v43-sync-cell-backward-sums-not-reduced", file=SYNC,
         old="        reduce(cs)\n",
         new="",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-LSTM backward's c_t batch sums stay each rank's own"),
    dict(name="v43-sync-step-zero-cell-from-the-end", file=SYNC,
         old="        cprev = c0 if t == 0 else c[t - 1]\n",
         new="        cprev = c[t - 1]\n",
         tests=SYNC_NEW + SYNC_OLD,
         why="step 0's previous cell state is c[-1], the last step's, not c0: the forget gate's gradient at step 0 "
             "is wrong"),
    dict(name="v43-sync-rnn-step-not-reduced", file=SYNC,
         old="        reduce(buf)\n        _rnn_step(",
         new="        _rnn_step(",
         tests=SYNC_NEW + SYNC_OLD,
         why="the BN-RNN's h-side statistics stay each rank's own sums over the group's count"),
]
