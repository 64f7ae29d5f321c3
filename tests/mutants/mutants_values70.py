"""Planted bugs, round 70 (format: tests/mutants/mutants.py): single-line slips in the data-parallel group beyond
the update, the progress lines, the memory plan, warm-up compilation, the handwriting judge and diagnostics, on
lines no earlier round mutates: launched_size reading the launchers' rank variables, --reproducible's
description of uneven blocks largest first, the resume note naming the old split, check_config counting blocks
at the default --block-rows, shard_batch handing back no initial states, evaluate keeping its sums in the
model's dtype; format_seconds' minutes unpadded past an hour, a resumed bar's rate and count taken from this
process's start; the memory plan's head bias, the copy for saving and an RNN's product width counted as an
LSTM's; a prewarm child started again for a kind already started; the judge's stop-rule count printed as the
rounded share and its refusal of another task's reader naming the tasks the wrong way round; per_step feeding a
skip layer [h, x], swapping the LN-LSTM's x and h gains and returning dL/dh last step first.

18 mutants. Against the existing targeted tests alone 13 were caught and 5 missed: launched_size reading the rank
variables (no test set a launcher's variables), the resume note split by the saved ranks (its wording was not
checked), check_config at the default block rows (no old test asks about a --block-rows whose block count differs
from the default's), evaluate's sums in a float32 model's dtype (the evaluation tests compare ranks with one process
through the same function, rounded alike) and the LN-LSTM's swapped gains in per_step (the diagnostics tests run
models at their initial gains, all ones). The new value tests catch every mutant on their own (checked with the old
tests taken off the lists): test_values70_distributed_group (the launchers' variables set here; the split and resume
wording against block counts worked out from the blocks' rule; check_config at --block-rows 1 and 4; the group of
one against the model's own update with state noise, truncated BPTT, ragged lengths, text, BN, float64; evaluate
against loss_sums added here in float64, float32 model included), test_values70_progress (format_seconds against
divmod by hand; counts, rates, ETA, bar and elapsed time on a clock set by the test), test_values70_memory (the
parameters part against the bytes of the flat arrays, the optimizer's slot arrays after a real step and the BN
statistics after a forward; the activations part with the layer's own Wh width), test_values70_prewarm (one child
per kind over many forwards, none for a cached kind), test_values70_judge (summary and report against sums by hand
on three lines; check_judge's messages on stand-in runs), test_values70_diagnostics (the loss against the model's
inference on moved parameters with skip and lengths; the last step's dL/dh against the head's gradient computed
here). Dropped before the catalogue: block_models' `while` as `if` (a BN run of two blocks or more fails with an
IndexError, no value test needed) and _masked_stats' variance without the mask (near duplicate of an earlier round's
spread mutants).

    python tests/mutants/run.py --only 'v70-*'
"""
DIST = "lnrnn/training/distributed.py"
PROGRESS = "lnrnn/training/progress.py"
MEMORY = "lnrnn/training/memory.py"
PREWARM = "lnrnn/training/prewarm.py"
JUDGE = "lnrnn/judge.py"
DIAG = "lnrnn/diagnostics.py"

# existing tests of these modules
DIST_OLD = ["tests/training/test_values58_distributed_ranks.py", "tests/training/test_values43_distributed_shards.py",
            "tests/training/test_values43_distributed_one_rank.py", "tests/training/test_values_distributed_options.py",
            "tests/training/test_values_distributed_options2.py", "tests/training/test_values16_distributed.py",
            "tests/training/test_values20_distributed.py", "tests/training/test_values21_distributed.py",
            "tests/training/test_values33_distributed.py", "tests/training/test_values21_evaluation.py"]
PROGRESS_OLD = ["tests/training/test_values_progress.py", "tests/training/test_values10_progress.py",
                "tests/training/test_values32_progress_logs.py", "tests/training/test_edges.py"]
MEMORY_OLD = ["tests/training/test_values_memory.py", "tests/training/test_values10_memory.py",
              "tests/training/test_values36_memory.py", "tests/training/test_plan.py"]
