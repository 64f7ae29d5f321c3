"""Planted bugs in the CUDA twins (BatchNorm, LayerNorm, LSTM, RNN, BN-LSTM, CTC), their GEMMs, row helpers and
device arrays, the synchronized BatchNorm cells, the BN-LSTM's CPU twin, the NumPy reference, the compile clock and
cache stamp, the backend, the cell registry, the train loop and the train command (format: tests/mutants/mutants.py).
Each is a single-line slip of a kind that happens: a loop bound or index one off, a wrong axis or operand, a
forgotten term or scale, a biased variance, an inverted or widened condition, a grid rounded down.

Written and dropped as equivalent (no output, gradient, saved value or running statistic differs):
- bn_lstm_cuda's backward keeping dcarry at a padded (row, step) instead of zeroing it: a row is padded at
  every step from its length on, its carried dL/dc there is still the zeros it started from, and its dL/dc
  through BatchNorm is zero (col_backward), so nothing nonzero is ever carried. The same holds for
  bn_lstm.py's zeroing of padded rows (``if nt < B``).
- ctc_cuda's skip test with ``s >= 2`` for ``s >= 3``: it also asks for an odd s, and the only odd s below 3
  is 1.
- arrays_cuda's final_rows with ``L > T`` for ``L >= T``: a row of length T then reads seq[T-1], which is the
  kernels' final state itself (h_T is y_{T-1}, c_T is c_{T-1}).

    python tests/mutants/run.py --only 'v8-*'
"""

CUDA = "tests/kernels/test_cuda_kernels.py"
BLOCKS = "tests/kernels/test_cuda_blocksizes.py"
CLIP = "tests/kernels/test_gate_clip.py"
CTC_CUDA = "tests/kernels/test_ctc_cuda.py"
CTC = "tests/kernels/test_ctc.py"
KERN = "tests/kernels/test_kernels.py"
BN = "tests/kernels/test_batchnorm.py"
BN_CELLS = "tests/kernels/test_bn_cells.py"
SYNC_BITS = "tests/kernels/test_bn_sync_speed_bits.py"
DIST2 = "tests/training/test_values_distributed_options2.py"
COMPILING = "tests/test_values_compiling.py"
BACKEND = "tests/kernels/test_values_backend.py"
CUDA_BACKEND = "tests/kernels/test_cuda_backend.py"
LAYERS = "tests/model/test_layers.py"
FUNCTIONAL = "tests/model/test_functional.py"
CUDA_LAYERS = "tests/model/test_cuda_layers.py"
TRAIN = "tests/training/test_values_train.py"
TRAINER_PARTS = "tests/training/test_stopping_recorder_parts.py"
CLI = "tests/commands/test_cli.py"
# value tests written for the bugs below that the tests above let through
LSTM_T = "tests/kernels/test_values_lstm_cuda.py"
ARRAYS_T = "tests/kernels/test_values_arrays_cuda.py"
STAMP_T = "tests/test_values_compiling_stamp.py"
SCHEDULE_T = "tests/training/test_values_train_schedule.py"
COMMAND_T = "tests/commands/test_values_train_command.py"

BNC = "lnrnn/kernels/batchnorm_cuda.py"
LNC = "lnrnn/kernels/layernorm_cuda.py"
LSTMC = "lnrnn/kernels/lstm_cuda.py"
RNNC = "lnrnn/kernels/rnn_cuda.py"
GEMMC = "lnrnn/kernels/cuda/gemm_cuda.py"
ROWSC = "lnrnn/kernels/cuda/rows_cuda.py"
ARRAYSC = "lnrnn/kernels/cuda/arrays_cuda.py"
BNLSTMC = "lnrnn/kernels/bn_lstm_cuda.py"
CTCC = "lnrnn/kernels/ctc_cuda.py"
SYNC = "lnrnn/kernels/bn_sync.py"
BNLSTM = "lnrnn/kernels/bn_lstm.py"
REF = "lnrnn/reference.py"
COMPILINGPY = "lnrnn/compiling.py"
BACKENDPY = "lnrnn/backend.py"
CELLS = "lnrnn/model/cells.py"
TRAINPY = "lnrnn/training/train.py"
CMDTRAIN = "lnrnn/commands/train.py"

