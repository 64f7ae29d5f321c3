"""Planted bugs in the row kernels and GEMMs, rgemm, the per-step product's choice, IAM-OnDB, the run's logs,
settings and folder, the training update, the npz task's checks, the window stack, the public API and its
files, the info and shared options, and the PyTorch binding (format: tests/mutants/mutants.py). Each is a
single-line slip of a kind that happens: a wrong axis or count, a sign, a swapped argument, a wrong default,
a missing mask, an inverted condition, a boundary one step off, a check that lets bad input through.

Written and dropped as equivalent: the PyTorch binding's _reverse_valid reading step L - 1 - t also at t = L
(``torch.where(t <= L, ...)``): the index is then -1, so the padded step L of a row with L < T reads its
padded step T - 1 instead of its padded step L. Those steps come after the row's valid ones in the reversed
run, so they reach neither its valid outputs nor its final state (taken at its length), and the outputs at
padded steps are multiplied by the mask; rows with L = T never have t = L. No output or gradient differs.

    python tests/mutants/run.py --only 'vals7-*'
"""

KERN = "tests/kernels/test_kernels.py"
RACES = "tests/kernels/test_races.py"
RGEMM = "tests/kernels/test_rgemm.py"
REC = "tests/kernels/test_rec_choice.py"
IAM = "tests/data/test_values_iamondb.py"
LOGS = "tests/training/test_values_logs.py"
RUNCONFIG = "tests/training/test_values_runconfig.py"
RUNDIR = "tests/training/test_values_rundir.py"
OWN = "tests/data/test_own_data.py"
COUNTS = "tests/data/test_values_data_counts.py"
INFO = "tests/commands/test_values_info.py"
OPTIONS = "tests/commands/test_values_options.py"
TORCH = "tests/interop/test_torch.py"
# value tests written for the bugs below that the tests above let through
UPDATE_T = "tests/training/test_values_update.py"
WINDOW_T = "tests/model/test_values_window.py"
API_T = "tests/test_values_api.py"
PIO_T = "tests/test_values_predict_io.py"
TORCH_T = "tests/interop/test_values_torch.py"

GEMM = "lnrnn/kernels/cpu/gemm.py"
ROWS = "lnrnn/kernels/cpu/rows.py"
RGEMMPY = "lnrnn/kernels/cpu/rgemm.py"
RECPY = "lnrnn/kernels/cpu/rec_choice.py"
IAMPY = "lnrnn/data/iamondb.py"
LOGSPY = "lnrnn/training/logs.py"
APIPY = "lnrnn/api.py"
UPDATEPY = "lnrnn/training/update.py"
PIO = "lnrnn/predict_io.py"
RUNCONFIGPY = "lnrnn/training/runconfig.py"
RUNDIRPY = "lnrnn/training/rundir.py"
ARRAYS = "lnrnn/data/arrays.py"
WINDOWPY = "lnrnn/model/window.py"
INFOPY = "lnrnn/commands/info.py"
OPTIONSPY = "lnrnn/commands/options.py"
TORCHPY = "lnrnn/interop/torch.py"

