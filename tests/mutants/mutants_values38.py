"""Planted bugs, round 38 (format: tests/mutants/mutants.py): the CUDA twins with every option on, and the CPU code
they are checked against. rnn_cuda (eps on the sequence kernel and on the per-step launches, the sequence kernel's
LayerNorm over H, the LN backward's second sum, dh0's last unit), window_cuda (the LN step's eps, the BN step's
momentum and the x side's eps, the backward's mask, the gather of w over the whole text, kappa's step, the BN
backward's gate clip), ctc_cuda (a row of no steps and no label, the posterior's last position), losses_cuda (the
cross-entropy's mask, the edit distance's last label), arrays_cuda (final_rows of a row of length 0, seq_fits at
the byte budget exactly), bn_cell_x's fold path of a narrow input (eps in inference, momentum, the running mean in
the inference backward), bn_parts (eps in inference, momentum) and cpu/rows (copy_rows's last row).

24 mutants. Against the existing targeted tests alone (each run before the new tests were listed) 15 were caught
and 9 missed: every one a non-default option that the twins' tests never set, as they all run at eps 1e-5 and
momentum 0.1 (the LN-RNN's eps on the sequence kernel and on the per-step launches, outside the graph path's plan
test; the window layer's BN momentum and its x side's eps; the CPU BN cells' fold path at eps in inference and
at momentum; bn_parts's eps in inference and momentum), and seq_fits refusing shared arrays that fill
CUDA_SHARED_BYTES exactly. The new value tests catch every mutant: test_values38_rnn_cuda (an LN-RNN at eps 0.3 on
both paths, H 5 on 8 threads and H 9 on 4 with I = 1, against the CPU twin), test_values38_window_cuda (the window
layer at eps 0.3 and momentum 0.35, LN and BN in training and inference, padded rows, a text of the full width and
none, against the spec), test_values38_bn_cells_cuda (the BN-LSTM and BN-RNN at eps 0.3 and momentum 0.35, I = 1
on the CPU's fold path and I = 6, training and inference, ragged lengths with a row of 0, each side's own running
rows, against the CPU twins) and test_values38_seq_fit (seq_fits at, below and past the byte budget in float32
and float64; the RNN and LSTM twins on an exact fit take the sequence kernels, a byte less the per-step launches,
and equal the CPU twins). Each new test first checks that its option is felt (other outputs or running rows at the
defaults). No mutant written for this round was dropped; one considered was not written as equivalent:
rows_transposed ignoring its first row j0 (both callers pass 0).

    python tests/mutants/run.py --only 'v38-*'
"""
RNNC = "lnrnn/kernels/rnn_cuda.py"
WINC = "lnrnn/kernels/window_cuda.py"
CTCC = "lnrnn/kernels/ctc_cuda.py"
LOSSC = "lnrnn/kernels/losses_cuda.py"
ARRC = "lnrnn/kernels/cuda/arrays_cuda.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
PARTS = "lnrnn/kernels/bn_parts.py"
ROWS = "lnrnn/kernels/cpu/rows.py"

CK = "tests/kernels/test_cuda_kernels.py"

# existing tests of these modules
RNNC_OLD = [f"{CK}::test_rnn_matches_cpu", f"{CK}::test_infer_twins_match_cpu"]
WINC_OLD = ["tests/kernels/test_window_cuda.py", "tests/kernels/test_cuda_window_graphs.py",
            "tests/kernels/test_values22_window_graphs.py"]
CTCC_OLD = ["tests/kernels/test_ctc_cuda.py"]
LOSSC_OLD = ["tests/kernels/test_values22_losses_cuda.py", "tests/kernels/test_values9_losses_cuda.py",
             "tests/training/test_device_update.py::test_head_objective_kernels_equal_the_host_heads",
             "tests/training/test_device_update.py::test_model_update_on_device_equals_the_host_head"]
ARRC_OLD = ["tests/kernels/test_values_arrays_cuda.py", "tests/kernels/test_values19_arrays_cuda.py",
            f"{CK}::test_rnn_matches_cpu", f"{CK}::test_lstm_matches_cpu"]
BNCELLS_OLD = ["tests/kernels/test_values18_bn_cell_x.py", "tests/kernels/test_values22_bn_cells.py",
               "tests/kernels/test_values11_bn_cells.py", f"{CK}::test_bn_cells_match_cpu",
               f"{CK}::test_bn_cells_masked_match_cpu", "tests/kernels/test_bn_cells.py"]