MUTANTS = [
    # ---- lnrnn/kernels/batchnorm_cuda.py ----
    dict(name="v8-bncuda-running-var-biased", file=BNC,
         old="    unbias = n / max(n - one, one)\n",
         new="    unbias = one\n",
         tests=[CUDA, BLOCKS],
         why="the CUDA BatchNorm folds the biased batch variance into the running variance"),
    dict(name="v8-bncuda-infer-last-row-always", file=BNC,
         old="        row = min(st, Ts - 1)\n",
         new="        row = Ts - 1\n",
         tests=[CUDA, BLOCKS],
         why="every step reads (and in training updates) the last running row instead of its own"),
    dict(name="v8-bncuda-infer-backward-no-gain", file=BNC,
         old="dx2[b, k] = g * rs * dy2[b, k]",
         new="dx2[b, k] = rs * dy2[b, k]",
         tests=[CUDA, BLOCKS],
         why="the inference-mode BatchNorm backward on the device forgets the gain"),
    dict(name="v8-bncuda-running-updated-past-ts", file=BNC,
         old="training, st < Ts, rm[row], rv[row], c)",
         new="training, st <= Ts, rm[row], rv[row], c)",
         tests=[CUDA, BLOCKS],
         why="step Ts (past the running rows) folds its statistics into row Ts-1 a second time"),
    # ---- lnrnn/kernels/layernorm_cuda.py ----
    dict(name="v8-lncuda-backward-no-mean", file=LNC,
         old="dx[r, j] = rs * (dy[r, j] * gain[j] - s1 - (x[r, j] - m) * rs * s2)",
         new="dx[r, j] = rs * (dy[r, j] * gain[j] - (x[r, j] - m) * rs * s2)",
         tests=[CUDA, BLOCKS],
         why="the CUDA LayerNorm backward leaves out the mean of dL/dxhat"),
    dict(name="v8-lncuda-gain-bias-grads-swapped", file=LNC,
         old="    return dx, colsum_ln(dy, x, mean, rstd), colsum(dy)",
         new="    return dx, colsum(dy), colsum_ln(dy, x, mean, rstd)",
         tests=[CUDA, BLOCKS],
         why="dgain and dbias come back in each other's place"),
    # ---- lnrnn/kernels/lstm_cuda.py ----
    dict(name="v8-lstmcuda-dct-ignored-on-sequence-path", file=LSTMC,
         old="    return loop_path(_seq_geometry(H, dtype)[1] and not dcT, T)\n",
         new="    return loop_path(_seq_geometry(H, dtype)[1], T)\n",
         tests=[CUDA, CLIP, CUDA_LAYERS, LSTM_T],
         why="the sequence kernel runs although dL/dc_{T-1} comes from outside (truncated BPTT): it starts at zero"),
    dict(name="v8-lstmcuda-clip-skips-output-gate", file=LSTMC,
         old="                    if clip > zero:  # Graves",
         new="                    if clip > zero and q < 3:  # Graves",
         tests=[CUDA, CLIP],
         why="Graves's clip on the device leaves the output gate's dL/da unclipped"),
    dict(name="v8-lstmcuda-centered-rows-mean-over-g-minus-one", file=LSTMC,
         old="        m = s / G\n",
         new="        m = s / (G - 1)\n",
         tests=[CUDA, BLOCKS],
         why="the narrow input's centered Wx subtracts sum/(G-1), not the row mean"),
    dict(name="v8-lstmcuda-scale-rows-by-column", file=LSTMC,
         old="X[e // F, e % F] *= s[e // F]",
         new="X[e // F, e % F] *= s[e % F]",
         tests=[CUDA, BLOCKS],
         why="the recomputed xhat_x of a narrow input is scaled by the rstd of the wrong row"),
    dict(name="v8-lstmcuda-seq-backward-cprev-current", file=LSTMC,
         old="c0[bb] if t == 0 else c[t - 1, bb], tc[t, bb],",
         new="c0[bb] if t == 0 else c[t, bb], tc[t, bb],",
         tests=[CUDA, BLOCKS],
         why="the sequence backward's forget-gate derivative reads c_t instead of c_{t-1}"),
    dict(name="v8-lstmcuda-ln-no-bx", file=LSTMC,
         old="pre[4 * u + q] = gx[j] * xp[j] + bx[j] + bh[j] + b[j]",
         new="pre[4 * u + q] = gx[j] * xp[j] + bh[j] + b[j]",
         tests=[CUDA, BLOCKS],
         why="the LN-LSTM's forward on the device forgets the x LayerNorm's bias"),
    # ---- lnrnn/kernels/rnn_cuda.py ----
    dict(name="v8-rnncuda-tanh-derivative", file=RNNC,
         old="d = (dy[k] + dh[k]) * (one - yk * yk)",
         new="d = (dy[k] + dh[k]) * (one - yk)",
         tests=[CUDA, BLOCKS],
         why="the RNN backward on the device takes 1 - h for tanh's derivative"),
    dict(name="v8-rnncuda-gain-grad-from-da", file=RNNC,
         old="colsum_prod(dZ, ahat) if ln",
         new="colsum_prod(dA, ahat) if ln",
         tests=[CUDA, BLOCKS],
         why="the LN-RNN's dg sums dL/d(LN input) instead of dL/d(LN output) times ahat"),
    # ---- lnrnn/kernels/cuda/gemm_cuda.py ----
    dict(name="v8-gemmcuda-dwh-later-steps-need-three", file=GEMMC,
         old="    if N > B:\n        gemm(Y[:N - B]",
         new="    if N > 2 * B:\n        gemm(Y[:N - B]",
         tests=[CUDA, BLOCKS],
         why="dWh of a two-step sequence leaves out step 1's h_0^T dHW_1"),
    dict(name="v8-gemmcuda-colsum-ranges-drop-remainder", file=GEMMC,
         old="        hi = ((p + 1) * N) // P\n",
         new="        hi = lo + N // P\n",
         tests=[CUDA, BLOCKS],
         why="a column reduction split into P row ranges drops the last N mod P rows"),
    dict(name="v8-gemmcuda-accumulate-overwrites", file=GEMMC,
         old="                C[m, n] += s\n",
         new="                C[m, n] = s\n",
         tests=[CUDA, BLOCKS],
         why="matmul(accumulate=True) overwrites out"),
    # ---- lnrnn/kernels/cuda/rows_cuda.py ----
    dict(name="v8-rowscuda-dot-col-drops-eighth-accumulator", file=ROWSC,
         old="return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))",
         new="return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + s6)",
         tests=[CUDA, BLOCKS],
         why="dot_col's eighth accumulator is never added (sums of 8 or more terms lose every eighth one)"),
    dict(name="v8-rowscuda-block-sum-half-rounded-down", file=ROWSC,
         old="        half = (n + 1) // 2\n",
         new="        half = n // 2\n",
         tests=[CUDA, BLOCKS],
         why="block_sum halves an odd count downwards: one value is dropped at every odd level"),
    # ---- lnrnn/kernels/cuda/arrays_cuda.py ----
    dict(name="v8-arrays-reverse-valid-one-late", file=ARRAYSC,
         old="a[L - 1 - t, b, j] if t < L else a[t, b, j]",
         new="a[L - t, b, j] if t < L else a[t, b, j]",
         tests=[CUDA, CUDA_LAYERS, ARRAYS_T],
         why="reverse_valid on the device reads step L - t instead of L - 1 - t"),
    dict(name="v8-arrays-final-rows-length-zero-reads-seq", file=ARRAYSC,
         old="        elif L > 0:\n",
         new="        elif L >= 0:\n",
         tests=[CUDA, CUDA_LAYERS, ARRAYS_T],
         why="a row of length 0 takes seq[-1] (the last step) as its final state instead of its initial state"),
    dict(name="v8-arrays-mask-steps-keeps-step-l", file=ARRAYSC,
         old="out[t, b, j] = a[t, b, j] if t < lengths[b] else",
         new="out[t, b, j] = a[t, b, j] if t <= lengths[b] else",
         tests=[CUDA, CUDA_LAYERS, ARRAYS_T],
         why="mask_steps keeps the first padded step of every short row"),
    dict(name="v8-arrays-take-steps-rev-inverted", file=ARRAYSC,
         old="out[b, j] = seq[0 if any_rev and rev[j] != 0 else steps[b], b, j]",
         new="out[b, j] = seq[0 if any_rev and rev[j] == 0 else steps[b], b, j]",
         tests=[CUDA, CUDA_LAYERS, ARRAYS_T],
         why="take_steps reads the forward columns at step 0 and the reversed ones at the row's last step"),
    # ---- lnrnn/kernels/bn_lstm_cuda.py ----
    dict(name="v8-bnlstmcuda-dgh-from-bias-sum", file=BNLSTMC,
         old="                    pgh_t[q * H + j] = s24[q]\n",
         new="                    pgh_t[q * H + j] = s14[q]\n",
         tests=[CUDA, BLOCKS],
         why="the BN-LSTM's dgh on the device sums dL/da instead of dL/da * hhat"),
    dict(name="v8-bnlstmcuda-output-gate-no-carried-dh", file=BNLSTMC,
         old="dov[r] = dho * tcv * o * (one - o)",
         new="dov[r] = dy_t[b, j] * tcv * o * (one - o)",
         tests=[CUDA, BLOCKS],
         why="the output gate's derivative leaves out dL/dh_t arriving from step t+1"),
    dict(name="v8-bnlstmcuda-h-running-updated-past-ts", file=BNLSTMC,
         old="(gh, gc, bc), training, s < Tsh, s < Tsc, (rmh[rh]",
         new="(gh, gc, bc), training, s <= Tsh, s < Tsc, (rmh[rh]",
         tests=[CUDA, BLOCKS],
         why="step Ts folds hw's statistics into the last running row a second time"),
    # ---- lnrnn/kernels/ctc_cuda.py ----
    dict(name="v8-ctccuda-beta-starts-at-last-position-only", file=CTCC,
         old="beta[b, Tb - 1, s] = zero if s >= Sb - 2 else ninf",
         new="beta[b, Tb - 1, s] = zero if s >= Sb - 1 else ninf",
         tests=[CTC_CUDA],
         why="beta at the last step leaves out paths ending on the last label (only the final blank)"),
    dict(name="v8-ctccuda-impossible-row-not-skipped", file=CTCC,
         old="            if Tb == 0 or lz == ninf:",
         new="            if Tb == 0:",
         tests=[CTC_CUDA],
         why="a row whose label cannot fit its input gets softmax as its gradient instead of zero"),
    dict(name="v8-ctccuda-skip-between-repeats", file=CTCC,
         old="return s % 2 == 1 and s >= 3 and labels[b, s // 2] != labels[b, s // 2 - 1]",
         new="return s % 2 == 1 and s >= 3",
         tests=[CTC_CUDA],
         why="the forward skips the blank between two equal labels (a path that reads one label for two)"),
    # ---- lnrnn/kernels/bn_sync.py ----
    dict(name="v8-bnsync-mean-without-shift", file=SYNC,
         old="        m = shift[k] + d\n",
         new="        m = d\n",
         tests=[SYNC_BITS, DIST2],
         why="the synchronized mean forgets the shift (the running mean) its sums were taken about"),
    dict(name="v8-bnsync-running-var-biased", file=SYNC,
         old="    unbias = dt(n) / dt(max(n - 1, 1))\n",
         new="    unbias = dt(1)\n",
         tests=[SYNC_BITS, DIST2],
         why="the synchronized cells fold the biased variance into the running variance"),
    dict(name="v8-bnsync-counts-one-step-short", file=SYNC,
         old="        for t in range(min(lengths[b], T)):\n",
         new="        for t in range(min(lengths[b], T) - 1):\n",
         tests=[SYNC_BITS, DIST2],
         why="local_counts leaves every row out of its last step's count"),
    dict(name="v8-bnsync-dgh-bias-sums", file=SYNC,
         old="        dgh[k] += hsums[4 * H + k]",
         new="        dgh[k] += hsums[k]",
         tests=[SYNC_BITS, DIST2],
         why="the synchronized BN-LSTM's dgh adds the sums of dL/da, not of dL/da * hhat"),
    dict(name="v8-bnsync-x-gain-bias-swapped", file=SYNC,
         old="            dbias[k] += sums[t, k]\n            dgain[k] += sums[t, G + k]",
         new="            dbias[k] += sums[t, G + k]\n            dgain[k] += sums[t, k]",
         tests=[SYNC_BITS, DIST2],
         why="the x side's dgx and db swap their sums"),
    # ---- lnrnn/kernels/bn_lstm.py ----
    dict(name="v8-bnlstm-cell-running-updated-past-ts", file=BNLSTM,
         old="parts_stats(exc, training, q == 0 and t < Tsc,",
         new="parts_stats(exc, training, q == 0 and t <= Tsc,",
         tests=[BN_CELLS],
         why="step Ts folds the cell's statistics into the last running row a second time"),
    dict(name="v8-bnlstm-output-gate-no-carried-dh", file=BNLSTM,
         old="            do[j] = (dyr[j] + dhr[j]) * tr[j] * o * (one - o)",
         new="            do[j] = dyr[j] * tr[j] * o * (one - o)",
         tests=[BN_CELLS],
         why="the BN-LSTM's output-gate derivative leaves out dL/dh_t arriving from step t+1"),
    # ---- lnrnn/reference.py ----
    dict(name="v8-ref-bn-backward-counts-padded-rows", file=REF,
         old="n = max(x_t.shape[0] if active is None else int(active.sum()), 1)",
         new="n = max(x_t.shape[0], 1)",
         tests=[BN, BN_CELLS],
         why="the spec's masked BatchNorm backward divides by B instead of the active rows"),
    dict(name="v8-ref-bn-running-var-biased", file=REF,
         old="rv[t] = (1 - momentum) * rv[t] + momentum * var * n / max(n - 1, 1)",
         new="rv[t] = (1 - momentum) * rv[t] + momentum * var",
         tests=[BN, BN_CELLS],
         why="the spec's running variance takes the biased batch variance"),
    dict(name="v8-ref-ctc-skip-between-repeats", file=REF,
         old="if s >= 2 and ext[s] != CTC_BLANK and ext[s] != ext[s - 2]:",
         new="if s >= 2 and ext[s] != CTC_BLANK:",
         tests=[CTC, CTC_CUDA],
         why="the spec's CTC forward skips the blank between two equal labels"),
    # ---- lnrnn/compiling.py ----
    dict(name="v8-compiling-nested-start-restarts-clock", file=COMPILINGPY,
         old="            if self._depth == 0:\n                self._since = time.perf_counter()",
         new="            if self._depth >= 0:\n                self._since = time.perf_counter()",
         tests=[COMPILING],
         why="a nested compilation restarts the interval: the outer one's time before it is lost"),
    dict(name="v8-compiling-stamp-without-size", file=COMPILINGPY,
         old="out.append((os.path.basename(path), st.st_mtime, st.st_size))",
         new="out.append((os.path.basename(path), st.st_mtime))",
         tests=[COMPILING, "tests/kernels/test_cache_blas.py::test_kernel_stamp_follows_every_kernel_source", STAMP_T],
         why="an edit that keeps a file's mtime (coarse clocks, restored mtimes) but changes its size keeps the stamp"),
    dict(name="v8-compiling-sources-miss-cuda", file=COMPILINGPY,
         old='(folder, os.path.join(folder, "cpu"), os.path.join(folder, "cuda"))',
         new='(folder, os.path.join(folder, "cpu"))',
         tests=[COMPILING, "tests/kernels/test_cache_blas.py::test_kernel_stamp_follows_every_kernel_source"],
         why="edits under lnrnn/kernels/cuda/ (arrays_cuda's launch sizes, cuda_env) do not change the stamp"),
    # ---- lnrnn/backend.py ----
    dict(name="v8-backend-cuda-request-not-checked", file=BACKENDPY,
         old='    if device == "cuda":\n        require_cuda()\n',
         new='    if device == "cuda":\n        pass\n',
         tests=[BACKEND, CUDA_BACKEND],
         why="a request for device 'cuda' where CUDA cannot run is not refused at the boundary"),
    # ---- lnrnn/model/cells.py ----
    dict(name="v8-cells-forget-bias-on-input-block", file=CELLS,
         old='            p["b"][H:2 * H] = forget_bias',
         new='            p["b"][:H] = forget_bias',
         tests=[LAYERS, FUNCTIONAL],
         why="the LSTM's forget bias goes to the input gate's block"),
    dict(name="v8-cells-candidate-bias-on-forget-block", file=CELLS,
         old="blk = slice(2 * H, 3 * H) if self.cell == \"lstm\" else slice(0, H)",
         new="blk = slice(H, 2 * H) if self.cell == \"lstm\" else slice(0, H)",
         tests=[LAYERS, FUNCTIONAL],
         why="the normalized LSTM's small random bias replaces the forget bias instead of going to the candidate"),
    dict(name="v8-cells-running-var-zeros", file=CELLS,
         old='            bufs["rv" + s] = np.ones(',
         new='            bufs["rv" + s] = np.zeros(',
         tests=[LAYERS, FUNCTIONAL],
         why="fresh BN running variances start at 0: an untrained model's evaluation divides by sqrt(eps)"),
    # ---- lnrnn/training/train.py ----
    dict(name="v8-train-batches-per-epoch-floor", file=TRAINPY,
         old='    batches_per_epoch = property(lambda self: -(-self.task.size("train") // self.cfg.batch_size))\n',
         new='    batches_per_epoch = property(lambda self: self.task.size("train") // self.cfg.batch_size)\n',
         tests=[TRAIN, TRAINER_PARTS],
         why="the last, partial batch of every epoch is never trained on"),
    dict(name="v8-train-epoch-order-not-advanced", file=TRAINPY,
         old="        self.epoch_rng = self.rng.bit_generator.state\n        if better:",
         new="        if better:",
         tests=[TRAIN, TRAINER_PARTS],
         why="every epoch redraws the first epoch's sample order"),
    dict(name="v8-train-lr-of-next-epoch", file=TRAINPY,
         old="finetune.scheduled_lr(cfg.lr, cfg.lr_decay, self.epoch, self.lr_changes)",
         new="finetune.scheduled_lr(cfg.lr, cfg.lr_decay, self.epoch + 1, self.lr_changes)",
         tests=[TRAIN, TRAINER_PARTS, SCHEDULE_T],
         why="the first epoch already runs at the decayed learning rate"),
    dict(name="v8-train-mid-epoch-eval-at-epoch-end", file=TRAINPY,
         old="self.step % cfg.eval_every == 0 and self.batch_in_epoch < nb:",
         new="self.step % cfg.eval_every == 0 and self.batch_in_epoch <= nb:",
         tests=[TRAIN, TRAINER_PARTS, SCHEDULE_T],
         why="an --eval-every evaluation falling on the epoch's last update runs besides the epoch's own"),
    # ---- lnrnn/commands/train.py ----
    dict(name="v8-cmdtrain-resume-takes-a-fresh-folder", file=CMDTRAIN,
         old='options["out"] = newest_default() if resume else fresh_default()',
         new='options["out"] = fresh_default() if resume else newest_default()',
         tests=[CLI, COMMAND_T],
         why="without --out, --resume looks in a fresh default folder and a new run reuses the newest"),
    dict(name="v8-cmdtrain-rank-zero-silent", file=CMDTRAIN,
         old="        if distributed.launched_rank() > 0:",
         new="        if distributed.launched_rank() >= 0:",
         tests=[CLI, COMMAND_T],
         why="under a launcher without mpi4py rank 0 exits quietly too: nobody says what to install"),
]
