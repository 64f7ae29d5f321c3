"""Planted bugs, round 230 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the data-parallel update run by a group of one process and in the plan's counts and pass-throughs.
distributed.py: shard_batch reading x (T,B,I) as (B,T,I); the update's metric sums packed in sorted key order and
unpacked in insertion order (loss and acc swap); every stop vote made the first one; under --reproducible each
block running one row of the next too, the blocks' gradients after the first bound to a local name (the model keeps
block 0's), the update's sums those of block 0 alone, BN detected by the config's cell instead of its norm (BN
blocks run alone with their own statistics), a BN block's gradient read from the parent model, block_models
building one model a call (while written as if); describe_split --reproducible counting the kernels' blocks
instead of the data blocks. plan.py: --steps not passed to the task spec, model_for dropping --clip-gates, a given
--state-noise 0 taken as unset.

13 mutants. Against the existing targeted tests alone (test_values43_distributed_one_rank,
test_values_distributed_options, test_values202_distributed_group for distributed.py; test_plan, test_values_plan,
test_values218_plan, test_values205_plan for plan.py; --no-baseline) 10 were caught and 3 missed: the nine update
and block mutants and the state-noise one were caught, but describe_split --reproducible was never read with its
block count, no plan was resolved with a --steps whose shape or data bytes were then checked, and model_for was
never given --clip-gates. (A first measurement that also listed test_values_distributed_options2 ran past the
runner's 900 s on a loaded host and was stopped; that file was taken off the lists, not measured.) The new value
tests catch all 13 on their own (checked with the old files taken off the lists):
test_values230_distributed_one_group (distributed.SINGLE's update with truncated BPTT, masks with empty and one-step
rows, state noise, text, BN, float32, at T 7 and B 10, against one process's loss_and_grad of the whole batch to the
bit, the count against the scored units counted here and the stop votes [0, 1, 0] unchanged; --reproducible's 4
uneven blocks of B 10 under block rows 1, counted here from the definition, against one call to round-off, including
BN models' gradients and running statistics; describe_split's blocks and shares counted by hand at --block-rows 4
and 1), test_values230_plan (the adding task's --steps in the plan's shape and its data bytes, 2 * 8 T + 4 + 16 T a
sequence over SYNTHETIC_TRAIN + SYNTHETIC_VAL; every layer of model_for's model clipping at the --clip-gates given;
state_noise's given 0 against BN_STATE_NOISE's default). Left out as equivalent in a group of one: shard_batch's "if
state is not None" and "if text is not None" slicing guards (the one shard is every row; inverted they only fail on
None), loss_and_grad's keys taken as sorted(model.last_sums) (packing and unpacking then agree), the blocks'
"group.allreduce(votes)" dropped (the identity in one process), BlockRing._combine's "rows[0].copy()" without the
copy (the stack it views is fresh), block_models' "while len(made) <= n" (one spare model) and "return made"
unsliced (the ring runs only its own count of blocks), evaluate's "int(round(count))" as int() (the count is a sum
of whole numbers, exact in float64).

    python tests/mutants/run.py --only 'v230-*'
"""
DIST = "lnrnn/training/distributed.py"
PLAN = "lnrnn/training/plan.py"

