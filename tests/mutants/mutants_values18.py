"""Planted bugs in the numeric modules with the thinnest catalogue coverage (format: tests/mutants/mutants.py):
the synchronized BN cells (kernels/bn_sync.py), the fused BN-LSTM (kernels/bn_lstm.py), a BN cell's x side and
its narrow-input fold (kernels/bn_cell_x.py), the CPU synthesis window op (kernels/window.py), the kernel
bodies of the CUDA twins rnn_cuda.py and bn_lstm_cuda.py, and the NumPy spec (reference.py). Each is a
single-line slip of a kind that happens: a running-statistics momentum the wrong way round, eps outside the
sqrt, the mean term of a normalization's backward dropped, a mask on the wrong step, an index off by one, a
gate's column swapped, a float32 accumulator where the cancellation needs float64.

Tests of reference.py never compare with a kernel (a bug there would be copied): they compare the reference
with central differences of its own forward, a hand computation or an independent formula.

32 mutants; the existing tests caught 30: every bug of the window op and of the CUDA kernel bodies (their
comparisons with the spec, central differences and the CPU twins), of bn_sync and bn_lstm, five of bn_cell_x's
six and four of the reference's five. They missed two: the fold's quadratic form summed in float32
(test_float32_fold_variance_of_a_cancelling_column: a column x0 - x1 of two almost equal inputs, whose
variance must match the float64 formula) and the spec's biased running variance (no spec test looked at the
running rows by hand: test_running_statistics_by_hand_with_a_mask). 32/32 now. The new files also catch,
on their own, every mutant of bn_sync, bn_lstm and the reference and five of bn_cell_x's six
(test_values18_bn_sync: the synced cells against the spec with running means near 2, T > Ts and eps 1e-2;
test_values18_bn_lstm: the cell's running rows by hand and every gradient; test_values18_bn_cell_x: fold
inference with far running means; test_values18_reference: central differences of the spec's own BatchNorm
and masked BN-LSTM, LayerNorm's formula, the inference rows).
Dropped as equivalent: bn_sync's and bn_lstm's zeroing of dL/dc_{t-1} at a padded row begun one step late
(``t > lengths[b]``): the cell's BN backward already gives a padded row zero dL/dc and nothing comes from its
later padded steps, so the carried dc is zero without the zeroing; bn_lstm_cuda's backward taking a row's first
padded step as active (the da it then writes is read by nobody: the h- and x-side column backwards and the bias
sum leave padded rows out; its dc_{t-1} is zero as above); cov_times_w reading C[j, i] for C[i, j] (C is
symmetric). No mutant showed a bug in lnrnn/.

    python tests/mutants/run.py --only 'v18-*'
"""

SYNCPY = "lnrnn/kernels/bn_sync.py"
BNLSTMPY = "lnrnn/kernels/bn_lstm.py"
CELLXPY = "lnrnn/kernels/bn_cell_x.py"
WINDOWPY = "lnrnn/kernels/window.py"
RNNCUDAPY = "lnrnn/kernels/rnn_cuda.py"
BNCUDAPY = "lnrnn/kernels/bn_lstm_cuda.py"
REFPY = "lnrnn/reference.py"

# existing tests of these modules
S_OLD = ["tests/kernels/test_values11_bn_sync.py"]
L_OLD = ["tests/kernels/test_bn_cells.py::test_kernel_matches_reference",
         "tests/kernels/test_bn_cells.py::test_masked_kernel_matches_reference",
         "tests/kernels/test_bn_cells.py::test_padded_rows_are_outside_everything",
         "tests/kernels/test_values11_bn_cells.py"]
X_OLD = ["tests/kernels/test_bn_cells.py::test_narrow_input_matches_reference_and_gemm_path",
         "tests/kernels/test_bn_cells.py::test_narrow_input_float32_and_clip",
         "tests/kernels/test_values11_bn_cells.py"]
W_OLD = ["tests/kernels/test_window.py::test_kernel_matches_reference",
         "tests/kernels/test_window.py::test_kernel_backward_matches_central_differences",
         "tests/kernels/test_window.py::test_characters_past_ulen_change_nothing",
         "tests/kernels/test_values11_window.py"]
R_OLD = ["tests/kernels/test_cuda_kernels.py::test_rnn_matches_cpu"]
B_OLD = ["tests/kernels/test_cuda_kernels.py::test_bn_cells_match_cpu",
         "tests/kernels/test_cuda_kernels.py::test_bn_cells_masked_match_cpu"]
