"""Planted bugs, round 96 (format: tests/mutants/mutants.py): single-line slips, on lines no earlier round mutates, in
what the remaining commands hand on and refuse, in compile caching and in the diagnostics: a cached kernel's source
stamp without the kernel sources, lnrnn's locator handed out before the BLAS is chosen ('and' for 'or'), the compile
lock named after the signature's spelling instead of its types; lnrnn info naming the per-step product from the
weight gradients' choice and scipy's BLAS from numpy's configuration; lnrnn eval dropping --split, lnrnn predict
checking --out only after reading the run and counting each input by its first row; lnrnn plot's default title
giving the layer count as H; lnrnn train's --dtype defaulting to float64; lnrnn gradcheck's padded batch two rows
short of its lengths and its synthesis check for the plain LSTM only; _masked_stats' spread over the padded rows,
the LN-LSTM replay with the cell norm's gain and bias swapped; check_judge reading the reader's task from the
writer; backend.cuda_usable looking for numba.cuda (part of numba) instead of the numba-cuda package.

16 mutants. Against the existing targeted tests alone 8 were caught and 8 missed: the three compile-caching slips
(no old test compares the stamp with the kernel sources, decorates with no BLAS chosen, or spells one signature two
ways), both lnrnn info slips (REC and DWH are both 'blas' where the old tests run, and no old test holds the BLAS
lines against each module's configuration), eval's --split (no old test evaluates on a split of its own), predict's
counts (the old tests read only the line's start) and the CUDA package look-up (the test environment has
numba-cuda). The backend's old list (tests/model/test_models.py, test_functional.py) takes about 290 s. The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values96_compiling (the stamp against os.stat of every kernel module, config.py and compiling.py; the lock path
against sha1 of the types, for three spellings of one signature), test_values96_commands (info with REC and DWH set
apart and with numpy's and scipy's configurations faked apart; eval --split 100/50 giving 50 and 100 sequences;
predict refusing a wrong suffix before a missing run, nothing written, and counting 3 and 2 rows; the plot title
spelled from a config.json written here; train's unset options against TrainConfig's fields),
test_values96_gradcheck_plan (the checks replaced by recording fakes, held against the command's docstring: four
more rows, one length each, the write check for the three LSTM cells, an error at the tolerance passing),
test_values96_diagnostics (_masked_stats against a loop over the running rows; h_std against the spread of the h the
compiled kernels compute) and test_values96_judge_backend (check_judge with hand-built runs of two tasks;
report_lines' marks and means by hand; cuda_usable with find_spec answering None for numba-cuda). Dropped: info's
build line reading 'lapack' instead of 'blas' (numpy's and scipy's wheels name the same library and version for
both: equivalent where the tests run), report_lines' capped mark inverted (the old judge tests catch it, and so does
test_values96_judge_backend; the catalogue keeps sixteen).

    python tests/mutants/run.py --only 'v96-*'
"""
COMPILING = "lnrnn/compiling.py"
INFO = "lnrnn/commands/info.py"
EVAL = "lnrnn/commands/eval.py"
PREDICT = "lnrnn/commands/predict.py"
PLOT = "lnrnn/commands/plot.py"
GRADCHECK = "lnrnn/commands/gradcheck.py"
OPTIONS = "lnrnn/commands/options.py"
DIAG = "lnrnn/diagnostics.py"
JUDGE = "lnrnn/judge.py"
BACKEND = "lnrnn/backend.py"

# existing tests of these modules
COMPILING_OLD = ["tests/test_values_compiling.py", "tests/test_values_compiling_stamp.py",
                 "tests/test_values17_compiling.py", "tests/test_values32_compiling.py",
                 "tests/test_values71_compiling.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values37_info.py",
            "tests/commands/test_values69_plot_info.py", "tests/commands/test_info_cuda_paths.py"]
EVAL_PREDICT_OLD = ["tests/commands/test_values_eval_predict.py", "tests/commands/test_values_output_checks.py",
                    "tests/commands/test_values46_suffixes.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values46_plot_runs.py",
            "tests/commands/test_values69_plot_info.py"]