# existing tests of these modules (the most direct files)
DIST_OLD = ["tests/training/test_values43_distributed_one_rank.py", "tests/training/test_values_distributed_options.py",
            "tests/training/test_values202_distributed_group.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py",
            "tests/training/test_values218_plan.py", "tests/training/test_values205_plan.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
G = "tests/training/test_values230_distributed_one_group.py"
P = "tests/training/test_values230_plan.py"
UPDATE = [f"{G}::test_update_of_a_group_of_one_is_one_process_to_the_bit[ln-lstm-classifier-step-float64-tbptt3]",
          f"{G}::test_update_of_a_group_of_one_is_one_process_to_the_bit[none-rnn-classifier-float32-tbpttNone]"]
BLOCKS = [f"{G}::test_reproducible_blocks_of_one_process_are_one_call[ln-lstm-classifier-step-float64-tbptt3]",
          f"{G}::test_reproducible_blocks_of_one_process_are_one_call[none-lstm-classifier-step-float32-tbptt2]",
          f"{G}::test_reproducible_blocks_of_one_process_are_one_call[ln-lstm-mdn-step-float64-tbpttNone-text]"]
BN_BLOCKS = [f"{G}::test_reproducible_blocks_of_one_process_are_one_call[bn-rnn-classifier-float64-tbpttNone]",
             f"{G}::test_reproducible_blocks_of_one_process_are_one_call[bn-lstm-classifier-step-float64-tbptt4]"]
SPLIT = [f"{G}::test_describe_split_counts_blocks_and_shares_by_hand", f"{G}::test_data_blocks_counted_by_hand"]
STEPS = [f"{P}::test_steps_reach_the_shape_and_the_memory_estimate"]
CLIP = [f"{P}::test_model_for_clips_every_layers_gates_at_the_option"]
NOISE = [f"{P}::test_state_noise_given_zero_is_off"]

MUTANTS = [
    # ---- distributed.py: the update of a group (shard_batch, loss_and_grad) ----
    dict(name="v230-shard-steps-and-rows-swapped", file=DIST,
         old='is one sequence of length 0."""\n    T, B = x.shape[0], x.shape[1]',
         new='is one sequence of length 0."""\n    T, B = x.shape[1], x.shape[0]',
         tests=UPDATE + DIST_OLD,
         why="shard_batch reads x (T,B,I) as (B,T,I): the normalizer, noise and rows of a batch with T != B"),
    dict(name="v230-metric-sums-sorted", file=DIST,
         old="    buf[:K] = [model.last_sums[k] for k in keys]",
         new="    buf[:K] = [model.last_sums[k] for k in sorted(keys)]",
         tests=UPDATE + DIST_OLD,
         why="the metric sums go into the buffer in sorted order and come back under insertion order: "
                       "loss and acc swap"),
    dict(name="v230-votes-first-only", file=DIST,
         old="    buf[K:] = votes\n",
         new="    buf[K:] = votes[0]\n",
         tests=UPDATE + DIST_OLD,
         why="every stop vote of the update is the first one (a time budget's vote becomes the signal's)"),
    # ---- distributed.py: --reproducible blocks (loss_and_grad_blocks, block_models) ----
    dict(name="v230-block-rows-overlap", file=DIST,
         old="        rows = slice(lo, hi)\n",
         new="        rows = slice(lo, hi + 1)\n",
         tests=BLOCKS + DIST_OLD,
         why="each block runs one row of the next block too: those rows count twice"),
    dict(name="v230-block-grads-assigned", file=DIST,
         old="        grads += gall[k]\n",
         new="        grads = gall[k]\n",
         tests=BLOCKS + DIST_OLD,
         why="the blocks' gradients after the first are bound to a local name: the model keeps block 0's"),
    dict(name="v230-block-sums-first-block", file=DIST,
         old="    model.last_sums = {m: float(v) for m, v in zip(keys, sums)}",
         new="    model.last_sums = {m: float(v) for m, v in zip(keys, sall[0])}",
         tests=BLOCKS + DIST_OLD,
         why="the update's metric sums are the first block's alone"),
    dict(name="v230-blocks-bn-keyed-on-cell", file=DIST,
         old='    bn = model.config["norm"] == "bn"',
         new='    bn = model.config["cell"] == "bn"',
         tests=BN_BLOCKS + DIST_OLD,
         why="BN blocks run one by one, each with its own block's statistics, not the whole batch's"),
    dict(name="v230-block-gradient-of-parent", file=DIST,
         old="        gpart[j] = m.flat[1].data\n",
         new="        gpart[j] = model.flat[1].data\n",
         tests=BN_BLOCKS + DIST_OLD,
         why="a BN block's gradient is read from the parent model, not from the block's own model"),
    dict(name="v230-block-models-if", file=DIST,
         old="    while len(made) < n:\n",
         new="    if len(made) < n:\n",
         tests=BN_BLOCKS + DIST_OLD,
         why="block_models builds one model per call: a BN batch of four blocks has one"),
    dict(name="v230-describe-split-kernel-blocks", file=DIST,
         old="        with block_rows(rows):\n            nb = data_blocks(B)",
         new="        with block_rows(rows):\n            nb = batch_blocks(B)",
         tests=SPLIT + DIST_OLD,
         why="describe_split --reproducible counts the kernels' blocks, twice the data blocks"),
    # ---- plan.py ----
    dict(name="v230-plan-steps-dropped", file=PLAN,
         old="    spec = task_spec(cfg.task, cfg.data_dir, cfg.split, cfg.steps, **task_options(cfg))",
         new="    spec = task_spec(cfg.task, cfg.data_dir, cfg.split, None, **task_options(cfg))",
         tests=STEPS + PLAN_OLD,
         why="--steps is not passed to the task spec: the plan's shape and memory use the task's default"),
    dict(name="v230-model-for-gate-clip-dropped", file=PLAN,
         old="                        clip_gates=cfg.clip_gates)",
         new="                        clip_gates=0.0)",
         tests=CLIP + PLAN_OLD,
         why="model_for builds the model without --clip-gates"),
    dict(name="v230-state-noise-zero-is-unset", file=PLAN,
         old="        return float(plan.cfg.state_noise)",
         new="        return float(plan.cfg.state_noise or BN_STATE_NOISE)",
         tests=NOISE + PLAN_OLD,
         why="--state-noise 0 is taken as unset: every run gets BN_STATE_NOISE"),
]
