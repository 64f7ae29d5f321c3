"""Planted bugs where the catalogue was thinnest (format: tests/mutants/mutants.py): the CUDA library choice
(graphs_cuda.py's host logic), the compile clock and kernel cache checks (compiling.py), the backend's
namespaces (backend.py), the CUDA twins' host code (gemm_cuda.py, rnn_cuda.py, bn_lstm_cuda.py), the train
loop (training/train.py) and ``lnrnn data mnist`` (commands/data.py). Each is a single-line slip of a kind
that happens: a bound one off, a dropped condition, a wrong default, a swapped pair, a refusal let through,
a wrong figure in a printed line.

30 mutants; the existing tests caught 14 (the CUDA twins' host code mostly: the simulator's stand-in never made,
the clock leaving out a running compilation, exclusive() not waiting, the refusal naming cuda, join/take swapped,
a batch one sample short, a file of the wrong item count blamed on its checksum, a checksum failure's temp file,
column sums past the last full tile, and rnn_cuda's three and bn_lstm_cuda's two). New value tests catch the other
16, 30/30 now: a name in capitals, 'auto' taking torch before cupy, graphs named only where served
(test_values17_graphs_cuda); indexes of another Numba version or stamp left alone, 'lnrnn_tools' not lnrnn
(test_values17_compiling); kernels() without a device (test_values17_backend); the epoch's samples after each
update, no data-parallel line for one process, a stop on an epoch's last update, the bar's epoch figure
(test_values17_train); --mirror without its scheme, a broken download's temp file, the closing hint's folder
(test_values17_data); matmul's out of the wrong width and accumulate without out (test_values17_cuda_host).
Dropped as equivalent: bn_lstm_cuda writing the running statistics back in eval mode too (the kernels leave them
unchanged there); its rc row bounded by the h side's Ts (rmh and rmc always have the same Ts); the progress bar's
resumed ``done`` without its min() (a resumed epoch never starts past its last batch); the trainer's validation at
batch_size instead of eval_batch_size (the same metrics up to rounding). No mutant showed a bug in lnrnn/.

    python tests/mutants/run.py --only 'v17-*'
"""

GRAPHSPY = "lnrnn/kernels/cuda/graphs_cuda.py"
COMPILINGPY = "lnrnn/compiling.py"
BACKENDPY = "lnrnn/backend.py"
TRAINPY = "lnrnn/training/train.py"
DATAPY = "lnrnn/commands/data.py"
GEMMPY = "lnrnn/kernels/cuda/gemm_cuda.py"
RNNPY = "lnrnn/kernels/rnn_cuda.py"
BNLSTMPY = "lnrnn/kernels/bn_lstm_cuda.py"

# existing tests of these modules
G_OLD = ["tests/kernels/test_cuda_graphs.py"]
C_OLD = ["tests/test_values_compiling.py", "tests/test_values_compiling_stamp.py",
         "tests/kernels/test_cache_blas.py::test_a_compilation_waits_for_anothers_lock_then_runs",
         "tests/kernels/test_cache_blas.py::test_unreadable_cache_file_costs_a_recompile"]
K_OLD = ["tests/kernels/test_values_backend.py", "tests/kernels/test_cuda_backend.py"]
T_OLD = ["tests/training/test_values_train.py", "tests/training/test_stopping_recorder_parts.py",
         "tests/training/test_values_train_schedule.py"]
D_OLD = ["tests/commands/test_cli.py::test_data_mnist_download_and_verify", "tests/commands/test_values_data.py",
         "tests/commands/test_values9_data.py"]
M_OLD = ["tests/kernels/test_cuda_kernels.py::test_matmul_all_transposes",
         "tests/kernels/test_cuda_kernels.py::test_matmul_accumulate_and_cpu_twins",
         "tests/kernels/test_cuda_kernels.py::test_column_reductions",
         "tests/kernels/test_cuda_blocksizes.py::test_gemm_and_column_sums_odd_tiles"]
