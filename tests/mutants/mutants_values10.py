"""Planted bugs in your own arrays (the npz task), the stroke-3 line files, the IDX reader, the error rates,
the progress bar, the memory estimate, evaluation's batches and metric line, the run's recorder, the
default run folders, the run plan's checks, the MPI shards, ``lnrnn sample``'s and ``lnrnn gradcheck``'s
checks, the safetensors reader, the diagnostics' head gradient, the heads' log-softmax and CTC labels, the
window's text lengths, the model's state noise and the API's predictions (format: tests/mutants/mutants.py).
Each is a single-line slip of a kind that happens: a bound one step off, a rounding choice, a missing term,
a wrong axis, a forgotten case, a check that lets bad input through.

``v10-api-lengths-of-the-first-batch`` shows only on a bidirectional stack: inference computes every step of
a one-way layer whatever the lengths say (the head then picks each row's last valid step), so only the
backward direction, which starts at each row's end, reads them.

    python tests/mutants/run.py --only 'v10-*'
"""

OWN = "tests/data/test_own_data.py"
COUNTS = "tests/data/test_values_data_counts.py"
STROKEF = "tests/data/test_values_stroke_files.py"
STROKES = "tests/data/test_strokes_data.py"
IDX = "tests/data/test_values_idx.py"
DATA = "tests/data/test_data.py"
TEXTM = "tests/test_values_textmetrics.py"
CTC = "tests/kernels/test_ctc.py"
PROGRESS = "tests/training/test_values_progress.py"
MEMORY = "tests/training/test_values_memory.py"
PLAN = "tests/training/test_plan.py"
PLAN_V = "tests/training/test_values_plan.py"
EVALUATION = "tests/training/test_values_evaluation.py"
EVAL = "tests/training/test_values_eval.py"
POLICIES = "tests/training/test_values_train_policies.py"
PARTS = "tests/training/test_stopping_recorder_parts.py"
RUNDIR = "tests/training/test_values_rundir.py"
DIST = "tests/training/test_values_distributed_options.py"
DIST2 = "tests/training/test_values_distributed_options2.py"
SAMPLE = "tests/commands/test_sample.py"
SAMPLING = "tests/commands/test_values_sampling.py"
GRADCLI = "tests/commands/test_gradcheck_cli.py"
EXPORT = "tests/interop/test_values_export.py"
PEXPORT = "tests/interop/test_predict_export.py"
DIAG = "tests/test_values_diagnostics.py"
DIAG2 = "tests/test_diagnostics.py"
HEADS = "tests/model/test_values_heads.py"
WINDOW = "tests/model/test_values_window.py"
SYNTH = "tests/model/test_synthesis.py"
API = "tests/test_values_api.py"
EVALPRED = "tests/commands/test_values_eval_predict.py"
MODELS = "tests/model/test_models.py"
NOISE = "tests/model/test_state_noise.py"
# value tests written for the bugs below that the tests above let through
ARRAYS_T = "tests/data/test_values10_arrays.py"
STROKEF_T = "tests/data/test_values10_stroke_files.py"
IDX_T = "tests/data/test_values10_idx.py"
TEXTM_T = "tests/test_values10_textmetrics.py"
PROGRESS_T = "tests/training/test_values10_progress.py"
MEMORY_T = "tests/training/test_values10_memory.py"
EVALUATION_T = "tests/training/test_values10_evaluation.py"
RECORDER_T = "tests/training/test_values10_recorder.py"
SAMPLE_T = "tests/commands/test_values10_sample.py"
GRAD_T = "tests/commands/test_values10_gradcheck.py"
EXPORT_T = "tests/interop/test_values10_export.py"
HEADS_T = "tests/model/test_values10_heads.py"
WINDOW_T = "tests/model/test_values10_window.py"
MODELS_T = "tests/model/test_values10_models.py"
API_T = "tests/test_values10_api.py"

