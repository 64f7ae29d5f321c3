"""Planted bugs, round 329 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the BN CUDA twins (lnrnn/kernels/bn_lstm_cuda.py, bn_rnn_cuda.py, batchnorm_cuda.py), seventeenth
pass: the BN-LSTM's step kernel taking eps for momentum and momentum for eps; its saved 1/std of the h side
written as 1; its saved g gate holding the i gate; its backward's centred h-side products taking the mean with the
wrong sign; its backward's cell BN gain read from the h-side gains; the BN-RNN's step kernel with momentum and eps
swapped; its backward's gain read as 1; its backward's two column sums swapped; its backward plan keyed as
training whatever the forward was; BatchNorm's running-row count taken from the steps (a step past Ts reads a row
that does not exist); its running rows not written back to host arrays in training (written back in inference
instead); batchnorm_backward run in inference mode; the launch passing momentum as eps; the per-lane variance of
the BN cells (local_rstd) not divided by the active count.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values329_bn_cuda, in float64 under Numba's
simulator with B = 3 and H = F = 5 over tiles of 4, compares the BN-LSTM (training with I = 1, evaluation with
I = 3, two calls of 3 steps with lengths 3, 0, 1 then 1, 3, 0, running rows of 2, 2 and 1 counts, Graves's clip
at 0.05 with dy of scale 10) with its CPU twin on y, every saved array, the running rows after each call and all
ten gradients; the BN-RNN on the same calls with the NumPy spec (lnrnn/reference.py) on y, the saved statistics,
the running rows and all seven gradients; BatchNorm over 4 steps with running rows of 2 and lengths 4, 0, 1 with
step 0's mean, 1/std, y and fold worked out by hand (two active rows: the unbiased variance is twice the biased
one), two training calls on host running rows, the backward and inference (step 3 read from row Ts-1 by hand)
against the spec. Left out as equivalent: zeroing dcarry of a padded row dropped (padded steps come after every
active one, so the carried gradient is still the zeros it started as); the backward's `plan.dy.shape[0] > T`
made `>=` (filling an empty slice changes nothing). Left out: the forward grid of bn_rnn_cuda's plans rounded
down (the same line occurs twice in the file, forward and backward plans, and a snippet naming one would span
several lines).

    python tests/mutants/run.py --only 'v329-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"
BNC = "lnrnn/kernels/batchnorm_cuda.py"

T_NEW = "tests/kernels/test_values329_bn_cuda.py::"
T_LSTM = [T_NEW + "test_bn_lstm_two_calls_equal_the_cpu_twin"]
T_RNN = [T_NEW + "test_bn_rnn_two_calls_equal_the_spec"]
T_BN = [T_NEW + "test_batchnorm_past_ts_two_calls_inference_and_backward_equal_the_spec"]
OLD = ["tests/kernels/test_values262_bn_lstm_cuda.py", "tests/kernels/test_values270_bn_cuda.py",
       "tests/kernels/test_values207_bn_cuda.py", "tests/kernels/test_values97_bn_cuda.py",
       "tests/kernels/test_values194_bn_cuda.py"]

MUTANTS = [
    dict(name="v329-lstm-momentum-eps-swapped", file=LSTM,
         old="        mom, e = dt(momentum), dt(eps)",
         new="        mom, e = dt(eps), dt(momentum)",
         tests=T_LSTM + OLD,
         why="the BN-LSTM's step kernel normalizes the h side and the cell with momentum as eps and folds the "
             "running rows with eps as momentum"),
    dict(name="v329-lstm-saved-rstd-h-one", file=LSTM,
         old="mean_h_t[q * H + j], rstd_h_t[q * H + j] = m4[q], r4[q]",
         new="mean_h_t[q * H + j], rstd_h_t[q * H + j] = m4[q], one",
         tests=T_LSTM + OLD,
         why="the saved 1/std of the h side is 1: the backward scales every h-side gradient wrongly"),
    dict(name="v329-lstm-saved-g-gate-is-i", file=LSTM,
         old="                    gates_t[b, 2 * H + j] = g",
         new="                    gates_t[b, 2 * H + j] = i",
         tests=T_LSTM + OLD,
         why="the saved candidate gate g holds the input gate i: the backward's dL/di and dL/dg go wrong"),
    dict(name="v329-lstm-bwd-centred-with-plus", file=LSTM,
         old="xm[4 * r + q] = hw_t[b, q * H + j] - m4[q]",
         new="xm[4 * r + q] = hw_t[b, q * H + j] + m4[q]",
         tests=T_LSTM + OLD,
         why="the backward centres h W_h on minus the mean: the training BN's dL/d(h W_h) and dgh go wrong"),
    dict(name="v329-lstm-bwd-cell-gain-from-gh", file=LSTM,
         old="            mc, rc, gcj = mean_c_t[j], rstd_c_t[j], gc[j]",
         new="            mc, rc, gcj = mean_c_t[j], rstd_c_t[j], gh[j]",
         tests=T_LSTM + OLD,
         why="the backward reads the cell BN's gain from the h side's gains (of the i gate): dL/dc goes wrong"),
    dict(name="v329-rnn-momentum-eps-swapped", file=RNN,
         old="        mom, e = dt(momentum), dt(eps)",
         new="        mom, e = dt(eps), dt(momentum)",
         tests=T_RNN + OLD,
         why="the BN-RNN's step kernel normalizes h W_h with momentum as eps and folds with eps as momentum"),
    dict(name="v329-rnn-bwd-gain-one", file=RNN,
         old="            m, r1, g = mean_h_t[j], rstd_h_t[j], gh[j]",
         new="            m, r1, g = mean_h_t[j], rstd_h_t[j], one",
         tests=T_RNN + OLD,
         why="the BN-RNN's backward takes the h-side gain as 1: dL/dh and dWh miss the factor gh"),
    dict(name="v329-rnn-bwd-sums-swapped", file=RNN,
         old="        s1, s2 = tot[0, tx], tot[1, tx]",
         new="        s1, s2 = tot[1, tx], tot[0, tx]",
         tests=T_RNN + OLD,
         why="the BN-RNN's backward swaps the column sums of dL/dz and dL/dz * x-hat: dgh and the training "
             "dL/d(h W_h) go wrong"),
    dict(name="v329-rnn-bwd-plan-always-training", file=RNN,
         old="    key = (B, H, I, np.dtype(dt).str, bool(training))",
         new="    key = (B, H, I, np.dtype(dt).str, True)",
         tests=T_RNN + OLD,
         why="the BN-RNN's backward plan is built for training whatever the forward was: evaluation gradients "
             "take the batch-statistics path"),
    dict(name="v329-bn-ts-from-steps", file=BNC,
         old="        Ts = rm.shape[0]",
         new="        Ts = x.shape[0]",
         tests=T_BN + OLD,
         why="BatchNorm counts the running rows by the steps: a step past Ts reads and folds a row that does not "
             "exist instead of the last one"),
    dict(name="v329-bn-write-back-inverted", file=BNC,
         old="    if training:\n        write_back(",
         new="    if not training:\n        write_back(",
         tests=T_BN + OLD,
         why="host running rows are not written back after a training call (they keep their old values)"),
    dict(name="v329-bn-backward-in-inference-mode", file=BNC,
         old="    return bn_backward(dy, x, mean, rstd, gain, True, lengths)",
         new="    return bn_backward(dy, x, mean, rstd, gain, False, lengths)",
         tests=T_BN + OLD,
         why="batchnorm_backward (training mode) drops the batch statistics' terms: dx = gain * rstd * dy"),
    dict(name="v329-bn-launch-momentum-as-eps", file=BNC,
         old="float(eps), y, mean, rstd)",
         new="float(momentum), y, mean, rstd)",
         tests=T_BN + T_LSTM + OLD,
         why="bn_forward_launch passes momentum where eps goes: every 1/std of BatchNorm (and of the cells' x "
             "side) uses momentum as eps"),
    dict(name="v329-bn-local-var-not-divided", file=BNC,
         old="    var = tot[0, cuda.threadIdx.x] * inv",
         new="    var = tot[0, cuda.threadIdx.x]",
         tests=T_RNN + T_LSTM + OLD,
         why="the BN cells' per-lane variance (local_rstd) is the sum of squared deviations, not their mean over "
             "the active rows: wrong 1/std and running variance wherever two or more rows run"),
]