R_OLD = ["tests/kernels/test_cuda_kernels.py::test_rnn_matches_cpu",
         "tests/kernels/test_cuda_blocksizes.py::test_ln_rnn_96_thread_blocks"]
B_OLD = ["tests/kernels/test_cuda_kernels.py::test_bn_cells_match_cpu",
         "tests/kernels/test_cuda_kernels.py::test_bn_cells_masked_match_cpu"]

# value tests written for the bugs below
G_NEW = "tests/kernels/test_values17_graphs_cuda.py"
C_NEW = "tests/test_values17_compiling.py"
K_NEW = "tests/kernels/test_values17_backend.py"
T_NEW = "tests/training/test_values17_train.py"
D_NEW = "tests/commands/test_values17_data.py"
H_NEW = "tests/kernels/test_values17_cuda_host.py"

MUTANTS = [
    # ---- kernels/cuda/graphs_cuda.py: which library serves cuBLAS and graphs ----
    dict(name="v17-graphs-choice-case-sensitive", file=GRAPHSPY,
         old='(os.environ.get("LNRNN_CUDA_BLAS") or config.CUDA_BLAS or "auto").strip().lower()',
         new='(os.environ.get("LNRNN_CUDA_BLAS") or config.CUDA_BLAS or "auto").strip()',
         tests=G_OLD + [G_NEW],
         why="LNRNN_CUDA_BLAS=OFF is refused as an unknown name instead of read as 'off'"),
    dict(name="v17-graphs-auto-prefers-cupy", file=GRAPHSPY,
         old='(("torch", "cupy") if name == "auto" else (name,))',
         new='(("cupy", "torch") if name == "auto" else (name,))',
         tests=G_OLD + [G_NEW],
         why="'auto' takes CuPy (no graphs) where PyTorch could serve graphs too"),
    dict(name="v17-graphs-eager-needs-a-gpu", file=GRAPHSPY,
         old='    if name == "eager" or not simulator_enabled():',
         new='    if not simulator_enabled():',
         tests=G_OLD + [G_NEW],
         why="the simulator's stand-in 'eager' is never made under the simulator: its graph tests run nothing"),
    dict(name="v17-graphs-describe-graphs-of-blas", file=GRAPHSPY,
         old="f\"cuBLAS {'and CUDA graphs ' if p.graphs else ''}through {p.name}\"\n",
         new="f\"cuBLAS {'and CUDA graphs ' if p.blas else ''}through {p.name}\"\n",
         tests=G_OLD + [G_NEW],
         why="lnrnn info says CuPy serves CUDA graphs (it serves GEMMs only)"),
    # ---- compiling.py ----
    dict(name="v17-compiling-clock-ignores-running-compile", file=COMPILINGPY,
         old="            return self._total + (time.perf_counter() - self._since if self._depth else 0.0)",
         new="            return self._total",
         tests=C_OLD + [C_NEW],
         why="seconds() during a compilation leaves out the compilation still running"),
    dict(name="v17-compiling-other-version-index-deleted", file=COMPILINGPY,
         old="        if version != numba.__version__:\n            return False\n",
         new="",
         tests=C_OLD + [C_NEW],
         why="an index written by another Numba version is parsed as this one's and deleted when it does not parse"),
    dict(name="v17-compiling-other-stamp-index-checked", file=COMPILINGPY,
         old="        if saved_stamp != stamp:\n            return False\n",
         new="",
         tests=C_OLD + [C_NEW],
         why="an index of other sources (which Numba ignores) is checked and deleted for its stale data files"),
    dict(name="v17-compiling-exclusive-waits-not", file=COMPILINGPY,
         old="            deadline = time.monotonic() + wait_s",
         new="            deadline = time.monotonic()",
         tests=C_OLD + [C_NEW],
         why="a held compile lock is given up at once: processes compile the same kernel side by side"),
    dict(name="v17-compiling-uses-lnrnn-prefix", file=COMPILINGPY,
         old='(name == "lnrnn" or name.startswith("lnrnn.")):',
         new='name.startswith("lnrnn"):',
         tests=C_OLD + [C_NEW],
         why="a function of a module using 'lnrnn_tools' (not lnrnn) gets lnrnn's cache locator"),
    # ---- backend.py ----
    dict(name="v17-backend-kernels-default-cuda", file=BACKENDPY,
         old='def kernels(device="cpu"):',
         new='def kernels(device="cuda"):',
         tests=K_OLD + [K_NEW],
         why="kernels() with no device gives the CUDA twins (or fails where CUDA cannot run)"),
    dict(name="v17-backend-refusal-names-cuda", file=BACKENDPY,
         old="use --device cpu (device='cpu') instead.",
         new="use --device cuda (device='cuda') instead.",
         tests=K_OLD + [K_NEW],
         why="the one sentence for an unusable CUDA tells the user to ask for CUDA again"),
    dict(name="v17-backend-join-take-swapped", file=BACKENDPY,
         old="join_columns=window.join_columns, take_columns=window.take_columns,",
         new="join_columns=window.take_columns, take_columns=window.join_columns,",
         tests=K_OLD + [K_NEW],
         why="the CPU namespace binds join_columns and take_columns to each other's functions"),
    # ---- training/train.py ----
    dict(name="v17-train-batch-one-short", file=TRAINPY,
         old="idx = perm[b * B:(b + 1) * B]",
         new="idx = perm[b * B:(b + 1) * B - 1]",
         tests=T_OLD + [T_NEW],
         why="each batch leaves out the last sample of its slice of the permutation"),
    dict(name="v17-train-samples-count-full-batches", file=TRAINPY,
         old='                    s["samples"] += len(idx)',
         new='                    s["samples"] += B',
         tests=T_OLD + [T_NEW],
         why="the epoch's samples count a short last batch as a full one (samples_per_s too high)"),
    dict(name="v17-train-split-line-for-one-process", file=TRAINPY,
         old="        if trainer.group.size > 1:",
         new="        if trainer.group.size >= 1:",
         tests=T_OLD + [T_NEW],
         why="a run of one process logs a 'Data parallel over 1 MPI processes' line"),
    dict(name="v17-train-stop-at-epoch-end-skips-epoch-end", file=TRAINPY,
         old="                        if self.batch_in_epoch < nb:\n                            break",
         new="                        if self.batch_in_epoch <= nb:\n                            break",
         tests=T_OLD + [T_NEW],
         why="a stop that falls on an epoch's last batch skips the epoch's end (no evaluation, row or epoch count)"),
    dict(name="v17-train-progress-epoch-from-zero", file=TRAINPY,
         old='f"epoch {self.epoch + 1}/{cfg.epochs}"',
         new='f"epoch {self.epoch}/{cfg.epochs}"',
         tests=T_OLD + [T_NEW],
         why="the progress bar names the first epoch 'epoch 0/2'"),
    # ---- commands/data.py ----
    dict(name="v17-data-mirror-any-http-prefix", file=DATAPY,
         old='    if not mirror.startswith(("http://", "https://")):',
         new='    if not mirror.startswith("http"):',
         tests=D_OLD + [D_NEW],
         why="--mirror httpmirror/ (no scheme) passes the check and fails later as a network error"),
    dict(name="v17-data-shape-check-ignores-count", file=DATAPY,
         old="    if arr.shape != shape:",
         new="    if arr.shape[1:] != shape[1:]:",
         tests=D_OLD + [D_NEW],
         why="a file with the wrong number of items is blamed on its checksum, not on its shape"),
    dict(name="v17-data-broken-download-keeps-temp", file=DATAPY,
         old="        os.unlink(tmp)\n        raise UserError(f\"the download of",
         new="        raise UserError(f\"the download of",
         tests=D_OLD + [D_NEW],
         why="a download that breaks off leaves its .download- temp file in --dest"),
    dict(name="v17-data-bad-checksum-keeps-temp", file=DATAPY,
         old="        except DataError:\n            os.unlink(tmp)\n            raise",
         new="        except DataError:\n            raise",
         tests=D_OLD + [D_NEW],
         why="a downloaded file that does not verify is left in --dest as a temp file"),
    dict(name="v17-data-hint-names-a-file", file=DATAPY,
         old='click.echo(f"Use it with: lnrnn train --task mnist --data-dir {dest}")',
         new='click.echo(f"Use it with: lnrnn train --task mnist --data-dir {path}")',
         tests=D_OLD + [D_NEW],
         why="the closing hint passes the last file, not the folder, to --data-dir"),
    # ---- kernels/cuda/gemm_cuda.py (host side) ----
    dict(name="v17-gemmcuda-out-columns-unchecked", file=GEMMPY,
         old="    elif out.shape != (M, N):",
         new="    elif out.shape[0] != M:",
         tests=M_OLD + [H_NEW],
         why="an out of the wrong width is accepted: its extra columns keep what they held"),
    dict(name="v17-gemmcuda-accumulate-without-out", file=GEMMPY,
         old='        if accumulate:\n            raise ValueError("matmul: accumulate=True needs out")\n',
         new="",
         tests=M_OLD + [H_NEW],
         why="accumulate=True without out adds into an uninitialised array instead of being refused"),
    dict(name="v17-gemmcuda-colsum-grid-floor", file=GEMMPY,
         old="    gx = (M + t - 1) // t",
         new="    gx = M // t",
         tests=M_OLD + [H_NEW],
         why="column sums leave out the columns past the last full tile"),
    # ---- kernels/rnn_cuda.py (host side) ----
    dict(name="v17-rnncuda-step-path-from-h0", file=RNNPY,
         old="        matmul(h0 if t == 0 else y[t - 1], Wh, out=a)",
         new="        matmul(h0, Wh, out=a)",
         tests=R_OLD,
         why="the per-step path's every step starts from h0, not from the previous output"),
    dict(name="v17-rnncuda-step-backward-skips-step0", file=RNNPY,
         old="    for t in range(-1 if seq else T - 1, -1, -1):",
         new="    for t in range(-1 if seq else T - 1, 0, -1):",
         tests=R_OLD,
         why="the per-step backward never runs step 0: dx[0], dh0 and step 0's weight gradients are stale"),
    dict(name="v17-rnncuda-da-aliases-dz", file=RNNPY,
         old="    dA = empty((T, B, H), dt) if ln else dZ",
         new="    dA = dZ",
         tests=R_OLD,
         why="with LayerNorm, dL/d(preactivation) and dL/d(tanh argument) share one buffer"),
    # ---- kernels/bn_lstm_cuda.py (host side) ----
    dict(name="v17-bnlstmcuda-step0-previous-cell-wraps", file=BNLSTMPY,
         old="            sv = (self.gates[s], self.hw[s], self.c[s], self.c0 if s == 0 else self.c[s - 1], self.tc[s])",
         new="            sv = (self.gates[s], self.hw[s], self.c[s], self.c[s - 1], self.tc[s])",
         tests=B_OLD,
         why="step 0's backward reads the last step's cell as c_{-1}, not c0"),
    dict(name="v17-bnlstmcuda-x-side-backward-always-training", file=BNLSTMPY,
         old="bn_backward_launch(self.da, self.xw, self.lengths, self.mean_x, self.rstd_x, gx, training, self.dxw,",
         new="bn_backward_launch(self.da, self.xw, self.lengths, self.mean_x, self.rstd_x, gx, True, self.dxw,",
         tests=B_OLD,
         why="an eval-mode backward differentiates the x side's batch statistics, which eval mode does not use"),
]