ARRAYSPY = "lnrnn/data/arrays.py"
STROKEFPY = "lnrnn/data/stroke_files.py"
IDXPY = "lnrnn/data/idx.py"
TEXTMPY = "lnrnn/textmetrics.py"
PROGRESSPY = "lnrnn/training/progress.py"
MEMORYPY = "lnrnn/training/memory.py"
EVALUATIONPY = "lnrnn/training/evaluation.py"
RECORDERPY = "lnrnn/training/recorder.py"
RUNDIRPY = "lnrnn/training/rundir.py"
PLANPY = "lnrnn/training/plan.py"
DISTPY = "lnrnn/training/distributed.py"
SAMPLEPY = "lnrnn/commands/sample.py"
GRADPY = "lnrnn/commands/gradcheck.py"
EXPORTPY = "lnrnn/interop/export.py"
DIAGPY = "lnrnn/diagnostics.py"
HEADSPY = "lnrnn/model/heads.py"
WINDOWPY = "lnrnn/model/window.py"
MODELSPY = "lnrnn/model/models.py"
APIPY = "lnrnn/api.py"

MUTANTS = [
    # ---- lnrnn/data/arrays.py ----
    dict(name="v10-arrays-bad-length-named-by-the-top", file=ARRAYSPY,
         old="        bad = int(lengths.min()) if lengths.min() < 1 else int(lengths.max())",
         new="        bad = int(lengths.max())",
         tests=[OWN, COUNTS, ARRAYS_T],
         why="a length of 0 is reported as the largest length, which is fine"),
    dict(name="v10-arrays-val-labels-not-checked-for-range", file=ARRAYSPY,
         old="        top = max(ys, key=lambda y: y.max())",
         new="        top = ys[0]",
         tests=[OWN, COUNTS, ARRAYS_T],
         why="a huge label in y_val alone passes the class-count check"),
    dict(name="v10-arrays-one-class-taken", file=ARRAYSPY,
         old="        if num_classes < 2:",
         new="        if num_classes < 1:",
         tests=[OWN, COUNTS],
         why="labels that are all 0 make a classifier of one class"),
    dict(name="v10-arrays-per-step-class-zero-unscored", file=ARRAYSPY,
         old="        if per_step and not (ys[0] >= 0).any():",
         new="        if per_step and not (ys[0] > 0).any():",
         tests=[OWN, COUNTS, ARRAYS_T],
         why="per-step labels of only class 0 and -1 are refused as if nothing were scored"),
    # ---- lnrnn/data/stroke_files.py ----
    dict(name="v10-strokefiles-suffix-case", file=STROKEFPY,
         old="    ext = os.path.splitext(text)[1].lower()",
         new="    ext = os.path.splitext(text)[1]",
         tests=[STROKEF, STROKES, STROKEF_T],
         why="a line file named LINE.NPY is refused as not a stroke file"),
    # ---- lnrnn/data/idx.py ----
    dict(name="v10-idx-size-without-itemsize", file=IDXPY,
         old="    expected = header + math.prod(dims) * dtype.itemsize",
         new="    expected = header + math.prod(dims)",
         tests=[IDX, DATA, IDX_T],
         why="an IDX file of int32 or float values is sized as if its items were bytes"),
    # ---- lnrnn/textmetrics.py ----
    dict(name="v10-textmetrics-edits-on-empty-refs-free", file=TEXTMPY,
         old='    return edits / n if n else (0.0 if edits == 0 else float("inf"))',
         new="    return edits / n if n else 0.0",
         tests=[TEXTM, TEXTM_T],
         why="hypotheses for empty references report an error rate of 0"),
    dict(name="v10-textmetrics-label-last-ref-dropped", file=TEXTMPY,
         old="        for i in range(1, ref_lengths[b] + 1):",
         new="        for i in range(1, ref_lengths[b]):",
         tests=[TEXTM, CTC],
         why="the compiled label distance ignores each reference's last label"),
    # ---- lnrnn/training/progress.py ----
    dict(name="v10-progress-seconds-truncated", file=PROGRESSPY,
         old="    s = int(round(max(s, 0)))",
         new="    s = int(max(s, 0))",
         tests=[PROGRESS],
         why="59.7 s reads 0:59, not 1:00"),
    dict(name="v10-progress-bar-fill-floored", file=PROGRESSPY,
         old="        fill = int(round(frac * self.width))",
         new="        fill = int(frac * self.width)",
         tests=[PROGRESS],
         why="the bar's fill rounds down"),
    dict(name="v10-progress-eta-when-done", file=PROGRESSPY,
         old="        if known and self.done < self.total and rate > 0:",
         new="        if known and self.done <= self.total and rate > 0:",
         tests=[PROGRESS],
         why="a finished bar shows ETA 0:00 instead of the time it took"),
    dict(name="v10-progress-empty-total-empty-bar", file=PROGRESSPY,
         old="        frac = min(self.done / self.total, 1.0) if known and self.total else 1.0",
         new="        frac = min(self.done / self.total, 1.0) if known and self.total else 0.0",
         tests=[PROGRESS, PROGRESS_T],
         why="a bar over nothing (0 checks, an empty set) is drawn empty instead of full"),
    dict(name="v10-progress-terminal-last-update-not-drawn", file=PROGRESSPY,
         old="        if now - self.last_draw >= self.min_interval or "
             "(self.total is not None and self.done >= self.total):",
         new="        if now - self.last_draw >= self.min_interval:",
         tests=[PROGRESS],
         why="on a terminal the update that completes the bar is not drawn when it comes soon after the last"),
    # ---- lnrnn/training/memory.py ----
    dict(name="v10-memory-bidirectional-head-one-direction", file=MEMORYPY,
         old="    W = D * H                                            # a layer's output width",
         new="    W = H                                                # a layer's output width",
         tests=[MEMORY, PLAN],
         why="a bidirectional stack's head and upper layers are counted as reading H, not 2H"),
    dict(name="v10-memory-fits-exactly-refused", file=MEMORYPY,
         old="    if avail is None or train_peak <= avail:",
         new="    if avail is None or train_peak < avail:",
         tests=[MEMORY, PLAN, MEMORY_T],
         why="a run needing exactly the memory available is refused"),
    dict(name="v10-memory-format-bytes-boundary", file=MEMORYPY,
         old="        if n >= size:",
         new="        if n > size:",
         tests=[MEMORY, PLAN, MEMORY_T],
         why="exactly 1 GB reads 1024.0 MB"),
    dict(name="v10-memory-backward-input-width", file=MEMORYPY,
         old="    train = Tc * B * per_row_step + Tc * B * (G + H + max(I, H)) + T * B * I + 3 * B * head",
         new="    train = Tc * B * per_row_step + Tc * B * (G + H + I) + T * B * I + 3 * B * head",
         tests=[MEMORY, PLAN],
         why="backward's dL/dx is counted I wide even where the layers above the first read H"),
    # ---- lnrnn/training/evaluation.py ----
    dict(name="v10-evaluation-lengths-dropped", file=EVALUATIONPY,
         old="    out = (b[0], b[1], b[2] if len(b) > 2 else None)",
         new="    out = (b[0], b[1], b[2] if len(b) > 3 else None)",
         tests=[EVALUATION, EVAL, EVALUATION_T],
         why="evaluation scores right-padded sequences at the full T, not at their lengths"),
    dict(name="v10-evaluation-unit-keeps-its-parenthesis", file=EVALUATIONPY,
         old="""(f" {unit.rstrip(')')}" if unit else "")""",
         new="""(f" {unit}" if unit else "")""",
         tests=[EVALUATION, EVAL],
         why="lnrnn eval says 'cross-entropy loss 0.4123 nats)'"),
    # ---- lnrnn/training/recorder.py ----
    dict(name="v10-recorder-resume-patience-equal-trains-on", file=RECORDERPY,
         old='(p is None or t.best["since"] < p)',
         new='(p is None or t.best["since"] <= p)',
         tests=[POLICIES, PARTS, RECORDER_T],
         why="a run stopped early and resumed with the same --patience trains on"),
    dict(name="v10-recorder-epoch-row-samples-one-epoch-short", file=RECORDERPY,
         old='"samples": (t.epoch + 1) * t.task.size("train")',
         new='"samples": t.epoch * t.task.size("train")',
         tests=[POLICIES, PARTS, RECORDER_T],
         why="an epoch's metrics row counts the samples of the epochs before it only"),
    # ---- lnrnn/training/rundir.py ----
    dict(name="v10-rundir-locked-folder-free", file=RUNDIRPY,
         old="    return os.path.isdir(folder) and (checkpoint_exists(folder) or os.path.exists(os.path.join(folder, LOCK_FILE)))",
         new="    return os.path.isdir(folder) and checkpoint_exists(folder)",
         tests=[RUNDIR],
         why="a default folder locked by a run still starting (no checkpoint yet) is handed to a second new run"),
    # ---- lnrnn/training/plan.py ----
    dict(name="v10-plan-keep-zero-refused", file=PLANPY,
         old="    checks.append((cfg.keep >= 0,",
         new="    checks.append((cfg.keep > 0,",
         tests=[PLAN, PLAN_V],
         why="--keep 0 (the default: only the latest checkpoint) is refused"),
    dict(name="v10-plan-state-noise-zero-refused", file=PLANPY,
         old="(cfg.state_noise >= 0 and math.isfinite(cfg.state_noise))",
         new="(cfg.state_noise > 0 and math.isfinite(cfg.state_noise))",
         tests=[PLAN, PLAN_V],
         why="--state-noise 0 (no noise on a BN run) is refused"),
    # ---- lnrnn/training/distributed.py ----
    dict(name="v10-dist-shard-extra-inclusive", file=DISTPY,
         old="    return lo, lo + base + (rank < extra)",
         new="    return lo, lo + base + (rank <= extra)",
         tests=[DIST, DIST2],
         why="rank B % size takes one row more: shards overlap"),
    # ---- lnrnn/commands/sample.py ----
    dict(name="v10-cmd-sample-infinite-bias", file=SAMPLEPY,
         old="    if not (bias >= 0 and np.isfinite(bias)):",
         new="    if not bias >= 0:",
         tests=[SAMPLE, SAMPLING, SAMPLE_T],
         why="--bias inf passes the check"),
    # ---- lnrnn/commands/gradcheck.py ----
    dict(name="v10-cmd-gradcheck-tolerance-exclusive", file=GRADPY,
         old="            ok = err <= tolerance",
         new="            ok = err < tolerance",
         tests=[GRADCLI, GRAD_T],
         why="an error of exactly --tolerance fails the check"),
    # ---- lnrnn/interop/export.py ----
    dict(name="v10-export-read-header-to-the-end", file=EXPORTPY,
         old="    if 8 + n > len(raw):",
         new="    if 8 + n >= len(raw):",
         tests=[EXPORT, PEXPORT, EXPORT_T],
         why="a safetensors file whose header runs to its end (no tensor bytes) is refused"),
    # ---- lnrnn/diagnostics.py ----
    dict(name="v10-diag-head-gradient-unnormalized", file=DIAGPY,
         old="head.backward(cache, 1.0 / max(count, 1))",
         new="head.backward(cache, 1.0)",
         tests=[DIAG, DIAG2],
         why="grad_h and dh are of the summed loss, not of the loss per scored unit"),
    # ---- lnrnn/model/heads.py ----
    dict(name="v10-heads-ctc-blank-as-label", file=HEADSPY,
         old="        if np.any(labels[inside] < 1) or np.any(labels[inside] >= self.O):",
         new="        if np.any(labels[inside] < 0) or np.any(labels[inside] >= self.O):",
         tests=[HEADS, CTC, HEADS_T],
         why="a CTC label of 0 (the blank) passes the check"),
    dict(name="v10-heads-log-softmax-global-max", file=HEADSPY,
         old="    z = logits - logits.max(axis=-1, keepdims=True)",
         new="    z = logits - logits.max()",
         tests=[HEADS, HEADS_T],
         why="log-softmax subtracts the batch's largest logit: a row far below it underflows to -inf"),
    # ---- lnrnn/model/window.py ----
    dict(name="v10-window-fractional-text-lengths", file=WINDOWPY,
         old="    if ulen.shape != (B,) or not np.issubdtype(ulen.dtype, np.integer):",
         new="    if ulen.shape != (B,):",
         tests=[WINDOW, SYNTH, WINDOW_T],
         why="text lengths of 2.7 pass and are cut to 2"),
    # ---- lnrnn/model/models.py ----
    dict(name="v10-models-infinite-state-noise", file=MODELSPY,
         old="        if not (state_noise >= 0 and np.isfinite(state_noise)):",
         new="        if not state_noise >= 0:",
         tests=[MODELS, NOISE, MODELS_T],
         why="an infinite state_noise builds a model whose every batch starts from infinite states"),
    # ---- lnrnn/api.py ----
    dict(name="v10-api-lengths-of-the-first-batch", file=APIPY,
         old="            lb = None if lengths is None else L[s:e]",
         new="            lb = None if lengths is None else L[:e - s]",
         tests=[API, EVALPRED, API_T],
         why="every batch after the first is run with the first batch's lengths"),
    dict(name="v10-api-step-probability-of-class-zero", file=APIPY,
         old="        return np.where(self.classes >= 0, p, np.nan)",
         new="        return np.where(self.classes > 0, p, np.nan)",
         tests=[API, EVALPRED, API_T],
         why="a per-step prediction of class 0 has no probability (NaN)"),
]
