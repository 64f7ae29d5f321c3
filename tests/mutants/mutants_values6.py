"""Planted bugs in the modules with the fewest mutants per line: the plain and LN RNN kernel, BatchNorm, the
kernels' threads, the run's setup, the compiled beam search, the cold-start prewarm, the optimizers, the
gradient checker and its command, the export, the attention window's kernel, IDX files, the built-in tasks,
the per-step diagnostics, the plot command, the layer functions and the layers (format:
tests/mutants/mutants.py). Each is a single-line slip of a kind that happens: a wrong axis or count, a sign,
a swapped argument, a wrong default, a missing mask, an inverted condition, a boundary one step off, a check
that lets bad input through.

Written and dropped as equivalent: window_lstm_forward keeping c and kappa in one row instead of two when
nothing is saved (``S2 = T if keep else min(T, 1)``): the step reads c_{t-1}[j] and kappa_{t-1}[j] only in
the statements that write c_t[j] and kappa_t[j] (``ct[j] = af[j] * cp[j] + ...``, ``kn[j] = kp[j] + ...``), each
read before its own write and never again, so one row gives the same bits.

    python tests/mutants/run.py --only 'vals6-*'
"""

KERN = "tests/kernels/test_kernels.py"
BATCHNORM = "tests/kernels/test_batchnorm.py"
THREADS = "tests/kernels/test_threads.py"
BEAM = "tests/model/test_beam.py"
PREWARM = "tests/training/test_prewarm.py"
OPTIM = "tests/training/test_optim.py"
VALUES_OPTIM = "tests/training/test_values_optim.py"
GRADCHECK = "tests/test_values_gradcheck.py"
GRADCHECK_CLI = "tests/commands/test_gradcheck_cli.py"
EXPORT = "tests/interop/test_predict_export.py"
WINDOW = "tests/kernels/test_window.py"
DATA = "tests/data/test_data.py"
DIAG = "tests/test_diagnostics.py"
VALUES_DIAG = "tests/test_values_diagnostics.py"
CAREFUL = "tests/commands/test_commands_careful.py"
FUNCTIONAL = "tests/model/test_functional.py"
EVAL_CHUNKS = "tests/model/test_eval_chunks.py"
STRUCT = "tests/test_structure.py"
CLI = "tests/commands/test_cli.py"
CLI_CONFIG = "tests/commands/test_cli_train_config.py"
FINETUNE = "tests/training/test_finetune.py"
# value tests written for the bugs below that the tests above let through
SETUP_T = "tests/training/test_values_setup.py"
EXPORT_T = "tests/interop/test_values_export.py"
IDX_T = "tests/data/test_values_idx.py"
TASKS_T = "tests/data/test_values_tasks.py"

RNN = "lnrnn/kernels/rnn.py"
BN = "lnrnn/kernels/batchnorm.py"
THR = "lnrnn/kernels/cpu/threads.py"
SETUP = "lnrnn/training/setup.py"
BEAMPY = "lnrnn/model/beam.py"
PREWARMPY = "lnrnn/training/prewarm.py"
OPTIMPY = "lnrnn/training/optim.py"
GRADCHECKPY = "lnrnn/gradcheck.py"
EXPORTPY = "lnrnn/interop/export.py"
WINDOWPY = "lnrnn/kernels/window.py"
IDX = "lnrnn/data/idx.py"
TASKS = "lnrnn/data/tasks.py"
DIAGPY = "lnrnn/diagnostics.py"
CMD_GRADCHECK = "lnrnn/commands/gradcheck.py"
CMD_PLOT = "lnrnn/commands/plot.py"
FUNCPY = "lnrnn/model/functional.py"
LAYERS = "lnrnn/model/layers.py"

