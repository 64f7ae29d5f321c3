"""Planted bugs, round 45 (format: tests/mutants/mutants.py): single-line slips in the CPU kernels with the fewest
mutants so far, on lines no earlier round mutates, on the paths the default shapes never take: eps other than
the default (the LSTM's, the RNN's and BatchNorm's eps replaced by 1e-5, eps dropped from a wide input's and the
window layer's LayerNorm of x_t Wx, the LSTM cell's eps divided by H), the LSTM's g block one column long, a
narrow input's second column (I = 2), the float32 sigmoid reduced with floor instead of round (the LSTM's fused
one and rows.sigmoid_row), Graves's clip skipped at step 0, the backward's fold bound exclusive (I =
FOLD_MAX_I), plan_steps's regions one row short, the RNN's plain bias not doubled and a wide input's x Wx of the
chunk's first row, layernorm_backward without its gain, BatchNorm's masked means over B and one time chunk too
few (T = 1), rgemm's full-row tile of a partial last panel stored whole (a tile sticking out of C),
fetch_schedule's last partial line, and dgemm's lda of a transposed A.

21 mutants. Against the existing targeted tests alone 16 were caught and 5 missed: the LSTM's, the RNN's and
BatchNorm's eps replaced by the default (every kernel test used eps = 1e-5), and the float32 sigmoid's floor
reduction in the LSTM and in sigmoid_row (an error of 1.6e-7 near 1/2, inside the old tolerances). The new value
tests catch every mutant: test_values45_lstm (eps 0.5 over input widths 1 to FOLD_MAX_I + 3 on 1 to 3 chunks
against the reference, lstm_infer bit for bit; the saved 1/std rows as 1/sqrt(var + eps) by hand; a clip that
bites at every step, step 0 included; float32 gates of exact preactivations near 0 within 1.1e-7 of the float64
sigmoid; plan_steps's regions from the arrays' addresses), test_values45_rnn (eps 0.4, widths 1 to 7, B 7 on 1 to
3 chunks), test_values45_rows (sigmoid_row at k/256 within 1e-7; layernorm_backward with gains in [-2, 3]
against sums by hand), test_values45_batchnorm (eps 0.3, masked statistics by hand, T = 1 to
BN_TIME_CHUNKS + 1), test_values45_rgemm (partial last panels with guard values after C, fetch_schedule's lines
by hand, float64 gemm of a transposed A with K != M), test_values45_window (the LN window layer at eps 0.5).
Left out as equivalent (no result changes; each reasoned through, none kept in the list): lstm_infer keeping one row
of c instead of two (c_t is computed element by element from c_{t-1}, each element read before it is written: the
same bits); the RNN's fold bound exclusive in the forward or the backward (I = FOLD_MAX_I takes the wide path: the
same values up to rounding); the RNN's rows of the largest chunk rounded down (the scratch's spare row still holds
the chunk, whose sizes differ by at most one); rgemm_add storing a full-row tile of the partial last panel whole (the
extra columns are the panel's zero padding, so it adds +0.0 to the next row's first elements: no value changes, guard
values included, though it touches the row past C); the LSTM backward's x block of nbx - 1 steps (block sizes change
rounding only); the row-ahead prefetches (speed only).

    python tests/mutants/run.py --only 'v45-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"
ROWS = "lnrnn/kernels/cpu/rows.py"
LAYERNORM = "lnrnn/kernels/layernorm.py"
BATCHNORM = "lnrnn/kernels/batchnorm.py"
RGEMM = "lnrnn/kernels/cpu/rgemm.py"
BLAS = "lnrnn/kernels/cpu/blas.py"
WINDOW = "lnrnn/kernels/window.py"

KERNELS = "tests/kernels/test_kernels.py"
CLIP = "tests/kernels/test_gate_clip.py"
RACES = "tests/kernels/test_races.py"
LSTM_OLD = [KERNELS, "tests/kernels/test_values11_lstm.py", f"{CLIP}::test_off_and_never_biting_equal_no_clip",
            f"{CLIP}::test_lstm_clipped_matches_reference", f"{RACES}::test_lstm_backward_chunk_partials"]
RNN_OLD = [KERNELS, f"{RACES}::test_rnn_backward_chunk_partials"]
ROWS_OLD = [KERNELS]
LAYERNORM_OLD = ["tests/kernels/test_values_layernorm.py", KERNELS, f"{RACES}::test_layernorm_backward_row_chunks"]
BATCHNORM_OLD = ["tests/kernels/test_batchnorm.py", "tests/kernels/test_values31_batchnorm.py",
                 f"{RACES}::test_batchnorm_backward_time_chunks",
                 f"{RACES}::test_batchnorm_backward_float32_time_chunks"]
RGEMM_OLD = ["tests/kernels/test_rgemm.py"]
BLAS_OLD = ["tests/kernels/test_values_blas.py", "tests/kernels/test_gemm.py", "tests/kernels/test_values40_gemm.py"]
WINDOW_OLD = ["tests/kernels/test_window.py", "tests/kernels/test_values11_window.py",
              "tests/kernels/test_values31_window.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
V45 = "tests/kernels/test_values45_"
LSTM_NEW = [f"{V45}lstm.py"]
RNN_NEW = [f"{V45}rnn.py"]
ROWS_NEW = [f"{V45}rows.py::test_float32_sigmoid_near_one_half"]
LAYERNORM_NEW = [f"{V45}rows.py::test_layernorm_backward_with_a_gain_far_from_one"]
BATCHNORM_NEW = [f"{V45}batchnorm.py"]
RGEMM_NEW = [f"{V45}rgemm.py::test_partial_last_panel_with_full_row_tiles_stays_inside_c",
             f"{V45}rgemm.py::test_fetch_schedule_covers_the_last_partial_line_of_each_region"]
BLAS_NEW = [f"{V45}rgemm.py::test_float64_gemm_of_a_transposed_a_with_k_not_m"]
WINDOW_NEW = [f"{V45}window.py"]

MUTANTS = [
    # ---- LSTM: eps, the g block's columns, a narrow input's columns, float32 gates, the clip, bounds ----
    dict(name="v45-lstm-eps-the-default", file=LSTM,
         old="               dt.type(eps), saved, work)",
         new="               dt.type(1e-5), saved, work)",
         tests=LSTM_NEW + LSTM_OLD,
         why="lstm_forward (and lstm_infer) runs its three LayerNorms with config's default eps 1e-5 whatever "
             "eps the caller gives"),
    dict(name="v45-lstm-wide-ln-x-eps-dropped", file=LSTM,
         old="sx = one / np.sqrt(v * invG + eps)",
         new="sx = one / np.sqrt(v * invG)",
         tests=LSTM_NEW + LSTM_OLD,
         why="a wide input's LayerNorm of x_t Wx drops eps: 1/std of the variance alone (inf for a zero row)"),
    dict(name="v45-lstm-cell-ln-eps-over-h", file=LSTM,
         old="sc = one / np.sqrt(v * invH + eps)",
         new="sc = one / np.sqrt((v + eps) * invH)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's eps is divided by H with the sum of squares: eps/H where the spec has eps"),
    dict(name="v45-lstm-g-block-one-column-long", file=LSTM,
         old="gd[j] = one if 2 * H <= j < 3 * H else zero",
         new="gd[j] = one if 2 * H <= j <= 3 * H else zero",
         tests=LSTM_NEW + LSTM_OLD,
         why="the g block's shift reaches the first column of the o block: that output gate is sigmoid - 1"),
    dict(name="v45-lstm-narrow-second-column-from-i3", file=LSTM,
         old="                if I > 1:\n",
         new="                if I > 2:\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's x_t Wx takes its second column only from I = 3 on: at I = 2 the row's xs stays "
             "zero (x_t[1] is ignored), from I = 3 on xs is never reset and accumulates over rows and steps"),
    dict(name="v45-lstm-f32-sigmoid-floor-not-round", file=LSTM,
         old="            k = np.floor(v * _LOG2E + np.float32(0.5))\n            r = v - k * _LN2_HI - k * _LN2_LO\n"
             "            e = one + r * (one + r * (_E2",
         new="            k = np.floor(v * _LOG2E)\n            r = v - k * _LN2_HI - k * _LN2_LO\n"
             "            e = one + r * (one + r * (_E2",
         tests=LSTM_NEW + LSTM_OLD,
         why="the LSTM's float32 sigmoid reduces its argument with floor, not round: r in [0, ln2) where the "
             "degree-7 polynomial was sized for |r| <= ln2/2 (errors up to 3e-7 on gates near 1/2)"),
    dict(name="v45-lstm-clip-skips-step-zero", file=LSTM,
         old="if clip > zero:  # Graves",
         new="if clip > zero and t > 0:  # Graves",
         tests=LSTM_NEW + LSTM_OLD,
         why="Graves's clip is not applied at step 0: dh0, dx_0 and the parameter gradients of step 0 unclipped"),
    dict(name="v45-lstm-backward-fold-bound-exclusive", file=LSTM,
         old="    fold = 0 < I <= FOLD_MAX_I\n    dt = dy.dtype\n",
         new="    fold = 0 < I < FOLD_MAX_I\n    dt = dy.dtype\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="the backward calls I = FOLD_MAX_I wide while the forward folded it: with LN it reads the xhat_x "
             "the forward never saved"),
    dict(name="v45-lstm-plan-region-one-row-short", file=LSTM,
         old="            end = start + (hi - lo) * tab[i, 3]\n",
         new="            end = start + (hi - lo - 1) * tab[i, 3]\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="plan_steps's regions end one row early: the step's last row is never asked for"),
    # ---- RNN: eps, the plain cell's bias, a wide input's rows ----
    dict(name="v45-rnn-eps-the-default", file=RNN,
         old="ln, fold, dt.type(eps), saved, work)",
         new="ln, fold, dt.type(1e-5), saved, work)",
         tests=RNN_NEW + RNN_OLD,
         why="rnn_forward's LayerNorm uses the default eps whatever the caller gives"),
    dict(name="v45-rnn-plain-bias-not-doubled", file=RNN,
         old="y[t, bb, k] = two * (a[r, k] + b[k])",
         new="y[t, bb, k] = two * a[r, k] + b[k]",
         tests=RNN_NEW + RNN_OLD,
         why="the plain RNN computes tanh(a + b/2): the bias is not doubled with the preactivation"),
    dict(name="v45-rnn-wide-x-of-chunk-row-zero", file=RNN,
         old="                    a[r, k] += xw[r, k]\n",
         new="                    a[r, k] += xw[0, k]\n",
         tests=RNN_NEW + RNN_OLD,
         why="a wide input's x_t Wx of the chunk's first row is added to every row of the chunk"),
    # ---- rows: the float32 sigmoid's reduction ----
    dict(name="v45-rows-sigmoid-f32-floor-not-round", file=ROWS,
         old="        k = np.floor(v * _LOG2E + np.float32(0.5))\n",
         new="        k = np.floor(v * _LOG2E)\n",
         tests=ROWS_NEW + ROWS_OLD,
         why="sigmoid_row reduces with floor, not round: r in [0, ln2), beyond the polynomial's range"),
    # ---- LayerNorm op: the gain in the backward ----
    dict(name="v45-layernorm-backward-gain-dropped", file=LAYERNORM,
         old="                dxhat[j] = dy[r, j] * gain[j]\n",
         new="                dxhat[j] = dy[r, j]\n",
         tests=LAYERNORM_NEW + LAYERNORM_OLD,
         why="layernorm_backward's dx forgets the gain (right only for gain 1)"),
    # ---- BatchNorm: eps, masked means, one step ----
    dict(name="v45-bn-eps-the-default", file=BATCHNORM,
         old="    eps_ = dt(eps)\n",
         new="    eps_ = dt(1e-5)\n",
         tests=BATCHNORM_NEW + BATCHNORM_OLD,
         why="bn_col_stats normalizes with the default eps whatever the caller gives"),
    dict(name="v45-bn-masked-mean-over-the-batch", file=BATCHNORM,
         old="    inv_n = one / dt(n)\n",
         new="    inv_n = one / dt(B)\n",
         tests=BATCHNORM_NEW + BATCHNORM_OLD,
         why="the masked statistics divide by B, not by the n active rows"),
    dict(name="v45-bn-forward-chunks-one-short", file=BATCHNORM,
         old="    nch = min(T, TIME_CHUNKS)\n    if nch == 1:\n        _bn_forward_steps",
         new="    nch = min(T - 1, TIME_CHUNKS)\n    if nch == 1:\n        _bn_forward_steps",
         tests=BATCHNORM_NEW + BATCHNORM_OLD,
         why="bn_forward takes one chunk of steps fewer than T (up to TIME_CHUNKS): T = 1 runs no step at all"),
    # ---- rgemm: a full-row tile of the last, partial panel; the fetch walk's partial line ----
    dict(name="v45-rgemm-fetch-tile-sticks-out", file=RGEMM,
         old="            if t < n and nc == NR:  # mr == MR here\n                _tile_fetch(",
         new="            if t < n:  # mr == MR here\n                _tile_fetch(",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="rgemm stores a full-row tile of the last, partial panel whole: its NR - nc zero columns land "
             "on the next rows' first columns (and past C's end)"),
    dict(name="v45-rgemm-schedule-partial-line-dropped", file=RGEMM,
         old="        n = min(per, (plan[r, 1] - off + 63) // 64)\n",
         new="        n = min(per, (plan[r, 1] - off) // 64)\n",
         tests=RGEMM_NEW + RGEMM_OLD,
         why="fetch_schedule counts a region's lines rounded down: its last, partial line is never asked for"),
    # ---- BLAS: dgemm of a transposed A ----
    dict(name="v45-blas-dgemm-lda-k", file=BLAS,
         old="_d_gemm(ROW_MAJOR, ta, NO_TRANS, M, N, K, 1.0, A.ctypes.data, A.shape[1],",
         new="_d_gemm(ROW_MAJOR, ta, NO_TRANS, M, N, K, 1.0, A.ctypes.data, K,",
         tests=BLAS_NEW + BLAS_OLD,
         why="dgemm gets lda K: wrong for the transposed A (K,M) of a weight gradient where K != M (float64)"),
    # ---- window layer: the x side's LayerNorm ----
    dict(name="v45-window-ln-x-eps-dropped", file=WINDOW,
         old="                rx = one / np.sqrt(vx * invG + eps)\n",
         new="                rx = one / np.sqrt(vx * invG)\n",
         tests=WINDOW_NEW + WINDOW_OLD,
         why="the window layer's LayerNorm of X_t Wx drops eps"),
]