GRADCHECK_OLD = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values10_gradcheck.py"]
OPTIONS_OLD = ["tests/commands/test_values_options.py", "tests/commands/test_values69_train_options.py",
               "tests/commands/test_values32_options_errors.py"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py", "tests/test_values21_diagnostics.py",
            "tests/test_values37_diagnostics.py", "tests/test_values70_diagnostics.py"]
JUDGE_OLD = ["tests/commands/test_judge.py", "tests/commands/test_values_judge.py",
             "tests/commands/test_values37_judge.py", "tests/test_values12_judge.py", "tests/test_values20_judge.py",
             "tests/test_values70_judge.py"]
BACKEND_OLD = ["tests/model/test_models.py", "tests/model/test_functional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
COMPILING_NEW = ["tests/test_values96_compiling.py"]
COMMANDS_NEW = ["tests/commands/test_values96_commands.py"]
GRADCHECK_NEW = ["tests/commands/test_values96_gradcheck_plan.py"]
DIAG_NEW = ["tests/test_values96_diagnostics.py"]
JUDGE_NEW = ["tests/test_values96_judge_backend.py"]

MUTANTS = [
    # ---- compile caching: the key of a cached kernel, who gets lnrnn's locator, the compile lock's name ----
    dict(name="v96-compiling-source-stamp-without-the-kernel-sources", file=COMPILING,
         old="        return self._inner.get_source_stamp(), kernel_stamp()",
         new="        return self._inner.get_source_stamp()",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="a kernel's cache is keyed on its own file only: editing a helper in bn_parts.py or config.py is "
             "served from code compiled before the edit"),
    dict(name="v96-compiling-untagged-locator-for-lnrnn-functions", file=COMPILING,
         old="        if cls.tag is None or not _uses_lnrnn(py_func, py_file):",
         new="        if cls.tag is None and not _uses_lnrnn(py_func, py_file):",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="before use_kernel_cache chose the BLAS, lnrnn's functions get lnrnn's locator with tag None: "
             "their files are named -None, shared by both choices"),
    dict(name="v96-compiling-lock-keyed-on-the-signatures-spelling", file=COMPILING,
         old="    key = hashlib.sha1(repr(tuple(args)).encode()).hexdigest()[:16]",
         new="    key = hashlib.sha1(repr(sig).encode()).hexdigest()[:16]",
         tests=COMPILING_NEW + COMPILING_OLD,
         why="the compile lock is named after how the signature was spelled ('float64(float64)' or a tuple of "
             "types): two processes compiling the same signature take different locks and compile twice"),
    # ---- lnrnn info: which product the per-step products use, which module's BLAS ----
    dict(name="v96-info-per-step-products-named-from-the-weight-gradient-choice", file=INFO,
         old="f\"{'rgemm' if REC == 'rgemm' else 'the BLAS'}: {REC_WHY}",
         new="f\"{'rgemm' if DWH == 'rgemm' else 'the BLAS'}: {REC_WHY}",
         tests=COMMANDS_NEW + INFO_OLD,
         why="the per-step products' line reads the weight gradients' choice (DWH) instead of their own (REC)"),
    dict(name="v96-info-scipy-blas-read-from-numpy", file=INFO,
         old="    for mod, m in ((\"numpy\", numpy), (\"scipy\", scipy)):",
         new="    for mod, m in ((\"numpy\", numpy), (\"scipy\", numpy)):",
         tests=COMMANDS_NEW + INFO_OLD,
         why="'scipy built against ...' reports numpy's build configuration"),
    # ---- eval, predict: what they hand on and check first ----
    dict(name="v96-eval-split-not-handed-on", file=EVAL,
         old="    res = evaluate_run(run, which, data_dir=data_dir, split=split, batch_size=eval_batch_size)",
         new="    res = evaluate_run(run, which, data_dir=data_dir, split=None, batch_size=eval_batch_size)",
         tests=COMMANDS_NEW + EVAL_PREDICT_OLD,
         why="lnrnn eval --split is parsed and dropped: the run is evaluated on the task's own split"),
    dict(name="v96-predict-out-checked-after-the-run-is-loaded", file=PREDICT,
         old="    check_out(out)\n    if batch_size < 1:",
         new="    if batch_size < 1:",
         tests=COMMANDS_NEW + EVAL_PREDICT_OLD,
         why="--out is not checked before the run and the inputs are read: a wrong suffix surfaces only after "
             "the compute (or as another error first)"),
    dict(name="v96-predict-counts-name-each-inputs-start", file=PREDICT,
         old='    counts = "; ".join(f"{f}: {n}" for f, _, n in where)',
         new='    counts = "; ".join(f"{f}: {n}" for f, n, _ in where)',
         tests=COMMANDS_NEW + EVAL_PREDICT_OLD,
         why="the closing line gives each input's first row (0, then the running start) instead of its count"),
    # ---- plot: the title from the runs' configuration ----
    dict(name="v96-plot-title-hidden-from-layers", file=PLOT,
         old="            titles.add(f\"{c['cell']} H={c.get('hidden')} on {c['task']}",
         new="            titles.add(f\"{c['cell']} H={c.get('layers')} on {c['task']}",
         tests=COMMANDS_NEW + PLOT_OLD,
         why="the default title gives the layer count as H"),
    # ---- options: a default that is not the trainer's ----
    dict(name="v96-options-dtype-default-float64", file=OPTIONS,
         old='"--dtype", type=click.Choice(["float32", "float64"]), default=D.dtype,',
         new='"--dtype", type=click.Choice(["float32", "float64"]), default="float64",',
         tests=COMMANDS_NEW + OPTIONS_OLD,
         why="lnrnn train without --dtype trains in float64, not TrainConfig's float32"),
    # ---- gradcheck: the plan of checks ----
    dict(name="v96-gradcheck-mask-batch-two-rows-short", file=GRADCHECK,
         old='        runs.append(("mask", partial(stack, B=B + 4, lengths=lengths)))',
         new='        runs.append(("mask", partial(stack, B=B + 2, lengths=lengths)))',
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the padded batch has B+2 rows for B+4 lengths: the shorter and the empty row are not in it"),
    dict(name="v96-gradcheck-write-mode-for-the-plain-lstm-only", file=GRADCHECK,
         old='        if CELLS[name].cell == "lstm":',
         new='        if name == "lstm":',
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the synthesis network's check runs for the plain LSTM only: ln-lstm and bn-lstm skip it"),
    # ---- diagnostics: masked statistics, the LN-LSTM replay ----
    dict(name="v96-diagnostics-variance-over-padded-rows", file=DIAG,
         old="    var = (((a - mean[:, None, None]) ** 2) * w[:, :, None]).sum((1, 2)) / n",
         new="    var = ((a - mean[:, None, None]) ** 2).sum((1, 2)) / n",
         tests=DIAG_NEW + DIAG_OLD,
         why="a step's spread counts the rows past their length (the mean and the count do not)"),
    dict(name="v96-diagnostics-cell-norm-gain-and-bias-swapped", file=DIAG,
         old='        gc, bc = (p["gc"], p["bc"]) if ln else (np.ones(H), np.zeros(H))',
         new='        gc, bc = (p["bc"], p["gc"]) if ln else (np.ones(H), np.zeros(H))',
         tests=DIAG_NEW + DIAG_OLD,
         why="the LN-LSTM replay normalizes the cell with its bias as gain and its gain as bias"),
    # ---- judge: the task a reader reads; backend: the CUDA package ----
    dict(name="v96-judge-readers-task-read-from-the-writer", file=JUDGE,
         old='    wt, rt = writer.task_spec.get("task"), reader.task_spec.get("task")',
         new='    wt, rt = writer.task_spec.get("task"), writer.task_spec.get("task")',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="a reader trained on another task is let through: its units and letterforms are not the writer's"),
    dict(name="v96-backend-cuda-package-looked-up-by-its-module-name", file=BACKEND,
         old='    if importlib.util.find_spec("numba_cuda") is None:',
         new='    if importlib.util.find_spec("numba.cuda") is None:',
         tests=JUDGE_NEW + BACKEND_OLD,
         why="numba.cuda ships with numba itself: without the numba-cuda package CUDA is reported usable and "
             "fails later instead of naming the package to install"),
]
