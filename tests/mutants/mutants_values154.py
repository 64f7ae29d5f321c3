"""Planted bugs, round 154 (format: tests/mutants/mutants.py): single-line slips in the CPU BN cells, a sixth pass
over lines no earlier round mutates: bn_parts.py's combination of the blocks' means without their weights and
its variance normalized by n-1, rows_moments' masked second pass not rewound to the block's first row,
rows_bwd_sums restarting every run of active rows at the block's first row, rows_bwd_dx's normalized input
without rstd; the BN-LSTM's g block read from the forget block, i and f swapped, step 1 carrying c0, the carried
dL/dc without the part through BN_t(c_t), the fold path's V built from the h side's rstd; the BN-RNN's inference
row t mod Ts, its fold path's gradient columns taken from the block range and its dx divided by B; bn_cell_x's
fold statistics taken in inference and fold_rows_dx centring column j on column i's mean.

15 mutants. Against the existing targeted tests alone the measurement was cut short to keep the mutation run
within its time: their baseline (compiling them in the scratch copy) took 388 s, and of the two mutants judged
before it was stopped both were caught (the unweighted block means and the n-1 variance, by the old BN-LSTM
value tests' y); the other 13 were not judged against the old tests alone. The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values154_bn_parts (rows_moments,
parts_stats, rows_bwd_sums and rows_bwd_dx against NumPy written in the test: count, mean and M2 of blocks
with padded rows between two runs, an empty block and a one-row block; the whole batch's mean and biased
variance however it is split; the running row with momentum 0.3 and the unbiased variance, untouched without
an active row or without update; inference reading the running row; the BN backward's sums and dL/dx by its
formula and by central differences, padded rows zero, for a block inside the batch as well) and
test_values154_bn_cells (both cells against lnrnn.reference in float64 with every option on at once: an empty
row, a one-step row, steps with one active row, T past each side's own Ts (x 4, h 2, cell 3), training and
inference, momentum 0.3, h0 and c0 given, gains of the x and h sides distinct, x columns of different means,
a narrow input (the fold path) and a wide one, B = 7 over four row blocks on one and on two parts (the same
bits); every gradient against the reference's backward and against central differences of the reference's
loss; inference with row 0 of every side moved; float32 against float64).

Dropped before the catalogue as equivalent: cov_times_w reading the covariance transposed (C is symmetric);
parts_stats not skipping an empty block (its count, mean and M2 are 0, so it adds nothing); the BN-LSTM's
backward zeroing dL/dc of padded rows at t > lengths instead of t >= lengths (at a padded step both the carry
from t+1 and the BN path's dL/dc are zero already, so the zeroing never changes a value); the clamp of a
negative fold variance to 0 (only round-off). Also left out: the exchange buffer's step parity in the
BN-RNN (a race only, not seen with one thread) and the float64 fold statistics taken in x's dtype (only
precision).

    python tests/mutants/run.py --only 'v154-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
RNN = "lnrnn/kernels/bn_rnn.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
PARTS = "lnrnn/kernels/bn_parts.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values100_bn_lstm.py", "tests/kernels/test_values79_bn_lstm.py",
            "tests/kernels/test_values18_bn_lstm.py", "tests/kernels/test_bn_cells.py"]
RNN_OLD = ["tests/kernels/test_values100_bn_rnn.py", "tests/kernels/test_values65_bn_rnn.py",
           "tests/kernels/test_bn_cells.py"]
CELLX_OLD = ["tests/kernels/test_values110_bn_cell_x.py", "tests/kernels/test_values93_bn_cell_x.py",
             "tests/kernels/test_values18_bn_cell_x.py", "tests/kernels/test_bn_cells.py"]
PARTS_OLD = ["tests/kernels/test_values117_bn_blocks.py", "tests/kernels/test_values110_bn_sync.py",
             "tests/kernels/test_bn_cells.py", "tests/kernels/test_values100_bn_lstm.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = ["tests/kernels/test_values154_bn_cells.py"]
PARTS_NEW = ["tests/kernels/test_values154_bn_parts.py"]

MUTANTS = [
    # ---- bn_parts.py: the blocks' moments, their combination, the backward sums and dx ----
    dict(name="v154-parts-mean-unweighted", file=PARTS,
         old="            mean[k] += w * mp[k]",
         new="            mean[k] += mp[k]",
         tests=PARTS_NEW + PARTS_OLD,
         why="parts_stats adds the blocks' means without weighting them by their share of the active rows: with "
             "several blocks BN_t's mean is the sum of the block means"),
    dict(name="v154-parts-variance-over-n-minus-1", file=PARTS,
         old="        var = rstd[k] * inv_n",
         new="        var = rstd[k] / max(n - one, one)",
         tests=PARTS_NEW + PARTS_OLD,
         why="parts_stats normalizes with the unbiased variance (M2 / (n-1)) instead of the biased one the "
             "reference uses; only the running rows take the unbiased one"),
    dict(name="v154-parts-masked-second-pass-not-rewound", file=PARTS,
         old="        m_[k] *= inv_n\n    e = r0\n",
         new="        m_[k] *= inv_n\n",
         tests=PARTS_NEW + PARTS_OLD,
         why="rows_moments' masked path does not rewind to r0 before the second pass: a block with a padded row "
             "reports M2 = 0, so the step's variance misses that block's spread"),
    dict(name="v154-parts-bwd-sums-from-block-start", file=PARTS,
         old="        for b in range(lo, e):\n            xr, dr = x2[b], dy2[b]",
         new="        for b in range(r0, e):\n            xr, dr = x2[b], dy2[b]",
         tests=PARTS_NEW + PARTS_OLD,
         why="rows_bwd_sums restarts every run of active rows at the block's first row: padded rows and earlier "
             "runs enter the BN backward's two sums (again)"),
    dict(name="v154-parts-bwd-dx-xhat-without-rstd", file=PARTS,
         old="                    xhat = (xr[k] - mean[k]) * rstd[k]",
         new="                    xhat = xr[k] - mean[k]",
         tests=PARTS_NEW + PARTS_OLD,
         why="rows_bwd_dx's normalized input drops rstd: the s2 term of the training BN backward is scaled by "
             "1/rstd"),
    # ---- bn_lstm.py ----
    dict(name="v154-lstm-g-block-is-f-block", file=LSTM,
         old="        ag = ar[2 * H:3 * H]",
         new="        ag = ar[H:2 * H]",
         tests=CELLS_NEW + LSTM_OLD,
         why="_gate_rows doubles and tanh's the forget block instead of g: f becomes tanh's, g a sigmoid of half"),
    dict(name="v154-lstm-i-and-f-swapped", file=LSTM,
         old="        ai, af = ar[:H], ar[H:2 * H]",
         new="        af, ai = ar[:H], ar[H:2 * H]",
         tests=CELLS_NEW + LSTM_OLD,
         why="the forward reads the input gate as the forget gate and back: c_t = i c_{t-1} + f g"),
    dict(name="v154-lstm-cprev-c0-at-step-1", file=LSTM,
         old="        cprev = c0 if t == 0 else c[t - 1]\n        if q == 0:",
         new="        cprev = c0 if t <= 1 else c[t - 1]\n        if q == 0:",
         tests=CELLS_NEW + LSTM_OLD,
         why="the forward's step 1 carries c0 instead of c_0: visible whenever c0 differs from the first cell"),
    dict(name="v154-lstm-dc-carry-without-bn-path", file=LSTM,
         old="            dcr[j] = dc * f",
         new="            dcr[j] *= f",
         tests=CELLS_NEW + LSTM_OLD,
         why="the carried dL/dc_{t-1} takes only the carry from step t+1, not the part through BN_t(c_t)"),
    dict(name="v154-lstm-fold-v-with-h-side-rstd", file=LSTM,
         old="            fold_v(Wx, gx, rstd_x[t], V)",
         new="            fold_v(Wx, gx, rstd_h[t], V)",
         tests=CELLS_NEW + LSTM_OLD,
         why="the fold path's backward builds V = W gx rstd from the h side's rstd: dx and dWx wrong for narrow x"),
    # ---- bn_rnn.py ----
    dict(name="v154-rnn-running-row-wraps", file=RNN,
         old="        th = min(t, Ts - 1)",
         new="        th = t % Ts",
         tests=CELLS_NEW + RNN_OLD,
         why="inference past the h side's Ts running rows reads row t mod Ts instead of the last row"),
    dict(name="v154-rnn-fold-backward-block-columns", file=RNN,
         old="            fold_step_backward(s1, s[2 * H:].reshape((I, H)), xs[t], Wx, V, mean_x[t], rstd_x[t], gx, k0, k1,",
         new="            fold_step_backward(s1, s[2 * H:].reshape((I, H)), xs[t], Wx, V, mean_x[t], rstd_x[t], gx, kb0, kb1,",
         tests=CELLS_NEW + RNN_OLD,
         why="the fold path's dWx, dgx, db columns are taken from the part's block range, not its column chunk"),
    dict(name="v154-rnn-fold-dx-over-whole-batch", file=RNN,
         old="                fold_rows_dx(x[t], xs[t], lengths, t, r0, r1, M, cv, nt, dx[t])",
         new="                fold_rows_dx(x[t], xs[t], lengths, t, r0, r1, M, cv, B, dx[t])",
         tests=CELLS_NEW + RNN_OLD,
         why="the fold path's dx divides the batch terms by B, not by the step's active rows"),
    # ---- bn_cell_x.py ----
    dict(name="v154-cellx-fold-stats-in-inference", file=CELLX,
         old="        n = active_rows(lengths, t) if training else 0",
         new="        n = active_rows(lengths, t)",
         tests=CELLS_NEW + CELLX_OLD,
         why="fold_stats takes the batch mean in inference too: fold_rows_forward centres x on it (xs_t should be "
             "0) and the running mean is taken off again"),
    dict(name="v154-cellx-fold-dx-centred-on-wrong-column", file=CELLX,
         old="                    s += M[i, j] * (x_t[b, j] - xs_t[j])",
         new="                    s += M[i, j] * (x_t[b, j] - xs_t[i])",
         tests=CELLS_NEW + CELLX_OLD,
         why="fold_rows_dx centres column j of x on column i's batch mean"),
]
