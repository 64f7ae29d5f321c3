"""Planted bugs, round 79 (format: tests/mutants/mutants.py): single-line slips in the BN-LSTM's CPU kernel and in the
BN cells' CUDA twins, on lines no earlier round mutates. The CPU kernel: the fold path (narrow inputs) taking
I = FOLD_MAX_I down the wide path in the forward only, picking the x side's running row with the h side's count,
and parts q > 0 keeping the fold's mean and rstd in one scratch row; the cell's running rows counted with the h
side's count; the cell's moments masked with step t + 1's rows; the backward's dgc adding the cell's plain sum,
its parts taken for blocks (fewer parts than blocks leave blocks unsummed), the fold's x side given the
hat-weighted sum for the plain one, and Graves's clip switched on at 0. The CUDA twins: the BN-LSTM forward's grid
and the BN-RNN backward's grid rounding H / TILE down, the BN-LSTM's gate variance divided by n - 1, its input
gate's clip without the upper bound and dbc reduced from the dgc partials; the BN-RNN forward counting a row one
step past its length and its inference dividing by the running variance instead of its square root.

16 mutants. Against the existing targeted tests alone the count was not measured: that run was cut short (its
baseline over the six CPU and four CUDA test files had not finished after nine minutes, with every mutant
still to run). The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values79_bn_lstm (the CPU kernel on 1, 2 and 3 parts over 4 uneven row blocks of B = 7 rows, the
same bits on each, against the NumPy spec reference.bn_lstm_forward/backward for I = 2, FOLD_MAX_I and 6,
training and inference, clip off and at the median |dL/da| so that it binds on some entries only; running rows
and saved statistics recomputed here from the active rows of x_t Wx, the saved h_{t-1} Wh and c_t, with each
side's own number of rows below T; inference's statistics as row min(t, Ts-1); dy at padded (row, step)s changing
no gradient), test_values79_bn_cells_cuda (both CUDA twins against their CPU twins in float64, H = 5 over tiles
of 4, B = 6 over 4 lanes, rows of their own lengths, own running-row counts, eps and momentum off their
defaults, training and inference; inference's step 0 and the BN-RNN's saved statistics by the definition in
NumPy; the LSTM's clip at the median |dL/da|, binding past both bounds in every gate's block, against the spec).
Dropped as equivalent: the CPU backward's zeroing of a padded row's dL/dc_{t-1} (``if nt < B``) and the CUDA
LSTM backward's ``dcarry[b, j] = zero`` for a padded row (that row's dL/dc is zero already: it starts at zero,
and rows_bwd_dx / the padded branch give it no dL/d BN_t(c_t)); the BN-RNN backward's ``max(count, 1)`` dropped
(with no active row nothing is multiplied by the count's inverse). Left out as races the tests would see only by
chance: the second barrier's generation one short, and a part writing other parts' rows of the fold's
BN_t(x_t Wx) or other blocks' moments.

    python tests/mutants/run.py --only 'v79-*'
"""
LSTM = "lnrnn/kernels/bn_lstm.py"
LSTM_CUDA = "lnrnn/kernels/bn_lstm_cuda.py"
RNN_CUDA = "lnrnn/kernels/bn_rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values18_bn_lstm.py", "tests/kernels/test_bn_cells.py",
            "tests/kernels/test_values11_bn_cells.py", "tests/kernels/test_values22_bn_cells.py",
            "tests/kernels/test_gate_clip.py", "tests/kernels/test_values18_bn_cell_x.py"]
CUDA_OLD = ["tests/kernels/test_values60_bn_lstm_cuda.py", "tests/kernels/test_values22_bn_cells_cuda.py",
            "tests/kernels/test_values38_bn_cells_cuda.py", "tests/kernels/test_cuda_bn_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values79_bn_lstm.py"]
CUDA_NEW = ["tests/kernels/test_values79_bn_cells_cuda.py"]

