"""Planted bugs, round 72 (format: tests/mutants/mutants.py): single-line slips in the CPU LSTM/LN-LSTM and
RNN/LN-RNN sequence kernels (lnrnn/kernels/lstm.py, lnrnn/kernels/rnn.py), on lines no earlier round mutates, in
their row loops and the sums after them: a narrow input's LayerNorm of x_t Wx in closed form (||Rx x_t||^2
without Rx's diagonal, x_t Wc scaled by the h side's 1/std), the plain LSTM's narrow input adding only its first
column, the cell LayerNorm's variance about zero, the G-wide variances divided by H; in the backward the LN-LSTM's
dL/dh_t without the gradient carried from step t+1, the forget gate's derivative taken at the input gate, the
narrow LN input's closed form (pc_i weighted with gh, s2x missing its first term, B_ik summing s1x for s2x), every
chunk's dcT seed read from the first chunk's rows, a wide input's x block counted with its dWh block's steps, dc0
copied from dL/dh; the RNN's narrow input missing its last column, its dWx, db and dg the first chunk's partials
alone, the LN-RNN's backward without its gain, rnn_infer returning h_0 as the final state.

18 mutants. Against the existing targeted tests alone all 18 were caught and none missed (test_kernels,
test_values11_lstm, test_values45_lstm, test_values45_rnn, test_gate_clip and the chunk-partial race tests
already compare both kernels with the reference over narrow and wide inputs, chunks, dcT and short blocks).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values72_lstm (float64, against reference.lstm_forward/lstm_backward: widths 1, 3, FOLD_MAX_I and
FOLD_MAX_I + 2, LN on and off, T = 1, 2, 3, B = 5 rows on 1, 2 and 3 chunks, gains away from 1; the forward's
outputs and saved arrays the same bits on every chunk count and lstm_infer the same bits as lstm_forward; dy
seeded at the last step only with each row's own dcT, every gradient against central differences
(gradcheck_util.numeric_grad) on 2 and 3 chunks; Graves's clip at the median |dL/da| that the reference's
backward hands to its clip, so that it binds on some entries only, against the reference with the same clip;
a wide input's dWh blocks (blas.dwh_blocks replaced) and x blocks (config.DWX_BLOCK_ROWS) cut so that the T*B
rows cross several block edges, on the BLAS and transposed (grad_t_add) products), test_values72_rnn (the same
grid against reference.rnn_forward/rnn_backward with an LN gain away from 1, rnn_infer bit for bit, and every
gradient against central differences on 2 and 3 chunks).
Dropped as equivalent (no test could see them): the backward's row-ahead prefetches (_fetch_row of the row two
ahead, its tq/bq offsets) and plan_steps's fetch regions read at the wrong row (speed only: they ask for cache
lines and write nothing); dropping pG[1, 1:] = 0 after a narrow LN input's loop (pG starts at zeros and that
path never adds into pgx); lstm_infer keeping one row of c instead of two (c_t is computed element by element
from c_{t-1}, each element read before it is written, and nothing reads c_{t-1} after). Also left out of the
list: lstm_forward returning c_0 as the final cell (run once and caught by the old tests; rnn_infer's twin of the
same slip stays).

    python tests/mutants/run.py --only 'v72-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

KERNELS = "tests/kernels/test_kernels.py"
CLIP = "tests/kernels/test_gate_clip.py"
RACES = "tests/kernels/test_races.py"
# existing tests of these modules
LSTM_OLD = [KERNELS, "tests/kernels/test_values11_lstm.py", "tests/kernels/test_values45_lstm.py", CLIP,
            f"{RACES}::test_lstm_backward_chunk_partials"]
RNN_OLD = [KERNELS, "tests/kernels/test_values45_rnn.py", f"{RACES}::test_rnn_backward_chunk_partials"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values72_lstm.py"]
RNN_NEW = ["tests/kernels/test_values72_rnn.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    # ---- lstm_forward / _forward_rows ----
    dict(name="v72-lstm-fold-rx-diagonal-dropped", file=LSTM,
         old="                        for i in range(k, I):",
         new="                        for i in range(k + 1, I):",
         tests=LSTM_T,
         why="a narrow input's ||Rx x_t||^2 without Rx's diagonal: the x LayerNorm's variance misses most of itself"),
    dict(name="v72-lstm-fold-ln-x-scaled-by-h-rstd", file=LSTM,
         old="u = (x0 * wc0[j] + xs[j]) * sx",
         new="u = (x0 * wc0[j] + xs[j]) * sh",
         tests=LSTM_T,
         why="a narrow input's x_t Wc normalized with the h side's 1/std"),
    dict(name="v72-lstm-plain-fold-rest-columns-dropped", file=LSTM,
         old="a[j] = _sigmoid((hr[j] + x0 * wc0[j] + xs[j] + bs[j]) * gm[j]) * gm[j] - gd[j]",
         new="a[j] = _sigmoid((hr[j] + x0 * wc0[j] + bs[j]) * gm[j]) * gm[j] - gd[j]",
         tests=LSTM_T,
         why="the plain LSTM's narrow input adds only its first column's share of x_t Wx"),
    dict(name="v72-lstm-cell-variance-about-zero", file=LSTM,
         old="                    u = ct[k] - mc\n",
         new="                    u = ct[k]\n",
         tests=LSTM_T,
         why="the cell LayerNorm's variance pass forgets to subtract the mean (a mean square, not a variance)"),
    dict(name="v72-lstm-h-variance-over-H", file=LSTM,
         old="    invG = one / x.dtype.type(G)  # means",
         new="    invG = one / x.dtype.type(H)  # means",
         tests=LSTM_T,
         why="the forward's G-wide LayerNorm variances divided by H, the cell's width"),
    # ---- lstm_backward / _backward_rows ----
    dict(name="v72-lstm-bwd-ln-dh-without-carried", file=LSTM,
         old="                    dh = dyr[k] + dhr[k]\n                    o = ao[k]\n"
             "                    tk = tcr[k]\n                    dao[k] = dh * tk * o * (one - o)\n"
             "                    d = dh",
         new="                    dh = dyr[k]\n                    o = ao[k]\n"
             "                    tk = tcr[k]\n                    dao[k] = dh * tk * o * (one - o)\n"
             "                    d = dh",
         tests=LSTM_T,
         why="the LN-LSTM's dL/dh_t is dy_t alone: the gradient carried from step t+1 is dropped"),
    dict(name="v72-lstm-bwd-f-gate-derivative-of-i", file=LSTM,
         old="daf[k] = dc * cp[k] * f * (one - f)",
         new="daf[k] = dc * cp[k] * i * (one - i)",
         tests=LSTM_T,
         why="the forget gate's sigmoid derivative taken at the input gate"),
    dict(name="v72-lstm-bwd-fold-ln-pc-with-gh", file=LSTM,
         old="s += da[j] * gx[j] * wci[j]",
         new="s += da[j] * gh[j] * wci[j]",
         tests=LSTM_T,
         why="a narrow LN input's pc_i (i >= 1) weighted with the h side's gain"),
    dict(name="v72-lstm-bwd-fold-ln-s2x-first-term-missing", file=LSTM,
         old="                for k in range(I):\n                    s2x += xw[k] * pc[k]",
         new="                for k in range(1, I):\n                    s2x += xw[k] * pc[k]",
         tests=LSTM_T,
         why="a narrow LN input's s2x = xw.pc / G misses its first term"),
    dict(name="v72-lstm-bwd-fold-ln-B-with-s1x", file=LSTM,
         old="pAB[i, k] += xw[i] * xw[k] * s2x",
         new="pAB[i, k] += xw[i] * xw[k] * s1x",
         tests=LSTM_T,
         why="a narrow LN input's B_ik sums xw_i xw_k s1x instead of s2x (dWx wrong)"),
    dict(name="v72-lstm-bwd-dcT-rows-of-chunk-0", file=LSTM,
         old="            lo, hi = chunk_bounds(B, nch, q)",
         new="            lo, hi = chunk_bounds(B, nch, 0)",
         tests=LSTM_T,
         why="every chunk's dL/dc_T seed is taken from the first chunk's rows of dcT"),
    dict(name="v72-lstm-bwd-x-block-rows-of-dWh-block", file=LSTM,
         old="            n = nkx * Bc ",
         new="            n = nk * Bc ",
         tests=LSTM_T,
         why="a wide input's x block counted with the dWh block's steps: where a dWh block holds several x "
             "blocks, the later ones read too many rows"),
    dict(name="v72-lstm-bwd-dc0-from-dh", file=LSTM,
         old="    copy_rows(dc0[lo:hi], dc_next)",
         new="    copy_rows(dc0[lo:hi], dh_next)",
         tests=LSTM_T,
         why="dc0 copied from the carried dL/dh instead of dL/dc"),
    # ---- rnn ----
    dict(name="v72-rnn-fold-last-column-skipped", file=RNN,
         old="                for i in range(I):",
         new="                for i in range(I - 1):",
         tests=RNN_T,
         why="a narrow input's x_t Wx misses its last column"),
    dict(name="v72-rnn-dWx-of-chunk-0", file=RNN,
         old="dWx = pWx[:, :I].sum(axis=0)",
         new="dWx = pWx[0, :I]",
         tests=RNN_T,
         why="a narrow input's dWx is the first chunk's partial alone"),
    dict(name="v72-rnn-ln-backward-without-gain", file=RNN,
         old="                    dz[k] *= g[k]\n",
         new="",
         tests=RNN_T,
         why="the LN-RNN's backward forgets the gain between dL/d(tanh input) and the LayerNorm backward"),
    dict(name="v72-rnn-infer-hT-first-step", file=RNN,
         old="    return y, y[x.shape[0] - 1].copy()\n",
         new="    return y, y[0].copy()\n",
         tests=RNN_T,
         why="rnn_infer returns h_0 as the final state (right only for T = 1)"),
    dict(name="v72-rnn-db-dg-of-chunk-0", file=RNN,
         old="db, dg = pH[:, :, :H].sum(axis=1)",
         new="db, dg = pH[:, 0, :H]",
         tests=RNN_T,
         why="db and dg are the first chunk's partials alone"),
]
