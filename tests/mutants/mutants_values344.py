"""Planted bugs, round 344 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the CPU RNN and LN-RNN (lnrnn/kernels/rnn.py) and its CUDA twin (lnrnn/kernels/rnn_cuda.py), eighteenth
pass. The CPU twin: the forward's step 1 starting again from h0 instead of y_0; the forward's and the backward's
chunk rows taken from the batch's first rows (bb = r); a wide input's x_t Wx added to every unit but the last;
the backward's dL/dz skipping the last unit (its db and dA stale); the backward's input width read from the batch
axis. The CUDA twin: every unit's bias taken from the gain; the saved ahat the raw preactivation; fwd_row returning
one for the LayerNorm's rstd; the LN backward's second sum left unscaled by 1/H; the per-step forward's 1/H taken
from the batch size; the sequence backward writing dA into dZ; the captured backward's plan keyed without the norm;
the captured backward not loading the gain.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values344_rnn (T = 4, B = 5, H = 5 on 1, 2 and 3
chunks, I = 1, 3 and 6, LN on and off: rows of lengths T, 0, 1, T and 3 in one batch against the spec of
lnrnn/reference.py run on each row alone over its own steps, the weight gradients the sum of the rows'; two calls
of 2 steps with h and dh0 carried against one pass of the spec; every gradient of the masked loss against central
differences of the spec's loss), test_values344_rnn_cuda (the simulator at B = 3, H = 5 over blocks of 4 threads,
I = 1, 3 and 6, LN on and off, on the sequence, per-step and graph loops: y, hT, the saved ahat and rstd and the
six gradients with dy zero past lengths T, 0 and 1 against the CPU twin to 1e-12; the graph loop without LN, with
it and without again in one plan cache; two calls of 2 and 1 steps with the state carried). Left out as
equivalent: the forward's and the backward's largest chunk size -(-B // nch) made B // nch (the scratch is m + 1
rows, at least the ceiling); fold's 0 < I <= FOLD_MAX_I made < in either pass (both paths compute the same
numbers, and the two passes need not agree); the backward's fetch_table and plan_steps lines (prefetch requests
only); rnn_path called without T in the backward (the path changes, not the values); fwd_seq's rstd written by
thread 1 instead of 0 (blocks have more than one thread); rnn_infer keeping the full saved arrays (the same y and
hT); m, r = zero, zero before the LayerNorm (r is stored only with LN, where it is overwritten); the graph
backward's `plan.dy.shape[0] > T` made >= (fill_zeros of an empty slice). Left out as flaky: loops over H - 1
units where the missing unit is then read from np.empty or an uninitialised device array (the forward's y without
LN, the backward's dA without LN, the sequence forward's h0 copy), the backward's dL/dh_{t+1} rows or partial sums
made np.empty, rnn_forward's saved arrays one step long (the backward then reads past them).

    python tests/mutants/run.py --only 'v344-*'
"""
RNN = "lnrnn/kernels/rnn.py"
CUDA = "lnrnn/kernels/rnn_cuda.py"

T_CPU = "tests/kernels/test_values344_rnn.py::"
T_CUDA = "tests/kernels/test_values344_rnn_cuda.py::"
OLD_CPU = ["tests/kernels/test_values147_rnn.py", "tests/kernels/test_values302_rnn.py",
           "tests/kernels/test_values268_lstm_rnn.py"]
OLD_CUDA = ["tests/kernels/test_values153_rnn_cuda.py", "tests/kernels/test_values270_rnn_cuda.py",
            "tests/kernels/test_values247_lstm_rnn_cuda.py"]

LENGTHS = T_CPU + "test_lengths_0_1_and_T_in_one_batch_equal_each_row_alone"
CARRIED = T_CPU + "test_two_calls_with_the_state_carried_equal_one_pass_of_the_spec"
DIFFS = T_CPU + "test_every_gradient_of_the_masked_loss_against_central_differences"
EVERY = T_CUDA + "test_every_output_saved_row_and_gradient_equal_the_cpu_twin"
ALTERNATING = T_CUDA + "test_graph_loop_none_ln_none_at_one_shape_in_one_plan_cache"
TWO_CALLS = T_CUDA + "test_two_calls_with_the_state_carried_equal_one_call_of_the_cpu_twin"

