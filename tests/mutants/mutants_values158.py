"""Planted bugs, round 158 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent-BN
cells, the BN and LN row kernels, a sixth pass on lines no earlier round mutates: the BN-LSTM's forward dividing by
the active count without its floor of 1 (a step where no row runs), its g gate adding the output gate's normalized x
column, its backward dropping the carried dL/dh_{t+1}, clipping df from di, reading the h side's xhat sums one
column early, its backward plan stopping before step 0 and its forward loading h0 and c0 swapped; the BN-RNN folding
its h side's batch statistics into the last running row at steps past max_steps, and its x side folding into the h
side's running rows; local_rstd folding a step where no row runs; a device lengths array of the wrong dtype let
through; the LN backward's mean of dL/dxhat left as a sum.

12 mutants. Against the existing targeted tests alone (the *_OLD lists below, with a baseline) 10 were caught and 2
missed: local_rstd folding a step where no row runs (no old test has a step with no active row and a running row of
its own to fold into) and the device lengths dtype let through (no old test hands a device lengths array of another
dtype). The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values158_bn_cuda (the BN-LSTM and BN-RNN twins against lnrnn/reference.py, the NumPy spec, in float64 under
the simulator: T 4, B 6 (not a multiple of the 4-row lanes) of lengths (3, 0, 1, 2, 3, 1): an empty row, one-step
rows, and a last step where no row runs; H 5 over tiles of 4; running rows x 2 (past max_steps from step 2), h 4 and
cell 4 (the empty step folds nothing), and a second set h 2 and cell 2 (past max_steps with rows running); initial
states h0 and c0 given and different; eps 0.2 and momentum 0.6; training and evaluation (reading row min(t, Ts-1));
Graves's clip 0.05 and off; every output, saved statistic, running row and the gradient of every input and
parameter; a device lengths array of int32 refused) and test_values158_layernorm_cuda (the LN row kernels' forward
against the spec, the backward's dx against central differences of the spec and dgain, dbias by their definitions,
on rows of 13 features over blocks of 8 threads). Dropped as equivalent: da_t's zeros on padded rows (the x side's
BN backward reads active rows only) and the padded dcarry (a padded step's successors are padded too).

    python tests/mutants/run.py --only 'v158-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"
BN = "lnrnn/kernels/batchnorm_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values113_bn_cuda.py", "tests/kernels/test_values85_bn_lstm_cuda.py",
            "tests/kernels/test_values60_bn_lstm_cuda.py", "tests/kernels/test_values79_bn_cells_cuda.py"]
RNN_OLD = ["tests/kernels/test_values113_bn_cuda.py", "tests/kernels/test_values79_bn_cells_cuda.py",
           "tests/kernels/test_values38_bn_cells_cuda.py", "tests/kernels/test_values22_bn_cells_cuda.py"]
BN_OLD = ["tests/kernels/test_values75_batchnorm_cuda.py", "tests/kernels/test_values97_bn_cuda.py",
          "tests/kernels/test_values113_bn_cuda.py", "tests/kernels/test_values79_bn_cells_cuda.py"]
LN_OLD = ["tests/kernels/test_values30_layernorm_cuda.py", "tests/kernels/test_cuda_kernels.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values158_bn_cuda.py"]
LN_NEW = ["tests/kernels/test_values158_layernorm_cuda.py"]

MUTANTS = [
    # ---- bn_lstm_cuda: the step kernels ----
    dict(name="v158-bn-lstm-fwd-inv-without-floor", file=LSTM,
         old="inv = one / max(n, one)",
         new="inv = one / n",
         tests=BN_NEW + LSTM_OLD,
         why="a step where no row runs divides by 0: the gate and cell means come out NaN"),
    dict(name="v158-bn-lstm-g-gate-reads-o-column", file=LSTM,
         old="g = math.tanh(g4[2] * (a[4 * r + 2] - m4[2]) * r4[2] + xn_t[b, 2 * H + j])",
         new="g = math.tanh(g4[2] * (a[4 * r + 2] - m4[2]) * r4[2] + xn_t[b, 3 * H + j])",
         tests=BN_NEW + LSTM_OLD,
         why="the cell candidate adds the output gate's normalized x column"),
    dict(name="v158-bn-lstm-bwd-drops-carried-dh", file=LSTM,
         old="dho = dy_t[b, j] + dhn[b, j]",
         new="dho = dy_t[b, j]",
         tests=BN_NEW + LSTM_OLD,
         why="dL/dh_t leaves out the gradient carried back from step t+1"),
    dict(name="v158-bn-lstm-bwd-df-clips-di", file=LSTM,
         old="df = min(max(df, -cl), cl)",
         new="df = min(max(di, -cl), cl)",
         tests=BN_NEW + LSTM_OLD,
         why="with a clip on, the forget gate's dL/da takes the input gate's clipped value"),
    dict(name="v158-bn-lstm-bwd-xhat-sums-one-column-early", file=LSTM,
         old="s14[q], s24[q] = tot[q, tx], tot[4 + q, tx]",
         new="s14[q], s24[q] = tot[q, tx], tot[3 + q, tx]",
         tests=BN_NEW + LSTM_OLD,
         why="the h side's sums of dL/da times xhat are read one slot early: the i gate's is the o gate's plain sum"),
    # ---- bn_lstm_cuda: the plans ----
    dict(name="v158-bn-lstm-bwd-plan-stops-before-step-0", file=LSTM,
         old="self.replay = capture_loop(prov, step, range(S - 1, -1, -1), before, after)",
         new="self.replay = capture_loop(prov, step, range(S - 1, 0, -1), before, after)",
         tests=BN_NEW + LSTM_OLD,
         why="the backward time loop never runs step 0: dh0, dc0 and step 0's gradients missing"),
    dict(name="v158-bn-lstm-fwd-loads-h0-c0-swapped", file=LSTM,
         old="(x, Wx, h0, c0, Wh, b, gx, gh, gc, bc,",
         new="(x, Wx, c0, h0, Wh, b, gx, gh, gc, bc,",
         tests=BN_NEW + LSTM_OLD,
         why="the forward plan starts from h0 = c0 and c0 = h0"),
    # ---- bn_rnn_cuda ----
    dict(name="v158-bn-rnn-folds-past-max-steps", file=RNN,
         old="rs = local_rstd(sh, tot, a, act, m, n, inv, update and valid, rmh_r, rvh_r, j, (one, mom, e))",
         new="rs = local_rstd(sh, tot, a, act, m, n, inv, training and valid, rmh_r, rvh_r, j, (one, mom, e))",
         tests=BN_NEW + RNN_OLD,
         why="steps past max_steps fold their h-side statistics into the last running row again"),
    dict(name="v158-bn-rnn-x-side-folds-into-h-rows", file=RNN,
         old="bn_forward_launch(self.xw, self.lengths, gx, b, rmx, rvx, training, momentum, eps, self.xn, self.mean_x,",
         new="bn_forward_launch(self.xw, self.lengths, gx, b, rmh, rvh, training, momentum, eps, self.xn, self.mean_x,",
         tests=BN_NEW + RNN_OLD,
         why="the x side's BN_t reads and folds the h side's running rows"),
    # ---- batchnorm_cuda ----
    dict(name="v158-bn-local-rstd-folds-empty-step", file=BN,
         old="if fold and n > zero and cuda.threadIdx.y == 0:",
         new="if fold and cuda.threadIdx.y == 0:",
         tests=BN_NEW + BN_OLD,
         why="a step where no row runs folds a mean and variance of 0 into its running row"),
    dict(name="v158-bn-device-lengths-dtype-let-through", file=BN,
         old="if lengths.shape != (B,) or lengths.dtype != np.int64:",
         new="if lengths.shape != (B,) and lengths.dtype != np.int64:",
         tests=BN_NEW + BN_OLD,
         why="a device lengths array of the right shape but not int64 is let through"),
    # ---- layernorm_cuda ----
    dict(name="v158-ln-bwd-s1-sum-not-mean", file=LN,
         old="s1 = block_sum(sh, s1) * inv_f",
         new="s1 = block_sum(sh, s1)",
         tests=LN_NEW + LN_OLD,
         why="the LN backward subtracts the sum of dL/dxhat over the row instead of its mean"),
]
