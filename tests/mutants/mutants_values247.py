"""Planted bugs, round 247 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the host-side drivers of the CUDA twins lnrnn/kernels/lstm_cuda.py, rnn_cuda.py and window_cuda.py,
run under Numba's CUDA simulator: the LSTM's sequence kernels offered where their shared arrays do not fit (the
partial sums of dv Wh^T left out of the count); the per-step forward starting step 1 from h0 again; the saved
rstd rows of h_{t-1} Wh and of c_t swapped; the captured forward loading c0 as h0 and h0 as c0; lstm_infer
returning hT for cT; the captured backward with LayerNorm never loading the saved rstd; the per-step backward
skipping the last step; its rstd of h and c swapped; the plain LSTM's backward returning dL/dc0 for dL/dh0 and the
reverse; the RNN's captured backward returning db for dg and loading y_0 as h0; the window layer's backward judging
a row active one step late (a row of L steps loses step L-1); the window layer's backward dropping Graves's clip;
the text check's refusal of ulen naming U - 1 as the top.

14 mutants. Against the old targeted files alone (the OLD_* lists, under the simulator): 10 caught; missed were the
sequence kernels chosen where their partial sums do not fit, lstm_infer returning h_T as c_T (a chunked evaluation
on a GPU would carry the wrong cell state), the window backward ignoring the gate clip, and the ulen refusal naming
U - 1 as the top. The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values247_lstm_rnn_cuda (float64 B = 3, I = 4, H = 5 on blocks of 4 threads: the per-step loop with
LayerNorm, T = 4, against lnrnn/reference.py's y, hT, cT and the CPU twin's saved rstd rows and twelve gradients
under a clip of 0.05 that bites; lstm_infer's cT against the spec; the plain cell's backward in float32 against the
float64 CPU twin; the captured forward and backward with h0 far from c0; the sequence kernels' choice at exactly the
bytes of their four shared arrays and one byte fewer; the RNN's captured LN backward against the CPU twin),
test_values247_window_cuda (the plain window layer over rows of 4, 0 and 1 steps of T = 4 with a clip of 0.05 that
bites, forward and every gradient against the CPU twin with the same clip; the ulen refusal word for word).

Left out as equivalent: lstm_cuda.step_threads's max(threads_per_block(), ...) made min (the graph plans'
kernels loop over the units a thread owns: any block width gives the same values, only the speed moves); the
captured LSTM backward's zeroing of the rstd rows past T limited to two of the three (finite leftovers times
dL/dh = 0 still give exact zeros); rnn_cuda's sequence-kernel block width taken from threads_per_block (the test
geometry sets both to the same width). Left out as too costly for the simulator: the RNN's captured backward
returning all S rows of dx where a plan of S > T steps serves (the first plan longer than its call needs T >= 9,
ten captured steps twice).

    python tests/mutants/run.py --only 'v247-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"
WIN = "lnrnn/kernels/window_cuda.py"

T_LSTM = "tests/kernels/test_values247_lstm_rnn_cuda.py::"
T_WIN = "tests/kernels/test_values247_window_cuda.py::"
OLD_LSTM = ["tests/kernels/test_values188_lstm_cuda.py", "tests/kernels/test_values174_lstm_cuda.py",
            "tests/kernels/test_values85_lstm_cuda.py"]
OLD_RNN = ["tests/kernels/test_values153_rnn_cuda.py", "tests/kernels/test_values188_rnn_cuda.py"]
OLD_WIN = ["tests/kernels/test_values175_window_cuda.py", "tests/kernels/test_values187_window_cuda.py",
           "tests/kernels/test_values152_window_cuda.py"]

STEP = T_LSTM + "test_step_loop_with_layernorm_and_clip_equals_the_spec_and_the_cpu_twin"
PLAIN = T_LSTM + "test_plain_cell_backward_in_float32_equals_the_cpu_twin"
GRAPH = T_LSTM + "test_captured_forward_and_backward_with_layernorm_equal_the_spec_and_the_cpu_twin"
FITS = T_LSTM + "test_sequence_kernels_chosen_at_exactly_their_shared_bytes"
RNN_GRAPH = T_LSTM + "test_rnn_captured_backward_with_layernorm_equals_the_cpu_twin"
WIN_RUN = T_WIN + "test_plain_layer_over_rows_of_4_0_and_1_steps_with_clip_equals_the_cpu_twin"
WIN_REF = T_WIN + "test_ulen_past_u_refused_word_for_word"

MUTANTS = [
    # ---- lnrnn/kernels/lstm_cuda.py ----
    dict(name="v247-lstm-seq-fits-without-partial-sums", file=LSTM,
         old="    return tpb, seq_fits(4 * tpb + H + G + split_groups(H, tpb) * H, dtype)",
         new="    return tpb, seq_fits(4 * tpb + H + G, dtype)",
         tests=[FITS] + OLD_LSTM,
         why="the sequence kernels are chosen where their shared arrays do not fit (the dv Wh^T partial sums left "
             "out): a launch that a GPU refuses"),
    dict(name="v247-lstm-step-fwd-h0-again-at-step-1", file=LSTM,
         old="        matmul(h0 if t == 0 else y[t - 1], Wh, out=hw)",
         new="        matmul(h0 if t <= 1 else y[t - 1], Wh, out=hw)",
         tests=[STEP] + OLD_LSTM,
         why="the per-step forward feeds h0 to step 1 as well as step 0: every output from step 1 on is wrong"),
    dict(name="v247-lstm-step-fwd-rstd-rows-swapped", file=LSTM,
         old="                         rstd[1, t] if ln else d1, rstd[2, t] if ln else d1)",
         new="                         rstd[2, t] if ln else d1, rstd[1, t] if ln else d1)",
         tests=[STEP] + OLD_LSTM,
         why="the saved 1/std of h_{t-1} Wh and of c_t trade rows: the outputs are right, the backward is not"),
    dict(name="v247-lstm-graph-fwd-h0-c0-swapped", file=LSTM,
         old="load(zip((plan.x, plan.Wx, plan.h0, plan.c0, plan.Wh) + plan.p, (x, Wx, h0, c0, Wh) + p))",
         new="load(zip((plan.x, plan.Wx, plan.h0, plan.c0, plan.Wh) + plan.p, (x, Wx, c0, h0, Wh) + p))",
         tests=[GRAPH] + OLD_LSTM,
         why="the captured forward starts from c0 as h0 and h0 as c0"),
    dict(name="v247-lstm-infer-ct-is-ht", file=LSTM,
         old="    return y, hT, cT",
         new="    return y, hT, hT",
         tests=[STEP] + OLD_LSTM,
         why="lstm_infer returns the last hidden state for the last cell state: a chunked evaluation carries the "
             "wrong c"),
    dict(name="v247-lstm-graph-bwd-rstd-not-loaded", file=LSTM,
         old="            _rstd_load(plan.rstd, rstd)",
         new="            pass",
         tests=[GRAPH] + OLD_LSTM,
         why="the captured LN backward runs on the plan's own rstd rows (zeros, or an earlier call's), not the "
             "saved ones"),
    dict(name="v247-lstm-step-bwd-skips-last-step", file=LSTM,
         old="    for t in range(-1 if seq else T - 1, -1, -1):  # the per-step path",
         new="    for t in range(-1 if seq else T - 2, -1, -1):  # the per-step path",
         tests=[STEP, PLAIN] + OLD_LSTM,
         why="the per-step backward starts one step early: the last step's dL/dh never enters the gradients"),
    dict(name="v247-lstm-step-bwd-rstd-h-c-swapped", file=LSTM,
         old="        rs = (rstd[0, t], rstd[1, t], rstd[2, t]) if ln else (d1, d1, d1)",
         new="        rs = (rstd[0, t], rstd[2, t], rstd[1, t]) if ln else (d1, d1, d1)",
         tests=[STEP] + OLD_LSTM,
         why="the per-step LN backward divides by the cell's std where the recurrent product's belongs, and back"),
    dict(name="v247-lstm-plain-bwd-dh0-dc0-swapped", file=LSTM,
         old="    return dx, dh_next, dc_next, dWx, dWh, db, zeros(G, dt)",
         new="    return dx, dc_next, dh_next, dWx, dWh, db, zeros(G, dt)",
         tests=[PLAIN] + OLD_LSTM,
         why="without normalization the per-step backward returns dL/dc0 as dL/dh0 and the reverse"),
    # ---- lnrnn/kernels/rnn_cuda.py ----
    dict(name="v247-rnn-graph-bwd-dg-is-db", file=RNN,
         old="copy(plan.sums[1]).reshape(H) if ln else zeros(H, dt))",
         new="copy(plan.sums[0]).reshape(H) if ln else zeros(H, dt))",
         tests=[RNN_GRAPH] + OLD_RNN,
         why="the captured LN-RNN backward returns db (sum dZ) as dg (sum dZ * ahat)"),
    dict(name="v247-rnn-graph-bwd-h0-is-y0", file=RNN,
         old="(plan.x, x), (plan.h0, h0), (plan.Wx, Wx)",
         new="(plan.x, x), (plan.h0, y[0]), (plan.Wx, Wx)",
         tests=[RNN_GRAPH] + OLD_RNN,
         why="the captured RNN backward loads y_0 as h0: step 0's share of dWh is taken against the wrong state"),
    # ---- lnrnn/kernels/window_cuda.py ----
    dict(name="v247-window-bwd-active-one-step-late", file=WIN,
         old="cell_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t,",
         new="cell_bwd[B, tpb, stream]((a.dy[t], a.dw[t], a.dw_next), a.lengths, t + 1,",
         tests=[WIN_RUN] + OLD_WIN,
         why="the window's backward judges a row active iff t + 1 < length: a row of L steps drops step L-1's "
             "window gradients"),
    dict(name="v247-window-bwd-clip-dropped", file=WIN,
         old="(a.dh_next, a.dc_next), sv, rs, a.p, ln, clip,",
         new="(a.dh_next, a.dc_next), sv, rs, a.p, ln, 0.0,",
         tests=[WIN_RUN] + OLD_WIN,
         why="the window layer's plain/LN backward ignores Graves's clip"),
    dict(name="v247-window-ulen-refusal-names-u-minus-1", file=WIN,
         old='ulen must lie in [0, U] = [0, {U}]',
         new='ulen must lie in [0, U] = [0, {U - 1}]',
         tests=[WIN_REF] + OLD_WIN,
         why="a text length past U is refused naming U - 1 as the top of [0, U], where U itself is allowed"),
]
