"""Planted bugs, round 294 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CPU LSTM kernels lnrnn/kernels/lstm.py and their CUDA twins lnrnn/kernels/lstm_cuda.py (run
under Numba's CUDA simulator), fourteenth pass: the forward's recurrent product at step t > 0 reading y_t's
rows instead of y_{t-1}'s; the backward's 1/H of the cell LayerNorm taken as 1/G; dL/da of the input gate
without its i factor; the narrow LN input's x_t rstd_x without rstd_x; its x-side mean sum s1x divided by H
instead of G; the wide LN input's dL/d(h_{t-1} Wh) subtracting hhat times the x side's sum; the backward's
time loop stopping before step 0; the CUDA forward row dropping a gate's own preactivation column for the
first one; the plain cell's tanh of c_{t-1} instead of c_t; the backward row without dL/dh_t from step t+1;
d tanh(c)/dc as 1 - tanh instead of 1 - tanh^2; the LN backward's h-side sum weighing dL/da by hhat instead of
gh; the per-step forward storing the 1/std of h_{t-1} Wh as c_t's; the sequence backward stopping before
step 0.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values294_lstm (B = 5 rows on 2 chunks of 3
and 2, T = 3, a forget bias of +1, the fold path at I = FOLD_MAX_I and the wide one at FOLD_MAX_I + 1, LN and
none, in float64: Graves's clip at 0.05 that binds, at 1e6 past every |dL/da| and off against the spec's
backward with the same clip) with test_values268_lstm_rnn's forward test (forwards against lnrnn/reference.py,
lstm_infer in two pieces cut after step 1 and after step 2 with the state carried, every gradient with a seed
dL/dc_T against central differences of the spec's loss; the cut after step 2 and its lines were first written
for this round, then folded into that test),
test_values294_lstm_cuda (B = 3, H = 5 over blocks of 4 threads, T = 3: the sequence kernels without a norm and
the per-step loop with LayerNorm and a clip of 0.05, training and evaluation, y, hT and cT against the spec, the
saved rstd rows and every gradient against the CPU twin).

Left out as equivalent: lstm_infer's two rows of c made one (min(T, 2) -> min(T, 1): c_t[k] is written from
c_{t-1}[k] of the same unit only, so one row serves both); the backward's clip taken without clip_bound
(an infinite bound clips nothing either way); the backward's prefetch row choice (bq, tq) and fetch_table's
offsets (only which rows come into the cache); nbx, the steps per x block (how rows are grouped for dWx and dx,
not their sums beyond rounding); fwd_seq's `if ln and tid == 0` (every thread holds the same block sums);
step_threads' thread count (the blocks' split of the units, not the values). Left out as a crash rather than
a value: _run_forward's per-step row `ts` taken modulo c's rows (an index past lstm_infer's one-row buffers).

    python tests/mutants/run.py --only 'v294-*'
"""
CPU = "lnrnn/kernels/lstm.py"
GPU = "lnrnn/kernels/lstm_cuda.py"

T_CPU = "tests/kernels/test_values294_lstm.py::"
T_GPU = "tests/kernels/test_values294_lstm_cuda.py::"
OLD_CPU = ["tests/kernels/test_values268_lstm_rnn.py", "tests/kernels/test_values190_lstm.py",
           "tests/kernels/test_values168_lstm.py"]
OLD_GPU = ["tests/kernels/test_values262_lstm_cuda.py", "tests/kernels/test_values174_lstm_cuda.py",
           "tests/kernels/test_values247_lstm_rnn_cuda.py"]

FWD = "tests/kernels/test_values268_lstm_rnn.py::test_lstm_forward_infer_and_every_gradient_against_the_spec"
CLIP = T_CPU + "test_gate_clip_binding_past_and_off_against_the_spec"
FWD_NONE = [FWD + "[4-none]", FWD + "[5-none]"]
FWD_LN = [FWD + "[4-ln]", FWD + "[5-ln]"]
SEQ = T_GPU + "test_sequence_kernels_without_norm_training_and_evaluation"
STEP = T_GPU + "test_per_step_loop_with_layernorm_and_clip_training_and_evaluation"

