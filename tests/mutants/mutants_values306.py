"""Planted bugs, round 306 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CUDA twins lnrnn/kernels/lstm_cuda.py, rnn_cuda.py and bn_lstm_cuda.py (run under Numba's CUDA
simulator), sixteenth pass: the LSTM's captured backward leaving a longer plan's extra step on the earlier call's
rows; its saved rstd of a plan without a norm cut by T instead of returned whole (a copy out of a (3,0,0) array);
the saved xhat_x kept for a narrow LN input the CPU twin recomputes; the captured backward's dgx and dgh handed
back in each other's places; gh loaded into the plan as gx; the per-step forward storing c_t's 1/std as that of
h_{t-1} Wh; the sequence forward storing h_{t-1} Wh's 1/std as c_t's; the captured forward's saved rstd not cut
to the call's steps; the RNN's captured backward leaving the extra step on the earlier call's rows; its dx and
its saved rstd not cut to the call's steps; the BN-LSTM's saved mean_x and rstd_x in each other's places; its
forward storing c_t's 1/std as the mean and the mean as the 1/std; its captured backward's dx not cut to the
call's steps.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values306_lstm_cuda (B = 3, I = 4, H = 5 over blocks of
4 threads, float64, clip 0.05 that binds: a captured plan of 3 steps serving a later call of 2 with LayerNorm, the
plan without a norm, the sequence kernels and the per-step loop with LayerNorm; y, hT, cT against
lnrnn/reference.py, the saved layout, the rstd rows and every gradient against the CPU twin) and
test_values306_rnn_bn_cuda (plans of 3 steps serving a call of 2: the LN-RNN against the spec's outputs, saved ahat
and rstd rows and gradients; the BN-LSTM in training and evaluation with lengths 0, 1 and T in one batch, running
rows, clip 0.05, against the CPU twin).

Left out as equivalent: bwd_seq's `dc0[bb, k] = zero` (the sequence kernels run only without a dL/dc_T seed, and
_backward_loop hands them dc_next already zeroed); the BN-LSTM backward's padded `dcarry[b, j] = zero` (padded
steps come after a row's last step, where the carry is still the zero it starts at); the BN-LSTM backward's
zeroing of a longer plan's extra steps (their dL/dh_{t-1} Wh and dL/dx_t Wx rows are zero, so finite stale x and
y rows add nothing; only non-finite ones would show); colsum_parts(S) for colsum_parts(N) (how the column sums
are split, not their values); _seq_geometry's seq_threads(G) (the blocks' split of the units, not the values).
Left out as untestable without nondeterminism: dh_next = zeros(...) as empty(...) (what empty holds is chance).

    python tests/mutants/run.py --only 'v306-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"
BNL = "lnrnn/kernels/bn_lstm_cuda.py"

T_LSTM = "tests/kernels/test_values306_lstm_cuda.py::"
T_RB = "tests/kernels/test_values306_rnn_bn_cuda.py::"
OLD_LSTM = ["tests/kernels/test_values294_lstm_cuda.py", "tests/kernels/test_values262_lstm_cuda.py",
            "tests/kernels/test_values174_lstm_cuda.py"]
OLD_RNN = ["tests/kernels/test_values270_rnn_cuda.py", "tests/kernels/test_values153_rnn_cuda.py"]
OLD_BN = ["tests/kernels/test_values262_bn_lstm_cuda.py", "tests/kernels/test_values85_bn_lstm_cuda.py"]

GRAPH_LN = T_LSTM + "test_graph_plan_of_3_steps_serves_a_later_call_of_2_with_layernorm"
GRAPH_NONE = T_LSTM + "test_graph_plan_without_norm_saved_layout_and_gradients"
LN_LOOP = T_LSTM + "test_layernorm_saved_layout_rstd_rows_and_gradients"
RNN_GRAPH = T_RB + "test_rnn_plan_of_3_steps_serves_a_call_of_2"
BN_GRAPH = T_RB + "test_bn_lstm_plan_of_3_steps_serves_a_call_of_2_lengths_0_1_and_t"

MUTANTS = [
    # ---- lnrnn/kernels/lstm_cuda.py ----
    dict(name="v306-lstm-graph-bwd-extra-step-stale", file=LSTM,
         old="        if S > T:  # the extra steps on zeros (an earlier call's rows there may not be finite)",
         new="        if S > T + 1:  # the extra steps on zeros (an earlier call's rows there may not be finite)",
         tests=[GRAPH_LN] + OLD_LSTM,
         why="a plan one step longer than the call keeps the earlier call's dy and saved rows on its last step: "
             "dL/dh flows back from a step the call does not have"),
    dict(name="v306-lstm-rstd-head-test-on-T", file=LSTM,
         old="    _, S, B = rstd.shape\n    if S == 0:",
         new="    _, S, B = rstd.shape\n    if T == 0:",
         tests=[GRAPH_NONE] + OLD_LSTM,
         why="a plan without a norm (rstd (3,0,0)) copies T steps out of an empty array instead of returning it"),
    dict(name="v306-lstm-saved-xp-kept-narrow", file=LSTM,
         old="    saved = (gates, c, tc, y, xp if keep else empty((0, 0, 0), dt), hhat, chat, rstd)",
         new="    saved = (gates, c, tc, y, xp if ln else empty((0, 0, 0), dt), hhat, chat, rstd)",
         tests=[LN_LOOP + "[sequence]", LN_LOOP + "[per-step]"] + OLD_LSTM,
         why="a narrow LN input's xhat_x is saved: the saved layout is no longer the CPU twin's"),
    dict(name="v306-lstm-graph-dgx-dgh-swapped", file=LSTM,
         old="            dgx, dgh, dgc, dbc = (copy(a).reshape(a.shape[1]) for a in plan.sums[1:])",
         new="            dgh, dgx, dgc, dbc = (copy(a).reshape(a.shape[1]) for a in plan.sums[1:])",
         tests=[GRAPH_LN] + OLD_LSTM,
         why="the captured backward hands dgx back as dgh and dgh as dgx"),
    dict(name="v306-lstm-graph-gh-loaded-as-gx", file=LSTM,
         old="(plan.p[0], gx), (plan.p[1], gh), (plan.p[2], gc)]",
         new="(plan.p[0], gx), (plan.p[1], gx), (plan.p[2], gc)]",
         tests=[GRAPH_LN] + OLD_LSTM,
         why="the captured backward reads gx where gh belongs: dL/d(h_{t-1} Wh) is scaled by the wrong gain"),
    dict(name="v306-lstm-step-rstd-h-stores-rc", file=LSTM,
         old="            rstd_h_t[bb] = r_h",
         new="            rstd_h_t[bb] = r_c",
         tests=[LN_LOOP + "[per-step]"] + OLD_LSTM,
         why="the per-step forward saves c_t's 1/std as that of h_{t-1} Wh: the backward's h side is off"),
    dict(name="v306-lstm-seq-rstd-c-stores-rh", file=LSTM,
         old="                rstd[2, t, bb] = r_c",
         new="                rstd[2, t, bb] = r_h",
         tests=[LN_LOOP + "[sequence]"] + OLD_LSTM,
         why="the sequence forward saves h_{t-1} Wh's 1/std as c_t's: the cell LayerNorm's backward is off"),
    dict(name="v306-lstm-graph-saved-rstd-not-cut", file=LSTM,
         old="head(plan.chat, T) if ln else none, _rstd_head(plan.rstd, T))",
         new="head(plan.chat, T) if ln else none, plan.rstd)",
         tests=[GRAPH_LN] + OLD_LSTM,
         why="a longer plan's saved rstd keeps all its steps: (3,S,B) instead of the call's (3,T,B)"),
    # ---- lnrnn/kernels/rnn_cuda.py ----
    dict(name="v306-rnn-graph-bwd-extra-step-stale", file=RNN,
         old="        if plan.dy.shape[0] > T:  # the extra steps on zeros",
         new="        if plan.dy.shape[0] > T + 1:  # the extra steps on zeros",
         tests=[RNN_GRAPH] + OLD_RNN,
         why="a plan one step longer than the call keeps the earlier call's rows on its last step: dL/dh flows "
             "back from a step the call does not have"),
    dict(name="v306-rnn-graph-dx-not-cut", file=RNN,
         old="        return (head(plan.dx, T), copy(plan.dh),",
         new="        return (plan.dx, copy(plan.dh),",
         tests=[RNN_GRAPH] + OLD_RNN,
         why="a longer plan's dx comes back with all its steps"),
    dict(name="v306-rnn-graph-saved-rstd-not-cut", file=RNN,
         old="        saved = (y, head(plan.ahat, T), head(plan.rstd, T)) if ln else",
         new="        saved = (y, head(plan.ahat, T), plan.rstd) if ln else",
         tests=[RNN_GRAPH] + OLD_RNN,
         why="a longer plan's saved rstd keeps all its steps"),
    # ---- lnrnn/kernels/bn_lstm_cuda.py ----
    dict(name="v306-bn-lstm-saved-mean-rstd-x-swapped", file=BNL,
         old="    saved = tuple(out(a) for a in (plan.xw, plan.mean_x, plan.rstd_x, plan.hw,",
         new="    saved = tuple(out(a) for a in (plan.xw, plan.rstd_x, plan.mean_x, plan.hw,",
         tests=[BN_GRAPH + "[training]", BN_GRAPH + "[evaluation]"] + OLD_BN,
         why="the saved x-side mean and 1/std trade places: the backward's x side is off"),
    dict(name="v306-bn-lstm-fwd-c-stats-swapped", file=BNL,
         old="                mean_c_t[j], rstd_c_t[j] = mc, rc",
         new="                mean_c_t[j], rstd_c_t[j] = rc, mc",
         tests=[BN_GRAPH + "[training]", BN_GRAPH + "[evaluation]"] + OLD_BN,
         why="the forward saves c_t's 1/std as its mean and the mean as the 1/std"),
    dict(name="v306-bn-lstm-graph-dx-not-cut", file=BNL,
         old="    return (plan.dx if fresh else head(plan.dx, T), own(plan.dh),",
         new="    return (plan.dx, own(plan.dh),",
         tests=[BN_GRAPH + "[training]", BN_GRAPH + "[evaluation]"] + OLD_BN,
         why="a cached longer plan's dx comes back with all its steps (and the plan's own buffer)"),
]
