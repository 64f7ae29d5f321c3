"""Planted bugs, round 181 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent-BN
cells, a seventh pass on lines no earlier round mutates: the BN-LSTM's forward scaling every gate by gate i's h-side
gain, reading the cell bias at the thread's tile index, unbiasing the h side's running variance by lane 0's own
active count, saving the cell mean and 1/std swapped, and its plan sizing the cell's running rows by the h side's
count; its backward reading o from g's slot, centring c_{t-1} instead of c_t, swapping the cell BN_t backward's two
sums, dropping g from dL/di, and its plan taking h0 for c_{-1} at step 0; the BN-RNN's forward reading the h-side
gain at the tile index and dividing its batch statistics by n - 1, its backward taking tanh' at h_{t-1} and
carrying dh through Wh instead of Wh^T.

14 mutants. Against the existing targeted tests alone (the *_OLD lists below, with a baseline) 14 were caught and 0
missed: test_values158_bn_cuda and test_values113_bn_cuda already compare every output, saved statistic, running row
and gradient with the spec or the CPU twin on ragged rows over two tiles. The new value tests catch every mutant on
their own (checked with the old tests taken off the lists): test_values181_bn_cuda (the BN-LSTM and BN-RNN twins
against the CPU twins in float64 under the simulator with every option on: T 4, B 6 (not a multiple of the 4-row
lanes) of lengths (3, 0, 1, 2, 3, 1), H 5 over tiles of 4, h0 and c0 given, x- and h-side gains drawn apart, running
rows of three different counts (x 3, h 2, cell 4: past max_steps and an empty step with a row of its own), eps 0.2,
momentum 0.6, training with clip 0.05 and evaluation; the h side's running variance by its definition; the BN-RNN's
y against a NumPy forward written from the definitions and its dh0 and dWh against central differences of it). The
key mutant is caught by the size check of the running rows' copy (the cell's rows do not fit the h side's count),
not by a value. The kernels take no chunk offset (a call starts at step 0), so no chunk test applies. Dropped as
equivalent: the lane-0 guards on the saved statistics (every lane holds the same values), the initial inv = 1 (read
in training only, where it is set) and the padded dcarry zero (a padded step's successors are padded too).

    python tests/mutants/run.py --only 'v181-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values158_bn_cuda.py", "tests/kernels/test_values113_bn_cuda.py",
            "tests/kernels/test_values85_bn_lstm_cuda.py", "tests/kernels/test_values60_bn_lstm_cuda.py"]
RNN_OLD = ["tests/kernels/test_values158_bn_cuda.py", "tests/kernels/test_values113_bn_cuda.py",
           "tests/kernels/test_values79_bn_cells_cuda.py", "tests/kernels/test_values38_bn_cells_cuda.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
NEW = ["tests/kernels/test_values181_bn_cuda.py"]

MUTANTS = [
    # ---- bn_lstm_cuda: the forward step kernel ----
    dict(name="v181-bn-lstm-fwd-gates-share-gate-i-gain", file=LSTM,
         old="g4[q] = gh[q * H + j]",
         new="g4[q] = gh[j]",
         tests=NEW + LSTM_OLD,
         why="every gate's h-side BN_t scales by gate i's gain gh[j] instead of its own gh[q*H + j]"),
    dict(name="v181-bn-lstm-fwd-cell-bias-by-tile-index", file=LSTM,
         old="gcj, bcj = gc[j], bc[j]",
         new="gcj, bcj = gc[j], bc[tx]",
         tests=NEW + LSTM_OLD,
         why="the cell BN_t's bias read at the thread's index in its tile: units past the first tile take another "
             "unit's bias"),
    dict(name="v181-bn-lstm-fwd-folds-lane-count", file=LSTM,
         old="fold_running(rmh_r, rvh_r, q * H + j, m4[q], var, n, mom, one)",
         new="fold_running(rmh_r, rvh_r, q * H + j, m4[q], var, cnt, mom, one)",
         tests=NEW + LSTM_OLD,
         why="the h side's running variance unbiased by lane 0's own active count instead of the step's total"),
    dict(name="v181-bn-lstm-fwd-saves-cell-stats-swapped", file=LSTM,
         old="mean_c_t[j], rstd_c_t[j] = mc, rc",
         new="mean_c_t[j], rstd_c_t[j] = rc, mc",
         tests=NEW + LSTM_OLD,
         why="the saved cell mean and 1/std change places: the backward normalizes the cell with the wrong pair"),
    dict(name="v181-bn-lstm-fwd-key-cell-rows-from-h", file=LSTM,
         old="(rmx.shape[0], rmh.shape[0], rmc.shape[0])",
         new="(rmx.shape[0], rmh.shape[0], rmh.shape[0])",
         tests=NEW + LSTM_OLD,
         why="the plan sizes the cell's running rows by the h side's count: the cell reads the wrong row past its "
             "max_steps, or its rows do not fit"),
    # ---- bn_lstm_cuda: the backward step kernel and plan ----
    dict(name="v181-bn-lstm-bwd-o-from-g-slot", file=LSTM,
         old="o = ga[4 * r + 3]",
         new="o = ga[4 * r + 2]",
         tests=NEW + LSTM_OLD,
         why="the output gate read from the cell candidate's slot: dL/dc and dL/do use g for o"),
    dict(name="v181-bn-lstm-bwd-centres-previous-cell", file=LSTM,
         old="cmr = c_t[b, j] - mc",
         new="cmr = c_prev[b, j] - mc",
         tests=NEW + LSTM_OLD,
         why="the cell BN_t backward centres c_{t-1} instead of c_t: its xhat term and dgc are wrong"),
    dict(name="v181-bn-lstm-bwd-sums-swapped", file=LSTM,
         old="s1, s2 = tot[0, tx], tot[1, tx]",
         new="s1, s2 = tot[1, tx], tot[0, tx]",
         tests=NEW + LSTM_OLD,
         why="the cell BN_t backward's sum of dL/dy and of dL/dy * xhat change places (dbc and dgc swapped)"),
    dict(name="v181-bn-lstm-bwd-di-drops-g", file=LSTM,
         old="di = dc * gg * i * (one - i)",
         new="di = dc * i * (one - i)",
         tests=NEW + LSTM_OLD,
         why="dL/d(i's preactivation) without the factor g: the input gate's gradient ignores the candidate"),
    dict(name="v181-bn-lstm-bwd-plan-step0-reads-h0", file=LSTM,
         old="self.c[s], self.c0 if s == 0 else self.c[s - 1], self.tc[s])",
         new="self.c[s], self.h0 if s == 0 else self.c[s - 1], self.tc[s])",
         tests=NEW + LSTM_OLD,
         why="the backward's step 0 takes h0 for c_{-1}: df at step 0 and dc0 are wrong"),
    # ---- bn_rnn_cuda ----
    dict(name="v181-bn-rnn-fwd-gain-by-tile-index", file=RNN,
         old="g = gh[j]",
         new="g = gh[tx]",
         tests=NEW + RNN_OLD,
         why="the h-side gain read at the thread's index in its tile: units past the first tile take another's gain"),
    dict(name="v181-bn-rnn-fwd-inv-over-n-minus-1", file=RNN,
         old="inv = one / max(n, one)",
         new="inv = one / max(n - one, one)",
         tests=NEW + RNN_OLD,
         why="the h side's batch mean and variance divided by n - 1 (the running rows' unbiasing, misplaced)"),
    dict(name="v181-bn-rnn-bwd-reads-previous-output", file=RNN,
         old="s, self.y[s], self.hw[s]",
         new="s, self.y[s - 1], self.hw[s]",
         tests=NEW + RNN_OLD,
         why="the backward's tanh derivative taken at h_{t-1} (step 0 wraps to the last step) instead of h_t"),
    dict(name="v181-bn-rnn-bwd-dh-through-untransposed-wh", file=RNN,
         old="vdhw, vWhT, vdh = (prov.view(a) for a in (self.dhw, self.WhT, self.dh))",
         new="vdhw, vWhT, vdh = (prov.view(a) for a in (self.dhw, self.Wh, self.dh))",
         tests=NEW + RNN_OLD,
         why="dh_{t-1} = dhw_t @ Wh instead of Wh^T (square, so the shapes fit): the carried gradient is wrong"),
]
