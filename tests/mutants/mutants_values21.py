"""Planted bugs, round 21 (format: tests/mutants/mutants.py): single-line slips in lines outside the kernels
that earlier catalogues left alone: in data preparation (stroke-3 conversions both ways, the glitch fix's
first row, lines skipped and the points' range over both splits, the digits' ink threshold, the classification
tasks' bytes before building, the copy task's one blank, a stroke file whose suffix disagrees with its
content, the npz task's held-out split of one sequence, KanjiVG's resampling of a dot, IAM-OnDB's list of
missing entries), in quantities outside the kernels that drive a decision or a table (predict's training record
and its per-step table, the inputs of several files, the compiled label edit distance, the diagnostics' spread
over the running rows), in the sampler's drawing and checks (the points after the last pen lift, an empty
prime, --count 0), on the distributed path (the --reproducible split's line and its check, an evaluation dealt
out over ranks), in the stop policy and the run's records (a SIGTERM's vote, --max-steps, the seconds left,
updates.jsonl's rows by the update count), in the plan's bounds (--patience 1, --max-steps 1,
--save-every-seconds 0, --state-noise 0), and in relative output paths (a bare file name, a --dest not there yet).

36 mutants. The existing tests alone caught 19 (among them both stroke-3 conversions, the glitch fix's row 0,
the ink threshold, the stroke file's suffix, the drawing after the last lift, a SIGTERM's vote, --max-steps,
the relative --out, the label edit distance, the diagnostics' mean) and missed 17: the MNIST family's and the
copy task's bytes, copy --steps 1 refused, an npz file of one sequence held out whole, per-step class 0
dropped from predict's table, predict's inputs compared by count instead of steps, an empty prime accepted,
the --reproducible line in rows instead of blocks, updates.jsonl rows by the batch within the epoch, --patience
1, --max-steps 1 and --save-every-seconds 0 refused, an evaluation over ranks without the last sequence,
a dot resampled into two points, "..." after exactly three missing entries, a relative --dest not made, the
points' range of the training lines only. The new value tests catch every mutant: test_values21_tasks (the
bytes of the MNIST family and of the copy task against the arrays they build, copy with one blank),
test_values21_stroke_files (suffix and content, the held-out split of one and two sequences),
test_values21_strokes (the points' range and the short lines over both splits), test_values21_readers
(KanjiVG's dot and segment, IAM-OnDB's message by count), test_values21_predict_io (the record of equal
lengths, class 0 in a per-step table, inputs of several files), test_values21_sample (the paths of a line
ending with the pen down, an empty prime, --count and --steps 0), test_values21_paths (relative --out and
--dest), test_values21_distributed (the blocks of 256 rows by hand), test_values21_evaluation (two thread
ranks against one process and the loss's definition), test_values21_stopping (votes, --max-steps, seconds
left, patience through worse/better/worse/equal), test_values21_recorder (rows across epoch ends and a resume
mid-epoch), test_values21_plan (every bound at its edge), test_values21_diagnostics (the running rows' spread
by hand). No mutant was found equivalent.

    python tests/mutants/run.py --only 'v21-*'
"""

STROKES = "lnrnn/data/strokes.py"
TASKS = "lnrnn/data/tasks.py"
PIO = "lnrnn/predict_io.py"
DIST = "lnrnn/training/distributed.py"
STOP = "lnrnn/training/stopping.py"
PLAN = "lnrnn/training/plan.py"
SAMPLE = "lnrnn/sample.py"

# existing tests of these modules
S_OLD = ["tests/data/test_strokes_data.py", "tests/data/test_values_strokes.py", "tests/data/test_values12_strokes.py",
         "tests/data/test_values20_strokes.py", "tests/data/test_text_strokes.py"]
T_OLD = ["tests/data/test_values_tasks.py", "tests/data/test_values9_tasks.py", "tests/data/test_values12_tasks.py",
         "tests/data/test_values13_tasks.py", "tests/data/test_data.py", "tests/test_values_config.py"]
SF_OLD = ["tests/data/test_values_stroke_files.py", "tests/data/test_values10_stroke_files.py",
          "tests/data/test_values20_strokes.py", "tests/data/test_strokes_data.py"]
