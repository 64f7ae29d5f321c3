"""Planted bugs in the modules with the fewest mutants per line: the NumPy spec (lnrnn/reference.py, whose bugs
the kernel-against-reference tests must catch), the masks, config, the thread scope, the backend namespace,
the cell registry, the BN cells' CPU kernels and their synchronized twins, the BLAS wrappers, the train and
data commands, the train loop, the learning-curve pictures and the compile clock and cache stamp (format:
tests/mutants/mutants.py). Each is a single-line slip of a kind that happens: a wrong axis or count, a sign,
a swapped argument, a wrong default, a missing mask, an inverted condition, a boundary one step off.

Written and dropped as equivalent: bn_sync._lstm_bwd_gates zeroing dL/dc_{t-1} only from a row's second
padded step on (``t > lengths[b]``): at its first padded step the carried dL/dc is already zero (zeroed by
the step after, or never set at the last step) and that step's BN backward gives a padded row zero, so
dc = 0 and dc * f = 0 whatever the condition.

    python tests/mutants/run.py --only 'vals5-*'
"""

KERN = "tests/kernels/test_kernels.py"
BATCHNORM = "tests/kernels/test_batchnorm.py"
BNCELLS = "tests/kernels/test_bn_cells.py"
WINDOW = "tests/kernels/test_window.py"
CTC = "tests/kernels/test_ctc.py"
SYNC = "tests/kernels/test_bn_sync_speed_bits.py"
BACKEND = "tests/kernels/test_values_backend.py"
CACHE = "tests/kernels/test_cache_blas.py"
THREADS = "tests/test_threads_scope.py"
LAYERS = "tests/model/test_layers.py"
FUNCTIONAL = "tests/model/test_functional.py"
VALUES_BN = "tests/model/test_values_bn.py"
PLAN = "tests/training/test_values_plan.py"
CLI = "tests/commands/test_cli.py"
CLI_CONFIG = "tests/commands/test_cli_train_config.py"
PLOT = "tests/commands/test_plot.py"
RUNS = "tests/training/test_runs.py"
PARTS = "tests/training/test_stopping_recorder_parts.py"
# value tests written for the bugs below that the tests above let through
MASKS_T = "tests/kernels/test_values_masks.py"
CONFIG_T = "tests/test_values_config.py"
BLAS_T = "tests/kernels/test_values_blas.py"
DATA_T = "tests/commands/test_values_data.py"
PLOT_T = "tests/training/test_values_plot.py"
TRAIN_T = "tests/training/test_values_train.py"
COMPILING_T = "tests/test_values_compiling.py"

REF = "lnrnn/reference.py"
MASKS = "lnrnn/kernels/masks.py"
CONFIG = "lnrnn/config.py"
THREADSCOPE = "lnrnn/threadscope.py"
CELLS = "lnrnn/model/cells.py"
BN_SYNC = "lnrnn/kernels/bn_sync.py"
BN_LSTM = "lnrnn/kernels/bn_lstm.py"
BN_RNN = "lnrnn/kernels/bn_rnn.py"
BN_PARTS = "lnrnn/kernels/bn_parts.py"
BN_CELL_X = "lnrnn/kernels/bn_cell_x.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
CMD_TRAIN = "lnrnn/commands/train.py"
CMD_DATA = "lnrnn/commands/data.py"
TRAIN = "lnrnn/training/train.py"
PLOTPY = "lnrnn/training/plot.py"
COMPILING = "lnrnn/compiling.py"

