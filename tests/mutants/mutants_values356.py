"""Planted bugs, round 356 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the BN CUDA twins (lnrnn/kernels/bn_lstm_cuda.py, bn_rnn_cuda.py, batchnorm_cuda.py), eighteenth pass: local_rstd
writing its squared deviations with the lanes and columns swapped; col_stats' batch mean left as the sum;
col_backward's training branch inverted; write_back copying only where there is no host array; the length-clamping
kernel stopping one row short; BatchNorm's forward and backward grids rounded down (a last partial tile of features
never runs); the BN-RNN's batch mean left as the sum; its folded running rows copied the wrong way (plan to call's
rows swapped); the BN-LSTM counting every lane as an active row; its backward reading the h side's gains of the i
gate for all four gates; its cell BN backward's training branch inverted; its saved o gate holding f; its da_t of the
g gate holding df.

14 mutants. Against the old targeted files alone (each mutant's v356 files taken off its list): 14 of 14
caught. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values356_bn_cuda, in float64 under Numba's
simulator with B = 3 and H = F = 5 over tiles of 4, compares the BN-LSTM (training with I = 3, evaluation with
I = 1, two calls of 3 steps with lengths 0, 3, 1 then 3, 1, 2, running rows of 1, 2 and 2 counts, eps 0.3,
momentum 0.2, the backward with Graves's clip at 0.04 on dy of scale 10 and without) with its CPU twin on y, every
saved array, the running rows after each call and all ten gradients; the BN-RNN on the same calls with the NumPy
spec (lnrnn/reference.py) on y, the saved statistics, the running rows after each call and all seven gradients;
BatchNorm over 4 steps with running rows of 3 and lengths 0, 1, 4: step 0 (two rows) and step 1 (one row: 1/std
is 1/sqrt(eps), y the bias, the running variance folded with 0) worked out by hand, two training calls on host
running rows and a third on device rows against the spec, the backward in training and in inference, and
inference (step 3 read from row Ts-1 by hand). Left out as equivalent at B = 3 over tiles of 4 (each lane owns
one row, R = 1): the counters and sums over a lane's rows written with = for += (cnt, d2, s1, s14); the statistics
written by lane 0 made another lane's (every lane holds the same column statistics); the BN-LSTM's `mc, rc =
zero, one` defaults (every valid thread sets both in either mode). Left out: bn_rnn_cuda's and bn_lstm_cuda's
plan grids (the same line occurs in the forward and backward plans of a file).

    python tests/mutants/run.py --only 'v356-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"
BNC = "lnrnn/kernels/batchnorm_cuda.py"

T_NEW = "tests/kernels/test_values356_bn_cuda.py::"
T_LSTM = [T_NEW + "test_bn_lstm_two_calls_clipped_and_not_equal_the_cpu_twin"]
T_RNN = [T_NEW + "test_bn_rnn_two_calls_equal_the_spec"]
T_BN = [T_NEW + "test_batchnorm_one_and_two_rows_by_hand_three_calls_backward_and_inference"]
OLD = ["tests/kernels/test_values329_bn_cuda.py", "tests/kernels/test_values270_bn_cuda.py",
       "tests/kernels/test_values262_bn_lstm_cuda.py", "tests/kernels/test_values97_bn_cuda.py",
       "tests/kernels/test_values75_batchnorm_cuda.py"]

MUTANTS = [
    dict(name="v356-bn-local-rstd-lanes-swapped", file=BNC,
         old="    sh[0, cuda.threadIdx.y, cuda.threadIdx.x] = d2",
         new="    sh[0, cuda.threadIdx.x, cuda.threadIdx.y] = d2",
         tests=T_RNN + T_LSTM + OLD,
         why="local_rstd writes a thread's squared deviations at (column, lane): a column sums other columns' "
             "deviations, so the BN cells' 1/std and running variances go wrong"),
    dict(name="v356-bn-mean-not-divided", file=BNC,
         old="    m = tot[0, tx] * inv_n",
         new="    m = tot[0, tx]",
         tests=T_BN + OLD,
         why="col_stats' batch mean is the sum of the active rows: wrong wherever two or more rows run"),
    dict(name="v356-bn-backward-training-inverted", file=BNC,
         old="            elif training:\n                dx2",
         new="            elif not training:\n                dx2",
         tests=T_BN + OLD,
         why="col_backward takes the inference formula in training and the batch-statistics one in inference"),
    dict(name="v356-bn-write-back-none-inverted", file=BNC,
         old="        if hst is not None:",
         new="        if hst is None:",
         tests=T_BN + OLD,
         why="write_back skips the host arrays (and fails on device ones): host running rows keep their old "
             "values after training"),
    dict(name="v356-bn-clamped-last-row", file=BNC,
         old="lengths.shape[0], cuda.gridsize(1)):",
         new="lengths.shape[0] - 1, cuda.gridsize(1)):",
         tests=T_RNN + T_LSTM + OLD,
         why="load_lengths' clamping kernel stops one row short: a plan's last row keeps the length it had (0 in "
             "a fresh plan)"),
    dict(name="v356-bn-forward-grid-floor", file=BNC,
         old="fwd[((F + t - 1) // t, T)",
         new="fwd[(F // t, T)",
         tests=T_BN + T_RNN + OLD,
         why="BatchNorm's forward grid rounds down: with F = 5 over tiles of 4 feature 4 is never normalized"),
    dict(name="v356-bn-backward-grid-floor", file=BNC,
         old="bwd[((F + t - 1) // t, T)",
         new="bwd[(F // t, T)",
         tests=T_BN + T_RNN + OLD,
         why="BatchNorm's backward grid rounds down: feature 4's dx and per-step sums are never written"),
    dict(name="v356-rnn-mean-not-divided", file=RNN,
         old="            m = tot[0, tx] * inv",
         new="            m = tot[0, tx]",
         tests=T_RNN + OLD,
         why="the BN-RNN's step kernel takes the sum of the active rows as the batch mean of h W_h"),
    dict(name="v356-rnn-running-copy-reversed", file=RNN,
         old="            copy_bytes(dst, src, src.nbytes)",
         new="            copy_bytes(src, dst, src.nbytes)",
         tests=T_RNN + OLD,
         why="the folded running rows are overwritten with the call's old ones instead of copied back: training "
             "leaves the running statistics unchanged"),
    dict(name="v356-lstm-count-lanes", file=LSTM,
         old="            sh[4, lane, tx] = cnt",
         new="            sh[4, lane, tx] = one",
         tests=T_LSTM + OLD,
         why="the BN-LSTM counts every lane as an active row: the h side's and the cell's means, variances and "
             "unbiasing use n = 4"),
    dict(name="v356-lstm-bwd-gain-of-i", file=LSTM,
         old="                m4[q], r4[q], g4[q] = mean_h_t[q * H + j], rstd_h_t[q * H + j], gh[q * H + j]",
         new="                m4[q], r4[q], g4[q] = mean_h_t[q * H + j], rstd_h_t[q * H + j], gh[j]",
         tests=T_LSTM + OLD,
         why="the backward reads the i gate's h-side gain for all four gates: dL/dh, dWh and dgh go wrong"),
    dict(name="v356-lstm-bwd-cell-training-inverted", file=LSTM,
         old="                if training:\n                    dcbn",
         new="                if not training:\n                    dcbn",
         tests=T_LSTM + OLD,
         why="the cell BN's backward takes the inference formula in training and the batch-statistics one in "
             "inference"),
    dict(name="v356-lstm-saved-o-gate-is-f", file=LSTM,
         old="                    gates_t[b, 3 * H + j] = o",
         new="                    gates_t[b, 3 * H + j] = f",
         tests=T_LSTM + OLD,
         why="the saved output gate holds the forget gate: the backward's dL/do and dL/dc go wrong"),
    dict(name="v356-lstm-bwd-da-g-is-df", file=LSTM,
         old="                da_t[b, 2 * H + j] = dg",
         new="                da_t[b, 2 * H + j] = df",
         tests=T_LSTM + OLD,
         why="dL/da of the g gate holds the f gate's: the x side's backward, dWx, dx, db and dgx go wrong"),
]
