"""Planted bugs, round 58 (format: tests/mutants/mutants.py): single-line slips in the data-parallel update
(lnrnn/training/distributed.py) and the trainer's host update (lnrnn/training/update.py), on lines no earlier
round mutates: the host update clipping and stepping the parameters by themselves (params and grads swapped),
running a conditioned model's batch without its text, stepping on an infinite gradient norm, and blaming the
head for any NaN error whose array name starts with d; the shards taking one row past their end, an empty
shard's stand-in row run without its target, the one buffer of metric sums and stop votes split at the votes'
count, and only the votes reduced; --reproducible's ranks running the batch's first blocks instead of their
own, the gathered blocks' sum started from the rank's own first block, every rank taking its own block count
for every rank's, Allgatherv told its counts in rows, a BN rank owning no block running no stand-in in the ring,
and a BN block's sums read from the caller's model; evaluate adding only the batches its own rank scored.

15 mutants. Against the existing targeted tests alone 13 were caught and 2 missed: the host update without the text
(no existing test runs HostUpdate's whole call on a conditioned model) and the head blamed for a NaN in dw or dh
(the existing check names dy and h only). The new value tests catch every mutant on their own (checked with the old
tests taken off the lists): test_values58_host_update (two whole host updates: forward and backward, the ranks'
sums, clipping by the global norm and the optimizer step, on a group of one and on 2 and 3 coroutine ranks, against
one process's gradient of the whole batch clipped here in NumPy and stepped by Adam and SGD with momentum written
here in NumPy; truncated BPTT, masks, state noise, BatchNorm, the synthesis window's text, float64 and float32; a
finite gradient whose sum of squares overflows; NaN errors named dy, dw, dh, h0), test_values58_distributed_ranks
(every rank's gradient, metric sums, count, means and summed votes, 1 to 5 of them, against one process's call on
the whole batch; a batch of 2 rows on 3 ranks; --reproducible with 4 blocks uneven over 3 ranks and BN batches of
one block on 2 and 3 ranks, against one process's blocks to the bit and one call to round-off, the models holding an
earlier update's sums; mpi4py's COMM_SELF gathering rows; evaluate over 1 to 3 ranks against loss_sums of every
batch added here). The votes' count: the trainer passes 3 votes and the classifier's and mixture heads' sums are 3
too, so splitting the buffer at the votes' count shows only with another count of either (the CTC head's 4 sums; the
tests pass 1, 4 and 5 votes).

Dropped as equivalent: ``sums = sall[0]`` without its copy (the gathered rows are not read again);
block_models making one twin more (``<=``: only made[:n] is used); launched_size accepting a size of 1 (it
returns 1 either way); evaluate's count by ``int`` instead of ``int(round(...))`` (an integer count is exact in
float64); the plain blocks' runners as ``[model] * k1`` (only the first k1 - k0 are read). Left out: dropping
BlockRing's check that every block reached as many reductions (no correct caller reaches it unequally).

    python tests/mutants/run.py --only 'v58-*'
"""
UPDATE = "lnrnn/training/update.py"
DIST = "lnrnn/training/distributed.py"

# existing tests of these modules
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py",
              "tests/training/test_values43_update.py"]
SHARD_OLD = ["tests/training/test_values43_distributed_shards.py",
             "tests/training/test_values43_distributed_one_rank.py",
             "tests/training/test_values_distributed_options2.py"]
BLOCKS_OLD = ["tests/training/test_values43_distributed_shards.py", "tests/training/test_values20_distributed.py",
              "tests/training/test_values33_distributed.py", "tests/training/test_values43_distributed_one_rank.py"]
EVAL_OLD = ["tests/training/test_values_distributed_options2.py"
            "::test_evaluation_dealt_over_two_ranks_equals_one_process",
            "tests/training/test_values21_evaluation.py"]
