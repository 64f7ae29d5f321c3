"""Planted bugs, round 66 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the LSTM, the
RNN, LayerNorm, the mixture density and the last-step heads' objectives, on lines no earlier round mutates.
lstm_cuda: the forget gate's derivative reading the carried dL/dc_t for c_{t-1}, the input LayerNorm's backward
scaled by the recurrent side's 1/std, the sequence forward's cell LayerNorm averaged over G, the per-step
backward's cell sums divided by G, the sequence forward's recurrent product over H of the G columns, its barrier
between that product and the row function dropped, dgc and dbc handed back swapped. rnn_cuda: the per-step
LayerNorm averaged over the batch axis, every row of the sequence forward starting from row 0's h0, the
per-step backward carrying dL/dh from dL/d(tanh argument) past the LayerNorm, the LN bias dropped. layernorm_cuda:
one block per feature instead of per row, the backward's second sum without the gain. mdn_cuda: the pen's
Bernoulli terms swapped, dL/d(pi logits) of the wrong sign. losses_cuda: a row not scored given a gradient, or
counted as correct when its label is its argmax; the squared error's gradient without its 2.

18 mutants. Against the existing targeted tests alone 17 were caught and 1 missed: a masked row whose label is
its argmax counted as correct (the older tie test scores every row). The new value tests catch every mutant on
their own (checked with the old tests taken off the lists): test_values66_cells_cuda (the CUDA LSTM and RNN at
T = 4, B = 3, I = 2, H = 5 over blocks of 4 threads, on the sequence kernels and the per-step launches, LN on and
off with eps 0.3, initial states of their own in every row, a binding gate clip, a seed dL/dc_T with the clip;
against the CPU twins and the NumPy spec lnrnn/reference.py, and step 0 of the LN-LSTM and of the RNN recomputed
from the definitions) and test_values66_rows_cuda (LayerNorm on 6 x 3 and 2 x 7 rows by the formula, its
backward against central differences and the CPU twin; the mixture density against reference.mdn_nll with pen
down and up and a padded point, its backward against central differences of the spec; softmax cross-entropy
and squared error written in NumPy, with a masked row whose label is its argmax and a row labelled -1).
Dropped before the catalogue: as equivalent, the mixture density's max over the pi logits starting one component
late (the log-sum-exp is the same for any shift that stays finite), the grid of mdn_cuda's launches rounded down
(a grid-stride loop covers the rest) and the bwd_seq's dc0 zeroing (the sequence kernels never serve a seed, so
dc0 starts at zero anyway); as redundant, the LSTM backward's 1 - tanh in place of 1 - tanh^2 (seen by every
gradient test). State noise, ragged lengths and the heads' evaluation are not arguments of these kernels (the
layers and the model hold them): no mutant here.

    python tests/mutants/run.py --only 'v66-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"
LN = "lnrnn/kernels/layernorm_cuda.py"
MDN = "lnrnn/kernels/mdn_cuda.py"
LOSSES = "lnrnn/kernels/losses_cuda.py"

# existing tests of these modules
K = "tests/kernels/"
LSTM_OLD = [K + "test_cuda_kernels.py", K + "test_values_lstm_cuda.py", K + "test_values11_lstm_cuda.py",
            K + "test_values30_lstm_cuda.py", K + "test_cuda_graphs.py"]
RNN_OLD = [K + "test_cuda_kernels.py", K + "test_values38_rnn_cuda.py", K + "test_cuda_graphs.py"]
LN_OLD = [K + "test_cuda_kernels.py", K + "test_values30_layernorm_cuda.py"]
MDN_OLD = [K + "test_mdn.py", K + "test_values22_mdn_cuda.py"]
LOSSES_OLD = [K + "test_values22_losses_cuda.py", K + "test_values9_losses_cuda.py",
              "tests/training/test_device_update.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
CELLS_NEW = [K + "test_values66_cells_cuda.py"]
ROWS_NEW = [K + "test_values66_rows_cuda.py"]

MUTANTS = [
    # ---- lstm_cuda: the row functions, the sequence kernels, the per-step launches, the gradient sums ----
    dict(name="v66-lstm-bwd-forget-grad-reads-dc", file=LSTM,
         old="dav[4 * u + 1] = dck * uv[5 * u + 3] * f * (one - f)",
         new="dav[4 * u + 1] = dck * uv[5 * u + 4] * f * (one - f)",
         tests=CELLS_NEW + LSTM_OLD,
         why="the forget gate's derivative multiplies by the carried dL/dc_t (uv slot 4) instead of c_{t-1} (slot 3)"),
    dict(name="v66-lstm-bwd-dxw-rstd-of-h-side", file=LSTM,
         old="dxw[j] = r_x * (",
         new="dxw[j] = r_h * (",
         tests=CELLS_NEW + LSTM_OLD,
         why="the input LayerNorm's backward scales by the recurrent side's 1/std (copy of the dhw line above)"),
    dict(name="v66-lstm-seq-cell-ln-over-G", file=LSTM,
         old="                               one / dt(H), (gates[t, bb]",
         new="                               one / dt(G), (gates[t, bb]",
         tests=CELLS_NEW + LSTM_OLD,
         why="the sequence forward's cell LayerNorm averages its H units over G = 4H: mean and variance a quarter"),
    dict(name="v66-lstm-step-bwd-cell-sums-over-G", file=LSTM,
         old="dt(G // 4), one / dt(G), (da_t[bb]",
         new="dt(G), one / dt(G), (da_t[bb]",
         tests=CELLS_NEW + LSTM_OLD,
         why="the per-step backward divides the cell LayerNorm's two sums by G instead of H (fh)"),
    dict(name="v66-lstm-seq-fwd-products-of-H-columns", file=LSTM,
         old="for j in range(tid, G, n):",
         new="for j in range(tid, H, n):",
         tests=CELLS_NEW + LSTM_OLD,
         why="the sequence forward computes h_{t-1} Wh for the first H of the G gate columns only (the others keep "
             "what the shared array held: step 0's zeros under h0 = 0, stale sums after)"),
    dict(name="v66-lstm-seq-fwd-missing-sync", file=LSTM,
         old="            cuda.syncthreads()  # hw complete; nobody reads hs again this step\n",
         new="",
         tests=CELLS_NEW + LSTM_OLD,
         why="no barrier between the recurrent product and the row function: a thread reads hw columns other "
             "threads have not written yet, and overwrites hs (h_t) while others still read h_{t-1}"),
    dict(name="v66-lstm-bwd-dgc-dbc-swapped", file=LSTM,
         old="colsum_prod(DCN, chat), colsum(DCN))",
         new="colsum(DCN), colsum_prod(DCN, chat))",
         tests=CELLS_NEW + LSTM_OLD,
         why="the per-step/sequence backward returns the cell LayerNorm's dbc where dgc belongs and dgc for dbc"),
    # ---- rnn_cuda ----
    dict(name="v66-rnn-step-ln-over-batch-axis", file=RNN,
         old="one / dt(a.shape[1])",
         new="one / dt(a.shape[0])",
         tests=CELLS_NEW + RNN_OLD,
         why="the per-step forward's LayerNorm averages over 1/B (a's batch axis) instead of 1/H"),
    dict(name="v66-rnn-seq-h0-of-row-0", file=RNN,
         old="hs[k] = h0[bb, k]",
         new="hs[k] = h0[0, k]",
         tests=CELLS_NEW + RNN_OLD,
         why="every row of the sequence forward starts from batch row 0's initial state"),
    dict(name="v66-rnn-step-bwd-dh-from-dz", file=RNN,
         old="matmul(dA[t], Wh, out=dh_next, trans_b=True)",
         new="matmul(dZ[t], Wh, out=dh_next, trans_b=True)",
         tests=CELLS_NEW + RNN_OLD,
         why="the per-step backward carries dL/dh_{t-1} from dL/d(tanh argument), not from dL/d(LN input): with "
             "LN the LayerNorm's backward is skipped on the recurrent path"),
    dict(name="v66-rnn-ln-bias-dropped", file=RNN,
         old="h = math.tanh(gb[2 * u] * ah + gb[2 * u + 1])",
         new="h = math.tanh(gb[2 * u] * ah)",
         tests=CELLS_NEW + RNN_OLD,
         why="with LN the row function forgets the LayerNorm's bias b"),
    # ---- layernorm_cuda ----
    dict(name="v66-ln-grid-over-features", file=LN,
         old="kernels(x.dtype)[0][x.shape[0]",
         new="kernels(x.dtype)[0][x.shape[1]",
         tests=ROWS_NEW + LN_OLD,
         why="ln_rows launches one block per feature instead of one per row: rows past F are never normalized "
             "(or blocks past N index rows that do not exist)"),
    dict(name="v66-ln-bwd-s2-without-gain", file=LN,
         old="s2 += d * (x[r, j] - m) * rs",
         new="s2 += dy[r, j] * (x[r, j] - m) * rs",
         tests=ROWS_NEW + LN_OLD,
         why="the backward's second sum forgets the gain (dy xhat instead of dy gain xhat)"),
    # ---- mdn_cuda ----
    dict(name="v66-mdn-pen-terms-swapped", file=MDN,
         old="nll[n] = -lse + tg[2] * sp_neg + (one - tg[2]) * sp_pos",
         new="nll[n] = -lse + tg[2] * sp_pos + (one - tg[2]) * sp_neg",
         tests=ROWS_NEW + MDN_OLD,
         why="the pen's Bernoulli term takes -log(1 - e) for a pen-up point and -log e for a pen-down one"),
    dict(name="v66-mdn-bwd-pi-sign", file=MDN,
         old="d[n, 1 + k] = g * (pik - gk)",
         new="d[n, 1 + k] = g * (gk - pik)",
         tests=ROWS_NEW + MDN_OLD,
         why="dL/d(pi logits) of the wrong sign (gamma - pi): training pushes the weights away"),
    # ---- losses_cuda ----
    dict(name="v66-losses-xent-masked-row-gradient", file=LOSSES,
         old="g = scale if on else zero",
         new="g = scale",
         tests=ROWS_NEW + LOSSES_OLD,
         why="a row not scored (mask 0 or label -1) still gets scale * softmax as its gradient"),
    dict(name="v66-losses-xent-correct-without-mask", file=LOSSES,
         old="rows[r, 1] = 1.0 if (on and best == lab) else 0.0",
         new="rows[r, 1] = 1.0 if best == lab else 0.0",
         tests=ROWS_NEW + LOSSES_OLD,
         why="a masked row whose label is its argmax counts as correct"),
    dict(name="v66-losses-sqerr-gradient-without-2", file=LOSSES,
         old="d[r, o] = (dt(2.0) * scale) * err",
         new="d[r, o] = scale * err",
         tests=ROWS_NEW + LOSSES_OLD,
         why="the squared error's gradient forgets the 2 of d(err^2)/d(err)"),
]
