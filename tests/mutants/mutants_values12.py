"""Planted bugs in the counts of the stroke tasks (glitch steps, short and unalignable lines, characters per
KanjiVG line, the augmentation's scale and rotation) and of the digits' memory, the run's stop rules and the
resumed recorder (patience counted over worse and better evaluations, the blow-up streak and first loss,
--max-steps and --time-budget reached exactly, the best of another --best-metric, the rows' samples and
updates), the sampler's prime in and out of data units and its one-point strokes, the judge's window read at
each line's own last step and its stop at the last character, the heads' tolerance and character error rate,
the suffixes and folders of the output checks, the --reproducible blocks' normalizer and noise, and the
device's last-step evaluation with lengths (format: tests/mutants/mutants.py). Each is a single-line slip of a
kind that happens: a bound one step off, a count over one split only, a forgotten factor, a resumed state not
restored, a suffix compared case-sensitively, a denominator of the wrong units.

No mutant was dropped as equivalent.

    python tests/mutants/run.py --only 'v12-*'
"""

STROKES = "tests/data/test_strokes_data.py"
STROKES_V = "tests/data/test_values_strokes.py"
TEXT_STROKES = "tests/data/test_text_strokes.py"
KANJI_V = "tests/data/test_values_kanjivg.py"
POLICIES = "tests/training/test_values_train_policies.py"
STOPPING9 = "tests/training/test_values9_stopping.py"
PARTS = "tests/training/test_stopping_recorder_parts.py"
RECORDER_T10 = "tests/training/test_values10_recorder.py"
SAMPLE = "tests/commands/test_sample.py"
SAMPLE_TEXT = "tests/commands/test_sample_text.py"
SAMPLING = "tests/commands/test_values_sampling.py"
JUDGE = "tests/commands/test_judge.py"
JUDGE_V = "tests/commands/test_values_judge.py"
OUTPUT_CHECKS = "tests/commands/test_values_output_checks.py"
OUTPUT_PATHS = "tests/commands/test_values_output_paths.py"
EVALPRED = "tests/commands/test_values_eval_predict.py"
PEXPORT = "tests/interop/test_predict_export.py"
PLOT_V = "tests/training/test_values_plot.py"
PLOT_CMD = "tests/commands/test_plot.py"
HEADS_V = "tests/model/test_values_heads.py"
HEADS_V10 = "tests/model/test_values10_heads.py"
TASKS_V = "tests/data/test_values_tasks.py"
TASKS_V9 = "tests/data/test_values9_tasks.py"
DIST = "tests/training/test_values_distributed_options.py"
DIST2 = "tests/training/test_values_distributed_options2.py"
CUDA_INFER = "tests/model/test_cuda_infer_path.py"
# value tests written for the bugs below that the tests above let through
STROKES_T = "tests/data/test_values12_strokes.py"
KANJI_T = "tests/data/test_values12_kanjivg.py"
TASKS_T = "tests/data/test_values12_tasks.py"
STOPPING_T = "tests/training/test_values12_stopping.py"
RECORDER_T = "tests/training/test_values12_recorder.py"
SAMPLE_T = "tests/commands/test_values12_sample.py"
JUDGE_T = "tests/test_values12_judge.py"
FILES_T = "tests/test_values12_files.py"
HEADS_T = "tests/model/test_values12_heads.py"

STROKESPY = "lnrnn/data/strokes.py"
KANJIPY = "lnrnn/data/kanjivg.py"
STOPPY = "lnrnn/training/stopping.py"
RECORDERPY = "lnrnn/training/recorder.py"
SAMPLEPY = "lnrnn/sample.py"
JUDGEPY = "lnrnn/judge.py"
PREDIOPY = "lnrnn/predict_io.py"
SAMPLECMD = "lnrnn/commands/sample.py"
PLOTPY = "lnrnn/training/plot.py"
FILESPY = "lnrnn/files.py"
DISTPY = "lnrnn/training/distributed.py"
MODELSPY = "lnrnn/model/models.py"
HEADSPY = "lnrnn/model/heads.py"
TASKSPY = "lnrnn/data/tasks.py"