GATHER_OLD = ["tests/training/test_values43_distributed_one_rank.py", "tests/training/test_values20_distributed.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
UPDATE_NEW = ["tests/training/test_values58_host_update.py"]
RANKS_NEW = ["tests/training/test_values58_distributed_ranks.py"]

MUTANTS = [
    # ---- the host update: its step, its text, its checks ----
    dict(name="v58-host-update-params-and-grads-swapped", file=UPDATE,
         old="params, grads = t.model.flat[0].data, t.model.flat[1].data",
         new="params, grads = t.model.flat[1].data, t.model.flat[0].data",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the update clips the parameters and steps the gradient by the parameters: the model learns nothing "
             "of the batch"),
    dict(name="v58-host-update-drops-the-text", file=UPDATE,
         old="means = self.loss_and_grad(x, y, lengths, text)",
         new="means = self.loss_and_grad(x, y, lengths)",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the update of a conditioned (synthesis) model runs without the batch's text"),
    dict(name="v58-host-update-infinite-norm-stepped", file=UPDATE,
         old="        if not math.isfinite(norm):\n            t._diverged(\"gradient norm\", norm)\n"
             "        t._blown_up(loss)\n        t.opt.step(params, grads)",
         new="        if math.isnan(norm):\n            t._diverged(\"gradient norm\", norm)\n"
             "        t._blown_up(loss)\n        t.opt.step(params, grads)",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="an infinite gradient norm (NaN only is caught) goes on to the optimizer step: the parameters become "
             "infinite or NaN instead of a diverged run"),
    dict(name="v58-nonfinite-blames-the-head-for-any-d", file=UPDATE,
         old='str(e).startswith("dy")',
         new='str(e).startswith("d")',
         tests=UPDATE_NEW + UPDATE_OLD,
         why="a NaN in the window's gradient (dw) is reported as coming from the head"),
    # ---- the shards' update (one Allreduce) ----
    dict(name="v58-shard-rows-one-past", file=DIST,
         old="rows = slice(lo, hi) if hi > lo else slice(0, 1)",
         new="rows = slice(lo, hi + 1) if hi > lo else slice(0, 1)",
         tests=RANKS_NEW + SHARD_OLD,
         why="each shard takes the next rank's first row too: that row's gradient and sums count twice"),
    dict(name="v58-empty-shard-targets-of-no-row", file=DIST,
         old="    ts = targets[rows]",
         new="    ts = targets[lo:hi]",
         tests=RANKS_NEW + SHARD_OLD,
         why="a rank with an empty shard runs its stand-in row of x without its targets"),
    dict(name="v58-metric-buffer-split-by-the-votes", file=DIST,
         old="K = len(keys)",
         new="K = len(votes)",
         tests=RANKS_NEW + SHARD_OLD,
         why="the Allreduce's buffer is split at the votes' count: with another number of metric sums (the CTC "
             "head's four) sums and votes overwrite each other"),
    dict(name="v58-only-the-votes-reduced", file=DIST,
         old="    group.allreduce(buf)\n",
         new="    group.allreduce(buf[K:])\n",
         tests=RANKS_NEW + SHARD_OLD,
         why="the second Allreduce sums the stop votes only: each rank keeps its own shard's metric sums"),
    # ---- --reproducible: blocks, their gathers and the BN ring ----
    dict(name="v58-rank-blocks-start-at-block-zero", file=DIST,
         old="        k = k0 + j\n",
         new="        k = j\n",
         tests=RANKS_NEW + BLOCKS_OLD,
         why="every rank runs the batch's first blocks instead of its own: later blocks are never run"),
    dict(name="v58-block-gradient-from-own-first-block", file=DIST,
         old="grads[...] = gall[0]",
         new="grads[...] = gpart[0]",
         tests=RANKS_NEW + BLOCKS_OLD,
         why="the sum of the gathered blocks starts from the rank's own first block, not the batch's block 0"),
    dict(name="v58-rank-block-counts-of-own-rank", file=DIST,
         old="bounds = [shard(nb, group.size, r) for r in range(group.size)]",
         new="bounds = [shard(nb, group.size, group.rank) for r in range(group.size)]",
         tests=RANKS_NEW + BLOCKS_OLD,
         why="every rank takes its own block count for every rank's: with uneven counts the gathers disagree"),
    dict(name="v58-allgather-counts-in-rows", file=DIST,
         old="[int(c) * width for c in counts]",
         new="[int(c) for c in counts]",
         tests=RANKS_NEW + GATHER_OLD,
         why="Allgatherv is told counts in rows instead of numbers: only the first few numbers are gathered"),
    dict(name="v58-block-ring-without-a-stand-in", file=DIST,
         old="self.n = max(self.own, 1)",
         new="self.n = self.own",
         tests=RANKS_NEW + BLOCKS_OLD,
         why="a BN rank that owns no block runs no stand-in in the ring: it never joins the statistics' "
             "reductions"),
    dict(name="v58-block-sums-of-the-callers-model", file=DIST,
         old="spart[j] = [m.last_sums[name] for name in keys]",
         new="spart[j] = [model.last_sums[name] for name in keys]",
         tests=RANKS_NEW + BLOCKS_OLD,
         why="a BN block's metric sums are read from the caller's model (its previous update's) instead of the "
             "block's own runner"),
    # ---- evaluation dealt over the ranks ----
    dict(name="v58-evaluate-adds-own-batches-only", file=DIST,
         old="    for row in acc:",
         new="    for row in acc[group.rank::group.size]:",
         tests=RANKS_NEW + EVAL_OLD,
         why="after the Allreduce each rank adds only the batches it scored: the other ranks' batches are left "
             "out of the figures"),
]
