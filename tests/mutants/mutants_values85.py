"""Planted bugs, round 85 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the
recurrent cells, on lines no earlier round mutates: lstm_cuda's plain preactivation without the bias b, the cell
LayerNorm's bias slot loaded with the gain gc, the per-step backward handing bwd_row the h and cell rstd swapped,
the sequence backward writing dh0 from the last step's dL/d(h Wh) columns, dL/dc_{t-1} carried through the input
gate, the graph backward's dgx summed against the h side's normalized product, its fold bound exclusive (an input
of exactly FOLD_MAX_I columns neither recomputed nor saved) and the kernel paths returning tanh of the normalized
cell as cT; rnn_cuda's LN backward mean term without the gain, the sequence backward multiplying by Wh where it
wants Wh^T, the graph forward's hT taken at step 0 and its dg summed against dL/da instead of dL/dz; bn_lstm_cuda's
h-side batch variance counting the padded rows, evaluation reading the input gate's running variance for every gate
column, the cell's running row folded by the h side's bound and the cell BatchNorm's backward projecting on the
centered instead of the normalized cell state.

16 mutants. Against the existing targeted tests alone, measured for the first 11 (the measuring run was stopped
during the twelfth, the graph dg, after some minutes without a failure; the BN-LSTM's four were not measured), 10
were caught and 1 missed: the graph backward's fold bound exclusive (no old graph test runs LN with an input of
exactly FOLD_MAX_I columns).

The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values85_lstm_cuda (each of the three time loops, the graph one on the simulator's stand-in library, plain and
LN with every gain and bias off its default and I = FOLD_MAX_I: outputs and all twelve gradients against the CPU
twin and the NumPy spec; a sequence run as two chunks, the second from the first's (hT, cT), against one CPU call,
with c_T recomputed from the saved gates by its definition; a seed dL/dc_T with a clip that binds, per-step and
graph), test_values85_rnn_cuda (each loop, plain and LN, against the CPU twin and the spec, hT as y's last step;
one LN step's db, dg, dh0 and dWh by hand from the LayerNorm's backward; two chunks against one call) and
test_values85_bn_lstm_cuda (training on ragged rows and evaluation, with and without the captured plans, against
the CPU twin: outputs, saved statistics, gradients and running rows; each step's h-side mean and rstd from the
saved hw over the active rows, the cell's single running row as step 0's fold alone, evaluation's rstd from each
column's own running variance; two chunks with the states and running rows carried over). Dropped as equivalent:
the BN-LSTM backward leaving a padded row's dcarry unzeroed (rows are padded at their end only, so dcarry there is
still the zero it started as), rnn_cuda's fwd_row not writing the summed preactivation back into a (nobody reads
a again before the next product overwrites it) and bwd_seq's dc0 zeroing skipped (a seed dL/dc_T sends the
LSTM to the per-step loop, where dc0 starts as zeros). Left out: the sequence kernels' shared-memory sums
(_seq_geometry) one array short (seen only at the size where the kernels stop fitting, not at these shapes).

    python tests/mutants/run.py --only 'v85-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"
BNL = "lnrnn/kernels/bn_lstm_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values66_cells_cuda.py", "tests/kernels/test_values_lstm_cuda.py",
            "tests/kernels/test_values11_lstm_cuda.py", "tests/kernels/test_values30_lstm_cuda.py",
            "tests/kernels/test_cuda_graphs.py"]
RNN_OLD = ["tests/kernels/test_values66_cells_cuda.py", "tests/kernels/test_values38_rnn_cuda.py",
           "tests/kernels/test_cuda_graphs.py"]
BNL_OLD = ["tests/kernels/test_values60_bn_lstm_cuda.py", "tests/kernels/test_values79_bn_cells_cuda.py",
           "tests/kernels/test_cuda_bn_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values85_lstm_cuda.py"]
RNN_NEW = ["tests/kernels/test_values85_rnn_cuda.py"]
BNL_NEW = ["tests/kernels/test_values85_bn_lstm_cuda.py"]

MUTANTS = [
    # ---- lstm_cuda: the row functions, the step and sequence kernels, the graph plans ----
    dict(name="v85-lstm-cuda-plain-preactivation-without-bias", file=LSTM,
         old="                        pre[4 * u + q] = xp[j] + b[j]",
         new="                        pre[4 * u + q] = xp[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="without LN a gate's preactivation drops the bias b: every plain LSTM runs as if b were 0"),
    dict(name="v85-lstm-cuda-cell-bias-reads-the-gain", file=LSTM,
         old="                    gcb[2 * u + 1] = bc[k]",
         new="                    gcb[2 * u + 1] = gc[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's bias slot is loaded with the gain gc: tanh(gc chat + gc) instead of gc chat + bc"),
    dict(name="v85-lstm-cuda-step-rstd-h-and-c-swapped", file=LSTM,
         old="        r = (rstd_x_t[bb], rstd_h_t[bb], rstd_c_t[bb]) if ln else (one, one, one)",
         new="        r = (rstd_x_t[bb], rstd_c_t[bb], rstd_h_t[bb]) if ln else (one, one, one)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the per-step backward hands bwd_row the cell LayerNorm's rstd for the h side and the other way round"),
    dict(name="v85-lstm-cuda-seq-dh0-from-dv", file=LSTM,
         old="        for k in range(tid, H, n):\n            dh0[bb, k] = dh[k]",
         new="        for k in range(tid, H, n):\n            dh0[bb, k] = dv[k]",
         tests=LSTM_NEW + LSTM_OLD,
         why="the sequence backward writes dh0 from the last step's dL/d(h Wh) columns instead of dL/dh_0"),
    dict(name="v85-lstm-cuda-dc-carried-through-the-input-gate", file=LSTM,
         old="                dc[k] = dck * f",
         new="                dc[k] = dck * i",
         tests=LSTM_NEW + LSTM_OLD,
         why="dL/dc_{t-1} is carried back through the input gate instead of the forget gate"),
    dict(name="v85-lstm-cuda-graph-dgx-against-hhat", file=LSTM,
         old="colsum_launch(DA2, xp2, d1, d1, SUM_PROD, self.sums[1], parts[0], stream)",
         new="colsum_launch(DA2, self.hhat.reshape(N, G), d1, d1, SUM_PROD, self.sums[1], parts[0], stream)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the graph backward's dgx sums dL/da against the h side's normalized product instead of xhat_x"),
    dict(name="v85-lstm-cuda-graph-fold-bound-exclusive", file=LSTM,
         old="        narrow = ln and 0 < I <= FOLD_MAX_I  # xhat_x recomputed",
         new="        narrow = ln and 0 < I < FOLD_MAX_I  # xhat_x recomputed",
         tests=LSTM_NEW + LSTM_OLD,
         why="the graph backward takes an input of exactly FOLD_MAX_I columns as wide: it neither recomputes "
             "xhat_x nor finds it saved, and reads the plan's zeros"),
    dict(name="v85-lstm-cuda-cT-is-tanh-of-the-cell", file=LSTM,
         old="    return y, copy(y[T - 1]), copy(c[T - 1]), saved",
         new="    return y, copy(y[T - 1]), copy(tc[T - 1]), saved",
         tests=LSTM_NEW + LSTM_OLD,
         why="the kernel paths return tanh(LN(c_T)) as the final cell state: the next chunk starts from it"),
    # ---- rnn_cuda ----
    dict(name="v85-rnn-cuda-ln-mean-term-without-gain", file=RNN,
         old="                    s1 += d * gk",
         new="                    s1 += d",
         tests=RNN_NEW + RNN_OLD,
         why="the LN-RNN backward's mean term sums dL/dz without the gain g: exact only when g is 1"),
    dict(name="v85-rnn-cuda-seq-backward-untransposed", file=RNN,
         old="(dy, y, ahat if ln else d3, rstd, g, transpose(Wh), ln, dZ,",
         new="(dy, y, ahat if ln else d3, rstd, g, Wh, ln, dZ,",
         tests=RNN_NEW + RNN_OLD,
         why="the sequence backward multiplies dL/da by Wh where it wants Wh^T (square: no shape error)"),
    dict(name="v85-rnn-cuda-graph-hT-first-step", file=RNN,
         old="        return y, take_row(y, T - 1), saved",
         new="        return y, take_row(y, 0), saved",
         tests=RNN_NEW + RNN_OLD,
         why="the graph forward returns h_1 (step 0's output) as the final state"),
    dict(name="v85-rnn-cuda-graph-dg-against-da", file=RNN,
         old="colsum_launch(dZ2, self.ahat.reshape(N, H), d1, d1, SUM_PROD, self.sums[1], part, stream)",
         new="colsum_launch(dA2, self.ahat.reshape(N, H), d1, d1, SUM_PROD, self.sums[1], part, stream)",
         tests=RNN_NEW + RNN_OLD,
         why="the graph backward's dg sums dL/d(x Wx + h Wh) against ahat instead of dL/d(tanh argument)"),
    # ---- bn_lstm_cuda ----
    dict(name="v85-bn-lstm-cuda-padded-rows-in-the-variance", file=BNL,
         old="                    if act[r] > zero:\n                        d = a[4 * r + q] - m4[q]",
         new="                    if act[r] >= zero:\n                        d = a[4 * r + q] - m4[q]",
         tests=BNL_NEW + BNL_OLD,
         why="the h side's batch variance adds the padded rows' squared deviations (the mean leaves them out)"),
    dict(name="v85-bn-lstm-cuda-eval-variance-of-gate-i", file=BNL,
         old="                r4[q] = one / math.sqrt(rvh_r[q * H + j] + e)",
         new="                r4[q] = one / math.sqrt(rvh_r[j] + e)",
         tests=BNL_NEW + BNL_OLD,
         why="in evaluation every gate column reads the running variance of the input gate's column"),
    dict(name="v85-bn-lstm-cuda-cell-row-folded-by-the-h-bound", file=BNL,
         old="update_c and valid, rmc_r, rvc_r, j,",
         new="update_h and valid, rmc_r, rvc_r, j,",
         tests=BNL_NEW + BNL_OLD,
         why="the cell's running row is folded while the h side still has rows: past the cell's last row its "
             "final row is folded again at every step"),
    dict(name="v85-bn-lstm-cuda-backward-cell-projection-without-rc", file=BNL,
         old="dcbn = gcj * rc * (dcn[r] - (s1 + cm[r] * rc * s2) * inv)",
         new="dcbn = gcj * rc * (dcn[r] - (s1 + cm[r] * s2) * inv)",
         tests=BNL_NEW + BNL_OLD,
         why="the cell BatchNorm's backward projects on c - mean without the rstd: the centered, not the normalized, "
             "cell state"),
]