MUTANTS = [
    # ---- lnrnn/reference.py: the spec; the kernels, tested against it, must disagree ----
    dict(name="vals5-ref-ln-eps-outside-sqrt", file=REF,
         old="    rstd = 1.0 / np.sqrt(var + eps)\n    xhat = (x - mean[..., None]) * rstd[..., None]\n",
         new="    rstd = 1.0 / (np.sqrt(var) + eps)\n    xhat = (x - mean[..., None]) * rstd[..., None]\n",
         tests=[f"{KERN}::test_layernorm_matches_reference"],
         why="the spec's LayerNorm adds eps to the standard deviation instead of inside the square root"),
    dict(name="vals5-ref-lstm-dc-carry-drops-later-steps", file=REF,
         old='        dc_next = dc * s["f"]\n',
         new='        dc_next = dcn * s["f"]\n',
         tests=[f"{KERN}::test_lstm_kernel_matches_reference"],
         why="the spec's LSTM passes on dL/dc_{t-1} without what came from step t+1"),
    dict(name="vals5-ref-bn-running-var-biased", file=REF,
         old="        rv[t] = (1 - momentum) * rv[t] + momentum * var * n / max(n - 1, 1)\n",
         new="        rv[t] = (1 - momentum) * rv[t] + momentum * var\n",
         tests=[f"{BATCHNORM}::test_forward_train_matches_reference"],
         why="the spec's running variance takes the biased batch variance"),
    dict(name="vals5-ref-bn-infer-row-one-ahead", file=REF,
         old="        row = min(t, Ts - 1)\n",
         new="        row = min(t + 1, Ts - 1)\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the spec's inference normalizes step t with running row t+1"),
    dict(name="vals5-ref-bn-backward-counts-padded-rows", file=REF,
         old="        n = max(x_t.shape[0] if active is None else int(active.sum()), 1)\n",
         new="        n = max(x_t.shape[0], 1)\n",
         tests=[f"{BATCHNORM}::test_masked_matches_reference"],
         why="the spec's masked BN backward divides its batch sums by B instead of the active rows"),
    dict(name="vals5-ref-bn-rnn-padded-dy-reaches-bias", file=REF,
         old='        da = np.where(active[t][:, None], dy[t] + dh_next, 0.0) * (1 - s["h"] ** 2)\n',
         new='        da = (dy[t] + dh_next) * (1 - s["h"] ** 2)\n',
         tests=[f"{BNCELLS}::test_masked_kernel_matches_reference"],
         why="the spec's BN-RNN backward lets dy at padded steps into the bias gradient"),
    dict(name="vals5-ref-window-positions-from-zero", file=REF,
         old="    u = np.arange(1, U + 1, dtype=h.dtype)",
         new="    u = np.arange(U, dtype=h.dtype)",
         tests=[f"{WINDOW}::test_kernel_matches_reference"],
         why="the spec's window puts the characters at positions 0..U-1 instead of 1..U"),
    dict(name="vals5-ref-ctc-beta-stops-before-step-zero", file=REF,
         old="        for t in range(Tb - 2, -1, -1):\n",
         new="        for t in range(Tb - 2, 0, -1):\n",
         tests=[f"{CTC}::test_reference_gradient_by_central_differences",
                f"{CTC}::test_kernel_equals_reference_and_torch"],
         why="the spec's CTC backward never fills beta at step 0: the first step's gradient is wrong"),
    # ---- lnrnn/kernels/masks.py ----
    dict(name="vals5-masks-step-mask-inclusive", file=MASKS,
         old="    return np.arange(T)[:, None] < as_lengths(lengths, T, B)[None, :]",
         new="    return np.arange(T)[:, None] <= as_lengths(lengths, T, B)[None, :]",
         tests=[f"{BATCHNORM}::test_masked_matches_reference"],
         why="step t = lengths[b] counts as active (one step too many)"),
    dict(name="vals5-masks-zero-length-refused", file=MASKS,
         old="(arr.min() < 0 or arr.max() > T)",
         new="(arr.min() < 1 or arr.max() > T)",
         tests=[f"{BNCELLS}::test_lengths_are_checked",
                f"{BNCELLS}::test_narrow_input_matches_reference_and_gemm_path"],
         why="a row of length 0 (an empty sequence) is refused"),
    dict(name="vals5-masks-unsigned-lengths-refused", file=MASKS,
         old='arr.dtype.kind not in "iu"',
         new='arr.dtype.kind not in "i"',
         tests=[MASKS_T, f"{BNCELLS}::test_lengths_are_checked"],
         why="lengths of an unsigned integer type (np.uint32, ...) are refused"),
    # ---- lnrnn/config.py ----
    dict(name="vals5-config-bn-momentum", file=CONFIG,
         old="BN_MOMENTUM = 0.1\n",
         new="BN_MOMENTUM = 0.01\n",
         tests=[CONFIG_T, VALUES_BN],
         why="BatchNorm's running statistics move at a tenth of the documented rate"),
    dict(name="vals5-config-classification-hidden", file=CONFIG,
         old="None: dict(hidden=64, layers=1,",
         new="None: dict(hidden=128, layers=1,",
         tests=[CONFIG_T, PLAN],
         why="the classification tasks' default hidden size is 128, not the documented 64"),
    # ---- lnrnn/threadscope.py ----
    dict(name="vals5-threads-keep-malloc-ignored", file=THREADSCOPE,
         old='    if os.environ.get("LNRNN_KEEP_MALLOC") or not sys.platform.startswith("linux"):\n',
         new='    if not sys.platform.startswith("linux"):\n',
         tests=[THREADS],
         why="LNRNN_KEEP_MALLOC=1 no longer leaves the allocator alone"),
    dict(name="vals5-threads-limit-openmp-not-blas", file=THREADSCOPE,
         old='limit(limits=1, user_api="blas")',
         new='limit(limits=1, user_api="openmp")',
         tests=[THREADS],
         why="kernel_threads limits OpenMP pools instead of BLAS: BLAS runs many threads inside the kernels"),
    dict(name="vals5-threads-nested-entry-limits-again", file=THREADSCOPE,
         old="        if _users == 0:\n            _limiter =",
         new="        if _users <= 1:\n            _limiter =",
         tests=[THREADS],
         why="a nested kernel_threads() limits again and the outer exit restores one thread, not the user's count"),
    # ---- lnrnn/backend.py ----
    dict(name="vals5-backend-lstm-infer-is-forward", file="lnrnn/backend.py",
         old="lstm_infer=lstm.lstm_infer",
         new="lstm_infer=lstm.lstm_forward",
         tests=[BACKEND],
         why="the CPU namespace's lstm_infer is the training forward"),
    # ---- lnrnn/model/cells.py ----
    dict(name="vals5-cells-running-var-starts-at-zero", file=CELLS,
         old='            bufs["rv" + s] = np.ones(',
         new='            bufs["rv" + s] = np.zeros(',
         tests=[LAYERS, VALUES_BN],
         why="BN population variances start at 0: an untrained model's inference divides by sqrt(eps)"),
    dict(name="vals5-cells-glorot-limit-over-all-gates", file=CELLS,
         old="        lim = np.sqrt(6.0 / (I + H))\n",
         new="        lim = np.sqrt(6.0 / (I + self.blocks * H))\n",
         tests=[LAYERS],
         why="Wx's uniform limit counts the gate width G instead of H: LSTM input weights start half as large"),
    dict(name="vals5-cells-bn-rnn-saved-y-index", file=CELLS,
         old="BN_RNN_SAVED_Y = 6 ",
         new="BN_RNN_SAVED_Y = 5 ",
         tests=[FUNCTIONAL],
         why="the BN-RNN's y is read from the saved tuple's rstd_h"),
    dict(name="vals5-cells-ln-rnn-backward-unit-gain", file=CELLS,
         old='    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], p["g"] if ln else f.consts["1H"],\n',
         new='    dx, dh0, *dp = kern.backward(dy, saved, x, h0, p["Wx"], p["Wh"], f.consts["1H"],\n',
         tests=[LAYERS, FUNCTIONAL],
         why="the LN-RNN's backward uses a unit gain whatever g is: right only while g is still 1"),
    # ---- lnrnn/kernels/bn_sync.py ----
    dict(name="vals5-bn-sync-variance-not-centred", file=BN_SYNC,
         old="        var = max(sums[F + k] * inv_n - d * d, dt(0))\n",
         new="        var = max(sums[F + k] * inv_n, dt(0))\n",
         tests=[f"{SYNC}::test_sync_equals_fused_float64"],
         why="the synchronized variance is the second moment about the running mean, not the variance"),
    # ---- lnrnn/kernels/bn_lstm.py ----
    dict(name="vals5-bn-lstm-forget-grad-without-cprev", file=BN_LSTM,
         old="            df[j] = dc * cp[j] * f * (one - f)\n",
         new="            df[j] = dc * f * (one - f)\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the forget gate's derivative leaves out c_{t-1}"),
    dict(name="vals5-bn-lstm-fold-running-row-past-ts", file=BN_LSTM,
         old="training, q == 0 and t < Tsx, rmx[tx], rvx[tx],",
         new="training, q == 0 and t <= Tsx, rmx[tx], rvx[tx],",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="a narrow input's step Ts folds its statistics into the last running row a second time"),
    # ---- lnrnn/kernels/bn_rnn.py ----
    dict(name="vals5-bn-rnn-tanh-derivative", file=BN_RNN,
         old="                dar[j] = (dyr[j] + dhr[j]) * (one - yr[j] * yr[j])\n",
         new="                dar[j] = (dyr[j] + dhr[j]) * (one - yr[j])\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the BN-RNN's tanh derivative is 1 - y instead of 1 - y^2"),
    dict(name="vals5-bn-rnn-running-h-updated-every-step", file=BN_RNN,
         old="parts_stats(ex[t % 2], training, q == 0 and t < Ts, rmh[th]",
         new="parts_stats(ex[t % 2], training, q == 0, rmh[th]",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="steps past Ts keep updating the last running row of the h side"),
    # ---- lnrnn/kernels/bn_parts.py ----
    dict(name="vals5-bn-parts-unbias-by-n", file=BN_PARTS,
         old="    unbias = n / max(n - one, one)\n",
         new="    unbias = n / max(n, one)\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the running variance of the split time loops is the biased one"),
    dict(name="vals5-bn-parts-masked-mean-over-all-rows", file=BN_PARTS,
         old="    inv_n = dt(1) / dt(n)\n    if n == r1 - r0:",
         new="    inv_n = dt(1) / dt(r1 - r0)\n    if n == r1 - r0:",
         tests=[f"{BNCELLS}::test_masked_kernel_matches_reference"],
         why="a block with padded rows divides its active rows' sums by all its rows"),
    # ---- lnrnn/kernels/bn_cell_x.py ----
    dict(name="vals5-bn-cell-x-fold-covariance-unbiased", file=BN_CELL_X,
         old="                xs[t, I + i * I + k] = C[i, k] / n\n",
         new="                xs[t, I + i * I + k] = C[i, k] / max(n - 1, 1)\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the narrow input's covariance is the unbiased one: BN_t of x_t Wx uses the wrong variance"),
    dict(name="vals5-bn-cell-x-running-mean-offset-in-training", file=BN_CELL_X,
         old="        c[k] = bias[k] - mean[k] * rstd[k] * gain[k] if not training else bias[k]\n",
         new="        c[k] = bias[k] - mean[k] * rstd[k] * gain[k] if training else bias[k]\n",
         tests=[f"{BNCELLS}::test_kernel_matches_reference"],
         why="the fold path subtracts the mean in training (twice) and never in inference"),
    # ---- lnrnn/kernels/cpu/blas.py ----
    dict(name="vals5-blas-dot-add-transpose-swapped", file=BLAS,
         old="        out += np.dot(A.T, W) if trans_a else np.dot(A, W)\n",
         new="        out += np.dot(A, W) if trans_a else np.dot(A.T, W)\n",
         tests=[BLAS_T, CACHE],
         why="np.dot's accumulating product transposes A when it should not and not when it should"),
    dict(name="vals5-blas-mkl-empty-product-clears-on-add", file=BLAS,
         old="        if not add:\n            out[:] = 0\n",
         new="        if add:\n            out[:] = 0\n",
         tests=[BLAS_T, CACHE],
         why="an MKL product over zero rows keeps old values when it should write zeros, and clears a sum"),
    dict(name="vals5-blas-cpuinfo-value-untrimmed", file=BLAS,
         old='                    return line.split(":", 1)[1].strip()\n',
         new='                    return line.split(":", 1)[1]\n',
         tests=[BLAS_T, CACHE],
         why="/proc/cpuinfo's values keep their spaces: the vendor is never GenuineIntel, the rule picks wrongly"),
    # ---- lnrnn/commands/train.py ----
    dict(name="vals5-cmd-train-default-out-swapped", file=CMD_TRAIN,
         old='        options["out"] = newest_default() if resume else fresh_default()\n',
         new='        options["out"] = fresh_default() if resume else newest_default()\n',
         tests=[CLI_CONFIG],
         why="without --out, a new run goes into the newest run folder and --resume into a fresh one"),
    dict(name="vals5-cmd-train-config-drops-command-line", file=CMD_TRAIN,
         old="        explicit |= apply_config_file(",
         new="        explicit = apply_config_file(",
         tests=[CLI_CONFIG],
         why="with --config, options given on the command line no longer count as given (a resume ignores them)"),
    # ---- lnrnn/commands/data.py ----
    dict(name="vals5-cmd-data-mirror-without-slash", file=CMD_DATA,
         old='        url = mirror.rstrip("/") + "/" + name\n',
         new="        url = mirror + name\n",
         tests=[DATA_T, f"{CLI}::test_data_mnist_download_and_verify"],
         why="a --mirror given without its trailing slash makes URLs like http://host/mnistt10k-..."),
    dict(name="vals5-cmd-data-present-file-trusted", file=CMD_DATA,
         old="                verify(path, name)\n                click.echo(",
         new="                click.echo(",
         tests=[DATA_T, f"{CLI}::test_data_mnist_download_and_verify"],
         why="a file already in --dest is kept unverified (a damaged or wrong one too)"),
    # ---- lnrnn/training/train.py ----
    dict(name="vals5-train-same-permutation-every-epoch", file=TRAIN,
         old="        self.epoch_rng = self.rng.bit_generator.state\n        if better:\n",
         new="        if better:\n",
         tests=[TRAIN_T, PARTS, RUNS],
         why="the generator state is not moved on at an epoch end: every epoch visits the batches in one order"),
    dict(name="vals5-train-last-partial-batch-dropped", file=TRAIN,
         old='    batches_per_epoch = property(lambda self: -(-self.task.size("train") // self.cfg.batch_size))\n',
         new='    batches_per_epoch = property(lambda self: self.task.size("train") // self.cfg.batch_size)\n',
         tests=[TRAIN_T, PARTS, RUNS],
         why="the epoch's last, partial batch is never trained on"),
    dict(name="vals5-train-epoch-end-save-always-waits", file=TRAIN,
         old="        if self.high_streak > 0:\n",
         new="        if self.high_streak >= 0:\n",
         tests=[TRAIN_T, PARTS, RUNS],
         why="no checkpoint at an epoch end: the save always waits for a blown-up loss to come back"),
    # ---- lnrnn/training/plot.py ----
    dict(name="vals5-plot-log-axis-with-a-zero-loss", file=PLOTPY,
         old="    return bool(vals) and min(vals) > 0 and",
         new="    return bool(vals) and min(vals) >= 0 and",
         tests=[PLOT_T, PLOT],
         why="a loss series that reaches 0 asks for a log axis (and divides by zero)"),
    dict(name="vals5-plot-final-note-first-epoch", file=PLOTPY,
         old="    last = next((r for r in reversed(run.records) if",
         new="    last = next((r for r in run.records if",
         tests=[PLOT],
         why="the legend's 'final validation' figure is the first epoch's"),
    dict(name="vals5-plot-loss-label-overrides-head", file=PLOTPY,
         old='        labels.setdefault(label or loss_label or "loss", []).append(k)\n',
         new='        labels.setdefault(loss_label or label or "loss", []).append(k)\n',
         tests=[PLOT_T, PLOT],
         why="a given loss label wins over each run's head kind: a classifier's and an MDN's losses share one axis"),
    # ---- lnrnn/compiling.py ----
    dict(name="vals5-compile-clock-nested-start-resets", file=COMPILING,
         old="            if self._depth == 0:\n                self._since = time.perf_counter()\n",
         new="            if self._depth >= 0:\n                self._since = time.perf_counter()\n",
         tests=[COMPILING_T, RUNS],
         why="a nested compilation restarts the interval: the outer one's seconds before it are lost"),
    dict(name="vals5-compile-stamp-misses-compiling-py", file=COMPILING,
         old='[os.path.join(package, "config.py"), os.path.join(package, "compiling.py")]',
         new='[os.path.join(package, "config.py")]',
         tests=[COMPILING_T, f"{CACHE}::test_kernel_stamp_follows_every_kernel_source"],
         why="an edit of compiling.py, which shapes every compiled kernel, is served from kernels compiled before it"),
    dict(name="vals5-compile-index-check-inverted", file=COMPILING,
         old="            if tuple(payload[3].args) != tuple(key[0]):",
         new="            if tuple(payload[3].args) == tuple(key[0]):",
         tests=[f"{CACHE}::test_unreadable_cache_file_costs_a_recompile"],
         why="a sound cache index is deleted (every kernel recompiles) and one naming a wrong signature is kept"),
]