MUTANTS = [
    # ---- the CPU twin: lnrnn/kernels/rnn.py ----
    dict(name="v344-rnn-step-one-from-h0", file=RNN,
         old="        if t == 0:\n            rec_mul_fetch(h0[lo:hi], Wh, P, a, plan[:npl])",
         new="        if t <= 1:\n            rec_mul_fetch(h0[lo:hi], Wh, P, a, plan[:npl])",
         tests=[LENGTHS, CARRIED, DIFFS] + OLD_CPU,
         why="the forward's step 1 takes h0 Wh again instead of y_0 Wh: the recurrence starts one step late"),
    dict(name="v344-rnn-forward-chunk-rows-from-zero", file=RNN,
         old="        for r in range(hi - lo):\n            bb = lo + r\n            if fold:",
         new="        for r in range(hi - lo):\n            bb = r\n            if fold:",
         tests=[LENGTHS, CARRIED] + OLD_CPU,
         why="every chunk of the forward reads and writes the batch's first rows: with 2 or more chunks the later "
             "rows are never computed and the first ones overwritten"),
    dict(name="v344-rnn-wide-input-skips-last-unit", file=RNN,
         old="            else:\n                for k in range(H):\n                    a[r, k] += xw[r, k]",
         new="            else:\n                for k in range(H - 1):\n                    a[r, k] += xw[r, k]",
         tests=[LENGTHS, CARRIED, DIFFS] + OLD_CPU,
         why="a wide input's x_t Wx reaches every unit's preactivation but the last"),
    dict(name="v344-rnn-backward-chunk-rows-from-zero", file=RNN,
         old="        for r in range(hi - lo):\n            bb = lo + r\n            for k in range(H):",
         new="        for r in range(hi - lo):\n            bb = r\n            for k in range(H):",
         tests=[LENGTHS, CARRIED] + OLD_CPU,
         why="every chunk of BPTT reads the first rows' y, dy and ahat and writes their dA: the later rows' "
             "gradients are wrong with 2 or more chunks"),
    dict(name="v344-rnn-backward-dz-skips-last-unit", file=RNN,
         old="            for k in range(H):\n                yk = y[t, bb, k]",
         new="            for k in range(H - 1):\n                yk = y[t, bb, k]",
         tests=[LENGTHS, CARRIED, DIFFS] + OLD_CPU,
         why="the backward's dL/dz skips the last unit: its db stays zero and its dA carries a stale value"),
    dict(name="v344-rnn-backward-width-from-batch", file=RNN,
         old="    I = x.shape[2]\n    dt = dy.dtype\n    ln = norm == NORM_LN\n    fold",
         new="    I = x.shape[1]\n    dt = dy.dtype\n    ln = norm == NORM_LN\n    fold",
         tests=[LENGTHS, CARRIED, DIFFS] + OLD_CPU,
         why="the backward reads its input width from the batch axis: dx has B columns, the narrow/wide choice "
             "follows B"),
    # ---- the CUDA twin: lnrnn/kernels/rnn_cuda.py ----
    dict(name="v344-cuda-bias-from-gain", file=CUDA,
         old="                gb[2 * u + 1] = b[k]",
         new="                gb[2 * u + 1] = g[k]",
         tests=[EVERY, TWO_CALLS] + OLD_CUDA,
         why="every unit's bias is taken from the gain array, with and without LN, on every loop"),
    dict(name="v344-cuda-ahat-saved-raw", file=CUDA,
         old="                    ahat[k] = ah",
         new="                    ahat[k] = av[u]",
         tests=[EVERY] + OLD_CUDA,
         why="the saved ahat is the raw preactivation, not the normalized one: dg and the LN backward are wrong"),
    dict(name="v344-cuda-rstd-returned-one", file=CUDA,
         old="                h_copy[k] = h\n        return r",
         new="                h_copy[k] = h\n        return one",
         tests=[EVERY] + OLD_CUDA,
         why="fwd_row returns one for the LayerNorm's rstd: the saved rstd is 1 and the LN backward unscaled"),
    dict(name="v344-cuda-ln-backward-s2-unscaled", file=CUDA,
         old="            s1, s2 = s1 * inv_h, s2 * inv_h",
         new="            s1, s2 = s1 * inv_h, s2",
         tests=[EVERY, TWO_CALLS] + OLD_CUDA,
         why="the LN backward's mean of dz g ahat is left a sum (not divided by H)"),
    dict(name="v344-cuda-step-inv-h-from-batch", file=CUDA,
         old="one / dt(a.shape[1]), y_t[bb], ahat_t[bb],",
         new="one / dt(a.shape[0]), y_t[bb], ahat_t[bb],",
         tests=[EVERY, TWO_CALLS] + OLD_CUDA,
         why="the per-step (and captured) forward's LayerNorm divides by the batch size B instead of H"),
    dict(name="v344-cuda-seq-backward-da-into-dz", file=CUDA,
         old="                                                        dA, dh_next)",
         new="                                                        dZ, dh_next)",
         tests=[EVERY, TWO_CALLS] + OLD_CUDA,
         why="the LN sequence backward writes dA over dZ: db and dg sum dA, and dx, dWx, dWh read an unwritten dA"),
    dict(name="v344-cuda-backward-plan-key-without-norm", file=CUDA,
         old='plan = plan_for("rnn backward", T, (B, H, I, np.dtype(dt).str, ln),',
         new='plan = plan_for("rnn backward", T, (B, H, I, np.dtype(dt).str),',
         tests=[ALTERNATING] + OLD_CUDA,
         why="the captured backward's plan is keyed without the norm: an LN backward replays the plan made "
             "without LN at the same shape (or the reverse)"),
    dict(name="v344-cuda-graph-backward-gain-not-loaded", file=CUDA,
         old="+ ([(plan.ahat, ahat), (plan.rstd, rstd), (plan.g, g)] if ln else []))",
         new="+ ([(plan.ahat, ahat), (plan.rstd, rstd)] if ln else []))",
         tests=[EVERY, ALTERNATING, TWO_CALLS] + OLD_CUDA,
         why="the captured LN backward never loads the gain: it runs with the plan's zeros (or an earlier call's)"),
]
