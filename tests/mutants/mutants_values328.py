"""Planted bugs, round 328 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the LSTM/LN-LSTM CUDA twin (lnrnn/kernels/lstm_cuda.py), seventeenth pass: the forward row's preactivation
without the h-side gain gh; the saved hhat holding h_{t-1} Wh before its LayerNorm; the saved chat holding c_t
before its LayerNorm; the sequence kernel's next h (and the per-step loop's y) taking tanh of the cell instead of
h; the backward's output gate read from the candidate's column; the carried dL/dc_{t+1} dropped from dL/dc_t; the
x-side LayerNorm backward summing over gh instead of gx; _rstd_load copying two of the three rstd rows into a
plan; _centered_rows leaving the last column of each centered row unwritten; the input and recurrent products'
gradients swapped in projection_grads' call; the per-step forward writing step t's y into row t - 1;
lstm_backward's clip not passed on to the time loop; step_threads not rounding H up to a power of two;
_rstd_load's refusal naming the call's shape for the plan's.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values328_lstm_cuda (the sequence kernels and
the per-step loop with LayerNorm and a binding clip at 0.05, training and lstm_infer, the per-step loop without
a norm and a fresh captured plan with LayerNorm, B 3, H 5 over blocks of 4, float64: y, hT, cT against
lnrnn/reference.py's spec, every saved array and all twelve gradients against the CPU twin to 1e-12;
step_threads at H 1 .. 200 against its definition worked out by hand; _rstd_load's refusal word for word).
Left out as equivalent: the rstd writes' `threadIdx.x == 0` made another thread (every thread of the block holds
the same r_h, r_c); xhat_into's grid over Wx.shape[1] rows instead of Wx.shape[0] (a grid-stride loop covers the
rows either way); _seq_geometry's seq_threads(G) made seq_threads(H) (only the block size and the fit test move,
the values do not, and the tests choose the loop themselves). Left out as flaky: bwd_seq's zeroing of dc0 and dh
(the simulator's fresh shared and device arrays may already hold zeros).

    python tests/mutants/run.py --only 'v328-*'
"""
LC = "lnrnn/kernels/lstm_cuda.py"

T_LC = "tests/kernels/test_values328_lstm_cuda.py::"
SEQ = T_LC + "test_layernorm_with_clip_training_and_evaluation[sequence]"
STEP = T_LC + "test_layernorm_with_clip_training_and_evaluation[per-step]"
NONE = T_LC + "test_per_step_loop_without_norm"
GRAPH = T_LC + "test_fresh_graph_plan_with_layernorm"
THREADS = T_LC + "test_step_threads_by_hand"
REFUSAL = T_LC + "test_rstd_load_refuses_a_longer_call_word_for_word"
OLD = ["tests/kernels/test_values_lstm_cuda.py", "tests/kernels/test_values85_lstm_cuda.py",
       "tests/kernels/test_values174_lstm_cuda.py", "tests/kernels/test_values262_lstm_cuda.py",
       "tests/kernels/test_values294_lstm_cuda.py", "tests/kernels/test_values306_lstm_cuda.py"]

