"""Planted bugs, round 194 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent-BN
cells, an eighth pass on lines no earlier round mutates: the BN-LSTM's forward summing the h side's variances over
one column too few (gate o's variance read from its sum of values), saving the input gate in the forget gate's
column, and keeping g in the slot of o; its backward feeding the plain sum of dL/dy into the cell BN_t's xhat sum,
reading g from o's slot, saving di in df's column of dL/da, its plan handing the cell's gain and bias sums swapped,
and bn_lstm_backward returning dgh for dgx; the BN-RNN's forward reading the active count from the row of sums, its
plan launching the step kernel with momentum and eps swapped, its backward taking tanh' at the h-side product
instead of h_t, dividing by the xhat sum instead of the active count, scaling by the x side's gain, and
bn_rnn_backward returning db and dgx swapped.

14 mutants. Against the existing targeted tests alone (the *_OLD lists below, with a baseline) the first 7 (the
BN-LSTM's forward and backward kernels and plan) were measured and all 7 caught, by test_values181_bn_cuda, which
compares every output, saved array, gradient and running row with the CPU twin; the measurement of the other 7 was
cut short for time. The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values194_bn_cuda (the BN-LSTM and BN-RNN CUDA twins in float64 under the simulator against NumPy
forwards written there from the definitions: y, c, hT, cT and the saved h-side statistics; the gradients of h0, c0,
Wx, Wh, b, gx, gh, gc, bc against central differences of those forwards; every saved array, gradient and running row
against the CPU twins; the h side's running rows by their definition. T 4, B 6 (not a multiple of the 4-row lanes)
of lengths (2, 4, 0, 1, 3, 2): an empty row, a one-step row and a last step with one row alone; H 5 over tiles of
4; h0 and c0 given; x- and h-side gains drawn apart; running rows x 2, h 3, cell 1 (past max_steps from step 2, 3
and 1); eps 0.15, momentum 0.3; training and evaluation). The kernels take no chunk offset (a call starts at step 0)
and no state noise, so no such test applies. Dropped as equivalent: the padded dhw zeros of the BN-RNN's backward
written as da (da is 0 on padded rows), the `if training:` guard of the running rows' copy-back (in evaluation the
plan's rows are the loaded ones), and H read from c0 instead of h0 (same shape).

    python tests/mutants/run.py --only 'v194-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values181_bn_cuda.py", "tests/kernels/test_values158_bn_cuda.py",
            "tests/kernels/test_values113_bn_cuda.py", "tests/kernels/test_values85_bn_lstm_cuda.py"]
RNN_OLD = ["tests/kernels/test_values181_bn_cuda.py", "tests/kernels/test_values158_bn_cuda.py",
           "tests/kernels/test_values113_bn_cuda.py", "tests/kernels/test_values79_bn_cells_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/kernels/test_values194_bn_cuda.py"]

MUTANTS = [
    # ---- bn_lstm_cuda: the forward step kernel ----
    dict(name="v194-bn-lstm-fwd-o-variance-not-summed", file=LSTM,
         old="lane_sums(sh, tot, 4)",
         new="lane_sums(sh, tot, 3)",
         tests=NEW + LSTM_OLD,
         why="the variances' lane sum stops one column short: gate o's h-side variance is read from its sum of "
             "values left over from the mean pass"),
    dict(name="v194-bn-lstm-fwd-saves-i-for-f", file=LSTM,
         old="gates_t[b, H + j] = f",
         new="gates_t[b, H + j] = i",
         tests=NEW + LSTM_OLD,
         why="the saved forget gate holds the input gate: the backward's df and dL/dc_{t-1} use i for f"),
    dict(name="v194-bn-lstm-fwd-output-gate-slot-takes-g", file=LSTM,
         old="a[4 * r + 3] = o",
         new="a[4 * r + 3] = g",
         tests=NEW + LSTM_OLD,
         why="the slot kept for o holds the cell candidate g: h_t = g * tanh(BN_t(c_t)) instead of o * ..."),
    # ---- bn_lstm_cuda: the backward step kernel and plan ----
    dict(name="v194-bn-lstm-bwd-cell-xhat-sum-takes-plain-sum", file=LSTM,
         old="sh[1, lane, tx] = s2",
         new="sh[1, lane, tx] = s1",
         tests=NEW + LSTM_OLD,
         why="the cell BN_t backward's lane sum of dL/dy * xhat is fed the plain sum of dL/dy: dgc and the xhat "
             "term of dL/dc are wrong"),
    dict(name="v194-bn-lstm-bwd-candidate-from-o-slot", file=LSTM,
         old="gg = ga[4 * r + 2]",
         new="gg = ga[4 * r + 3]",
         tests=NEW + LSTM_OLD,
         why="the backward reads the cell candidate g from the output gate's slot: di and dg use o for g"),
    dict(name="v194-bn-lstm-bwd-saves-di-for-df", file=LSTM,
         old="da_t[b, H + j] = df",
         new="da_t[b, H + j] = di",
         tests=NEW + LSTM_OLD,
         why="the saved dL/da of the forget gate's column holds the input gate's: the x side's gradients (dx, dWx, "
             "db, dgx) take di for df"),
    dict(name="v194-bn-lstm-bwd-plan-cell-parts-swapped", file=LSTM,
         old="(self.pgh[s], self.pgc[s], self.pbc[s])",
         new="(self.pgh[s], self.pbc[s], self.pgc[s])",
         tests=NEW + LSTM_OLD,
         why="the backward plan hands the step kernel the cell's per-step gain and bias sums swapped: dgc and dbc "
             "change places"),
    dict(name="v194-bn-lstm-bwd-returns-dgh-for-dgx", file=LSTM,
         old="db, dgx, dgh, dgc, dbc = ",
         new="db, dgh, dgx, dgc, dbc = ",
         tests=NEW + LSTM_OLD,
         why="bn_lstm_backward returns the h-side gain gradient as the x side's and the other way round"),
    # ---- bn_rnn_cuda ----
    dict(name="v194-bn-rnn-fwd-count-from-sum-row", file=RNN,
         old="n = tot[1, tx]",
         new="n = tot[0, tx]",
         tests=NEW + RNN_OLD,
         why="the h side's active count read from the row of summed values: the batch mean, variance and running "
             "rows' unbiasing use the sum as a count"),
    dict(name="v194-bn-rnn-fwd-launch-momentum-eps-swapped", file=RNN,
         old="momentum, eps, self.mean_h[s]",
         new="eps, momentum, self.mean_h[s]",
         tests=NEW + RNN_OLD,
         why="the h-side step kernel gets momentum and eps swapped: its 1/std and running rows use the wrong pair"),
    dict(name="v194-bn-rnn-bwd-tanh-derivative-at-preactivation", file=RNN,
         old="h = y_t[b, j]",
         new="h = hw_t[b, j]",
         tests=NEW + RNN_OLD,
         why="tanh' taken at the h-side product h_{t-1} Wh instead of the output h_t"),
    dict(name="v194-bn-rnn-bwd-count-from-xhat-sum", file=RNN,
         old="inv = one / max(tot[2, tx], one)",
         new="inv = one / max(tot[1, tx], one)",
         tests=NEW + RNN_OLD,
         why="the BN_t backward divides by the summed dL/dy * xhat instead of the active count"),
    dict(name="v194-bn-rnn-bwd-x-gain-in-step-kernel", file=RNN,
         old="self.rstd_h[s], gh, training",
         new="self.rstd_h[s], gx, training",
         tests=NEW + RNN_OLD,
         why="the backward step kernel scales the h side's BN_t backward by the x side's gain"),
    dict(name="v194-bn-rnn-bwd-returns-db-dgx-swapped", file=RNN,
         old="db, dgx, dgh = ",
         new="dgx, db, dgh = ",
         tests=NEW + RNN_OLD,
         why="bn_rnn_backward returns the x side's gain gradient as the bias's and the other way round"),
]