ARR_OLD = ["tests/data/test_values10_arrays.py", "tests/data/test_own_data.py", "tests/data/test_values_data_counts.py"]
PI_OLD = ["tests/test_values_predict_io.py", "tests/test_values9_predict_io.py", "tests/test_values14_predict_io.py",
          "tests/test_values20_metrics.py"]
DIST_OLD = ["tests/training/test_values16_distributed.py", "tests/training/test_reproducible_ranks.py",
            "tests/training/test_values_distributed_options.py"]
STOP_OLD = ["tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_stopping_recorder_parts.py", "tests/training/test_values_train_policies.py"]
REC_OLD = ["tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
           "tests/training/test_values20_recorder.py", "tests/training/test_values_progress.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py"]
PLOT_OLD = ["tests/training/test_values_plot.py", "tests/training/test_values9_plot.py",
            "tests/training/test_values20_plot.py"]
SA_OLD = ["tests/commands/test_sample.py", "tests/commands/test_values_sampling.py",
          "tests/commands/test_values12_sample.py", "tests/commands/test_values20_sample.py",
          "tests/commands/test_values_sampler_rule.py"]
EVAL_OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values10_evaluation.py",
            "tests/training/test_values15_evaluation.py"]
KVG_OLD = ["tests/data/test_values_kanjivg.py", "tests/data/test_values12_kanjivg.py"]
IAM_OLD = ["tests/data/test_values_iamondb.py", "tests/data/test_values9_iamondb.py",
           "tests/data/test_values15_iamondb.py"]
DATA_CMD_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values9_data.py",
                "tests/commands/test_values17_data.py"]
FILES_OLD = ["tests/test_values12_files.py", "tests/commands/test_values9_output_files.py",
             "tests/commands/test_values_output_checks.py"]