MUTANTS = [
    dict(name="v328-lstm-cuda-fwd-gh-gain-dropped", file=LC,
         old="                        a = g_h[4 * u + q] * hh + pre[4 * u + q]\n",
         new="                        a = hh + pre[4 * u + q]\n",
         tests=[SEQ, STEP] + OLD,
         why="the LN-LSTM's preactivation takes the normalized h_{t-1} Wh without its gain gh"),
    dict(name="v328-lstm-cuda-fwd-hhat-unnormalized", file=LC,
         old="                        hhat[j] = hh\n",
         new="                        hhat[j] = v[4 * u + q]\n",
         tests=[SEQ, STEP] + OLD,
         why="the saved hhat is h_{t-1} Wh before its LayerNorm: dgh and the backward's LN sums go wrong"),
    dict(name="v328-lstm-cuda-fwd-chat-unnormalized", file=LC,
         old="                    chat[k] = ch\n",
         new="                    chat[k] = cv[u]\n",
         tests=[SEQ, STEP] + OLD,
         why="the saved chat is c_t before its LayerNorm: dgc and dL/dc_t through the norm go wrong"),
    dict(name="v328-lstm-cuda-fwd-h-copy-is-tanh-cell", file=LC,
         old="                h_copy[k] = h\n",
         new="                h_copy[k] = tk\n",
         tests=[SEQ, STEP, NONE] + OLD,
         why="the next step's h (the sequence kernel's hs, the per-step loop's y) is tanh of the cell, not o * tanh"),
    dict(name="v328-lstm-cuda-bwd-output-gate-from-candidate", file=LC,
         old="                o = gv[4 * u + 3]\n",
         new="                o = gv[4 * u + 2]\n",
         tests=[SEQ, STEP, NONE] + OLD,
         why="the backward reads the output gate from the candidate's column"),
    dict(name="v328-lstm-cuda-bwd-carried-dc-dropped", file=LC,
         old="                dck = d + uv[5 * u + 4]\n",
         new="                dck = d\n",
         tests=[SEQ, STEP, NONE] + OLD,
         why="dL/dc_t forgets dL/dc_{t+1} * f_{t+1} carried from the later step"),
    dict(name="v328-lstm-cuda-bwd-x-ln-sum-over-gh", file=LC,
         old="                        x1 += d * lnv[16 * u + 8 + q]\n",
         new="                        x1 += d * lnv[16 * u + q]\n",
         tests=[SEQ, STEP] + OLD,
         why="the x-side LayerNorm backward's mean term sums dL/da times gh instead of gx: dx and dWx go wrong"),
    dict(name="v328-lstm-cuda-rstd-load-two-rows", file=LC,
         old="    for r in range(3):\n        copy_bytes(dst, rstd, n, r * m, r * n)\n",
         new="    for r in range(2):\n        copy_bytes(dst, rstd, n, r * m, r * n)\n",
         tests=[GRAPH] + OLD,
         why="a plan's backward gets the rstd rows of x and h_{t-1} Wh but not that of c_t (zeros in a fresh plan)"),
    dict(name="v328-lstm-cuda-centered-rows-last-column", file=LC,
         old="        for j in range(G):\n            out[k, j] = float64(W[k, j]) - m\n",
         new="        for j in range(G - 1):\n            out[k, j] = float64(W[k, j]) - m\n",
         tests=[SEQ, STEP, GRAPH] + OLD,
         why="the centered Wx's last column is never written: the recomputed xhat_x of a narrow input is wrong there"),
    dict(name="v328-lstm-cuda-projection-grads-swapped", file=LC,
         old="    dx, dWx, dWh = projection_grads(dXW, dHW, x, h0, y, Wx)\n",
         new="    dx, dWx, dWh = projection_grads(dHW, dXW, x, h0, y, Wx)\n",
         tests=[SEQ, STEP] + OLD,
         why="with LayerNorm dx and dWx take dL/d(h Wh) and dWh, dh0 take dL/d(x Wx)"),
    dict(name="v328-lstm-cuda-step-forward-y-row-early", file=LC,
         old="        out = (gates[t], c[t], tc[t], y[t], hhat[t] if ln else d2, chat[t] if ln else d2)\n",
         new="        out = (gates[t], c[t], tc[t], y[t - 1], hhat[t] if ln else d2, chat[t] if ln else d2)\n",
         tests=[STEP, NONE] + OLD,
         why="the per-step forward writes step t's output into row t - 1"),
    dict(name="v328-lstm-cuda-backward-clip-not-passed", file=LC,
         old="                                                         (gx, gh, gc), ln, clip)\n",
         new="                                                         (gx, gh, gc), ln, 0.0)\n",
         tests=[SEQ, STEP, NONE] + OLD,
         why="the sequence and per-step backward ignore Graves's clip"),
    dict(name="v328-lstm-cuda-step-threads-not-rounded", file=LC,
         old="    return max(threads_per_block(), min(int(config.CUDA_SEQ_MAX_THREADS), n))\n",
         new="    return max(threads_per_block(), min(int(config.CUDA_SEQ_MAX_THREADS), H))\n",
         tests=[THREADS] + OLD,
         why="the graph path's block is H threads, not H rounded up to a power of two"),
    dict(name="v328-lstm-cuda-rstd-load-message-shapes", file=LC,
         old="rstd into a plan's {dst.dtype} {dst.shape}\")",
         new="rstd into a plan's {dst.dtype} {rstd.shape}\")",
         tests=[REFUSAL] + OLD,
         why="_rstd_load's refusal names the call's shape as the plan's"),
]
