"""Planted bugs in the CPU kernels (LSTM, RNN, BatchNorm, the BN cells' parts and x side, the BN-RNN, the
BN-LSTM, the window layer, the synchronized BN cells, the shared codes), the NumPy reference and the CUDA
twins (LSTM, RNN, BatchNorm, LayerNorm, BN-RNN) (format: tests/mutants/mutants.py). Each is a single-line
slip of a kind that happens: a bound one step off, a chunk's rows taken from the batch's start, a float32
buffer in a float64 run, the wrong saved tensor, a forgotten mask or count, an eps outside the square root
or not passed on, a step with no active row treated as any other, a running statistic not written back,
a caller's array overwritten.

The tests a developer runs for these modules caught 27 of the 33; value tests written for the other six
catch them: an input exactly config.FOLD_MAX_I wide on the CPU twin and the CUDA twin (its saved tuple has
no xhat_x), and a final-cell gradient given as a device array, left as it was (test_values11_lstm,
test_values11_lstm_cuda); the reference's LN-LSTM and LN-RNN with an eps far from the default, written out
for one step and against the compiled twins (test_values11_reference); steps with no active row in the
window LSTM's BatchNorm and in the synchronized BN cells (test_values11_window, test_values11_bn_sync).
test_values11_bn_cells checks the same for the fused BN cells, narrow and wide, whose mutant the old tests
already caught.

    python tests/mutants/run.py --only 'v11-*'
"""

KERN = "tests/kernels/test_kernels.py"
BN = "tests/kernels/test_batchnorm.py"
BN_CELLS = "tests/kernels/test_bn_cells.py"
RACES = "tests/kernels/test_races.py"
WINDOW = "tests/kernels/test_window.py"
SYNC = "tests/kernels/test_bn_sync_speed_bits.py"
CUDA = "tests/kernels/test_cuda_kernels.py"
LSTM_CUDA_V = "tests/kernels/test_values_lstm_cuda.py"
FUNCTIONAL = "tests/model/test_functional.py"
# value tests written for the bugs below that the tests above let through
LSTM_T = "tests/kernels/test_values11_lstm.py"
LSTM_CUDA_T = "tests/kernels/test_values11_lstm_cuda.py"
REF_T = "tests/test_values11_reference.py"
WINDOW_T = "tests/kernels/test_values11_window.py"
SYNC_T = "tests/kernels/test_values11_bn_sync.py"
BN_CELLS_T = "tests/kernels/test_values11_bn_cells.py"

LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"
REF = "lnrnn/reference.py"
BNPY = "lnrnn/kernels/batchnorm.py"
PARTS = "lnrnn/kernels/bn_parts.py"
CELLX = "lnrnn/kernels/bn_cell_x.py"
BNRNN = "lnrnn/kernels/bn_rnn.py"
BNLSTM = "lnrnn/kernels/bn_lstm.py"
WINDOWPY = "lnrnn/kernels/window.py"
CODES = "lnrnn/kernels/codes.py"
SYNCPY = "lnrnn/kernels/bn_sync.py"
LSTMC = "lnrnn/kernels/lstm_cuda.py"
RNNC = "lnrnn/kernels/rnn_cuda.py"
BNC = "lnrnn/kernels/batchnorm_cuda.py"
LNC = "lnrnn/kernels/layernorm_cuda.py"
BNRNNC = "lnrnn/kernels/bn_rnn_cuda.py"

