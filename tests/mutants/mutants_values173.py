"""Planted bugs, round 173 (format: tests/mutants/mutants.py): single-line slips on lines of the command
modules and the click group that no earlier round mutates: a usage error's hint naming the command's last word
('train --help') instead of what a shell runs ('lnrnn train --help'); lnrnn gradcheck's plan giving the padded
batch's last row one step instead of none, its chunk mode starting at step 0 again, --cell ignored, the whole
model run on B + 2 rows while its lengths hold B + 4, and a single failure exiting 0; lnrnn info printing numpy's
BLAS version in place of its name, each threadpool by its user_api ('blas'), the weight-gradient path not taken
and the threads in use swapped with the maximum; lnrnn data mnist's train subset chosen by first letter (all four
files); lnrnn plot's head kind read one level too high and its default title ignoring the runs' config.json.

13 mutants. Against the existing targeted tests alone 9 were caught and 4 missed: gradcheck's chunk mode from
step 0 (the old plan test checks the mask rows, not t0), --subset train by first letter (the old data tests
ask for --subset test only), plot's head kind one level too high and its title without the config (the old
plot tests write no checkpoint.json and no config.json). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values173_cli_errors (a usage error per command is one
line naming 'lnrnn <command> --help'; bad input to export, sample, read and gradcheck, namely a suffix that
disagrees with the format, a trailing separator, NaN, zero counts, an .npz under another name, a BN batch of one,
is one 'Error:' line, a non-zero exit and nothing written, with the loader and the checks replaced by fakes
that fail if called), test_values173_gradcheck_plan (the modes per cell against the command's docstring, the
padded rows, t0 = T and B + 4 against its description, the exit status and summary against errors chosen by
fakes), test_values173_info_data (info's lines against numba's threads, numpy's and scipy's show_config,
threadpoolctl's pools and both weight-gradient paths; --subset against MNIST's file names through a fake
download), test_values173_plot (head_kind and the loss panels against checkpoint.json's head and LOSS_LABELS;
the default title written by hand from config.json in the docstring's format). Dropped as equivalent or near
it: short.exit_code not copied in one_line (click's UsageError is 2, as every usage error here); the write
check's window of 2 Gaussians as 1 (the docstring names no K) and the shorter row's max(T - 2, 1) as
max(T - 1, 1) (still shorter for T > 1: the docstring only says shorter); os.path.isfile as os.path.exists
for a file already in --dest (--dest's files are not folders).

    python tests/mutants/run.py --only 'v173-*'
"""
CLI_PY = "lnrnn/cli.py"
GRAD = "lnrnn/commands/gradcheck.py"
INFO = "lnrnn/commands/info.py"
DATA = "lnrnn/commands/data.py"
PLOT = "lnrnn/commands/plot.py"

# existing tests of these modules (the most direct ones)
CLI_OLD = ["tests/commands/test_cli_usage_errors.py", "tests/commands/test_values125_cli.py"]
GRAD_OLD = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values96_gradcheck_plan.py",
            "tests/commands/test_values10_gradcheck.py"]
INFO_OLD = ["tests/commands/test_values_info.py", "tests/commands/test_values143_info.py",
            "tests/commands/test_values37_info.py"]
DATA_OLD = ["tests/commands/test_values_data.py", "tests/commands/test_values131_data.py",
            "tests/commands/test_values37_data.py"]
