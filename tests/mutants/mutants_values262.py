"""Planted bugs, round 262 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CUDA twins lnrnn/kernels/lstm_cuda.py, bn_lstm_cuda.py and window_cuda.py, run under Numba's CUDA
simulator with every option the kernels take on (lengths 0 and T in one batch, Graves's gate clip, LayerNorm and
BatchNorm, training and evaluation, the last-step heads of an evaluation run without its saved tuple; the kernels
take no state noise, the layers above them draw it), float64 at B = 3, H = 5 (not multiples of the block) and
T = 2-4: the LSTM's sequence forward starting step 1 from c0 again; its sequence backward with the rstd of
h_{t-1} Wh and of c_t swapped, and without the clip; the LN backward of c_t summing d * chat without the gain gc;
the per-step forward loop skipping the last step; the BN-LSTM's backward launched on H // t tiles (the last
units left out); the BN-LSTM's forward always in training; its h-side 1/std with eps outside the square root;
its cell mean not divided by the active rows; the BN window layer feeding w0 to step 1 as well as step 0; its
x-side BN backward always in training; the refusal of a character code naming C - 1 as the top.

12 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values262_lstm_cuda (the sequence kernels with
LayerNorm over T = 3 against lnrnn/reference.py's y, hT and cT, the saved rstd rows and all twelve gradients under
a clip of 0.05 that bites against the CPU twin with the same clip, dgc judged apart from dbc; the per-step loop
without a norm over T = 2 against the spec), test_values262_bn_lstm_cuda (lengths 3, 0 and 2 over T = 3, a last
step where one row runs alone, running rows of 2, 3 and 1 rows, training and evaluation: y and c against the
BN-LSTM composed from its definition, saved arrays, running rows and gradients under a clip of 0.05 that bites
against the CPU twin, the rows of 0 steps and of a step alone sending nothing back), test_values262_window_cuda
(BatchNorm over rows of 4, 0 and 2 steps with texts of 5, 2 and 0 characters, a clip of 0.05 that bites, training
and evaluation: outputs, saved c and kappa, running rows and every gradient against the CPU twin; the evaluation
run without its saved tuple giving the kept run's last-step heads; the code refusal word for word).

Left out as equivalent: fwd_seq's `if ln and tid == 0` storing the rstd from another thread (every thread of the
block holds the same block sums); the BN-LSTM forward's `if lane == 0` store of the h-side mean and 1/std moved to
another lane (every lane holds the same lane sums); window_lstm_forward's `if bn and training` write-back made
unconditional (in evaluation the device rows are the rows loaded: writing them back changes nothing); the
BN-LSTM backward's defaults `mc, rc, gcj = zero, one, one` (read only where the unit is valid); the BN-LSTM
backward's `dcarry[b, j] = zero` on a padded row (a row's padded steps come first in the reverse loop, where the
carry is still the zero it starts from). Left out as a crash rather than a value: the BN-LSTM backward's
`if b >= B` made `>` (an index past the batch: the simulator raises). Left out as too costly: the captured LSTM
backward's zeroed steps past T (the first plan longer than its call needs T >= 9 steps twice).

    python tests/mutants/run.py --only 'v262-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
BNL = "lnrnn/kernels/bn_lstm_cuda.py"
WIN = "lnrnn/kernels/window_cuda.py"

T_LSTM = "tests/kernels/test_values262_lstm_cuda.py::"
T_BN = "tests/kernels/test_values262_bn_lstm_cuda.py::"
T_WIN = "tests/kernels/test_values262_window_cuda.py::"
OLD_LSTM = ["tests/kernels/test_values174_lstm_cuda.py", "tests/kernels/test_values188_lstm_cuda.py",
            "tests/kernels/test_values247_lstm_rnn_cuda.py"]
OLD_BN = ["tests/kernels/test_values194_bn_cuda.py", "tests/kernels/test_values85_bn_lstm_cuda.py",
          "tests/kernels/test_values60_bn_lstm_cuda.py"]
OLD_WIN = ["tests/kernels/test_values152_window_cuda.py", "tests/kernels/test_values175_window_cuda.py",
           "tests/kernels/test_values60_window_cuda.py"]

SEQ = T_LSTM + "test_sequence_kernels_with_layernorm_and_clip_equal_the_spec_and_the_cpu_twin"
STEP = T_LSTM + "test_per_step_loop_without_norm_writes_the_last_step"
BN_TRAIN = T_BN + "test_lengths_0_and_t_with_clip_equal_the_definition_and_the_cpu_twin[training]"
BN_EVAL = T_BN + "test_lengths_0_and_t_with_clip_equal_the_definition_and_the_cpu_twin[evaluation]"
WIN_TRAIN = T_WIN + "test_bn_layer_over_rows_of_4_0_and_2_steps_with_clip_equals_the_cpu_twin[training]"
WIN_EVAL = T_WIN + "test_bn_layer_over_rows_of_4_0_and_2_steps_with_clip_equals_the_cpu_twin[evaluation]"
WIN_CODES = T_WIN + "test_character_code_past_c_refused_word_for_word"

MUTANTS = [
    # ---- lnrnn/kernels/lstm_cuda.py ----
    dict(name="v262-lstm-seq-fwd-c0-again-at-step-1", file=LSTM,
         old="c0[bb] if t == 0 else c[t - 1, bb], p, ln, e, one, one / dt(G),",
         new="c0[bb] if t <= 1 else c[t - 1, bb], p, ln, e, one, one / dt(G),",
         tests=[SEQ] + OLD_LSTM,
         why="the sequence forward carries c0 into step 1 as well as step 0: every output from step 1 on is wrong"),
    dict(name="v262-lstm-seq-bwd-rstd-h-c-swapped", file=LSTM,
         old="            r = (rstd[0, t, bb], rstd[1, t, bb], rstd[2, t, bb]) if ln else (one, one, one)",
         new="            r = (rstd[0, t, bb], rstd[2, t, bb], rstd[1, t, bb]) if ln else (one, one, one)",
         tests=[SEQ] + OLD_LSTM,
         why="the sequence backward reads the 1/std of c_t for h_{t-1} Wh and the reverse"),
    dict(name="v262-lstm-seq-bwd-clip-dropped", file=LSTM,
         old="bwd_seq[B, stpb](dy, sv, c0, rstd, p, transpose(Wh), ln, clip,",
         new="bwd_seq[B, stpb](dy, sv, c0, rstd, p, transpose(Wh), ln, 0.0,",
         tests=[SEQ] + OLD_LSTM,
         why="the sequence backward ignores Graves's clip: gradients of an unclipped run"),
    dict(name="v262-lstm-ln-c-backward-without-gain", file=LSTM,
         old="                    s2 += d * g * ch",
         new="                    s2 += d * ch",
         tests=[SEQ, STEP] + OLD_LSTM,
         why="the LayerNorm backward of c_t sums dL/dchat * chat without the gain gc: every LN gradient is off"),
    dict(name="v262-lstm-step-loop-skips-the-last-step", file=LSTM,
         old="    for t in range(0 if seq else T):  # the per-step path",
         new="    for t in range(0 if seq else T - 1):  # the per-step path",
         tests=[STEP, SEQ] + OLD_LSTM,
         why="the per-step forward stops a step early: y[T-1], hT and cT are never written"),
    # ---- lnrnn/kernels/bn_lstm_cuda.py ----
    dict(name="v262-bn-lstm-bwd-grid-floors-h", file=BNL,
         old="        d1 = empty(1, dt)\n        grid = ((H + t - 1) // t, 1)",
         new="        d1 = empty(1, dt)\n        grid = (H // t, 1)",
         tests=[BN_TRAIN, BN_EVAL] + OLD_BN,
         why="the BN-LSTM backward launches H // t tiles: the units of the last, partial tile get no gradient"),
    dict(name="v262-bn-lstm-always-training", file=BNL,
         old="    training = bool(training)",
         new="    training = True",
         tests=[BN_EVAL, BN_TRAIN] + OLD_BN,
         why="bn_lstm_forward ignores evaluation: batch statistics and folded running rows at inference"),
    dict(name="v262-bn-lstm-h-rstd-eps-outside-sqrt", file=BNL,
         old="                r4[q] = one / math.sqrt(var + e)",
         new="                r4[q] = one / (math.sqrt(var) + e)",
         tests=[BN_TRAIN] + OLD_BN,
         why="the h side's batch 1/std adds eps after the square root: wrong where the variance is small"),
    dict(name="v262-bn-lstm-cell-mean-not-divided", file=BNL,
         old="            mc = tot[0, tx] * inv",
         new="            mc = tot[0, tx]",
         tests=[BN_TRAIN] + OLD_BN,
         why="BN_t of c_t takes the active rows' sum for their mean"),
    # ---- lnrnn/kernels/window_cuda.py ----
    dict(name="v262-window-bn-fwd-w0-again-at-step-1", file=WIN,
         old="        gemm(v.w0 if t == 0 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)\n"
             "        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hws[k])",
         new="        gemm(v.w0 if t <= 1 else v.w[t - 1], v.WxC, v.xw[t], accumulate=I > 0)\n"
             "        gemm(v.h0 if t == 0 else v.y[t - 1], v.Wh, v.hws[k])",
         tests=[WIN_TRAIN, WIN_EVAL] + OLD_WIN,
         why="the BatchNorm window layer feeds w0, not step 0's window, to step 1"),
    dict(name="v262-window-bn-x-backward-always-training", file=WIN,
         old="                                                         training, a.dXW[t], pgx[t])",
         new="                                                         True, a.dXW[t], pgx[t])",
         tests=[WIN_EVAL] + OLD_WIN,
         why="the BN window layer's x-side backward uses the batch-statistics formula in evaluation"),
    dict(name="v262-window-code-refusal-names-c-minus-1", file=WIN,
         old='raise ValueError(f"character codes must lie in [0, C) = [0, {C}), got',
         new='raise ValueError(f"character codes must lie in [0, C) = [0, {C - 1}), got',
         tests=[WIN_CODES] + OLD_WIN,
         why="the refusal of a code past C names C - 1 as the bound"),
]
