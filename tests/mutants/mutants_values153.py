"""Planted bugs, round 153 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent
kernels (lstm_cuda, rnn_cuda), a sixth pass, on lines no earlier round mutates: the LSTM forward row's tanh on the
output gate instead of the cell candidate, the cell LayerNorm without bc, the gates' LayerNorm backward sums
swapped, the per-step forward's 1/G and 1/H swapped, the sequence backward's cell LayerNorm sums over 4H; the
graph forward's x LayerNorm without eps, the graph backward's h and c rstd swapped; an input of exactly
FOLD_MAX_I columns whose xhat_x is not recomputed, the per-step backward reading c_t for c_{t-1}, lstm_infer
with h0 and c0 swapped, db summed over dL/d(h Wh); the RNN's per-step backward LayerNorm over B instead of H,
rnn_infer with b and g swapped, the graph backward's plan cached without its norm.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed, measured on the two most direct
old files of each module (test_values104_lstm_cuda and test_values85_lstm_cuda, test_values104_rnn_cuda and
test_values85_rnn_cuda; the full OLD lists below were not measured: too slow under the simulator): lstm_infer's
h0 and c0 swapped and rnn_infer's b and g swapped (no value test calls the infer functions), and the RNN graph
backward's plan key without the norm (each old test starts from an empty plan cache and one norm). The new value
tests come first in every list and catch all 14 on their own (checked with the old tests taken off the lists):
test_values153_lstm_cuda (y, hT, cT and all twelve gradients against the CPU twin and lnrnn.reference on every
time loop, T = 3, B = 3, H = 5 over blocks of 4, I = 4 = FOLD_MAX_I and I = 5, with and without LN, every gain and
bias off its default with a forget bias of +1, h0 and c0 of their own and never equal; hT and cT also by the
definition from the CPU twin's gates; a sequence cut into two chunks, the second from t0 = 1, whose backward
carries dL/dh0 and dL/dc0 of the later chunk into the earlier one as its last dy and its seed dL/dc_T, against one
CPU call; lstm_infer against the CPU twin's and the spec's forward), test_values153_rnn_cuda (y, hT and all six
gradients against the CPU twin and the spec on every loop, with and without LN, B = 3 != H = 5; the graph loop
with LN, without and with LN again in one plan cache; rnn_infer against the CPU twin and the spec). Dropped
before the catalogue as equivalent or near it: bwd_seq's dc0 zeroed at the start left out (the caller's dc_next
is zeros already); the RNN forward row's write-back a[k] = v left out (a is never read again: the next product
overwrites it); the forward keeping xp for a narrow LN input (keep = ln) (the backward recomputes xhat_x for it
all the same); the sequence backward's DCN[t if ln else 0] as DCN[t] (an index error, not a wrong value, and
only without LN). The kernels take no masks or lengths (the layers above them do), so none are exercised here.

    python tests/mutants/run.py --only 'v153-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values104_lstm_cuda.py", "tests/kernels/test_values85_lstm_cuda.py",
            "tests/kernels/test_values_lstm_cuda.py", "tests/kernels/test_values11_lstm_cuda.py",
            "tests/kernels/test_values30_lstm_cuda.py", "tests/kernels/test_cuda_kernels.py",
            "tests/kernels/test_cuda_graphs.py"]
RNN_OLD = ["tests/kernels/test_values104_rnn_cuda.py", "tests/kernels/test_values85_rnn_cuda.py",
           "tests/kernels/test_values38_rnn_cuda.py", "tests/kernels/test_cuda_kernels.py",
           "tests/kernels/test_cuda_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values153_lstm_cuda.py"]
RNN_NEW = ["tests/kernels/test_values153_rnn_cuda.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    # ---- lstm_cuda: the row functions ----
    dict(name="v153-lstm-cuda-tanh-on-the-output-gate", file=LSTM,
         old="                    g = math.tanh(a) if q == 2 else sigmoid(a, one)\n",
         new="                    g = math.tanh(a) if q == 3 else sigmoid(a, one)\n",
         tests=LSTM_T,
         why="the forward row squashes the output gate with tanh and the cell candidate with a sigmoid (gate order "
             "i f g o read as i f o g): every output and gradient is off on every loop"),
    dict(name="v153-lstm-cuda-cell-ln-without-bc", file=LSTM,
         old="                    tk = math.tanh(gcb[2 * u] * ch + gcb[2 * u + 1])\n",
         new="                    tk = math.tanh(gcb[2 * u] * ch)\n",
         tests=LSTM_T,
         why="the cell LayerNorm's bias bc is dropped from tanh(gc chat + bc): invisible while bc is 0 (its default)"),
    dict(name="v153-lstm-cuda-gate-ln-bwd-sums-swapped", file=LSTM,
         old="                        w = r_h * (d * lnv[16 * u + q] - h1 - lnv[16 * u + 4 + q] * h2)\n",
         new="                        w = r_h * (d * lnv[16 * u + q] - h2 - lnv[16 * u + 4 + q] * h1)\n",
         tests=LSTM_T,
         why="the h side's LayerNorm backward subtracts mean(gh da hhat) as the plain mean and the other way round: "
             "dh0, dWh and everything upstream off with LN"),
    dict(name="v153-lstm-cuda-step-fwd-ln-counts-swapped", file=LSTM,
         old="one, one / dt(G), one / dt(H),\n                           (gates_t[bb]",
         new="one, one / dt(H), one / dt(G),\n                           (gates_t[bb]",
         tests=LSTM_T,
         why="the per-step forward passes 1/H for the gates' LayerNorm (4H columns) and 1/G for the cell's: means "
             "and variances off by 4 on the per-step and graph loops"),
    dict(name="v153-lstm-cuda-seq-bwd-cell-ln-over-G", file=LSTM,
         old="                     chat[t, bb]), r, p, ln, cl, one, dt(H), one / dt(G),\n",
         new="                     chat[t, bb]), r, p, ln, cl, one, dt(G), one / dt(G),\n",
         tests=LSTM_T,
         why="the sequence backward divides the cell LayerNorm's two sums by 4H instead of H: dL/dc_t off with LN"),
    # ---- lstm_cuda: the graph plans ----
    dict(name="v153-lstm-cuda-graph-fwd-x-ln-without-eps", file=LSTM,
         old="                ln_rows(xp2, d1, d1, eps, False, xp2, mean, self.rstd[0].reshape(N), stream)\n",
         new="                ln_rows(xp2, d1, d1, 0.0, False, xp2, mean, self.rstd[0].reshape(N), stream)\n",
         tests=LSTM_T,
         why="the graph forward normalizes x Wx without eps (the other two LayerNorms keep it): off wherever eps "
             "is not negligible against the rows' variance"),
    dict(name="v153-lstm-cuda-graph-bwd-rstd-h-c-swapped", file=LSTM,
         old="            rs = (self.rstd[0, t], self.rstd[1, t], self.rstd[2, t]) if ln else (d1, d1, d1)\n",
         new="            rs = (self.rstd[0, t], self.rstd[2, t], self.rstd[1, t]) if ln else (d1, d1, d1)\n",
         tests=LSTM_T,
         why="the graph backward hands the cell LayerNorm's rstd to the gates' and the other way round"),
    # ---- lstm_cuda: the host functions ----
    dict(name="v153-lstm-cuda-fold-threshold-strict", file=LSTM,
         old="    if ln and 0 < I <= FOLD_MAX_I:  # not saved (the CPU twin's layout): recomputed\n",
         new="    if ln and 0 < I < FOLD_MAX_I:  # not saved (the CPU twin's layout): recomputed\n",
         tests=LSTM_T,
         why="an input of exactly FOLD_MAX_I columns, whose xhat_x the forward does not save, is not recomputed "
             "either: the backward of the sequence and per-step loops reads an empty array"),
    dict(name="v153-lstm-cuda-step-bwd-c-prev-is-c-t", file=LSTM,
         old="        sv = (gates[t], xp[t] if ln else d2, hhat[t] if ln else d2, c0 if t == 0 else c[t - 1], tc[t],\n",
         new="        sv = (gates[t], xp[t] if ln else d2, hhat[t] if ln else d2, c0 if t == 0 else c[t], tc[t],\n",
         tests=LSTM_T,
         why="the per-step backward reads c_t where the forget gate's gradient needs c_{t-1} (from step 1 on)"),
    dict(name="v153-lstm-cuda-infer-h0-c0-swapped", file=LSTM,
         old="    y, hT, cT, _ = lstm_forward(x, h0, c0, Wx,",
         new="    y, hT, cT, _ = lstm_forward(x, c0, h0, Wx,",
         tests=LSTM_T,
         why="lstm_infer starts from h0 = c0 and c0 = h0: inference differs from training whenever the states differ"),
    dict(name="v153-lstm-cuda-db-over-dHW", file=LSTM,
         old="    db = colsum(DA)\n",
         new="    db = colsum(dHW)\n",
         tests=LSTM_T,
         why="db (and dbx, dbh, its copies) summed over dL/d(h Wh) instead of dL/da: the same without LN, off with it "
             "on the sequence and per-step loops"),
    # ---- rnn_cuda ----
    dict(name="v153-rnn-cuda-step-bwd-ln-over-B", file=RNN,
         old="                one / dt(y_t.shape[1]), dz_t[bb], da_t[bb], da_t[bb])\n",
         new="                one / dt(y_t.shape[0]), dz_t[bb], da_t[bb], da_t[bb])\n",
         tests=RNN_T,
         why="the per-step backward's LayerNorm means divide by the batch size B (the wrong axis) instead of H"),
    dict(name="v153-rnn-cuda-infer-b-g-swapped", file=RNN,
         old="    y, hT, _ = rnn_forward(x, h0, Wx, Wh, b, g, norm, eps, nchunks)\n",
         new="    y, hT, _ = rnn_forward(x, h0, Wx, Wh, g, b, norm, eps, nchunks)\n",
         tests=RNN_T,
         why="rnn_infer passes the gain as the bias and the bias as the gain: inference differs from training"),
    dict(name="v153-rnn-cuda-graph-bwd-plan-key-without-ln", file=RNN,
         old="        plan = plan_for(\"rnn backward\", T, (B, H, I, np.dtype(dt).str, ln),\n",
         new="        plan = plan_for(\"rnn backward\", T, (B, H, I, np.dtype(dt).str),\n",
         tests=RNN_T,
         why="the graph backward's plan is cached without its norm: a layer without LN of the same shape replays "
             "the LN plan (or the other way round) and gets the other cell's gradients"),
]
