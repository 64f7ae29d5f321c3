"""Planted bugs, round 239 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in how distributed.py deals a global batch to the ranks (counted by hand at uneven sizes), the pieces of a group
that one process runs without a launcher, and plan.py's memory check of a task known only once built.
distributed.py: a Group taking its rank from the communicator's size; a failing rank naming itself one too high;
shard_batch giving a rank the lengths of rows [0, hi) instead of its own, an empty shard's stand-in row run for
one step instead of none, and an empty shard's text length that of row 0; rank_blocks counting the kernels'
blocks instead of the data blocks; BlockRing counting every block's reductions as one (the refusal then shows
[1, 1]), starting its sums from zeros (block 0's buffer left out), and returning as soon as any block finished
(blocks that reduce unevenly pass silently); evaluate skipping the last batch; check_config's --reproducible
refusal pluralizing "block" by the process count, and its batch-size refusal naming the two numbers swapped.
plan.py: check_memory_built advising "a smaller --steps" exactly when --steps was not given, and checking the
plans whose shape was known (and skipping the built tasks' check) with its guard inverted.

14 mutants. Against the existing targeted tests alone (test_values43_distributed_one_rank,
test_values_distributed_options, test_values202_distributed_group, test_values230_distributed_one_group for
distributed.py; test_plan, test_values_plan, test_values218_plan, test_values230_plan for plan.py; --no-baseline)
the measurement did not finish on a loaded host (4 to 10 minutes a mutant): the first two were caught (the group's
rank read from its size, a failing rank named one too high), the next three ran past the 600 s limit without a
verdict (counted as unmeasured, not caught) and the other nine were not run. The new value tests catch all 14 on
their own (checked with the old files taken off the lists): test_values239_distributed_group (shard_batch's rows,
lengths, state-noise rows and text of each of 3 ranks of a batch of 10, [0, 4), [4, 7), [7, 10) written out, against
the batch's own; an empty shard of rank 11 of 12 as row 0 for 0 steps with text length 0, whose gradient and sums
are exactly zero; a Group over a stand-in communicator and rank_blocks of B 10 and 40 under block rows 1, 4 and 16
data blocks dealt 2-1-1 and 6-5-5, counted by hand; a failing rank 2 of 3's line word for word and its exit code 2;
BlockRing's sums of three blocks' buffers by hand and its refusal of blocks reducing 2 and 1 times word for word;
evaluate in one process against SequenceModel.evaluate of three batches and the loss over 24 steps counted by hand;
check_config's refusals word for word at 1 and 2 blocks and at a batch of 2 for 3 processes), test_values239_plan
(check_memory_built with a too-small memory: the advice leads with "a smaller --steps" exactly when --steps was
given, never names --steps otherwise (a built task's data part is 0), and a plan with a shape is not checked again).
Left out as equivalent: launched_size's default "" as "0" (int 0 is not > 1 either), init's "Group(comm) if
comm.Get_size() > 1" as ">= 1" (the launcher's size is > 1 there and must match), BlockRing's "any(done) or" dropped
(a block that finished this round did not reduce, so the counts differ whenever one finished before the others),
loss_and_grad's and the blocks' allreduce of the gradient or votes dropped (the identity in one process),
loss_and_grad_blocks' "if k1 == k0" as "<=" (k1 < k0 never happens).

    python tests/mutants/run.py --only 'v239-*'
"""
DIST = "lnrnn/training/distributed.py"
PLAN = "lnrnn/training/plan.py"

