"""Planted bugs, round 279 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the memory estimate (lnrnn/training/memory.py), the distributed group (lnrnn/training/distributed.py),
the training plan (lnrnn/training/plan.py), the run's setup (lnrnn/training/setup.py) and evaluation
(lnrnn/training/evaluation.py), thirteenth pass: a weight matrix's size counted as its rows alone; the task's data
bytes multiplied by the headroom; check_fits returning the memory available for the run's peak; the evaluation
batches' hint naming --batch-size; the hints joined by commas; check_config's block count checked without
--reproducible instead of with it; the refusal naming the block count as the processes; rank_blocks dealing the
kernels' blocks instead of the data blocks; a rank other than 0 not naming itself in its error line; evaluate's
totals added in float32; the --patience refusal naming --eval-every's value; a refused task option named with
underscores; the start line naming the evaluation batch; split_arrays putting the model's arrays and the slots in
one dict.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values279_memory (a plain two-layer LSTM's estimate
counted array by array by hand: 412 parameters, 4 copies of 8 bytes, activations and evaluation at 1.25 x the arrays
BPTT and inference keep; the data bytes as given; check_fits's peak of parameters + the larger of activations and
evaluation + data, with exactly the free memory fitting; the refusal word for word),
test_values279_distributed_group (check_config at batch 12 under --block-rows 4, one data block counted from the
definition, refused word for word only with --reproducible; rank_blocks of 11 rows under block rows 1 dealt 2, 1, 1
over three stand-in ranks; the error line of rank 2 of 3 and of rank 0 with Abort's exit code; evaluate over a group
of one against each batch's sums added by hand in float64, to 1e-13, and the units counted by hand per step and per
sequence over ragged lengths), test_values279_plan_setup_evaluation (refusals word for word, the start line written
out by hand, a checkpoint's arrays parted by prefix). Left out as equivalent: evaluation.evaluate's group.size > 1
made >= 1 (a group of one then deals every batch to rank 0 and adds the same sums in the same order: the same
figures); loss_and_grad's keys taken from model.head.sum_keys instead of last_sums (the same names in the same
order); the stop votes' Allreduce dropped under --reproducible (the identity in one process, and the multi-rank path
needs MPI); init's 'return SINGLE' for a launcher of one (Group() is SINGLE's equal in every observable field). Left
out as not cheap: available_bytes's cgroup reading (the host's own files decide it).

    python tests/mutants/run.py --only 'v279-*'
"""
MEM = "lnrnn/training/memory.py"
DIST = "lnrnn/training/distributed.py"
PLAN = "lnrnn/training/plan.py"
SETUP = "lnrnn/training/setup.py"
EVAL = "lnrnn/training/evaluation.py"

T_MEM = "tests/training/test_values279_memory.py::"
T_GROUP = "tests/training/test_values279_distributed_group.py::"
T_PSE = "tests/training/test_values279_plan_setup_evaluation.py::"
OLD_MEM = ["tests/training/test_values218_memory.py", "tests/training/test_values271_prewarm_memory.py"]
OLD_DIST = ["tests/training/test_values260_distributed_group.py",
            "tests/training/test_values230_distributed_one_group.py",
            "tests/training/test_values239_distributed_group.py"]
OLD_PLAN = ["tests/training/test_values239_plan.py", "tests/training/test_values230_plan.py"]
OLD_SETUP = ["tests/training/test_values260_setup.py", "tests/training/test_values142_setup.py"]
OLD_EVAL = ["tests/training/test_values248_evaluation_finetune.py", "tests/training/test_values218_evaluation.py"]