ROWS_OLD = [f"{CK}::test_lstm_matches_cpu", f"{CK}::test_rnn_matches_cpu"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RNNC_NEW = ["tests/kernels/test_values38_rnn_cuda.py"]
WINC_NEW = ["tests/kernels/test_values38_window_cuda.py"]
SEQFIT_NEW = ["tests/kernels/test_values38_seq_fit.py"]
BNCELLS_NEW = ["tests/kernels/test_values38_bn_cells_cuda.py"]

MUTANTS = [
    # ---- rnn_cuda: options and bounds ----
    dict(name="v38-rnn-cuda-seq-eps-default", file=RNNC,
         old="[0][B, stpb](xp, h0, Wh, b, g, ln, float(eps), y,",
         new="[0][B, stpb](xp, h0, Wh, b, g, ln, 1e-5, y,",
         tests=RNNC_NEW + RNNC_OLD,
         why="the LN-RNN's sequence kernel runs at the default eps whatever eps the call gives"),
    dict(name="v38-rnn-cuda-step-eps-default", file=RNNC,
         old="fwd_step[B, tpb](a, xp[t], b, g, ln, float(eps), y[t],",
         new="fwd_step[B, tpb](a, xp[t], b, g, ln, 1e-5, y[t],",
         tests=RNNC_NEW + RNNC_OLD,
         why="the LN-RNN's per-step launches run at the default eps whatever eps the call gives"),
    dict(name="v38-rnn-cuda-seq-mean-over-block", file=RNNC,
         old="r = fwd_row(sh, a, xp[t, bb], b, g, ln, dt(eps), one, one / dt(H), y[t, bb]",
         new="r = fwd_row(sh, a, xp[t, bb], b, g, ln, dt(eps), one, one / dt(n), y[t, bb]",
         tests=RNNC_NEW + RNNC_OLD,
         why="the sequence kernel's LayerNorm divides its sums by the block's threads, not by H"),
    dict(name="v38-rnn-cuda-bwd-s2-not-averaged", file=RNNC,
         old="            s1, s2 = s1 * inv_h, s2 * inv_h\n",
         new="            s1, s2 = s1 * inv_h, s2\n",
         tests=RNNC_NEW + RNNC_OLD,
         why="the LN backward's second sum (dL/dahat . ahat) is not divided by H"),
    dict(name="v38-rnn-cuda-seq-dh0-last-unit", file=RNNC,
         old="        for k in range(tid, H, n):\n            dh0[bb, k] = dh[k]",
         new="        for k in range(tid, H - 1, n):\n            dh0[bb, k] = dh[k]",
         tests=RNNC_NEW + RNNC_OLD,
         why="the sequence backward writes dh0 one unit short: the last hidden unit's dh0 stays zero"),
    # ---- window_cuda: eps, momentum, masks, texts, clip ----
    dict(name="v38-window-cuda-ln-eps-default", file=WINC,
         old="        e = dt(eps)\n        inv_g = one / dt(G)",
         new="        e = dt(1e-5)\n        inv_g = one / dt(G)",
         tests=WINC_NEW + WINC_OLD,
         why="the window layer's LN-LSTM step (all three LayerNorms) runs at the default eps"),
    dict(name="v38-window-cuda-bn-momentum-default", file=WINC,
         old="    momentum, eps = float(momentum), float(eps)\n",
         new="    momentum, eps = 0.1, float(eps)\n",
         tests=WINC_NEW + WINC_OLD,
         why="the window layer's BN-LSTM folds its running statistics at momentum 0.1 whatever the call gives"),
    dict(name="v38-window-cuda-bn-x-eps-default", file=WINC,
         old="(one, dt(momentum), dt(eps)))",
         new="(one, dt(momentum), dt(1e-5)))",
         tests=WINC_NEW + WINC_OLD,
         why="BN_t of the window layer's x side (x_t WxI + w_{t-1} WxC) runs at the default eps"),
    dict(name="v38-window-cuda-cell-bwd-mask-off-by-one", file=WINC,
         old="s < lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),\n"
             "                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], one)",
         new="s <= lengths[bb], dkappa[bb], (abk_s[bb], kappa_s[bb]),\n"
             "                       chars[bb], min(ulen[bb], chars.shape[1]), WpT, dp_t[bb], dh_t[bb], one)",
         tests=WINC_NEW + WINC_OLD,
         why="the NONE/LN window backward takes dy and dw of the first padded step as active"),
    dict(name="v38-window-cuda-gather-drops-last-char", file=WINC,
         old="        for u in range(L):\n            if chars[u] == cls:",
         new="        for u in range(L - 1):\n            if chars[u] == cls:",
         tests=WINC_NEW + WINC_OLD,
         why="w_t gathers phi over the text's first L-1 characters: the last character never reaches w"),
    dict(name="v38-window-cuda-kappa-steps-by-beta", file=WINC,
         old="        kappa[k] = kappa_prev[k] + abk[2 * K + k]",
         new="        kappa[k] = kappa_prev[k] + abk[K + k]",
         tests=WINC_NEW + WINC_OLD,
         why="kappa moves by beta (abk's middle third) instead of exp(k_hat)"),
    dict(name="v38-window-cuda-bn-clip-dropped", file=WINC,
         old="            training, clip, a.DA[t], a.dHW[t], (pgh[t], pgc[t], pbc[t]))",
         new="            training, 0.0, a.DA[t], a.dHW[t], (pgh[t], pgc[t], pbc[t]))",
         tests=WINC_NEW + WINC_OLD,
         why="the window layer's BN-LSTM backward ignores Graves's gate clip"),
    # ---- ctc_cuda ----
    dict(name="v38-ctc-cuda-empty-row-impossible", file=CTCC,
         old="lp = zero if Sb == 1 else ninf",
         new="lp = ninf",
         tests=CTCC_OLD,
         why="a row of no steps and an empty label (p = 1) is taken as impossible (log p = -inf)"),
    dict(name="v38-ctc-cuda-posterior-last-position-dropped", file=CTCC,
         old="                for s in range(Sb):\n",
         new="                for s in range(Sb - 1):\n",
         tests=CTCC_OLD,
         why="the gradient's posterior leaves out the extended label's last position (the final blank)"),
    # ---- losses_cuda ----
    dict(name="v38-losses-cuda-xent-mask-ignored", file=LOSSC,
         old="on = mask[r] != zero and lab >= 0",
         new="on = lab >= 0",
         tests=LOSSC_OLD,
         why="the device cross-entropy scores rows the mask leaves out (padded rows with a label)"),
    dict(name="v38-losses-cuda-ctc-rows-last-label-row", file=LOSSC,
         old="            for i in range(1, Lb + 1):\n",
         new="            for i in range(1, Lb):\n",
         tests=LOSSC_OLD,
         why="the edit distance's table stops a label short: the last label's row is never computed"),
    # ---- arrays_cuda ----
    dict(name="v38-arrays-cuda-final-rows-empty-row-step-0", file=ARRC,
         old="out[b, j] = s0[b, j]",
         new="out[b, j] = seq[0, b, j]",
         tests=ARRC_OLD,
         why="a row of length 0 ends in its first step's state instead of its initial state"),
    dict(name="v38-arrays-cuda-seq-fits-exact-refused", file=ARRC,
         old="n_elems * np.dtype(dtype).itemsize <= config.CUDA_SHARED_BYTES",
         new="n_elems * np.dtype(dtype).itemsize < config.CUDA_SHARED_BYTES",
         tests=SEQFIT_NEW + ARRC_OLD,
         why="sequence kernels whose shared arrays fill the configured bytes exactly are refused"),
    # ---- bn_cell_x (the fold path of a narrow input) ----
    dict(name="v38-bn-cell-x-fold-inference-eps-default", file=CELLX,
         old="rv_row[k] + dt(eps))",
         new="rv_row[k] + dt(1e-5))",
         tests=BNCELLS_NEW + BNCELLS_OLD,
         why="a narrow input's BN_t in inference divides by sqrt(running var + 1e-5) whatever eps is"),
    dict(name="v38-bn-cell-x-fold-momentum-default", file=CELLX,
         old="    mom = dt(momentum)\n",
         new="    mom = dt(0.1)\n",
         tests=BNCELLS_NEW + BNCELLS_OLD,
         why="a narrow input's running statistics fold at momentum 0.1 whatever the call gives"),
    dict(name="v38-bn-cell-x-fold-inference-backward-mean-dropped", file=CELLX,
         old="        o = dt(0) if training else mean[k]\n",
         new="        o = dt(0)\n",
         tests=BNCELLS_NEW + BNCELLS_OLD,
         why="the fold backward in inference leaves the running mean out of s2 (dgain and dW)"),
    # ---- bn_parts (the h side and c of the CPU BN cells) ----
    dict(name="v38-bn-parts-inference-eps-default", file=PARTS,
         old="            rstd[k] = one / np.sqrt(rv_row[k] + eps_)\n",
         new="            rstd[k] = one / np.sqrt(rv_row[k] + dt(1e-5))\n",
         tests=BNCELLS_NEW + BNCELLS_OLD,
         why="BN_t of the h side (and c) in inference runs at the default eps"),
    dict(name="v38-bn-parts-momentum-default", file=PARTS,
         old="    mom = dt(momentum)\n",
         new="    mom = dt(0.1)\n",
         tests=BNCELLS_NEW + BNCELLS_OLD,
         why="the h side's (and c's) running statistics fold at momentum 0.1 whatever the call gives"),
    # ---- cpu/rows ----
    dict(name="v38-rows-copy-rows-last-row-dropped", file=ROWS,
         old="    for i in range(dst.shape[0]):\n        copy_row(dst[i], src[i])",
         new="    for i in range(dst.shape[0] - 1):\n        copy_row(dst[i], src[i])",
         tests=ROWS_OLD,
         why="copy_rows leaves the last row: a CPU cell's chunk drops its last row of h0 and of dh0"),
]