MUTANTS = [
    # ---- lstm.py ----
    dict(name="v11-lstm-dct-seed-of-the-first-chunk", file=LSTM,
         old="            work[2][q, 1, :hi - lo] = dcT[lo:hi]\n",
         new="            work[2][q, 1, :hi - lo] = dcT[:hi - lo]\n",
         tests=[KERN, f"{FUNCTIONAL}::test_gradient_of_the_final_cell_state_by_central_differences"],
         why="every chunk's carried dL/dc starts at the first chunk's rows of dcT"),
    dict(name="v11-lstm-narrow-ln-eps-outside-sqrt", file=LSTM,
         old="                    sx = one / np.sqrt(v + eps)\n",
         new="                    sx = one / (np.sqrt(v) + eps)\n",
         tests=[KERN],
         why="a narrow input's x-side LayerNorm adds eps to the standard deviation, not the variance"),
    dict(name="v11-lstm-narrow-ln-row-sums-float32", file=LSTM,
         old="    pX = np.zeros((nch, I, I + 1 + GAP), dtype=dt)",
         new="    pX = np.zeros((nch, I, I + 1 + GAP), dtype=np.float32)",
         tests=[KERN],
         why="the narrow LN input's sums A, B (dWx's correction) are float32 in a float64 run"),
    dict(name="v11-lstm-plain-wide-x-block-rows-from-the-start", file=LSTM,
         old="            dXb = dXs[:n] if ln else dHb[(nk - nkx) * Bc:nk * Bc]\n",
         new="            dXb = dXs[:n] if ln else dHb[:n]\n",
         tests=[KERN],
         why="the plain LSTM's x block takes the first rows of the dWh block, not its own last nkx steps"),
    dict(name="v11-lstm-wide-ln-dx-with-the-h-rstd", file=LSTM,
         old="                    dxr[j] = rx * (da[j] * gx[j] - s1x - xh[j] * s2x)\n",
         new="                    dxr[j] = rh * (da[j] * gx[j] - s1x - xh[j] * s2x)\n",
         tests=[KERN],
         why="dL/d(x_t Wx) scaled by the h LayerNorm's 1/std"),
    dict(name="v11-lstm-forward-fold-bound-exclusive", file=LSTM,
         old="    fold = 0 < I <= FOLD_MAX_I\n    dt = x.dtype\n",
         new="    fold = 0 < I < FOLD_MAX_I\n    dt = x.dtype\n",
         tests=[KERN, LSTM_T],
         why="the forward takes I = FOLD_MAX_I as wide (the backward as narrow): with LN it saves xhat_x nobody reads"),
    dict(name="v11-lstm-dwh-t-partial-float32", file=LSTM,
         old="    pWhT = np.empty((nch, G if tw else 0, H), dtype=dt)",
         new="    pWhT = np.empty((nch, G if tw else 0, H), dtype=np.float32)",
         tests=[KERN],
         why="the transposed dWh partials (rgemm blocks) are float32 in a float64 run"),
    # ---- rnn.py ----
    dict(name="v11-rnn-narrow-dwx-partial-float32", file=RNN,
         old="    pWx = np.zeros((nch, I + 1, H), dtype=dt)",
         new="    pWx = np.zeros((nch, I + 1, H), dtype=np.float32)",
         tests=[KERN],
         why="a narrow input's dWx partials are float32 in a float64 run"),
    dict(name="v11-rnn-ln-backward-rstd-of-chunk-row", file=RNN,
         old="ln_row_backward(dA[t, bb], dz, ahat[t, bb], rstd[t, bb])",
         new="ln_row_backward(dA[t, bb], dz, ahat[t, bb], rstd[t, r])",
         tests=[KERN],
         why="the LN backward reads 1/std at the chunk-local row index"),
    # ---- reference.py ----
    dict(name="v11-ref-bn-lstm-padded-dy-reaches-the-cell", file=REF,
         old="        dh = np.where(active[t][:, None], dy[t], 0.0) + dh_next  # a padded row",
         new="        dh = dy[t] + dh_next  # a padded row",
         tests=[BN, BN_CELLS],
         why="the reference BN-LSTM backward reads dy at padded (row, step)s"),
    dict(name="v11-ref-bn-empty-step-rstd-one", file=REF,
         old="        return np.zeros(x_t.shape[1], x_t.dtype), np.full(x_t.shape[1], 1.0 / np.sqrt(eps), x_t.dtype)\n",
         new="        return np.zeros(x_t.shape[1], x_t.dtype), np.ones(x_t.shape[1], x_t.dtype)\n",
         tests=[BN, BN_CELLS],
         why="a step with no active row normalizes with rstd 1, not 1/sqrt(0 + eps)"),
    dict(name="v11-ref-bn-running-var-unbias-divides-by-zero", file=REF,
         old="momentum * var * n / max(n - 1, 1)\n",
         new="momentum * var * n / (n - 1)\n",
         tests=[BN, BN_CELLS],
         why="a step with one active row divides its running variance's unbiasing by zero (nan)"),
    dict(name="v11-ref-lstm-forget-grad-new-cell", file=REF,
         old='        di, df, dg = dc * s["g"], dc * s["c"], dc * s["i"]\n',
         new='        di, df, dg = dc * s["g"], dc * s["c_new"], dc * s["i"]\n',
         tests=[KERN],
         why="dL/df multiplies by c_t instead of c_{t-1}"),
    dict(name="v11-ref-lstm-cell-ln-default-eps", file=REF,
         old="            cn, mc, rc = layernorm_forward(c_new, gc, bc, eps)\n",
         new="            cn, mc, rc = layernorm_forward(c_new, gc, bc)\n",
         tests=[KERN, REF_T],
         why="the reference's cell LayerNorm ignores the eps it is given (the default is used)"),
    # ---- batchnorm.py ----
    dict(name="v11-bn-empty-step-rstd-one", file=BNPY,
         old="            r_[k] = one / np.sqrt(eps_)\n",
         new="            r_[k] = one\n",
         tests=[BN],
         why="a step with no active row normalizes with rstd 1, not 1/sqrt(eps)"),
    dict(name="v11-bn-infer-eps-outside-sqrt", file=BNPY,
         old="            r_[k] = one / np.sqrt(rv[k] + eps_)\n",
         new="            r_[k] = one / (np.sqrt(rv[k]) + eps_)\n",
         tests=[BN],
         why="inference adds eps to the running standard deviation, not the variance"),
    dict(name="v11-bn-backward-mean-over-all-rows", file=BNPY,
         old="    inv_n = dt(1) / dt(max(active_rows(lengths, t), 1))\n",
         new="    inv_n = dt(1) / dt(x2.shape[0])\n",
         tests=[BN],
         why="the backward's batch means divide by B, not by the active rows"),
    # ---- bn_parts.py ----
    dict(name="v11-parts-mean-unweighted", file=PARTS,
         old="        w = parts[p, 0] * inv_n\n",
         new="        w = one / dt(parts.shape[0])\n",
         tests=[BN_CELLS, f"{RACES}::test_bn_cell_parts"],
         why="the parts' means averaged with equal weights, not by their rows"),
    dict(name="v11-parts-backward-count-of-the-part", file=PARTS,
         old="    inv_n = dt(1) / dt(max(n, 1))\n",
         new="    inv_n = dt(1) / dt(max(r1 - r0, 1))\n",
         tests=[BN_CELLS, f"{RACES}::test_bn_cell_parts"],
         why="a part's BN backward divides the batch sums by its own rows, not the step's active rows"),
    # ---- bn_cell_x.py ----
    dict(name="v11-cellx-fold-empty-step-updates-running", file=CELLX,
         old="        if update and n > 0:\n",
         new="        if update:\n",
         tests=[BN_CELLS, BN_CELLS_T],
         why="a narrow input's step with no active row folds mean 0, variance 0 into its running rows"),
    # ---- bn_rnn.py ----
    dict(name="v11-bnrnn-backward-count-all-rows", file=BNRNN,
         old="        nt = active_rows(lengths, t)\n",
         new="        nt = B\n",
         tests=[BN_CELLS],
         why="the BN-RNN's h-side backward divides by B, not the step's active rows"),
    # ---- bn_lstm.py ----
    dict(name="v11-bnlstm-cell-grad-without-carried-dh", file=BNLSTM,
         old="                dr[j] = (dyr[j] + dhr[j]) * ao[j] * (one - tr[j] * tr[j])\n",
         new="                dr[j] = dyr[j] * ao[j] * (one - tr[j] * tr[j])\n",
         tests=[BN_CELLS],
         why="dL/d BN_t(c_t) from dy alone: the dL/dh_t carried from step t+1 dropped"),
    # ---- window.py ----
    dict(name="v11-window-bn-empty-step-updates-running", file=WINDOWPY,
         old="            if n > 0 and t < Ts:\n",
         new="            if t < Ts:\n",
         tests=[WINDOW, WINDOW_T],
         why="the window LSTM's BN folds a step with no active row (mean 0, variance 0) into its running rows"),
    dict(name="v11-window-final-kappa-of-the-two-row-buffer", file=WINDOWPY,
         old="kappa[(T - 1) % S2].copy()",
         new="kappa[(T - 1) % 2].copy()",
         tests=[WINDOW],
         why="the final kappa read as from inference's two-row buffer also when every step is kept"),
    # ---- codes.py ----
    dict(name="v11-codes-centered-float32-out", file=CODES,
         old="    out = np.empty((K, G), W.dtype)  # (K,G)\n",
         new="    out = np.empty((K, G), np.float32)  # (K,G)\n",
         tests=[f"{KERN}::test_centered_weights_as_numpy_in_float64"],
         why="centered weights come back float32 whatever W's dtype"),
    # ---- bn_sync.py ----
    dict(name="v11-sync-empty-step-rstd-one", file=SYNCPY,
         old="            rstd[k] = one / np.sqrt(dt(eps))\n",
         new="            rstd[k] = one\n",
         tests=[SYNC, SYNC_T],
         why="a step with no active row in the whole group normalizes with rstd 1, not 1/sqrt(eps)"),
    # ---- CUDA twins ----
    dict(name="v11-lstmcuda-keeps-xhat-at-fold-bound", file=LSTMC,
         old="    keep = ln and not 0 < I <= FOLD_MAX_I",
         new="    keep = ln and not 0 < I < FOLD_MAX_I",
         tests=[f"{CUDA}::test_lstm_matches_cpu", LSTM_CUDA_V, LSTM_CUDA_T],
         why="I = FOLD_MAX_I saves xhat_x, where the CPU twin's saved tuple has (0,0,0)"),
    dict(name="v11-lstmcuda-dct-overwritten", file=LSTMC,
         old="if dcT is None else copy(to_device(dcT))",
         new="if dcT is None else to_device(dcT)",
         tests=[f"{CUDA}::test_lstm_matches_cpu", LSTM_CUDA_V, LSTM_CUDA_T],
         why="a device dcT is carried in place: the caller's array ends as dL/dc_0"),
    dict(name="v11-rnncuda-dx-from-dz", file=RNNC,
         old="    dx, dWx, dWh = projection_grads(dA, dA, x, h0, y, Wx)\n",
         new="    dx, dWx, dWh = projection_grads(dZ, dA, x, h0, y, Wx)\n",
         tests=[f"{CUDA}::test_rnn_matches_cpu"],
         why="dx and dWx from dL/d(tanh argument), before the LayerNorm backward"),
    dict(name="v11-bncuda-empty-step-updates-running", file=BNC,
         old="    if update and valid and n > zero and ty == 0:\n",
         new="    if update and valid and ty == 0:\n",
         tests=[f"{CUDA}::test_batchnorm_matches_cpu", f"{CUDA}::test_batchnorm_masked_matches_cpu"],
         why="a step with no active row folds mean 0, variance 0 into the running rows"),
    dict(name="v11-bncuda-padded-dx-one-step-late", file=BNC,
         old="            if t >= lengths[b]:\n                dx2[b, k] = zero\n",
         new="            if t > lengths[b]:\n                dx2[b, k] = zero\n",
         tests=[f"{CUDA}::test_batchnorm_matches_cpu", f"{CUDA}::test_batchnorm_masked_matches_cpu"],
         why="a row at its length's step gets a dx (it is padded there)"),
    dict(name="v11-lncuda-eps-outside-sqrt", file=LNC,
         old="    return m, one / math.sqrt(v + eps)\n",
         new="    return m, one / (math.sqrt(v) + eps)\n",
         tests=[f"{CUDA}::test_layernorm_matches_cpu"],
         why="the row statistics add eps to the standard deviation, not the variance"),
    dict(name="v11-bnrnncuda-running-var-not-written-back", file=BNRNNC,
         old="        write_back(runs)\n",
         new="        write_back(runs[:1])\n",
         tests=[f"{CUDA}::test_bn_cells_match_cpu", f"{CUDA}::test_bn_cells_masked_match_cpu"],
         why="the h side's running variance, updated on the device, never reaches the host array"),
]