PREWARM_OLD = ["tests/training/test_prewarm.py", "tests/training/test_values32_prewarm.py"]
JUDGE_OLD = ["tests/test_values12_judge.py", "tests/test_values20_judge.py", "tests/commands/test_values_judge.py",
             "tests/commands/test_judge.py", "tests/commands/test_values37_judge.py"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py", "tests/test_values21_diagnostics.py",
            "tests/test_values37_diagnostics.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
DIST_NEW = ["tests/training/test_values70_distributed_group.py"]
PROGRESS_NEW = ["tests/training/test_values70_progress.py"]
MEMORY_NEW = ["tests/training/test_values70_memory.py"]
PREWARM_NEW = ["tests/training/test_values70_prewarm.py"]
JUDGE_NEW = ["tests/test_values70_judge.py"]
DIAG_NEW = ["tests/test_values70_diagnostics.py"]

MUTANTS = [
    # ---- the data-parallel group: the launcher's size, the split's description, the resume note, the checks ----
    dict(name="v70-launched-size-reads-the-rank-variables", file=DIST,
         old="    for v in SIZE_VARS:\n",
         new="    for v in RANK_VARS:\n",
         tests=DIST_NEW + DIST_OLD,
         why="launched_size reads the launcher's rank variables: rank 0 of 3 thinks it runs alone (size 1), a rank "
             "numbered 2 or more takes its rank for the size"),
    dict(name="v70-describe-split-reproducible-range-backwards", file=DIST,
         old='        each = f"{hi[1] - hi[0]}" if (hi[1] - hi[0]) == (lo[1] - lo[0]) '
             'else f"{lo[1] - lo[0]}-{hi[1] - hi[0]}"',
         new='        each = f"{hi[1] - hi[0]}" if (hi[1] - hi[0]) == (lo[1] - lo[0]) '
             'else f"{hi[1] - hi[0]}-{lo[1] - lo[0]}"',
         tests=DIST_NEW + DIST_OLD,
         why="--reproducible's description of uneven blocks a process reads largest first ('2-1 a process')"),
    dict(name="v70-resume-note-split-by-the-saved-ranks", file=DIST,
         old="f\"global batch of {B} is now split {size} way{'s' * (size != 1)}",
         new="f\"global batch of {B} is now split {saved_ranks} way{'s' * (saved_ranks != 1)}",
         tests=DIST_NEW + DIST_OLD,
         why="the resume note says the batch is now split as many ways as the run was trained with, not as many "
             "as it resumes with"),
    dict(name="v70-check-config-blocks-at-the-default-rows", file=DIST,
         old="        with block_rows(cfg.block_rows):",
         new="        with block_rows(BLOCK_ROWS):",
         tests=DIST_NEW + DIST_OLD,
         why="check_config counts --reproducible's blocks at the default --block-rows: a batch that --block-rows 1 "
             "makes enough blocks of is refused (and a too-small one let through)"),
    dict(name="v70-shard-batch-drops-the-noise-states", file=DIST,
         old="    return xs, ts, ls, state, total, text",
         new="    return xs, ts, ls, None, total, text",
         tests=DIST_NEW + DIST_OLD,
         why="shard_batch hands back no initial states: a state-noise model's shards start from zero states"),
    dict(name="v70-evaluate-sums-in-the-models-dtype", file=DIST,
         old="    acc = np.zeros((len(batches), len(keys) + 1))",
         new="    acc = np.zeros((len(batches), len(keys) + 1), model.dtype)",
         tests=DIST_NEW + DIST_OLD,
         why="evaluate keeps each batch's sums in the model's dtype: a float32 model's loss and count lose digits"),
    # ---- progress lines: counts, rates, hours ----
    dict(name="v70-format-seconds-minutes-unpadded-past-an-hour", file=PROGRESS,
         old='    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"',
         new='    return f"{h}:{m}:{sec:02d}" if h else f"{m}:{sec:02d}"',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="an ETA past an hour drops the minutes' zero: 1 h 2 min 5 s reads '1:2:05'"),
    dict(name="v70-progress-rate-counts-the-resumed-work", file=PROGRESS,
         old="        self.done, self.start_done = done, done",
         new="        self.done, self.start_done = done, 0",
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="a resumed run's rate counts the samples done before it started in this process, so its ETA is short"),
    dict(name="v70-progress-count-since-the-resume", file=PROGRESS,
         old='        count = f"{self.done}/{self.total}" if known else f"{self.done}"',
         new='        count = f"{self.done - self.start_done}/{self.total}" if known else f"{self.done}"',
         tests=PROGRESS_NEW + PROGRESS_OLD,
         why="the count shows the samples done in this process, not the run's: a resumed run reads behind"),
    # ---- the memory plan ----
    dict(name="v70-memory-head-bias-not-counted", file=MEMORY,
         old="    params = (W * L if skip else W) * outputs + outputs",
         new="    params = (W * L if skip else W) * outputs",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="the head's bias (outputs numbers) is left out of the parameter count"),
    dict(name="v70-memory-four-gate-blocks-for-every-cell", file=MEMORY,
         old="    G = spec.blocks * H",
         new="    G = 4 * H",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="backward's dL/d(preactivation) counted as an LSTM's 4H wide for every cell: a plain RNN's (G = H) "
             "activations are overestimated"),
    dict(name="v70-memory-no-copy-for-saving", file=MEMORY,
         old="        \"parameters\": isz * (params * (3 + slots(cfg.optimizer)) + stats),",
         new="        \"parameters\": isz * (params * (2 + slots(cfg.optimizer)) + stats),",
         tests=MEMORY_NEW + MEMORY_OLD,
         why="the parameters part forgets the copy made for saving: P params + P grads + slots only"),
    # ---- warm-up compilation ----
    dict(name="v70-prewarm-child-started-again-for-a-kind", file=PREWARM,
         old='    if key in _state["children"] or _in_cache(layer.spec.backward_loop):',
         new='    if key in _state["children"] and _in_cache(layer.spec.backward_loop):',
         tests=PREWARM_NEW + PREWARM_OLD,
         why="a kind of loop whose child was started (and is not yet in the cache) starts another child on every "
             "training forward"),
    # ---- the handwriting judge ----
    dict(name="v70-judge-report-stop-share-not-a-count", file=JUDGE,
         old="{round(s['stop_at_last'] * s['lines'])}/{s['lines']}",
         new="{round(s['stop_at_last'])}/{s['lines']}",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the report's stop-rule count is the rounded share (0 or 1), not the number of lines"),
    dict(name="v70-judge-task-message-swapped", file=JUDGE,
         old='raise UserError(f"{reader_name} ({reader.path}) reads {rt} but {writer_name} writes {wt}',
         new='raise UserError(f"{reader_name} ({reader.path}) reads {wt} but {writer_name} writes {rt}',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the refusal of a reader of another task names the writer's task as the reader's and the other way"),
    # ---- diagnostics ----
    dict(name="v70-diagnostics-skip-input-order-swapped", file=DIAG,
         old="        inp = np.concatenate([x, y], axis=2) if stack.skip else y",
         new="        inp = np.concatenate([y, x], axis=2) if stack.skip else y",
         tests=DIAG_NEW + DIAG_OLD,
         why="with skip connections a layer above is fed [h, x] instead of the stack's [x, h]: its figures and the "
             "loss are another network's"),
    dict(name="v70-diagnostics-ln-lstm-gains-swapped", file=DIAG,
         old='gx, bx, gh, bh = (p["gx"], p["bx"], p["gh"], p["bh"]) if ln else (one, zero, one, zero)',
         new='gx, bx, gh, bh = (p["gh"], p["bx"], p["gx"], p["bh"]) if ln else (one, zero, one, zero)',
         tests=DIAG_NEW + DIAG_OLD,
         why="the LN-LSTM's replay normalizes x's product with h's gains and the other way (equal at init, not after "
             "training)"),
    dict(name="v70-diagnostics-dh-in-backward-order", file=DIAG,
         old="        dh = np.stack(rec[::-1])",
         new="        dh = np.stack(rec)",
         tests=DIAG_NEW + DIAG_OLD,
         why="dL/dh as backward records it, last step first: grad_h and dh run backwards in time"),
]