MUTANTS = [
    # ---- lnrnn/kernels/lstm.py ----
    dict(name="v294-lstm-fwd-rec-product-reads-y-t", file=CPU,
         old="            rec_mul_fetch(y[t - 1, lo:hi], Whc, P, hw, plan[:npl])",
         new="            rec_mul_fetch(y[t, lo:hi], Whc, P, hw, plan[:npl])",
         tests=FWD_NONE + FWD_LN + OLD_CPU,
         why="from step 1 on the recurrent product reads this step's unwritten y rows instead of h_{t-1}"),
    dict(name="v294-lstm-bwd-invH-as-invG", file=CPU,
         old="    invH = one / dy.dtype.type(H)  # means as products",
         new="    invH = one / dy.dtype.type(G)  # means as products",
         tests=FWD_LN + [CLIP + "[4-ln]", CLIP + "[5-ln]"] + OLD_CPU,
         why="the cell LayerNorm's backward means over H units are taken over 4H"),
    dict(name="v294-lstm-bwd-input-gate-without-i", file=CPU,
         old="                dai[k] = dc * g * i * (one - i)",
         new="                dai[k] = dc * g * (one - i)",
         tests=FWD_NONE + FWD_LN + OLD_CPU,
         why="dL/da of the input gate drops the sigmoid's i factor: every gradient through the input gate is off"),
    dict(name="v294-lstm-bwd-fold-xw-without-rstd", file=CPU,
         old="                    xw[i] = x[t, bb, i] * rx",
         new="                    xw[i] = x[t, bb, i]",
         tests=[FWD + "[4-ln]", CLIP + "[4-ln]"] + OLD_CPU,
         why="the narrow LN input's backward takes x_t for x_t rstd_x: dx, dWx and dgx are off"),
    dict(name="v294-lstm-bwd-fold-s1x-over-H", file=CPU,
         old="                s1x *= invG\n                s2x = zero",
         new="                s1x *= invH\n                s2x = zero",
         tests=[FWD + "[4-ln]", CLIP + "[4-ln]"] + OLD_CPU,
         why="the narrow LN input's x-side mean of dL/da gx is divided by H instead of G: dx and dWx are off"),
    dict(name="v294-lstm-bwd-wide-dhw-with-s2x", file=CPU,
         old="                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2h)\n"
             "                    dxr[j] = rx * (da[j] * gx[j] - s1x - xh[j] * s2x)",
         new="                    dhw[j] = rh * (da[j] * gh[j] - s1h - hh[j] * s2x)\n"
             "                    dxr[j] = rx * (da[j] * gx[j] - s1x - xh[j] * s2x)",
         tests=[FWD + "[5-ln]", CLIP + "[5-ln]"] + OLD_CPU,
         why="the wide LN input's dL/d(h_{t-1} Wh) subtracts hhat times the x side's sum instead of the h side's"),
    dict(name="v294-lstm-bwd-loop-stops-before-step-0", file=CPU,
         old="    for t in range(T - 1, -1, -1):\n        dhwt = dHb[nk * Bc:(nk + 1) * Bc]",
         new="    for t in range(T - 1, 0, -1):\n        dhwt = dHb[nk * Bc:(nk + 1) * Bc]",
         tests=FWD_NONE + FWD_LN + OLD_CPU,
         why="BPTT never runs step 0: dh0, dc0, dx_0 and step 0's share of every weight gradient are missing"),
    # ---- lnrnn/kernels/lstm_cuda.py ----
    dict(name="v294-lstm-cuda-fwd-pre-of-first-column", file=GPU,
         old="                        a = v[4 * u + q] + pre[4 * u + q]",
         new="                        a = v[4 * u + q] + pre[4 * u]",
         tests=[SEQ] + OLD_GPU,
         why="the plain cell adds the input gate's x_t Wx + b to every gate of the unit"),
    dict(name="v294-lstm-cuda-fwd-tanh-of-c-prev", file=GPU,
         old="                    tk = math.tanh(cv[u])",
         new="                    tk = math.tanh(c_prev[k])",
         tests=[SEQ] + OLD_GPU,
         why="the plain cell's output reads tanh(c_{t-1}) instead of tanh(c_t)"),
    dict(name="v294-lstm-cuda-bwd-without-dh-next", file=GPU,
         old="                dhk = dy[k] + dh[k]",
         new="                dhk = dy[k]",
         tests=[SEQ, STEP] + OLD_GPU,
         why="the backward row drops dL/dh_t from step t+1: gradients through the recurrence vanish"),
    dict(name="v294-lstm-cuda-bwd-dtanh-as-1-minus-tanh", file=GPU,
         old="                d = dhk * o * (one - tk * tk)",
         new="                d = dhk * o * (one - tk)",
         tests=[SEQ, STEP] + OLD_GPU,
         why="d tanh(c)/dc taken as 1 - tanh(c) instead of 1 - tanh(c)^2"),
    dict(name="v294-lstm-cuda-bwd-ln-h1-by-hhat", file=GPU,
         old="                        h1 += d * lnv[16 * u + q]",
         new="                        h1 += d * lnv[16 * u + 4 + q]",
         tests=[STEP] + OLD_GPU,
         why="the h-side LayerNorm backward's mean sum weighs dL/da by hhat instead of the gain gh"),
    dict(name="v294-lstm-cuda-step-rstd-c-stores-h", file=GPU,
         old="            rstd_c_t[bb] = r_c",
         new="            rstd_c_t[bb] = r_h",
         tests=[STEP] + OLD_GPU,
         why="the per-step forward saves the 1/std of h_{t-1} Wh as c_t's: the saved rows and the backward are off"),
    dict(name="v294-lstm-cuda-seq-bwd-stops-before-step-0", file=GPU,
         old="        for t in range(T - 1, -1, -1):\n            tt = t if ln else 0",
         new="        for t in range(T - 1, 0, -1):\n            tt = t if ln else 0",
         tests=[SEQ] + OLD_GPU,
         why="the sequence backward never runs step 0: dh0, dc0 and step 0's rows of dL/da are missing"),
]