TM_OLD = ["tests/test_values_textmetrics.py", "tests/test_values10_textmetrics.py", "tests/test_values20_metrics.py"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py"]
CFG_OLD = ["tests/test_values_config.py", "tests/training/test_plan.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
S_NEW = ["tests/data/test_values21_strokes.py"]
T_NEW = ["tests/data/test_values21_tasks.py"]
SF_NEW = ["tests/data/test_values21_stroke_files.py"]
RD_NEW = ["tests/data/test_values21_readers.py"]
PI_NEW = ["tests/test_values21_predict_io.py"]
SA_NEW = ["tests/commands/test_values21_sample.py"]
PATHS_NEW = ["tests/commands/test_values21_paths.py"]
DIST_NEW = ["tests/training/test_values21_distributed.py"]
EVAL_NEW = ["tests/training/test_values21_evaluation.py"]
STOP_NEW = ["tests/training/test_values21_stopping.py"]
REC_NEW = ["tests/training/test_values21_recorder.py"]
PLAN_NEW = ["tests/training/test_values21_plan.py"]
DIAG_NEW = ["tests/test_values21_diagnostics.py"]

MUTANTS = [
    # ---- data preparation ----
    dict(name="v21-strokes-to-strokes-end-point-starts-next", file=STROKES,
         old="    ends = np.flatnonzero(seq[:, 2] > 0.5) + 1                            # one past each stroke's end",
         new="    ends = np.flatnonzero(seq[:, 2] > 0.5)                                # one past each stroke's end",
         tests=S_NEW + S_OLD,
         why="to_strokes splits before each stroke's last point: the point where the pen lifts begins the next stroke"),
    dict(name="v21-strokes-to-stroke3-no-lift-after-last-stroke", file=STROKES,
         old="    seq[np.cumsum(lens) - 1, 2] = 1.0                                     # lift after each stroke's end",
         new="    seq[np.cumsum(lens)[:-1] - 1, 2] = 1.0                                # lift after each stroke's end",
         tests=S_NEW + S_OLD,
         why="to_stroke3 lifts the pen between strokes only: a line's last point keeps the pen down"),
    dict(name="v21-strokes-short-lines-counted-in-train-only", file=STROKES,
         old="    n_short = sum(len(fixed[w]) - len(usable[w]) for w in fixed)",
         new='    n_short = len(fixed["train"]) - len(usable["train"])',
         tests=S_NEW + S_OLD,
         why="the lines of fewer than 2 points skipped are counted over the training split only"),
    dict(name="v21-strokes-glitch-fix-may-drop-row-0", file=STROKES,
         old="    long[0] = False\n",
         new="",
         tests=S_NEW + S_OLD,
         why="a line whose first offset is longer than the glitch threshold loses its first point"),
    dict(name="v21-tasks-digits-ink-strict", file=TASKS,
         old="x = (x >= DIGITS_INK).astype(np.float32)",
         new="x = (x > DIGITS_INK).astype(np.float32)",
         tests=T_NEW + T_OLD,
         why="digits-binary: a pixel of exactly 8 of 16 is not ink"),
    dict(name="v21-tasks-mnist-shape-labels-uncounted", file=TASKS,
         old="    return TaskShape(T, I, 10, False, nt, nv, (nt + nv) * (784 + 8))",
         new="    return TaskShape(T, I, 10, False, nt, nv, (nt + nv) * 784)",
         tests=T_NEW + T_OLD,
         why="the MNIST family's data bytes leave out the int64 labels"),
    dict(name="v21-tasks-copy-shape-labels-uncounted", file=TASKS,
         old="    per = T * I + 2 * T * 8  # uint8 one-hot, int64 codes and labels",
         new="    per = T * I + T * 8  # uint8 one-hot, int64 codes and labels",
         tests=T_NEW + T_OLD,
         why="the copy task's data bytes count one of its two (T,) int64 arrays per sequence"),
    dict(name="v21-tasks-copy-one-blank-refused", file=TASKS,
         old='    return _steps(spec, 50, 1, "copy task")',
         new='    return _steps(spec, 50, 2, "copy task")',
         tests=T_NEW + T_OLD,
         why="the copy task refuses --steps 1 (one blank, the delimiter on it)"),
    dict(name="v21-stroke-files-suffix-disagreeing-kind-read", file="lnrnn/data/stroke_files.py",
         old="    if kind != ext[1:]:",
         new='    if kind not in ("npy", "npz"):',
         tests=SF_NEW + SF_OLD,
         why="a stroke file whose suffix disagrees with its content (.npy holding a zip) is read as its content"),
    dict(name="v21-arrays-one-sequence-held-out-whole", file="lnrnn/data/arrays.py",
         old="        if N < 2:",
         new="        if N < 1:",
         tests=SF_NEW + ARR_OLD,
         why="an npz file of one sequence without x_val holds it out for validation and trains on nothing"),
    # ---- quantities computed outside the kernels ----
    dict(name="v21-predict-equal-lengths-record-padded-width", file=PIO,
         old="        steps = int(x.shape[1]) if lengths is None or not len(lengths) else int(lengths[0])",
         new="        steps = int(x.shape[1])",
         tests=PI_NEW + PI_OLD,
         why="training sequences padded to T, all of one length L < T, are recorded as T steps long"),
    dict(name="v21-predict-per-step-class-zero-dropped", file=PIO,
         old="        n, t = np.nonzero(classes >= 0)",
         new="        n, t = np.nonzero(classes > 0)",
         tests=PI_NEW + PI_OLD,
         why="per-step predictions of class 0 are dropped from the table with the padding (-1)"),
    dict(name="v21-sample-last-stroke-without-lift-not-drawn", file=SAMPLE,
         old="    for e in list(ends) + [len(points) - 1]:",
         new="    for e in list(ends):",
         tests=SA_NEW + SA_OLD,
         why="strokes_of draws no path for the points after the last pen lift (a sample cut at the step cap)"),
    dict(name="v21-sample-empty-prime-accepted", file=SAMPLE,
         old="    if a.ndim != 2 or a.shape[1] != 3 or a.shape[0] < 1:",
         new="    if a.ndim != 2 or a.shape[1] != 3 or a.shape[0] < 0:",
         tests=SA_NEW + SA_OLD,
         why="check_stroke3 accepts an (0,3) array: an empty prime fails later with an IndexError"),
    dict(name="v21-sample-count-zero-accepted", file="lnrnn/commands/sample.py",
         old="        if v < 1:",
         new="        if v < 0:",
         tests=SA_NEW + SA_OLD,
         why="lnrnn sample accepts --count 0 and --steps 0"),
    # ---- the distributed path ----
    dict(name="v21-distributed-describe-reproducible-shards-of-rows", file=DIST,
         old="        lo, hi = shard(nb, size, size - 1), shard(nb, size, 0)",
         new="        lo, hi = shard(B, size, size - 1), shard(B, size, 0)",
         tests=DIST_NEW + DIST_OLD,
         why="the --reproducible line says how many rows a process gets where it means blocks"),
    dict(name="v21-distributed-blocks-equal-to-ranks-refused", file=DIST,
         old="        if nb < size:",
         new="        if nb <= size:",
         tests=DIST_NEW + DIST_OLD,
         why="--reproducible refuses as many processes as the batch has blocks (one block each)"),
    # ---- counters and policies ----
    dict(name="v21-stopping-sigterm-voted-as-sigint", file=STOP,
         old="flag is not None and flag.signum == signal.SIGINT,",
         new="flag is not None and flag.requested,",
         tests=STOP_NEW + STOP_OLD,
         why="a rank's SIGTERM votes as a SIGINT: the other ranks exit 130 instead of 143"),
    dict(name="v21-stopping-max-steps-one-late", file=STOP,
         old="        elif cfg.max_steps is not None and t.step >= cfg.max_steps:",
         new="        elif cfg.max_steps is not None and t.step > cfg.max_steps:",
         tests=STOP_NEW + STOP_OLD,
         why="--max-steps N stops after update N + 1"),
    dict(name="v21-stopping-budget-note-left-swapped", file=STOP,
         old="            left = max(c.time_budget - self.budget_seconds(), 0.0)",
         new="            left = max(self.budget_seconds() - c.time_budget, 0.0)",
         tests=STOP_NEW + STOP_OLD,
         why="the resume hint's seconds left are the overrun (0 while time is left)"),
    dict(name="v21-recorder-log-every-by-batch-in-epoch", file="lnrnn/training/recorder.py",
         old="        if t.step % t.cfg.log_every == 0:",
         new="        if t.batch_in_epoch % t.cfg.log_every == 0:",
         tests=REC_NEW + REC_OLD,
         why="updates.jsonl rows follow the batch within the epoch, not the update count: with --log-every not "
             "dividing the epoch's batches the rows come at other updates"),
    dict(name="v21-plan-patience-one-refused", file=PLAN,
         old="cfg.patience is None or cfg.patience >= 1,",
         new="cfg.patience is None or cfg.patience > 1,",
         tests=PLAN_NEW + PLAN_OLD,
         why="--patience 1 is refused"),
    dict(name="v21-plan-save-every-seconds-zero-refused", file=PLAN,
         old="cfg.save_every_seconds >= 0 and math.isfinite(cfg.save_every_seconds)",
         new="cfg.save_every_seconds > 0 and math.isfinite(cfg.save_every_seconds)",
         tests=PLAN_NEW + PLAN_OLD,
         why="--save-every-seconds 0 (off) is refused"),
    dict(name="v21-plan-state-noise-zero-refused", file=PLAN,
         old="(cfg.state_noise >= 0 and math.isfinite(cfg.state_noise))",
         new="(cfg.state_noise > 0 and math.isfinite(cfg.state_noise))",
         tests=PLAN_NEW + PLAN_OLD,
         why="--state-noise 0 (off) is refused"),
    dict(name="v21-plan-max-steps-one-refused", file=PLAN,
         old="cfg.max_steps is None or cfg.max_steps >= 1,",
         new="cfg.max_steps is None or cfg.max_steps > 1,",
         tests=PLAN_NEW + PLAN_OLD,
         why="--max-steps 1 is refused"),
    dict(name="v21-plot-metric-names-loss-first", file="lnrnn/training/plot.py",
         old='    return sorted(names, key=lambda m: m == "loss") or ["loss"]',
         new='    return sorted(names, key=lambda m: m != "loss") or ["loss"]',
         tests=PLOT_OLD,
         why="the learning curves' panels put the loss first, not last"),
    dict(name="v21-config-strokes-defaults-for-iam-only", file="lnrnn/config.py",
         old='    return TASK_DEFAULTS["strokes" if str(task).startswith("strokes") else None]',
         new='    return TASK_DEFAULTS["strokes" if str(task) == "strokes" else None]',
         tests=CFG_OLD,
         why="strokes-synthetic and the other strokes-* tasks get the classification tasks' defaults (H 64, 1 layer)"),
    # ---- a second batch (also run against the existing tests alone first) ----
    dict(name="v21-evaluation-group-batches-drop-last-row", file="lnrnn/training/evaluation.py",
         old="lambda s=s: task_batch(task, which, np.arange(s, min(s + batch_size, n)),",
         new="lambda s=s: task_batch(task, which, np.arange(s, min(s + batch_size, n - 1)),",
         tests=EVAL_NEW + EVAL_OLD,
         why="an evaluation dealt out over MPI ranks leaves out the set's last sequence"),
    dict(name="v21-predict-inputs-checked-on-the-wrong-axis", file=PIO,
         old="            if parts and x.shape[1] != parts[0].shape[1]:",
         new="            if parts and x.shape[0] != parts[0].shape[0]:",
         tests=PI_NEW + PI_OLD,
         why="predict's inputs from several files are compared by their counts, not their steps: files of "
             "other lengths meet np.concatenate's ValueError, files of other counts are refused"),
    dict(name="v21-kanjivg-resample-zero-length-two-points", file="lnrnn/data/kanjivg.py",
         old="    if arc[-1] <= 0:",
         new="    if arc[-1] < 0:",
         tests=RD_NEW + KVG_OLD,
         why="a polyline of zero length (a dot) is resampled into two equal points, not one"),
    dict(name="v21-iamondb-three-missing-shown-with-ellipsis", file="lnrnn/data/iamondb.py",
         old='shown = ", ".join(missing[:3]) + (", ..." if len(missing) > 3 else "")',
         new='shown = ", ".join(missing[:3]) + (", ..." if len(missing) >= 3 else "")',
         tests=RD_NEW + IAM_OLD,
         why="a task list with exactly three entries without line files says '...' after naming all three"),
    dict(name="v21-data-dest-relative-folder-not-made-absolute", file="lnrnn/commands/data.py",
         old="    probe = nearest_existing(os.path.abspath(dest))",
         new="    probe = nearest_existing(dest)",
         tests=PATHS_NEW + DATA_CMD_OLD,
         why="lnrnn data mnist --dest new/sub (relative, not there yet): the walk up ends at '' and the "
             "folder is refused as 'a file'"),
    dict(name="v21-files-output-path-not-made-absolute", file="lnrnn/files.py",
         old="    target = os.path.abspath(text)\n",
         new="    target = text\n",
         tests=PATHS_NEW + FILES_OLD,
         why="an output named without a folder (--out samples.png, the default) is refused: its dirname '' "
             "is no folder"),
    dict(name="v21-strokes-points-range-of-train-only", file=STROKES,
         old="    lens = np.concatenate([np.diff(s.starts) for s in sets.values()])",
         new='    lens = np.diff(sets["train"].starts)',
         tests=S_NEW + S_OLD,
         why="the task's description gives the training lines' range of points, not both splits'"),
    dict(name="v21-textmetrics-label-distance-reads-the-older-row", file="lnrnn/textmetrics.py",
         old="        out[b] = prev[n]",
         new="        out[b] = cur[n]",
         tests=TM_OLD,
         why="the compiled label edit distance returns the row before the last reference label's"),
    dict(name="v21-diagnostics-mean-over-padding", file="lnrnn/diagnostics.py",
         old="    mean = (a * w[:, :, None]).sum((1, 2)) / n",
         new="    mean = a.mean(axis=(1, 2))",
         tests=DIAG_NEW + DIAG_OLD,
         why="the per-step spread of pre-activations and outputs is taken about a mean that includes the "
             "padded rows past each sequence's length"),
]