# existing tests of these modules (the most direct files)
DIST_OLD = ["tests/training/test_values43_distributed_one_rank.py", "tests/training/test_values_distributed_options.py",
            "tests/training/test_values202_distributed_group.py",
            "tests/training/test_values230_distributed_one_group.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py",
            "tests/training/test_values218_plan.py", "tests/training/test_values230_plan.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
G = "tests/training/test_values239_distributed_group.py"
P = "tests/training/test_values239_plan.py"
SHARDS = [f"{G}::test_shards_of_three_ranks_are_the_batchs_rows"]
EMPTY = [f"{G}::test_an_empty_shard_is_row_zero_for_zero_steps_and_adds_nothing"]
GROUP = [f"{G}::test_a_group_reads_its_rank_and_size_and_deals_blocks_by_hand"]
FAIL = [f"{G}::test_a_failing_rank_names_itself"]
RING = [f"{G}::test_block_ring_adds_every_blocks_buffer_in_block_order"]
UNEVEN = [f"{G}::test_block_ring_refuses_blocks_that_reduce_unevenly"]
EVAL = [f"{G}::test_evaluate_of_one_process_adds_every_batch"]
CHECK = [f"{G}::test_check_config_refusals_word_for_word"]
STEPS = [f"{P}::test_built_tasks_memory_check_advises_steps_only_when_given[50]",
         f"{P}::test_built_tasks_memory_check_advises_steps_only_when_given[None]"]
SHAPED = [f"{P}::test_a_plan_with_a_shape_is_not_checked_again"] + STEPS

MUTANTS = [
    # ---- distributed.py: the group and the shards ----
    dict(name="v239-group-rank-from-size", file=DIST,
         old="        self.rank = 0 if comm is None else comm.Get_rank()",
         new="        self.rank = 0 if comm is None else comm.Get_size()",
         tests=GROUP + DIST_OLD,
         why="every rank of a group takes the group's size as its rank: no rank owns the first rows"),
    dict(name="v239-describe-rank-one-based", file=DIST,
         old='        return f"rank {self.rank} of {self.size}"',
         new='        return f"rank {self.rank + 1} of {self.size}"',
         tests=FAIL + DIST_OLD,
         why="a failing rank's line names the rank after it"),
    dict(name="v239-shard-lengths-from-row-zero", file=DIST,
         old="        ls = None if lengths is None else np.asarray(lengths)[rows]",
         new="        ls = None if lengths is None else np.asarray(lengths)[:hi]",
         tests=SHARDS + DIST_OLD,
         why="a rank past the first gets the lengths of rows [0, hi), not of its own rows"),
    dict(name="v239-empty-shard-one-step", file=DIST,
         old="        ls = np.zeros(1, np.int64)",
         new="        ls = np.ones(1, np.int64)",
         tests=EMPTY + DIST_OLD,
         why="an empty shard's stand-in row runs one step: it scores row 0's first step a second time"),
    dict(name="v239-empty-shard-text-length", file=DIST,
         old="np.asarray(text[1])[rows] if hi > lo else",
         new="np.asarray(text[1])[rows] if hi >= lo else",
         tests=EMPTY + DIST_OLD,
         why="an empty shard's stand-in row keeps row 0's text length instead of 0"),
    # ---- distributed.py: --reproducible blocks and the BlockRing ----
    dict(name="v239-rank-blocks-kernel-blocks", file=DIST,
         old="    nb = data_blocks(B)\n    bounds",
         new="    nb = batch_blocks(B)\n    bounds",
         tests=GROUP + DIST_OLD,
         why="rank_blocks deals the kernels' blocks, twice the data blocks --reproducible promises"),
    dict(name="v239-ring-calls-not-counted", file=DIST,
         old="            self.calls[j] += 1",
         new="            self.calls[j] = 1",
         tests=UNEVEN + DIST_OLD,
         why="every block's reductions count as one: the refusal of uneven blocks shows [1, 1]"),
    dict(name="v239-ring-sums-from-zero", file=DIST,
         old="        out = rows[0].copy()",
         new="        out = np.zeros_like(rows[0])",
         tests=RING + DIST_OLD,
         why="the ring's sums start from zeros and add blocks 1..: block 0's buffer is left out"),
    dict(name="v239-ring-returns-at-first-finish", file=DIST,
         old="            if all(done):",
         new="            if any(done):",
         tests=UNEVEN + DIST_OLD,
         why="the ring returns when any block finished: blocks that reduce unevenly pass silently"),
    # ---- distributed.py: evaluation and the trainer's checks ----
    dict(name="v239-evaluate-skips-last-batch", file=DIST,
         old="    for i in range(group.rank, len(batches), group.size):",
         new="    for i in range(group.rank, len(batches) - 1, group.size):",
         tests=EVAL + DIST_OLD,
         why="an evaluation leaves out its last batch"),
    dict(name="v239-check-block-plural-by-size", file=DIST,
         old="f\"block{'s' * (nb != 1)}; use",
         new="f\"block{'s' * (size != 1)}; use",
         tests=CHECK + DIST_OLD,
         why="the --reproducible refusal says '1 blocks' (pluralized by the process count)"),
    dict(name="v239-check-batch-numbers-swapped", file=DIST,
         old='f"--batch-size {cfg.batch_size} is smaller than the {size} MPI processes',
         new='f"--batch-size {size} is smaller than the {cfg.batch_size} MPI processes',
         tests=CHECK + DIST_OLD,
         why="the batch-size refusal names the process count as the batch size and the reverse"),
    # ---- plan.py: the built task's memory check ----
    dict(name="v239-built-check-steps-hint-inverted", file=PLAN,
         old="               steps_option=plan.cfg.steps is not None)",
         new="               steps_option=plan.cfg.steps is None)",
         tests=STEPS + PLAN_OLD,
         why="a built task's refusal advises a smaller --steps exactly when --steps was not given"),
    dict(name="v239-built-check-guard-inverted", file=PLAN,
         old="    if plan.shape is not None:\n        return",
         new="    if plan.shape is None:\n        return",
         tests=SHAPED + PLAN_OLD,
         why="the stroke tasks' memory is never checked, and the shaped plans are checked twice"),
]