MUTANTS = [
    # ---- the CPU kernel: the narrow-input fold path inside the loop and the running rows' counts ----
    dict(name="v79-fold-bound-strict", file=LSTM,
         old="    fold = 0 < I <= FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop, from xs",
         new="    fold = 0 < I < FOLD_MAX_I  # x Wx and BN_t of it row by row inside the loop, from xs",
         tests=LSTM_NEW + LSTM_OLD,
         why="the forward takes I = FOLD_MAX_I down the wide path while the backward (<=) still reads saved[0] as "
             "the fold's moments of x: the widest narrow input's gradients are wrong or the call fails"),
    dict(name="v79-fold-x-row-of-the-h-count", file=LSTM,
         old="            tx = min(t, Tsx - 1)",
         new="            tx = min(t, Tsh - 1)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the fold path picks the x side's running row with the h side's row count: with fewer h rows the x "
             "rows past it are never updated (the last h-count row takes every later step) and inference reads it"),
    dict(name="v79-fold-part-rstd-in-mean-slot", file=LSTM,
         old="            mx, rx = (mean_x[t], rstd_x[t]) if q == 0 else (st[4], st[5])",
         new="            mx, rx = (mean_x[t], rstd_x[t]) if q == 0 else (st[4], st[4])",
         tests=LSTM_NEW + LSTM_OLD,
         why="parts q > 0 keep the fold's mean and rstd of x Wx in one scratch row: the rstd overwrites the mean, "
             "so their rows' BN_t(x_t Wx) is wrong whenever the loop runs on more than one part"),
    dict(name="v79-cell-row-count-of-h", file=LSTM,
         old="    Tsh, Tsc, Tsx = rmh.shape[0], rmc.shape[0], rmx.shape[0]",
         new="    Tsh, Tsc, Tsx = rmh.shape[0], rmh.shape[0], rmx.shape[0]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell's running rows counted with the h side's count: with fewer h rows the cell's later rows "
             "are never recorded and its earlier last row takes every later step's statistics"),
    dict(name="v79-cell-moments-mask-of-next-step", file=LSTM,
         old="            blocks_moments(c[t], lengths, t, nblk, k0, k1, exc)",
         new="            blocks_moments(c[t], lengths, t + 1, nblk, k0, k1, exc)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell's moments at step t count the rows still active at t + 1: a row ending at t is left out "
             "of BN_t(c_t)'s statistics"),
    # ---- the CPU kernel's backward: the cell's BN sums, the parts' rows, the fold's x side, the clip ----
    dict(name="v79-bwd-dgc-from-the-bias-sums", file=LSTM,
         old="        add_cols(dgc, sc[H:], j0, j1)",
         new="        add_cols(dgc, sc[:H], j0, j1)",
         tests=LSTM_NEW + LSTM_OLD,
         why="dgc adds the cell's first BN backward sum (sum of dL/d BN_t(c_t), dbc's) instead of the sum "
             "weighted by c-hat"),
    dict(name="v79-bwd-parts-taken-for-blocks", file=LSTM,
         old="    kb0, kb1, r0, r1 = part_rows(B, nblk, n, q)  # its blocks and their rows",
         new="    kb0, kb1, r0, r1 = part_rows(B, n, n, q)  # its blocks and their rows",
         tests=LSTM_NEW + LSTM_OLD,
         why="the backward splits the batch as if each part were one block: with fewer parts than blocks some "
             "blocks' sums are never written and their rows' dh_{t-1} never computed"),
    dict(name="v79-fold-bwd-weighted-sum-for-plain", file=LSTM,
         old="            fold_step_backward(s1, s[2 * G:].reshape((I, G))",
         new="            fold_step_backward(s2, s[2 * G:].reshape((I, G))",
         tests=LSTM_NEW + LSTM_OLD,
         why="the fold's x side takes the h side's hat-weighted sum for the plain sum of dL/da: db, dgx, dWx "
             "and dx of a narrow input are wrong"),
    dict(name="v79-clip-on-at-zero", file=LSTM,
         old="        if clip > zero:  # Graves",
         new="        if clip >= zero:  # Graves",
         tests=LSTM_NEW + LSTM_OLD,
         why="clip 0 (off) clips dL/da to [0, 0]: the unclipped backward loses every gate gradient"),
    # ---- the BN-LSTM's CUDA twin ----
    dict(name="v79-cuda-lstm-fwd-grid-floor", file=LSTM_CUDA,
         old="        grid = ((H + t - 1) // t, 1)\n\n        def before(stream):\n            xw()",
         new="        grid = (H // t, 1)\n\n        def before(stream):\n            xw()",
         tests=CUDA_NEW + CUDA_OLD,
         why="the forward's grid rounds H / TILE down: the hidden units of a last, partial tile are never "
             "computed when H is not a multiple of the tile"),
    dict(name="v79-cuda-lstm-gate-var-unbiased", file=LSTM_CUDA,
         old="                var = tot[q, tx] * inv\n",
         new="                var = tot[q, tx] / max(n - one, one)\n",
         tests=CUDA_NEW + CUDA_OLD,
         why="the gates' batch variance divides by n - 1 (the running rows' unbiased estimate) where BN_t "
             "normalizes with the biased one"),
    dict(name="v79-cuda-lstm-clip-i-no-upper-bound", file=LSTM_CUDA,
         old="                    di = min(max(di, -cl), cl)",
         new="                    di = max(di, -cl)",
         tests=CUDA_NEW + CUDA_OLD,
         why="Graves's clip of the input gate's dL/da keeps only its lower bound"),
    dict(name="v79-cuda-lstm-dbc-from-pgc", file=LSTM_CUDA,
         old="                                   (parts[1], self.pbc, self.sums[4])):",
         new="                                   (parts[1], self.pgc, self.sums[4])):",
         tests=CUDA_NEW + CUDA_OLD,
         why="dbc is reduced from the per-step dgc sums: the cell's bias gradient equals its gain gradient"),
    # ---- the BN-RNN's CUDA twin ----
    dict(name="v79-cuda-rnn-fwd-mask-le", file=RNN_CUDA,
         old="                if s < lengths[b]:\n                    act[r] = one\n                    cnt += one\n"
             "                    sm += v",
         new="                if s <= lengths[b]:\n                    act[r] = one\n                    cnt += one\n"
             "                    sm += v",
         tests=CUDA_NEW + CUDA_OLD,
         why="the forward counts a row one step past its length in the h side's BN_t statistics"),
    dict(name="v79-cuda-rnn-inference-rstd-no-sqrt", file=RNN_CUDA,
         old="            m, rs = rmh_r[j], one / math.sqrt(rvh_r[j] + e)",
         new="            m, rs = rmh_r[j], one / (rvh_r[j] + e)",
         tests=CUDA_NEW + CUDA_OLD,
         why="inference divides by the running variance instead of its square root"),
    dict(name="v79-cuda-rnn-bwd-grid-floor", file=RNN_CUDA,
         old="        grid = ((H + t - 1) // t, 1)\n\n        def before(stream):\n            transpose_into",
         new="        grid = (H // t, 1)\n\n        def before(stream):\n            transpose_into",
         tests=CUDA_NEW + CUDA_OLD,
         why="the backward's grid rounds H / TILE down: a last, partial tile's units get no dL/da, dh or dgh"),
]