F_OLD = ["tests/test_values11_reference.py", "tests/kernels/test_batchnorm.py::test_gradcheck",
         "tests/kernels/test_batchnorm.py::test_forward_train_formula_and_unbiased_running_var",
         "tests/kernels/test_bn_cells.py::test_gradcheck", "tests/kernels/test_bn_cells.py::test_masked_gradcheck",
         "tests/kernels/test_window.py::test_reference_backward_matches_central_differences"]

# value tests written for the bugs below
S_NEW = "tests/kernels/test_values18_bn_sync.py"
L_NEW = "tests/kernels/test_values18_bn_lstm.py"
X_NEW = "tests/kernels/test_values18_bn_cell_x.py"
F_NEW = "tests/test_values18_reference.py"

MUTANTS = [
    # ---- kernels/bn_sync.py ----
    dict(name="v18-sync-momentum-swapped", file=SYNCPY,
         old="            rm_row[k] = (one - mom) * rm_row[k] + mom * m",
         new="            rm_row[k] = mom * rm_row[k] + (one - mom) * m",
         tests=S_OLD + [S_NEW],
         why="the running mean keeps 10% of itself and takes 90% of the batch mean"),
    dict(name="v18-sync-running-var-biased", file=SYNCPY,
         old="            rv_row[k] = (one - mom) * rv_row[k] + mom * var * unbias",
         new="            rv_row[k] = (one - mom) * rv_row[k] + mom * var",
         tests=S_OLD + [S_NEW],
         why="the running variance takes the biased batch variance (no n/(n-1))"),
    dict(name="v18-sync-eps-outside-sqrt", file=SYNCPY,
         old="        rstd[k] = one / np.sqrt(var + dt(eps))",
         new="        rstd[k] = one / (np.sqrt(var) + dt(eps))",
         tests=S_OLD + [S_NEW],
         why="1/(std + eps) instead of 1/sqrt(var + eps)"),
    dict(name="v18-sync-bwd-mean-term-dropped", file=SYNCPY,
         old="out[k] = gain[k] * rstd[k] * (dr[k] - (sums[k] + xhat * sums[F + k]) * inv_n)",
         new="out[k] = gain[k] * rstd[k] * (dr[k] - xhat * sums[F + k] * inv_n)",
         tests=S_OLD + [S_NEW],
         why="the BN backward loses its mean term (sum dy / n)"),
    dict(name="v18-sync-shift-not-added-back", file=SYNCPY,
         old="        m = shift[k] + d",
         new="        m = d",
         tests=S_OLD + [S_NEW],
         why="the shifted single-pass mean forgets the shift: wrong wherever the running mean is not zero"),
    dict(name="v18-sync-rnn-dgh-from-bias-sums", file=SYNCPY,
         old="        dgh[j] += sums[H + j]",
         new="        dgh[j] += sums[j]",
         tests=S_OLD + [S_NEW],
         why="the BN-RNN's h-side gain gradient takes the bias half of the step's sums (sum da, not sum da hhat)"),
    # ---- kernels/bn_lstm.py ----
    dict(name="v18-bnlstm-di-drops-sigmoid-factor", file=BNLSTMPY,
         old="            di[j] = dc * g * i * (one - i)",
         new="            di[j] = dc * g * (one - i)",
         tests=L_OLD + [L_NEW],
         why="the input gate's derivative is s'(z) = i (1 - i), written as (1 - i)"),
    dict(name="v18-bnlstm-cell-running-row-past-Ts", file=BNLSTMPY,
         old="        parts_stats(exc, training, q == 0 and t < Tsc, rmc[tc_], rvc[tc_], momentum, eps, mc, rc)",
         new="        parts_stats(exc, training, q == 0 and t <= Tsc, rmc[tc_], rvc[tc_], momentum, eps, mc, rc)",
         tests=L_OLD + [L_NEW],
         why="step Ts (not recorded) folds its cell statistics into running row Ts-1 once more"),
    dict(name="v18-bnlstm-dgh-chunk-end-off-by-one", file=BNLSTMPY,
         old="        add_cols(dgh, s2, k0, k1)",
         new="        add_cols(dgh, s2, k0, k1 - 1)",
         tests=L_OLD + [L_NEW],
         why="each part adds its column chunk of dgh one column short: the chunk's last gain gets no gradient"),
    dict(name="v18-bnlstm-dbc-from-dgc-sums", file=BNLSTMPY,
         old="        add_cols(dbc, sc[:H], j0, j1)",
         new="        add_cols(dbc, sc[H:], j0, j1)",
         tests=L_OLD + [L_NEW],
         why="the cell BN's bias gradient takes the gain's sum (sum dy * chat)"),
    # ---- kernels/bn_cell_x.py ----
    dict(name="v18-cellx-covariance-unbiased", file=CELLXPY,
         old="                xs[t, I + i * I + k] = C[i, k] / n",
         new="                xs[t, I + i * I + k] = C[i, k] / max(n - 1, 1)",
         tests=X_OLD + [X_NEW],
         why="the fold's batch covariance divides by n-1: BN_t normalizes with the unbiased variance"),
    dict(name="v18-cellx-fold-infer-mean-dropped", file=CELLXPY,
         old="        c[k] = bias[k] - mean[k] * rstd[k] * gain[k] if not training else bias[k]",
         new="        c[k] = bias[k]",
         tests=X_OLD + [X_NEW],
         why="inference on the fold path forgets to subtract the running mean"),
    dict(name="v18-cellx-s2-offset-sign", file=CELLXPY,
         old="        s2[k] = rstd[k] * (s2[k] - o * s1[k])",
         new="        s2[k] = rstd[k] * (s2[k] + o * s1[k])",
         tests=X_OLD + [X_NEW],
         why="inference's dgain on the fold path adds the running mean's term instead of subtracting it"),
    dict(name="v18-cellx-dx-batch-term-n-minus-1", file=CELLXPY,
         old="    inv_n = dt(1) / dt(max(n, 1))\n    e = r0\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n"
             "        for b in range(lo, e):\n            for i in range(I):\n                s = cv[i]",
         new="    inv_n = dt(1) / dt(max(n - 1, 1))\n    e = r0\n    while e < r1:\n        lo, e = run_in(lengths, t, e, r1)\n"
             "        for b in range(lo, e):\n            for i in range(I):\n                s = cv[i]",
         tests=X_OLD,
         why="the batch part of dL/dx on the fold path divides by n-1"),
    dict(name="v18-cellx-var-float32-accumulator", file=CELLXPY,
         old="    vk = np.zeros(F)\n",
         new="    vk = np.zeros(F, dtype=mean.dtype)\n",
         tests=X_OLD + [X_NEW],
         why="the fold's quadratic form W^T C W summed in float32 for float32 inputs: it cancels when a "
             "column's variance is small against |W|^2 |C|"),
    dict(name="v18-cellx-mean-index-off-by-one", file=CELLXPY,
         old="        mi = xs_t[i]\n",
         new="        mi = xs_t[i + 1]\n",
         tests=X_OLD + [X_NEW],
         why="the fold's mean reads mu shifted by one (for I = 1: the variance)"),
    # ---- kernels/window.py ----
    dict(name="v18-window-bn-momentum-swapped", file=WINDOWPY,
         old="                rm[t, j] = (one - momentum) * rm[t, j] + momentum * mean[j]",
         new="                rm[t, j] = momentum * rm[t, j] + (one - momentum) * mean[j]",
         tests=W_OLD,
         why="the window layer's BN running mean keeps 10% of itself"),
    dict(name="v18-window-bn-running-var-biased", file=WINDOWPY,
         old="        unbiased = v.dtype.type(n) / v.dtype.type(max(n - 1, 1))",
         new="        unbiased = v.dtype.type(n) / v.dtype.type(max(n, 1))",
         tests=W_OLD,
         why="the window layer's BN running variance takes the biased batch variance"),
    dict(name="v18-window-bn-bwd-mean-term-dropped", file=WINDOWPY,
         old="xr[j] = rs[j] * (dr[j] * gain[j] - s1[j] * inv - hr[j] * (s2[j] * inv))",
         new="xr[j] = rs[j] * (dr[j] * gain[j] - hr[j] * (s2[j] * inv))",
         tests=W_OLD,
         why="the window layer's BN backward loses its mean term"),
    dict(name="v18-window-ln-bwd-mean-term-dropped", file=WINDOWPY,
         old="            xr[j] = rstd * (dr[j] * gain[j] - s1 - hr[j] * s2)",
         new="            xr[j] = rstd * (dr[j] * gain[j] - hr[j] * s2)",
         tests=W_OLD,
         why="the window layer's LN backward loses its mean term"),
    dict(name="v18-window-position-zero-based", file=WINDOWPY,
         old="                    d = ka - dt.type(u + 1)  # u + 1: the 1-based position of character u",
         new="                    d = ka - dt.type(u)  # u + 1: the 1-based position of character u",
         tests=W_OLD,
         why="the window's Gaussians sit one character early (0-based positions)"),
    # ---- kernels/rnn_cuda.py (kernel bodies) ----
    dict(name="v18-rnncuda-ln-bwd-mean-term-dropped", file=RNNCUDAPY,
         old="v = r * (dzv[u] * ga[2 * u] - s1 - ga[2 * u + 1] * s2)",
         new="v = r * (dzv[u] * ga[2 * u] - ga[2 * u + 1] * s2)",
         tests=R_OLD,
         why="the LN-RNN's CUDA backward loses the LayerNorm's mean term"),
    dict(name="v18-rnncuda-no-bias-without-ln", file=RNNCUDAPY,
         old="h = math.tanh(av[u] + gb[2 * u + 1])",
         new="h = math.tanh(av[u])",
         tests=R_OLD,
         why="the plain RNN's CUDA forward drops its bias"),
    dict(name="v18-rnncuda-s2-without-gain", file=RNNCUDAPY,
         old="s2 += d * gk * ak",
         new="s2 += d * ak",
         tests=R_OLD,
         why="the LN backward's second sum leaves out the gain"),
    # ---- kernels/bn_lstm_cuda.py (kernel bodies) ----
    dict(name="v18-bnlstmcuda-forget-reads-input-column", file=BNCUDAPY,
         old="f = sigmoid(g4[1] * (a[4 * r + 1] - m4[1]) * r4[1] + xn_t[b, H + j], one)",
         new="f = sigmoid(g4[1] * (a[4 * r + 1] - m4[1]) * r4[1] + xn_t[b, j], one)",
         tests=B_OLD,
         why="the forget gate adds the x side's input-gate column (gate order slip)"),
    dict(name="v18-bnlstmcuda-dg-tanh-derivative", file=BNCUDAPY,
         old="                dg = dc * i * (one - gg * gg)",
         new="                dg = dc * i * (one - gg)",
         tests=B_OLD,
         why="the g gate's derivative is 1 - g^2, written as 1 - g"),
    dict(name="v18-bnlstmcuda-dbc-gets-dgc-sum", file=BNCUDAPY,
         old="                pbc_t[j] = s1",
         new="                pbc_t[j] = s2",
         tests=B_OLD,
         why="the cell BN's bias gradient per step takes the gain's sum (sum dy * chat)"),
    # ---- reference.py (the spec) ----
    dict(name="v18-ref-running-var-biased", file=REFPY,
         old="        rv[t] = (1 - momentum) * rv[t] + momentum * var * n / max(n - 1, 1)",
         new="        rv[t] = (1 - momentum) * rv[t] + momentum * var",
         tests=F_OLD + [F_NEW],
         why="the spec's running variance takes the biased batch variance"),
    dict(name="v18-ref-bn-bwd-mean-term-dropped", file=REFPY,
         old="        dx = rstd * (dxhat - dxhat.sum(axis=0) / n - xhat * (dxhat * xhat).sum(axis=0) / n)",
         new="        dx = rstd * (dxhat - xhat * (dxhat * xhat).sum(axis=0) / n)",
         tests=F_OLD + [F_NEW],
         why="the spec's BN backward loses its mean term"),
    dict(name="v18-ref-ln-eps-outside-sqrt", file=REFPY,
         old="    rstd = 1.0 / np.sqrt(var + eps)\n    xhat",
         new="    rstd = 1.0 / (np.sqrt(var) + eps)\n    xhat",
         tests=F_OLD + [F_NEW],
         why="the spec's LayerNorm takes 1/(std + eps)"),
    dict(name="v18-ref-bn-lstm-mask-previous-step", file=REFPY,
         old="        dh = np.where(active[t][:, None], dy[t], 0.0) + dh_next",
         new="        dh = np.where(active[t - 1][:, None], dy[t], 0.0) + dh_next",
         tests=F_OLD + [F_NEW],
         why="the spec's BN-LSTM masks dy with the previous step's mask"),
    dict(name="v18-ref-infer-running-row-off-by-one", file=REFPY,
         old="        row = min(t, Ts - 1)",
         new="        row = min(t, Ts) - 1",
         tests=F_OLD + [F_NEW],
         why="the spec's inference normalizes step t with running row t-1 (step 0 with the last)"),
]