MUTANTS = [
    # ---- lnrnn/data/strokes.py: counts of make_task and ReadingTask ----
    dict(name="v12-strokes-glitches-of-the-training-split-only", file=STROKESPY,
         old='    n_drop = dropped["train"] + dropped["val"]',
         new='    n_drop = dropped["train"]',
         tests=[STROKES, STROKES_V, STROKES_T],
         why="the glitch steps dropped from validation lines are not counted in dropped_steps"),
    dict(name="v12-strokes-short-lines-of-the-training-split-only", file=STROKESPY,
         old="    n_short = sum(len(fixed[w]) - len(usable[w]) for w in fixed)",
         new='    n_short = len(fixed["train"]) - len(usable["train"])',
         tests=[STROKES, STROKES_V, STROKES_T],
         why="validation lines of fewer than 2 points are skipped but not counted in short_lines"),
    dict(name="v12-strokes-two-point-line-skipped", file=STROKESPY,
         old="        out.append(ln if len(ln) >= 2 else None)",
         new="        out.append(ln if len(ln) > 2 else None)",
         tests=[STROKES, STROKES_V, STROKES_T],
         why="a line of exactly 2 points (one step of next-point prediction) is skipped as too short"),
    dict(name="v12-strokes-exactly-alignable-counted-unalignable", file=STROKESPY,
         old="np.count_nonzero(np.diff(s.starts) < ctc_steps_needed(",
         new="np.count_nonzero(np.diff(s.starts) <= ctc_steps_needed(",
         tests=[STROKES, TEXT_STROKES, STROKES_T],
         why="a line with exactly as many points as its labels need is counted as one CTC cannot align"),
    dict(name="v12-tasks-digits-memory-of-the-training-split", file=TASKSPY,
         old="    return TaskShape(64, 1, 10, False, nt, nv, (nt + nv) * (4 * 64 + 8))",
         new="    return TaskShape(64, 1, 10, False, nt, nv, nt * (4 * 64 + 8))",
         tests=[TASKS_V, TASKS_V9, TASKS_T],
         why="the memory check counts the digits' training images only, not the validation ones"),
    # ---- lnrnn/data/kanjivg.py: the augmentation and the line's characters ----
    dict(name="v12-kanjivg-character-scale-without-the-writers", file=KANJIPY,
         old="    s = scale * rng.uniform(*CHAR_SCALE)",
         new="    s = rng.uniform(*CHAR_SCALE)",
         tests=[KANJI_V, KANJI_T],
         why="each character gets its own small scale but not the line's writer's"),
    dict(name="v12-kanjivg-rotation-one-way", file=KANJIPY,
         old="    a = rng.uniform(-CHAR_ROTATION, CHAR_ROTATION)",
         new="    a = rng.uniform(0.0, CHAR_ROTATION)",
         tests=[KANJI_V, KANJI_T],
         why="characters are only ever rotated one way"),
    dict(name="v12-kanjivg-line-never-holds-the-most-characters", file=KANJIPY,
         old="size=int(rng.integers(1, max_chars + 1)))",
         new="size=int(rng.integers(1, max_chars)))",
         tests=[KANJI_V, KANJI_T],
         why="a line draws 1..CHARS_PER_LINE-1 characters: the largest count never occurs"),
    # ---- lnrnn/training/stopping.py ----
    dict(name="v12-stop-patience-since-not-accumulated", file=STOPPY,
         old='        b["since"] += 1',
         new='        b["since"] = 1',
         tests=[POLICIES, STOPPING9, PARTS, STOPPING_T],
         why="evaluations without improvement are not counted up: --patience 2 never stops"),
    dict(name="v12-stop-blowup-one-update-late", file=STOPPY,
         old="    if t.high_streak >= BLOWUP_UPDATES:",
         new="    if t.high_streak > BLOWUP_UPDATES:",
         tests=[POLICIES, STOPPING9, PARTS, STOPPING_T],
         why="a run blown up for exactly BLOWUP_UPDATES updates in a row trains one more"),
    dict(name="v12-stop-resume-at-max-steps-trains-on", file=STOPPY,
         old="        if c.max_steps is not None and trainer.step >= c.max_steps:",
         new="        if c.max_steps is not None and trainer.step > c.max_steps:",
         tests=[POLICIES, STOPPING9, PARTS, STOPPING_T],
         why="a run resumed at exactly its --max-steps is not told that nothing is left"),
    dict(name="v12-stop-resume-at-budget-trains-on", file=STOPPY,
         old="        if self.clock_over():\n            return",
         new="        if c.time_budget is not None and self.budget_seconds() > c.time_budget:\n            return",
         tests=[POLICIES, STOPPING9, PARTS, STOPPING_T],
         why="a run resumed with exactly its --time-budget used is not told that nothing is left"),
    # ---- lnrnn/training/recorder.py: what a resume restores, the rows ----
    dict(name="v12-recorder-resume-forgets-the-blowup-streak", file=RECORDERPY,
         old='        t.initial_loss, t.high_streak = blowup.get("initial_loss"), int(blowup.get("streak", 0))',
         new='        t.initial_loss, t.high_streak = blowup.get("initial_loss"), 0',
         tests=[POLICIES, PARTS, RECORDER_T10, RECORDER_T],
         why="a resumed run starts its blow-up streak again from 0"),
    dict(name="v12-recorder-resume-forgets-the-first-loss", file=RECORDERPY,
         old='        t.initial_loss, t.high_streak = blowup.get("initial_loss"), int(blowup.get("streak", 0))',
         new='        t.initial_loss, t.high_streak = None, int(blowup.get("streak", 0))',
         tests=[POLICIES, PARTS, RECORDER_T10, RECORDER_T],
         why="a resumed run takes its first update's loss as the blow-up reference, not the run's first"),
    dict(name="v12-recorder-best-of-another-metric-kept", file=RECORDERPY,
         old='        if best and best.get("metric") == t.cfg.best_metric:',
         new="        if best:",
         tests=[POLICIES, PARTS, RECORDER_T10, RECORDER_T],
         why="resumed with another --best-metric, the run compares its new metric with the old one's best"),
    dict(name="v12-recorder-eval-row-samples-one-epoch-ahead", file=RECORDERPY,
         old='"samples": t.epoch * t.task.size("train") + t.sums["samples"]',
         new='"samples": (t.epoch + 1) * t.task.size("train") + t.sums["samples"]',
         tests=[POLICIES, PARTS, RECORDER_T10, RECORDER_T],
         why="an --eval-every row counts the current epoch's samples twice"),
    dict(name="v12-recorder-update-row-counts-scored-units", file=RECORDERPY,
         old='        w["samples"] += 1  # updates in the window',
         new='        w["samples"] += m.last_count  # updates in the window',
         tests=[POLICIES, PARTS, RECORDER_T10, RECORDER_T],
         why="updates.jsonl's 'updates' counts the scored units of the window, not its updates"),
    # ---- lnrnn/sample.py: the prime in data units ----
    dict(name="v12-sample-prime-returned-normalized", file=SAMPLEPY,
         old="    prime_units = None if pre_pts is None else pre_pts * units",
         new="    prime_units = None if pre_pts is None else pre_pts",
         tests=[SAMPLE, SAMPLE_TEXT, SAMPLING, SAMPLE_T],
         why="Written.prime holds the prime in the model's units, not the data's (drawn at the wrong size)"),
    dict(name="v12-sample-prime-normalized-axes-swapped", file=SAMPLEPY,
         old="        pts = check_stroke3(prime_strokes, ps) / np.array([sx, sy, 1.0])",
         new="        pts = check_stroke3(prime_strokes, ps) / np.array([sy, sx, 1.0])",
         tests=[SAMPLE, SAMPLE_TEXT, SAMPLING, SAMPLE_T],
         why="the prime's dx is divided by the y scale and dy by the x scale"),
    dict(name="v12-sample-prime-file-suffix-case", file=SAMPLEPY,
         old="    ext = os.path.splitext(text)[1].lower()",
         new="    ext = os.path.splitext(text)[1]",
         tests=[SAMPLE, SAMPLE_TEXT, SAMPLING, SAMPLE_T],
         why="--prime-strokes LINE.NPY is refused as not a stroke-3 file"),
    # ---- lnrnn/judge.py ----
    dict(name="v12-judge-alpha-at-the-padded-end", file=JUDGEPY,
         old="    h1 = np.asarray(y[lengths - 1, np.arange(B), :H], np.float64)",
         new="    h1 = np.asarray(y[-1, :, :H], np.float64)",
         tests=[JUDGE, JUDGE_V, JUDGE_T],
         why="travel weighs a shorter line's window centres by alpha at the batch's last step, past its end"),
    dict(name="v12-judge-capped-line-stops-at-last", file=JUDGEPY,
         old="    return (not row.capped) and len(row.points) > 0 and int(np.argmax(row.phi[-1])) == row.phi.shape[1] - 1",
         new="    return len(row.points) > 0 and int(np.argmax(row.phi[-1])) == row.phi.shape[1] - 1",
         tests=[JUDGE, JUDGE_V, JUDGE_T],
         why="a line that reached the step cap counts as stopped by the rule at its last character"),
    # ---- lnrnn/sample.py: drawing ----
    dict(name="v12-sample-one-point-stroke-not-drawn", file=SAMPLEPY,
         old="        if e >= start:",
         new="        if e > start:",
         tests=[SAMPLE, SAMPLING, OUTPUT_PATHS, SAMPLE_T],
         why="a stroke of one point (a dot: the pen lifts right after it was put down) is not drawn"),
    # ---- lnrnn/model/heads.py ----
    dict(name="v12-heads-ctc-cer-over-sequences", file=HEADSPY,
         old='"cer": sums["cer"] / max(sums.get("chars", 0), 1)}',
         new='"cer": sums["cer"] / max(count, 1)}',
         tests=[HEADS_V, HEADS_V10, HEADS_T],
         why="the CTC head's character error rate divides the edits by the sequences, not the labels' characters"),
    dict(name="v12-heads-regression-within-at-the-tolerance", file=HEADSPY,
         old="np.all(np.abs(err) < self.tolerance, axis=-1) & valid",
         new="np.all(np.abs(err) <= self.tolerance, axis=-1) & valid",
         tests=[HEADS_V, HEADS_V10, HEADS_T],
         why="a regression error of exactly the tolerance counts as correct"),
    # ---- output checks: suffixes ----
    dict(name="v12-predict-out-suffix-case", file=PREDIOPY,
         old="    if named_suffix(path, OUT_FORMATS) is None:",
         new="    if named_suffix(path, tuple(s.upper() for s in OUT_FORMATS)) is None:",
         tests=[EVALPRED, PEXPORT, OUTPUT_PATHS],
         why="lnrnn predict --out PRED.CSV is refused"),
    dict(name="v12-sample-command-out-suffix-case", file=SAMPLECMD,
         old="    picture_format(out)\n",
         new="    pass\n",
         tests=[SAMPLE, OUTPUT_CHECKS, OUTPUT_PATHS, SAMPLE_T],
         why="lnrnn sample --out SAMPLES.JPG is refused by the drawing only, after every point was sampled"),
    dict(name="v12-plot-format-suffix-case", file=PLOTPY,
         old="    ext = named_suffix(path, FORMATS)\n",
         new="    ext = named_suffix(path, tuple(f.upper() for f in FORMATS))\n",
         tests=[PLOT_V, PLOT_CMD, OUTPUT_PATHS],
         why="lnrnn plot --out CURVES.SVG is refused"),
    # ---- lnrnn/files.py: the folder a name would go in ----
    dict(name="v12-files-folder-name-taken-for-a-file", file=FILESPY,
         old="    if os.path.isdir(target):\n        raise UserError(f\"{option} {text} is a folder",
         new="    if os.path.isdir(target) and not os.listdir(target):\n        raise UserError(f\"{option} {text} is a folder",
         tests=[OUTPUT_CHECKS, OUTPUT_PATHS, FILES_T],
         why="an --out naming a folder that holds files passes the check (the write fails after the work)"),
    dict(name="v12-files-missing-folders-not-made", file=FILESPY,
         old="        os.makedirs(folder, exist_ok=True)",
         new="        os.makedirs(os.path.dirname(folder), exist_ok=True)",
         tests=[OUTPUT_CHECKS, OUTPUT_PATHS, FILES_T],
         why="only the folders above the output's own folder are created: a file two folders deep cannot be written"),
    dict(name="v12-files-nearest-existing-stops-at-the-parent", file=FILESPY,
         old="    while not os.path.exists(probe):\n        parent = os.path.dirname(probe)\n        if parent == probe:\n            break\n        probe = parent",
         new="    while not os.path.exists(probe):\n        parent = os.path.dirname(probe)\n        if parent == probe:\n            break\n        probe = parent\n        break",
         tests=[OUTPUT_CHECKS, OUTPUT_PATHS, FILES_T],
         why="a path two missing folders deep is checked against a folder that does not exist"),
    # ---- lnrnn/training/distributed.py: --reproducible blocks ----
    dict(name="v12-dist-blocks-normalized-without-lengths", file=DISTPY,
         old="    total = model.scored_count(targets, lengths, T, B)\n    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None\n    nb, k0",
         new="    total = model.scored_count(targets, None, T, B)\n    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None\n    nb, k0",
         tests=[DIST, DIST2],
         why="the --reproducible update divides by the scored units of full-length rows, not of the rows' lengths"),
    dict(name="v12-dist-blocks-evaluation-noise", file=DISTPY,
         old="    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None\n    nb, k0",
         new="    state = model.noise_state(B, (2, int(noise_key))) if model.state_noise else None\n    nb, k0",
         tests=[DIST, DIST2],
         why="the --reproducible update starts from an evaluation's noise draw, not the update's"),
    # ---- lnrnn/model/models.py: the device's last-step evaluation ----
    dict(name="v12-models-device-fast-path-ignores-lengths", file=MODELSPY,
         old="                and lengths is None and not chunked and not getattr(self.stack, \"skip\", False)",
         new="                and not chunked and not getattr(self.stack, \"skip\", False)",
         tests=[CUDA_INFER],
         why="on the device a last-step head reads step T-1 of padded rows, not each row's last step"),
]