PLOT_OLD = ["tests/commands/test_plot.py", "tests/commands/test_values131_plot.py",
            "tests/commands/test_values46_plot_runs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CLI_NEW = ["tests/commands/test_values173_cli_errors.py"]
GRAD_NEW = ["tests/commands/test_values173_gradcheck_plan.py"]
INFO_NEW = ["tests/commands/test_values173_info_data.py"]
DATA_NEW = ["tests/commands/test_values173_info_data.py"]
PLOT_NEW = ["tests/commands/test_values173_plot.py"]

MUTANTS = [
    # ---- the group: a usage error's one line ----
    dict(name="v173-cli-help-hint-names-the-command-alone", file=CLI_PY,
         old="short = click.UsageError(f\"{e.format_message()} ('{e.ctx.command_path} --help' lists the {listed}.)\")",
         new="short = click.UsageError(f\"{e.format_message()} ('{e.ctx.info_name} --help' lists the {listed}.)\")",
         tests=CLI_NEW + CLI_OLD,
         why="a usage error's hint names 'train --help', which no shell runs, instead of 'lnrnn train --help'"),
    # ---- gradcheck's plan ----
    dict(name="v173-gradcheck-mask-without-an-empty-row", file=GRAD,
         old="lengths = np.array([T] * (B + 2) + [max(T - 2, 1), 0])",
         new="lengths = np.array([T] * (B + 2) + [max(T - 2, 1), 1])",
         tests=GRAD_NEW + GRAD_OLD,
         why="the padded batch's last row gets one step instead of none: the empty row the help promises (and "
             "the kernels' zero-length path) is never checked"),
    dict(name="v173-gradcheck-chunk-from-step-0", file=GRAD,
         old="runs.append((\"chunk\", partial(stack, B=B, t0=T)))",
         new="runs.append((\"chunk\", partial(stack, B=B, t0=0)))",
         tests=GRAD_NEW + GRAD_OLD,
         why="the chunk mode starts at step 0 again, so it repeats the train check and steps T..2T-1 from a "
             "given state are never checked"),
    dict(name="v173-gradcheck-cell-option-ignored", file=GRAD,
         old="    for name in cells or CELLS:\n        cell, norm",
         new="    for name in CELLS:\n        cell, norm",
         tests=GRAD_NEW + GRAD_OLD,
         why="--cell is ignored in the plan: all six cells are checked whatever was asked"),
    dict(name="v173-gradcheck-model-batch-two-more", file=GRAD,
         old="model = partial(check_model, cell, norm, T=T, B=B + 4,",
         new="model = partial(check_model, cell, norm, T=T, B=B + 2,",
         tests=GRAD_NEW + GRAD_OLD,
         why="the whole-model checks run on B + 2 rows while their lengths (clf-step, write) hold B + 4"),
    dict(name="v173-gradcheck-one-failure-passes", file=GRAD,
         old="    if failed:\n        raise SystemExit(1)",
         new="    if failed > 1:\n        raise SystemExit(1)",
         tests=GRAD_NEW + GRAD_OLD,
         why="a single gradient above --tolerance exits 0"),
    # ---- info's lines ----
    dict(name="v173-info-numpy-blas-version-as-name", file=INFO,
         old="lines.append(f\"{mod} built against {blas.get('name', '?')} {blas.get('version', '')}\".rstrip())",
         new="lines.append(f\"{mod} built against {blas.get('version', '?')} {blas.get('version', '')}\".rstrip())",
         tests=INFO_NEW + INFO_OLD,
         why="'numpy built against' prints the BLAS version twice and never its name"),
    dict(name="v173-info-threadpool-user-api", file=INFO,
         old="lines.append(f\"{pool.get('internal_api')} {pool.get('version') or ''} \"",
         new="lines.append(f\"{pool.get('user_api')} {pool.get('version') or ''} \"",
         tests=INFO_NEW + INFO_OLD,
         why="each loaded BLAS is named 'blas' (its user_api) instead of openblas or mkl"),
    dict(name="v173-info-weight-gradient-path-flipped", file=INFO,
         old="f\"{'blocks in L2 on rgemm' if DWH == 'rgemm' else 'large blocks on the BLAS'}\"",
         new="f\"{'blocks in L2 on rgemm' if DWH != 'rgemm' else 'large blocks on the BLAS'}\"",
         tests=INFO_NEW + INFO_OLD,
         why="the weight-gradient line names the path that is not taken"),
    dict(name="v173-info-threads-swapped", file=INFO,
         old="layer, threads, max_threads = _threading()",
         new="layer, max_threads, threads = _threading()",
         tests=INFO_NEW + INFO_OLD,
         why="'threads: N in use of M' prints the maximum as in use and the threads in use as the maximum"),
    # ---- data mnist's subsets ----
    dict(name="v173-data-train-subset-by-first-letter", file=DATA,
         old="\"train\": [n for n in MNIST if n.startswith(\"train\")]",
         new="\"train\": [n for n in MNIST if n.startswith(\"t\")]",
         tests=DATA_NEW + DATA_OLD,
         why="--subset train fetches all four files (t10k starts with t too)"),
    # ---- plot ----
    dict(name="v173-plot-head-kind-from-the-model", file=PLOT,
         old="return json.load(f)[\"model\"][\"head\"][\"kind\"]",
         new="return json.load(f)[\"model\"].get(\"kind\")",
         tests=PLOT_NEW + PLOT_OLD,
         why="the head kind is read one level too high (None for every run), so runs whose losses measure "
             "different things share one panel"),
    dict(name="v173-plot-title-ignores-config", file=PLOT,
         old="title = _config_title(runs) or \"learning curves\"",
         new="title = \"learning curves\"",
         tests=PLOT_NEW + PLOT_OLD,
         why="without --title the picture is always 'learning curves', never the runs' shared configuration"),
]