MUTANTS = [
    # ---- lnrnn/kernels/rnn.py ----
    dict(name="vals6-rnn-final-state-of-step-zero", file=RNN,
         old="    return y, y[x.shape[0] - 1].copy(), saved\n",
         new="    return y, y[0].copy(), saved\n",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference"],
         why="rnn_forward returns h_0 as the final state instead of h_{T-1}"),
    dict(name="vals6-rnn-backward-drops-carry", file=RNN,
         old="dz[k] = (dy[t, bb, k] + dh_next[r, k]) * (one - yk * yk)",
         new="dz[k] = dy[t, bb, k] * (one - yk * yk)",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference"],
         why="the RNN's BPTT forgets dL/dh_t coming back from step t+1"),
    dict(name="vals6-rnn-saved-row-zero", file=RNN,
         old="        ts = t % max(ahat.shape[0], 1)",
         new="        ts = 0 * t",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference"],
         why="the LN-RNN's forward writes every step's ahat and rstd into row 0 (the infer buffers' rule used for BPTT)"),
    # ---- lnrnn/kernels/batchnorm.py ----
    dict(name="vals6-bn-dbias-takes-dgain-sum", file=BN,
         old="        db[k] += s1_[k]\n",
         new="        db[k] += s2_[k]\n",
         tests=[f"{BATCHNORM}::test_backward_matches_reference"],
         why="BatchNorm's dbias adds the sum of dy * xhat (dgain's) instead of the sum of dy"),
    dict(name="vals6-bn-active-rows-one-step-late", file=BN,
         old="        if t < lengths[b]:\n            n += 1",
         new="        if t <= lengths[b]:\n            n += 1",
         tests=[f"{BATCHNORM}::test_masked_matches_reference"],
         why="a row counts as active one step past its length: n_t too large for padded steps"),
    dict(name="vals6-bn-run-ends-a-row-early", file=BN,
         old="    while e < B and t < lengths[e]:",
         new="    while e < B - 1 and t < lengths[e]:",
         tests=[f"{BATCHNORM}::test_masked_matches_reference"],
         why="a run of active rows never reaches the batch's last row (masked sums leave it out)"),
    dict(name="vals6-bn-updates-running-row-past-ts", file=BN,
         old="bn_col_stats(x[t], lengths, t, 0, F, training, t < Ts,",
         new="bn_col_stats(x[t], lengths, t, 0, F, training, t <= Ts,",
         tests=[f"{BATCHNORM}::test_forward_train_matches_reference"],
         why="a training step past the running rows (t = Ts) folds its statistics into the last row too"),
    # ---- lnrnn/kernels/cpu/threads.py ----
    dict(name="vals6-threads-second-thread-never-runs", file=THR,
         old="for w in range(1, nthr)]",
         new="for w in range(2, nthr)]",
         tests=[f"{KERN}::test_rnn_kernel_matches_reference"],
         why="run_chunks hands no work to thread 1: with two threads the second run of chunks is never computed"),
    dict(name="vals6-threads-one-worker-short", file=THR,
         old="        while len(inboxes) < n - 1:",
         new="        while len(inboxes) < n - 2:",
         tests=[f"{THREADS}::test_every_part_sees_the_whole_step"],
         why="run_synced starts one worker thread too few for its parts"),
    dict(name="vals6-threads-readonly-inverted", file=THR,
         old="            if not a.flags.writeable:\n                return a",
         new="            if a.flags.writeable:\n                return a",
         tests=[f"{THREADS}::test_read_only_inputs_reach_the_same_compiled_time_loop"],
         why="readonly hands writable arrays on as they are: a second compiled signature per caller"),
    # ---- lnrnn/training/setup.py ----
    dict(name="vals6-setup-batch-equal-to-data-refused", file=SETUP,
         old="    if cfg.batch_size > n:",
         new="    if cfg.batch_size >= n:",
         tests=[f"{SETUP_T}::test_a_batch_as_large_as_the_training_set_is_one_batch_an_epoch"],
         why="a batch as large as the training set (one batch an epoch) is refused"),
    dict(name="vals6-setup-same-init-from-refused-on-resume", file=SETUP,
         old='    if "init_from" in explicit and cfg.init_from != meta["train"].get("init_from"):',
         new='    if "init_from" in explicit:',
         tests=[f"{FINETUNE}::test_a_resumed_fine_tuned_run_still_says_where_it_started", f"{SETUP_T}::test_a_fine_tuned_run_resumes_with_its_own_init_from_given_again"],
         why="resuming a fine-tuning run with its own --init-from given again is refused"),
    dict(name="vals6-setup-plural-layers", file=SETUP,
         old="""f"layer{'s' * (c.layers > 1)}, \"""",
         new="""f"layer{'s' * (c.layers > 2)}, \"""",
         tests=[f"{SETUP_T}::test_the_start_line_counts_layers_and_epochs_in_words"],
         why="the start line says '2 layer' for two layers"),
    # ---- lnrnn/model/beam.py ----
    dict(name="vals6-beam-negative-lengths-pass", file=BEAMPY,
         old="(lengths.min() < 0 or lengths.max() > T)",
         new="(lengths.min() < -1 or lengths.max() > T)",
         tests=[f"{BEAM}::test_bad_widths_and_lengths_are_refused"],
         why="a row length of -1 reaches the compiled search"),
    dict(name="vals6-beam-first-label-dropped", file=BEAMPY,
         old="        for i in range(d - 1, -1, -1):",
         new="        for i in range(d - 1, 0, -1):",
         tests=[f"{BEAM}::test_each_rows_best_prefix_and_its_log_p_equal_the_specs"],
         why="the best prefix's first label is never written (stays -1)"),
    dict(name="vals6-beam-ties-reversed", file=BEAMPY,
         old="    return -1 if l1 < l2 else 1\n",
         new="    return -1 if l1 > l2 else 1\n",
         tests=[f"{BEAM}::test_exact_ties_break_as_the_specs_do"],
         why="exact ties at the heap's cut break in reverse lexicographic order"),
    # ---- lnrnn/training/prewarm.py ----
    dict(name="vals6-prewarm-device-check-and", file=PREWARMPY,
         old='    if not _state["armed"] or layer.device != "cpu":',
         new='    if not _state["armed"] and layer.device != "cpu":',
         tests=[f"{PREWARM}::test_a_child_per_kind_of_loop_only_while_armed_and_cold"],
         why="an unarmed CPU layer starts prewarm children (only armed-and-not-cpu is ruled out)"),
    dict(name="vals6-prewarm-off-by-default", file=PREWARMPY,
         old='os.environ.get("LNRNN_PREWARM", "1") != "0"',
         new='os.environ.get("LNRNN_PREWARM", "0") != "0"',
         tests=[f"{PREWARM}::test_a_child_per_kind_of_loop_only_while_armed_and_cold"],
         why="prewarm is off unless LNRNN_PREWARM is set"),
    # ---- lnrnn/training/optim.py ----
    dict(name="vals6-optim-norm-of-last-array-only", file=OPTIMPY,
         old="        total += float(np.dot(flat, flat))",
         new="        total = float(np.dot(flat, flat))",
         tests=[f"{OPTIM}::test_clip_grad_norm"],
         why="the global norm of a dict of gradients is the last array's alone"),
    dict(name="vals6-optim-zero-lr-accepted", file=OPTIMPY,
         old="        if not (lr > 0 and math.isfinite(lr)):",
         new="        if not (lr >= 0 and math.isfinite(lr)):",
         tests=[f"{OPTIM}::test_lr_validation_decay_and_key_check"],
         why="a learning rate of 0 is accepted (a run that never moves)"),
    dict(name="vals6-optim-rmsprop-momentum-centred", file=OPTIMPY,
         old="    def __init__(self, lr=1e-3, alpha=0.9, momentum=0.9, eps=1e-8, centred=False):",
         new="    def __init__(self, lr=1e-3, alpha=0.9, momentum=0.9, eps=1e-8, centred=True):",
         tests=[f"{VALUES_OPTIM}::test_rmsprop_with_momentum_centred_or_not"],
         why="'rmsprop-momentum' runs centred by default (Graves's form, not Cooijmans et al.'s)"),
    # ---- lnrnn/gradcheck.py ----
    dict(name="vals6-gradcheck-order4-wrong-step", file=GRADCHECKPY,
         old="            flat[k] = old - 2 * eps\n",
         new="            flat[k] = old - eps\n",
         tests=[f"{GRADCHECK}::test_numeric_grad_of_a_cubic"],
         why="the fourth-order difference evaluates f(a - eps) where it needs f(a - 2 eps)"),
    dict(name="vals6-gradcheck-default-tolerance-loose", file=GRADCHECKPY,
         old="TOLERANCE = 1e-6  # max relative error",
         new="TOLERANCE = 1e-4  # max relative error",
         tests=[f"{GRADCHECK_CLI}::test_gradcheck_exits_nonzero_when_an_error_exceeds_tolerance", f"{GRADCHECK_CLI}::test_the_default_tolerance_is_float64s_one_in_a_million"],
         why="the gradient checker accepts relative errors 100x larger by default"),
    # ---- lnrnn/commands/gradcheck.py ----
    dict(name="vals6-cmd-gradcheck-bn-batch-one", file=CMD_GRADCHECK,
         old="    if B < 2 and any(",
         new="    if B < 1 and any(",
         tests=[f"{GRADCHECK_CLI}::test_gradcheck_rejects_nonsense_sizes", f"{GRADCHECK_CLI}::test_bn_cells_need_two_rows_and_other_cells_one"],
         why="--batch 1 is accepted for BN cells (statistics over one row)"),
    dict(name="vals6-cmd-gradcheck-zero-sizes-pass", file=CMD_GRADCHECK,
         old="        if v < 1:\n",
         new="        if v < 0:\n",
         tests=[f"{GRADCHECK_CLI}::test_gradcheck_rejects_nonsense_sizes"],
         why="sizes of 0 reach the checker"),
    # ---- lnrnn/interop/export.py ----
    dict(name="vals6-export-head-not-transposed", file=EXPORTPY,
         old='out["head.weight" if rest == "W" else "head.bias"] = arr.T if rest == "W" else arr',
         new='out["head.weight" if rest == "W" else "head.bias"] = arr',
         tests=[f"{EXPORT}::test_exported_plain_weights_run_as_pytorch_would"],
         why="head.weight exported as lnrnn's (H,O) instead of nn.Linear's (O,H)"),
    dict(name="vals6-export-bias-counted-twice", file=EXPORTPY,
         old='            out[f"rnn.bias_hh_{layer}"] = np.zeros_like(arr)',
         new='            out[f"rnn.bias_hh_{layer}"] = arr',
         tests=[f"{EXPORT}::test_exported_plain_weights_run_as_pytorch_would"],
         why="bias_hh repeats the bias: PyTorch adds the two, so the bias counts twice"),
    dict(name="vals6-export-skip-called-compatible", file=EXPORTPY,
         old='    return config["norm"] == "none" and not config.get("skip", False)',
         new='    return config["norm"] == "none"',
         tests=[f"{EXPORT}::test_normalized_cells_export_every_parameter_under_its_documented_name", EXPORT_T],
         why="a skip stack (wider weight_ih above layer 0) is marked as loading into nn.LSTM"),
    # ---- lnrnn/kernels/window.py ----
    dict(name="vals6-window-ulen-past-u-passes", file=WINDOWPY,
         old="(ulen.min() < 0 or ulen.max() > U)",
         new="(ulen.min() < 0 or ulen.max() > U + 1)",
         tests=[f"{WINDOW}::test_bad_text_is_refused"],
         why="a text length one past U reaches the kernel (reads past the row of codes)"),
    # ---- lnrnn/data/idx.py ----
    dict(name="vals6-idx-zero-dims-accepted", file=IDX,
         old="code not in _IDX_TYPES or ndim == 0:",
         new="code not in _IDX_TYPES:",
         tests=[f"{DATA}::test_idx_errors", f"{IDX_T}::test_three_bytes_and_zero_dimensions_are_refused"],
         why="an IDX header with 0 dimensions is read as a scalar array"),
    dict(name="vals6-idx-label-ten-accepted", file=IDX,
         old="    if labels.size and labels.max() > 9:",
         new="    if labels.size and labels.max() > 10:",
         tests=[f"{DATA}::test_load_mnist_split_and_errors", f"{IDX_T}::test_label_nine_passes_and_ten_is_refused"],
         why="a label 10 in an MNIST-family file passes the check"),
    dict(name="vals6-idx-short-file-check-off-by-one", file=IDX,
         old="    if len(raw) < 4:\n",
         new="    if len(raw) < 3:\n",
         tests=[f"{DATA}::test_idx_errors", f"{IDX_T}::test_three_bytes_and_zero_dimensions_are_refused"],
         why="a 3-byte file fails with an IndexError instead of a DataError"),
    # ---- lnrnn/data/tasks.py ----
    dict(name="vals6-tasks-copy-delimiter-late", file=TASKS,
         old="    codes[:, K + delay - 1] = COPY_ALPHABET + 1",
         new="    codes[:, K + delay] = COPY_ALPHABET + 1",
         tests=[f"{DATA}::test_adding_and_copy"],
         why="the copy task's delimiter comes one step after the last blank (on the first recall step)"),
    dict(name="vals6-tasks-adding-one-step", file=TASKS,
         old='    return _steps(spec, 100, 2, "adding problem")',
         new='    return _steps(spec, 100, 1, "adding problem")',
         tests=[f"{DATA}::test_adding_and_copy", f"{DATA}::test_task_spec_errors"],
         why="the adding problem with --steps 1 passes the check and fails inside NumPy"),
    dict(name="vals6-tasks-mnist-rows-shape", file=TASKS,
         old='    T, I = (28, 28) if spec["task"] == "mnist-rows" else (784, 1)',
         new='    T, I = (28, 28) if spec["task"] == "mnist" else (784, 1)',
         tests=[f"{TASKS_T}::test_mnist_is_read_by_pixels_and_mnist_rows_by_rows"],
         why="the shape before building says mnist is read row by row and mnist-rows pixel by pixel"),
    # ---- lnrnn/diagnostics.py ----
    dict(name="vals6-diag-count-without-units", file=DIAGPY,
         old="    n = np.maximum(w.sum(1) * a.shape[2], 1)",
         new="    n = np.maximum(w.sum(1), 1)",
         tests=[f"{DIAG}::test_statistics_match_direct_formulas_and_leave_the_model_alone"],
         why="the per-step statistics divide by the rows, not rows x units"),
    dict(name="vals6-diag-grad-over-all-rows", file=DIAGPY,
         old="(np.linalg.norm(dh, axis=2) * run).sum(1) / np.maximum(run.sum(1), 1)",
         new="(np.linalg.norm(dh, axis=2) * run).sum(1) / run.shape[1]",
         tests=[f"{DIAG}::test_lengths_count_only_running_rows"],
         why="grad_h is averaged over every row, padded ones too"),
    dict(name="vals6-diag-skip-gradient-columns", file=DIAGPY,
         old="            dy += dnext[:, :, -H:] if stack.skip else dnext",
         new="            dy += dnext[:, :, :H] if stack.skip else dnext",
         tests=[f"{DIAG}::test_top_layer_of_a_stack_and_skip", f"{VALUES_DIAG}::test_a_skip_stacks_lower_layer_gets_its_gradient_through_the_layer_above"],
         why="with skip, the gradient from the layer above is read from the x columns of its input"),
    # ---- lnrnn/commands/plot.py ----
    dict(name="vals6-plot-title-of-mixed-runs", file=CMD_PLOT,
         old="    return titles.pop() if len(titles) == 1 else None",
         new="    return titles.pop() if len(titles) >= 1 else None",
         tests=["tests/commands/test_plot.py::test_the_title_is_the_runs_config_only_when_they_share_one"],
         why="runs of different configs are titled with one of their configs"),
    dict(name="vals6-plot-torn-update-row-refused", file=CMD_PLOT,
         old="read_jsonl(upath, torn_tail_ok=True)",
         new="read_jsonl(upath, torn_tail_ok=False)",
         tests=["tests/commands/test_plot.py::test_plot_command_reads_old_and_new_runs"],
         why="a run still writing updates.jsonl (a torn last row) cannot be plotted"),
    # ---- lnrnn/model/functional.py ----
    dict(name="vals6-func-negative-lengths-pass", file=FUNCPY,
         old="    if a.size and (a.min() < 0 or a.max() > T):",
         new="    if a.size and a.max() > T:",
         tests=[f"{STRUCT}::test_lengths_are_validated", f"{FUNCTIONAL}::test_check_lengths_refuses_what_lies_outside_zero_to_t"],
         why="negative lengths pass check_lengths"),
    dict(name="vals6-func-dh-n-of-empty-row-into-last-step", file=FUNCPY,
         old="            run = np.nonzero(last > 0)[0]",
         new="            run = np.nonzero(last >= 0)[0]",
         tests=[f"{FUNCTIONAL}::test_gradient_of_the_final_hidden_state_by_central_differences"],
         why="an empty row's dL/dh_n also adds into dy at step -1 (the last step)"),
    dict(name="vals6-func-dc-n-of-empty-row-refused", file=FUNCPY,
         old="        inner = (last > 0) & (last < T) & np.any(dc_n != 0, axis=1)",
         new="        inner = (last >= 0) & (last < T) & np.any(dc_n != 0, axis=1)",
         tests=[f"{FUNCTIONAL}::test_gradient_of_the_final_cell_state_by_central_differences"],
         why="a dL/dc_n of an empty row (c_n is c0 there) is refused"),
    # ---- lnrnn/model/layers.py ----
    dict(name="vals6-layers-chunk-infer-reads-step-zero", file=LAYERS,
         old="        if t0 == 0 and T <= Ts:\n            return self.buffers",
         new="        if T <= Ts:\n            return self.buffers",
         tests=[f"{EVAL_CHUNKS}::test_chunked_inference_equals_the_whole_sequence"],
         why="an inference chunk from step t0 > 0 reads BatchNorm rows 0.. instead of t0.."),
    dict(name="vals6-layers-dtype-check-by-kind", file=LAYERS,
         old="    if a.dtype != dtype:\n        raise TypeError",
         new="    if a.dtype.kind != np.dtype(dtype).kind:\n        raise TypeError",
         tests=["tests/model/test_layers.py::test_bad_input_is_reported_clearly"],
         why="a float32 input reaches a float64 layer (only the dtype's kind is checked)"),
    dict(name="vals6-layers-skip-dx-of-top-only", file=LAYERS,
         old="            dx = d_in[:, :, :I] if dx is None else dx + d_in[:, :, :I]",
         new="            dx = d_in[:, :, :I]",
         tests=[f"{STRUCT}::test_skip_stack_gradcheck"],
         why="with skip, dx is the first layer's share alone: the input's path into upper layers is dropped"),
    dict(name="vals6-layers-zero-hidden-accepted", file=LAYERS,
         old="            ok = not isinstance(v, (bool, str, bytes)) and int(v) == v and v >= 1",
         new="            ok = not isinstance(v, (bool, str, bytes)) and int(v) == v and v >= 0",
         tests=["tests/model/test_layers.py::test_bad_input_is_reported_clearly"],
         why="a layer of hidden size 0 (or input size 0) is built"),
]