MUTANTS = [
    # ---- lnrnn/kernels/cpu/gemm.py ----
    dict(name="vals7-gemm-transposed-tile-one-column-short", file=GEMM,
         old="            for j in range(j0, min(N, j0 + 32)):",
         new="            for j in range(j0, min(N, j0 + 31)):",
         tests=[RGEMM],
         why="transposed leaves the last column of every 32-wide tile unwritten"),
    dict(name="vals7-gemm-sum-rows-drops-last-partial", file=GEMM,
         old="    for k in range(1, part.shape[0]):",
         new="    for k in range(1, part.shape[0] - 1):",
         tests=[f"{RACES}::test_column_sums_and_weight_gradient_gemm"],
         why="sum_rows leaves out the last thread's partial"),
    dict(name="vals7-gemm-hprev-one-step-late", file=GEMM,
         old="matmul_tn(y[:T - 1].reshape(n, H)",
         new="matmul_tn(y[1:T].reshape(n, H)",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference", f"{KERN}::test_lstm_kernel_matches_reference"],
         why="dWh pairs dHW_t with h_t instead of h_{t-1}"),
    # ---- lnrnn/kernels/cpu/rows.py ----
    dict(name="vals7-rows-input-grads-assign-not-add", file=ROWS,
         old="            pW[i, j] += x[i] * dz[j]",
         new="            pW[i, j] = x[i] * dz[j]",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference", f"{KERN}::test_lstm_kernel_matches_reference"],
         why="a narrow input's weight-gradient partial keeps the last row only"),
    dict(name="vals7-rows-ln-variance-about-zero", file=ROWS,
         old="        d = x[j] - m\n",
         new="        d = x[j]\n",
         tests=[f"{KERN}::test_layernorm_matches_reference"],
         why="LayerNorm's variance taken about 0, not the mean"),
    dict(name="vals7-rows-sigmoid-f32-sign", file=ROWS,
         old="        v = min(max(-a[j], _EXP_MIN), _EXP_MAX)",
         new="        v = min(max(a[j], _EXP_MIN), _EXP_MAX)",
         tests=[f"{KERN}::test_sigmoid_row_float32_accuracy_in_place_and_not"],
         why="the float32 sigmoid computes sigmoid(-a)"),
    dict(name="vals7-rows-ln-backward-mean-over-f-minus-one", file=ROWS,
         old="    inv = dxhat.dtype.type(1.0) / dxhat.dtype.type(F)",
         new="    inv = dxhat.dtype.type(1.0) / dxhat.dtype.type(F - 1)",
         tests=[f"{KERN}::test_layernorm_matches_reference"],
         why="LayerNorm backward's means divide by F - 1"),
    # ---- lnrnn/kernels/cpu/rgemm.py ----
    dict(name="vals7-rgemm-packed-panels-rounded-down", file=RGEMMPY,
         old="    P = -(-G // nr)\n    Wp = np.empty((P, H, nr), Wh.dtype)",
         new="    P = G // nr\n    Wp = np.empty((P, H, nr), Wh.dtype)",
         tests=[RGEMM],
         why="packed() drops the last, partial panel when G is not a multiple of nr"),
    # ---- lnrnn/kernels/cpu/rec_choice.py ----
    dict(name="vals7-rec-choice-blas-at-the-margin", file=RECPY,
         old="    if ratio > BLAS_ABOVE:",
         new="    if ratio >= BLAS_ABOVE:",
         tests=[REC],
         why="a ratio exactly at BLAS_ABOVE picks the BLAS instead of the rule"),
    dict(name="vals7-rec-choice-user-folder-first", file=RECPY,
         old='    return [os.path.join(HERE, "__pycache__"), user]',
         new='    return [user, os.path.join(HERE, "__pycache__")]',
         tests=[REC],
         why="the record goes to the user's cache first, not beside the package's kernels"),
    dict(name="vals7-rec-choice-child-first-line", file=RECPY,
         old="json.loads(p.stdout.strip().splitlines()[-1])",
         new="json.loads(p.stdout.strip().splitlines()[0])",
         tests=[REC],
         why="the child's record is read from its first line of output, not its last (a warning before it breaks it)"),
    # ---- lnrnn/data/iamondb.py ----
    dict(name="vals7-iamondb-x-negated", file=IAMPY,
         old="    xy[:, 1] *= -1.0",
         new="    xy[:, 0] *= -1.0",
         tests=[IAM, "tests/data/test_strokes_data.py"],
         why="the line file's x is negated instead of y (the wrong axis turned up)"),
    # ---- lnrnn/training/logs.py ----
    dict(name="vals7-logs-tensorboard-tag-split-last", file=LOGSPY,
         old='split, _, m = k.partition("_")',
         new='split, _, m = k.rpartition("_")',
         tests=[LOGS],
         why="a metric with an underscore in its name (val_nats_seq) is tagged val_nats/seq and left out"),
    # ---- lnrnn/training/update.py ----
    dict(name="vals7-update-nan-batch-inverted", file=UPDATEPY,
         old="    if not np.all(np.isfinite(x)):",
         new="    if np.all(np.isfinite(x)):",
         tests=["tests/training/test_device_batches.py", UPDATE_T],
         why="a finite batch is blamed for a diverged run, and a NaN batch counts as divergence"),
    dict(name="vals7-update-host-norm-not-checked", file=UPDATEPY,
         old='            t._diverged("gradient norm", norm)\n        t._blown_up(loss)\n        t.opt.step(params, grads)',
         new='            pass\n        t._blown_up(loss)\n        t.opt.step(params, grads)',
         tests=[UPDATE_T],
         why="the host update steps on an infinite gradient norm instead of stopping the diverged run"),
    # ---- lnrnn/training/runconfig.py ----
    dict(name="vals7-runconfig-file-sets-unsettable", file=RUNCONFIGPY,
         old="        if name not in settable or name not in params:",
         new="        if name not in params:",
         tests=[RUNCONFIG, "tests/commands/test_cli_train_config.py"],
         why="a config file may set options the file must not (out, max-steps, ...)"),
    dict(name="vals7-runconfig-bool-for-a-number", file=RUNCONFIGPY,
         old="        bad = ((isinstance(value, bool) != isinstance(kind, click.types.BoolParamType))",
         new="        bad = ((isinstance(value, bool) and not isinstance(kind, click.types.BoolParamType))",
         tests=[RUNCONFIG, "tests/commands/test_cli_train_config.py"],
         why="a flag set to a number or a string in a config file goes through"),
    # ---- lnrnn/training/rundir.py ----
    dict(name="vals7-rundir-default-1-counted", file=RUNDIRPY,
         old="int(m.group(1)) >= 2",
         new="int(m.group(1)) >= 1",
         tests=[RUNDIR],
         why="runs/default-1 is taken for a numbered default folder (number 1, runs/default's)"),
    dict(name="vals7-rundir-start-refuses-torn-tail", file=RUNDIRPY,
         old="        rows = read_jsonl(self.path, torn_tail_ok=True) if",
         new="        rows = read_jsonl(self.path, torn_tail_ok=False) if",
         tests=[RUNDIR, "tests/commands/test_cli_train_config.py"],
         why="a resume after a kill -9 that tore the last updates.jsonl row is refused"),
    dict(name="vals7-rundir-takeover-note-inverted", file=RUNDIRPY,
         old="        if text.strip() and pid != os.getpid():",
         new="        if text.strip() and pid == os.getpid():",
         tests=[RUNDIR, "tests/training/test_runs.py"],
         why="a stale lock is taken over silently (no note), and a non-flock holder is never refused"),
    # ---- lnrnn/data/arrays.py ----
    dict(name="vals7-arrays-zero-length-allowed", file=ARRAYS,
         old="    if lengths.min() < 1 or lengths.max() > T:",
         new="    if lengths.min() < 0 or lengths.max() > T:",
         tests=[OWN, COUNTS],
         why="a sequence of length 0 is let through"),
    dict(name="vals7-arrays-val-inputs-wrong-axis", file=ARRAYS,
         old='        if out["x_val"].shape[2] != out["x"].shape[2]:',
         new='        if out["x_val"].shape[1] != out["x"].shape[1]:',
         tests=[OWN, COUNTS],
         why="x_val is compared on its steps instead of its inputs per step"),
    dict(name="vals7-arrays-minus-one-per-sequence", file=ARRAYS,
         old="            low = -1 if per_step else 0",
         new="            low = -1",
         tests=[OWN, COUNTS],
         why="a per-sequence label -1 is let through"),
    dict(name="vals7-arrays-split-counts-train-only", file=ARRAYS,
         old="        if a + b > N:",
         new="        if a > N:",
         tests=[OWN, COUNTS],
         why="--split A/B asking for more sequences than the file holds goes through (validation runs short)"),
    # ---- lnrnn/model/window.py ----
    dict(name="vals7-window-text-length-past-codes", file=WINDOWPY,
         old="ulen.max() > codes.shape[1])",
         new="ulen.max() > codes.shape[1] + 1)",
         tests=[WINDOW_T],
         why="a text length one past U is let through"),
    dict(name="vals7-window-code-c-allowed", file=WINDOWPY,
         old="codes.max() >= C)",
         new="codes.max() > C)",
         tests=[WINDOW_T],
         why="a character code equal to the alphabet size is let through"),
    dict(name="vals7-window-kappa-bias-on-beta", file=WINDOWPY,
         old="        bp[2 * K:] = WINDOW_KAPPA_BIAS",
         new="        bp[K:] = WINDOW_KAPPA_BIAS",
         tests=[WINDOW_T],
         why="beta's bias starts at -3 too (wide Gaussians), not only kappa's"),
    dict(name="vals7-window-empty-x-let-through", file=WINDOWPY,
         old="        if T < 1 or B < 1:",
         new="        if T < 1 and B < 1:",
         tests=[WINDOW_T],
         why="an x with no steps (or no rows) reaches the window kernel"),
    # ---- lnrnn/api.py ----
    dict(name="vals7-api-past-mask-one-late", file=APIPY,
         old="    past = np.arange(T)[None, :] >= L[:, None] if every else None",
         new="    past = np.arange(T)[None, :] > L[:, None] if every else None",
         tests=[API_T],
         why="the first step past each sequence's end keeps a prediction"),
    dict(name="vals7-api-lengths-past-t", file=APIPY,
         old="np.any(lengths < 1) or np.any(lengths > T):",
         new="np.any(lengths < 1) or np.any(lengths > T + 1):",
         tests=[API_T],
         why="predict accepts a length one past T"),
    dict(name="vals7-api-count-must-match-lines", file=APIPY,
         old="        if int(count) not in (1, len(codes)):",
         new="        if int(count) != len(codes):",
         tests=["tests/commands/test_sample_text.py::test_sample_run_writes_a_str_or_lines_and_checks_them"],
         why="sample_run refuses the default count 1 for a text of several lines"),
    # ---- lnrnn/predict_io.py ----
    dict(name="vals7-pio-longest-steps-refused", file=PIO,
         old="not steps[0] <= T <= steps[1]:",
         new="not steps[0] <= T < steps[1]:",
         tests=[PIO_T],
         why="inputs as long as the longest training sequence are reported as unlike training"),
    dict(name="vals7-pio-low-margin-sign", file=PIO,
         old="        if xlo < lo - margin or",
         new="        if xlo < lo + margin or",
         tests=["tests/commands/test_commands_careful.py", PIO_T],
         why="values just inside the training range's low end are reported as out of range"),
    # ---- lnrnn/commands/info.py ----
    dict(name="vals7-info-malloc-line-inverted", file=INFOPY,
         old="if lnrnn.MALLOC_TUNED",
         new="if not lnrnn.MALLOC_TUNED",
         tests=[INFO],
         why="the malloc line says the opposite of what lnrnn did"),
    dict(name="vals7-info-openmp-pools-as-blas", file=INFOPY,
         old='if pool.get("user_api") == "blas":',
         new='if pool.get("user_api") != "openmp":',
         tests=[INFO],
         why="every non-OpenMP thread pool is listed as a BLAS"),
    # ---- lnrnn/commands/options.py ----
    dict(name="vals7-options-window-default-zero", file=OPTIONSPY,
         old="    click.option(\"--window\", type=int, default=D.window,",
         new="    click.option(\"--window\", type=int, default=0,",
         tests=[OPTIONS],
         why="--window defaults to 0: the text tasks train without their window"),
    dict(name="vals7-options-skip-default-off", file=OPTIONSPY,
         old="default=D.skip,",
         new="default=False,",
         tests=[OPTIONS],
         why="--skip defaults to off: the strokes tasks lose their skip connections"),
    # ---- lnrnn/interop/torch.py ----
    dict(name="vals7-torch-dropout-one-allowed", file=TORCHPY,
         old="        if not 0.0 <= float(dropout) < 1.0:",
         new="        if not 0.0 <= float(dropout) <= 1.0:",
         tests=[TORCH_T],
         why="dropout=1 (every unit dropped) is accepted"),
    dict(name="vals7-torch-mask-one-step-long", file=TORCHPY,
         old="torch.arange(T)[:, None] < lengths[None, :]).to(device=x.device",
         new="torch.arange(T)[:, None] <= lengths[None, :]).to(device=x.device",
         tests=[TORCH],
         why="the padding mask keeps the first step past each row's length"),
    dict(name="vals7-torch-dropout-after-last-layer", file=TORCHPY,
         old="            if k + 1 < self.num_layers:",
         new="            if k < self.num_layers:",
         tests=[TORCH_T],
         why="dropout also drawn on the last layer's output (unused there, but it moves torch's random stream; "
             "nn.LSTM drops between layers only)"),
]