MUTANTS = [
    # ---- the memory estimate: lnrnn/training/memory.py ----
    dict(name="v279-memory-prod-returns-first-dim", file=MEM,
         old="        n *= int(s)\n    return n",
         new="        n *= int(s)\n        return n",
         tests=[T_MEM + "test_plain_lstm_estimate_counted_array_by_array"] + OLD_MEM,
         why="a weight matrix's size is counted as its first dimension: the parameters' bytes far too few"),
    dict(name="v279-memory-data-bytes-with-headroom", file=MEM,
         old='        "data": int(n_data_bytes),',
         new='        "data": int(HEADROOM * n_data_bytes),',
         tests=[T_MEM + "test_plain_lstm_estimate_counted_array_by_array"] + OLD_MEM,
         why="the task's data bytes, already in memory, are counted with the activations' headroom"),
    dict(name="v279-memory-fits-returns-available", file=MEM,
         old="    if avail is None or train_peak <= avail:\n        return train_peak",
         new="    if avail is None or train_peak <= avail:\n        return avail",
         tests=[T_MEM + "test_check_fits_returns_what_the_run_holds_at_its_peak"] + OLD_MEM,
         why="check_fits returns the memory available instead of the run's peak"),
    dict(name="v279-memory-eval-hint-names-batch-size", file=MEM,
         old='"evaluation": ("evaluation batches", "a smaller --eval-batch-size"),',
         new='"evaluation": ("evaluation batches", "a smaller --batch-size"),',
         tests=[T_MEM + "test_refusal_names_each_part_and_joins_the_hints_with_or"] + OLD_MEM,
         why="a refusal dominated by the evaluation batches suggests --batch-size, which does not shrink them"),
    dict(name="v279-memory-hints-joined-by-commas", file=MEM,
         old="""{format_bytes(avail)} is available; try {' or '.join(hints)} (or""",
         new="""{format_bytes(avail)} is available; try {', '.join(hints)} (or""",
         tests=[T_MEM + "test_refusal_names_each_part_and_joins_the_hints_with_or"] + OLD_MEM,
         why="the refusal's hints run together with commas ('--hidden or --layers, a smaller --steps')"),
    # ---- the distributed group: lnrnn/training/distributed.py ----
    dict(name="v279-dist-block-check-without-reproducible", file=DIST,
         old="        raise UserError(f\"--device {cfg.device}: training across MPI processes runs on the CPU only; drop \"\n"
             "                        \"--device cuda, or run one process without the launcher.\")\n"
             "    if cfg.reproducible:",
         new="        raise UserError(f\"--device {cfg.device}: training across MPI processes runs on the CPU only; drop \"\n"
             "                        \"--device cuda, or run one process without the launcher.\")\n"
             "    if not cfg.reproducible:",
         tests=[T_GROUP + "test_reproducible_blocks_refused_only_under_reproducible"] + OLD_DIST,
         why="the whole-blocks check runs without --reproducible (refusing runs that split rows) and not with it"),
    dict(name="v279-dist-block-refusal-names-blocks-as-processes", file=DIST,
         old='raise UserError(f"--reproducible gives each of the {size} MPI processes whole blocks',
         new='raise UserError(f"--reproducible gives each of the {nb} MPI processes whole blocks',
         tests=[T_GROUP + "test_reproducible_blocks_refused_only_under_reproducible"] + OLD_DIST,
         why="the refusal names the block count as the number of processes"),
    dict(name="v279-dist-rank-blocks-kernel-blocks", file=DIST,
         old="    nb = data_blocks(B)\n    bounds =",
         new="    nb = batch_blocks(B)\n    bounds =",
         tests=[T_GROUP + "test_rank_blocks_deal_the_data_blocks_over_three_ranks"] + OLD_DIST,
         why="ranks are dealt the kernels' blocks (twice as many) instead of the data blocks check_config counted"),
    dict(name="v279-dist-rank-error-line-unnamed", file=DIST,
         old='                line = f"Error ({self.describe()}): {exc}"',
         new='                line = f"Error: {exc}"',
         tests=[T_GROUP + "test_an_error_line_names_a_rank_other_than_zero"] + OLD_DIST,
         why="a rank other than 0 prints its error as rank 0 would: which rank failed is lost"),
    dict(name="v279-dist-evaluate-totals-float32", file=DIST,
         old="    tot = np.zeros(len(keys) + 1)",
         new="    tot = np.zeros(len(keys) + 1, np.float32)",
         tests=[T_GROUP + "test_evaluate_of_one_process_adds_each_batchs_sums_in_float64"] + OLD_DIST,
         why="the evaluation's batch sums are added in float32: the figures lose digits against one process"),
    # ---- the plan: lnrnn/training/plan.py ----
    dict(name="v279-plan-patience-names-eval-every", file=PLAN,
         old='f"--patience must be at least 1 evaluation, not {cfg.patience}."',
         new='f"--patience must be at least 1 evaluation, not {cfg.eval_every}."',
         tests=[T_PSE + "test_patience_refusal_names_the_patience_given"] + OLD_PLAN,
         why="the --patience refusal names --eval-every's value as the patience given"),
    dict(name="v279-plan-option-flag-underscores", file=PLAN,
         old='            flag = "--" + key.replace("_", "-")',
         new='            flag = "--" + key',
         tests=[T_PSE + "test_an_option_the_task_does_not_read_is_named_by_its_flag"] + OLD_PLAN,
         why="a refused task option is named --allow_pickle, a flag the CLI does not have"),
    # ---- the setup: lnrnn/training/setup.py ----
    dict(name="v279-setup-start-line-eval-batch", file=SETUP,
         old='            f"batch {c.batch_size}, "',
         new='            f"batch {c.eval_batch_size}, "',
         tests=[T_PSE + "test_start_line_written_out_by_hand"] + OLD_SETUP,
         why="the start line names the evaluation batch size as the training batch"),
    # ---- evaluation: lnrnn/training/evaluation.py ----
    dict(name="v279-eval-split-arrays-one-dict", file=EVAL,
         old="    model, slots = {}, {}",
         new="    model = slots = {}",
         tests=[T_PSE + "test_split_arrays_parts_model_and_slots_by_prefix"] + OLD_EVAL,
         why="the model's arrays and the optimizer's slots share one dict: each holds the other's entries"),
]
