"""Planted bugs, round 92 (format: tests/mutants/mutants.py): single-line slips in the CPU LSTM/LN-LSTM and
RNN/LN-RNN sequence kernels (lnrnn/kernels/lstm.py, lnrnn/kernels/rnn.py), a third pass on lines no earlier round
mutates: the LSTM's step-0 product of c0 instead of h0, the h LayerNorm's eps added to the standard deviation,
the x side's 1/std saved as the h side's (outputs right, backward wrong), a narrow LN input's gains gx and gh
swapped, a wide LN input's preactivation without the LayerNorms' biases bx and bh, the cell LayerNorm's mean
over G and its bias bc dropped, the plain cell's tanh(c_t / 2); in the backward the cell gain's gradient summing
d * gc, the cell LayerNorm's s2 without the gain, dgx and dgh unpacked in the wrong order, dh0 copied from
dL/dc; the RNN's backward multiplying by Wh untransposed, dWh's step 0 taken with y_0 for h0, every chunk's
dh0 written to the first rows, tanh's derivative at h_{t-1}.

16 mutants. Against the existing targeted tests alone all 16 were caught and none missed, measured on the most
direct old files only (test_values72_lstm, test_values45_lstm, test_values11_lstm and test_gate_clip for the
LSTM, test_values72_rnn and test_values45_rnn for the RNN; test_kernels and the race tests were left off the
lists to keep the baseline short): those already compare both kernels with the reference over gains away from
1, nonzero biases, initial states, chunks and dcT. The new value tests catch every mutant on their own (checked
with the old tests taken off the lists): test_values92_lstm (float64, gains gx, gh, gc apart from 1 and from
each other, every bias away from 0, h0 and c0 different, B = 5 rows on the 2 chunks threads.batch_blocks gives
with blocks of 2 rows and on 3: the forward against an LSTM step written from the definitions (Ba et al. 2016),
y, hT, cT and the saved c; every gradient against reference.lstm_backward, and against central differences of
sum(dy * y) + sum(dcT * cT) for the LN-LSTM; a Graves clip at the 60th percentile of the reference's |dL/da|
against the reference with the same clip; the sequence in two pieces with (hT, cT) carried forward and dh0,
dc0 handed back (dy and dcT) equal to one run, the second piece's dh0 equal to the reference's record of dL/dh
less dy; lstm_infer over the sequence and one step at a time against the definition), test_values92_rnn (the
same for the RNN and LN-RNN with a gain and bias away from their defaults: tanh by the definition, the
reference, central differences with h0 given, two pieces, rnn_infer one step at a time).
Dropped as equivalent (no test could see them): the RNN's m = B // nch for the largest chunk's rows (every chunk
holds at most one row more than B // nch, and the scratch keeps m + 1 rows); lstm_infer's one-step buffers of S = 2
rows (each step reads only what it wrote); Graves's clip bound taken without clip_bound (0, NaN and negative bounds
fail the loop's clip > 0 as they would, inf clips nothing). Also left out: dropping xs's zeroing in the forward
(the scratch comes from np.empty and reads as zeros often enough that a test would catch it only by chance).

    python tests/mutants/run.py --only 'v92-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules (the most direct ones)
LSTM_OLD = ["tests/kernels/test_values72_lstm.py", "tests/kernels/test_values45_lstm.py",
            "tests/kernels/test_values11_lstm.py", "tests/kernels/test_gate_clip.py"]
RNN_OLD = ["tests/kernels/test_values72_rnn.py", "tests/kernels/test_values45_rnn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values92_lstm.py"]
RNN_NEW = ["tests/kernels/test_values92_rnn.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    # ---- lstm_forward / _forward_rows ----
    dict(name="v92-lstm-first-step-product-of-c0", file=LSTM,
         old="            rec_mul_fetch(h0[lo:hi], Whc, P, hw, plan[:npl])",
         new="            rec_mul_fetch(c0[lo:hi], Whc, P, hw, plan[:npl])",
         tests=LSTM_T,
         why="step 0's recurrent product h_{-1} Wh is taken of the initial cell state c0 instead of h0"),
    dict(name="v92-lstm-h-ln-eps-outside-sqrt", file=LSTM,
         old="sh = one / np.sqrt(v * invG + eps)",
         new="sh = one / (np.sqrt(v * invG) + eps)",
         tests=LSTM_T,
         why="the LayerNorm of h_{t-1} Wh adds eps to the standard deviation instead of the variance"),
    dict(name="v92-lstm-rstd-x-saved-as-h", file=LSTM,
         old="                rstd[0, ts, bb] = sx\n",
         new="                rstd[0, ts, bb] = sh\n",
         tests=LSTM_T,
         why="the forward saves the h side's 1/std in the x side's row of rstd: the outputs are right, the "
             "backward's x LayerNorm is scaled wrongly"),
    dict(name="v92-lstm-fold-ln-gains-swapped", file=LSTM,
         old="                        hh[j] = v\n"
             "                        a[j] = _sigmoid((gx[j] * u + gh[j] * v + bs[j]) * gm[j]) * gm[j] - gd[j]\n"
             "                else:",
         new="                        hh[j] = v\n"
             "                        a[j] = _sigmoid((gh[j] * u + gx[j] * v + bs[j]) * gm[j]) * gm[j] - gd[j]\n"
             "                else:",
         tests=LSTM_T,
         why="a narrow LN input's gate pass multiplies xhat by the h side's gain and hhat by the x side's"),
    dict(name="v92-lstm-wide-ln-bias-without-ln-biases", file=LSTM,
         old="                        hh[j] = v\n"
             "                        a[j] = _sigmoid((gx[j] * u + gh[j] * v + bs[j]) * gm[j]) * gm[j] - gd[j]\n"
             "            elif fold:",
         new="                        hh[j] = v\n"
             "                        a[j] = _sigmoid((gx[j] * u + gh[j] * v + b[j]) * gm[j]) * gm[j] - gd[j]\n"
             "            elif fold:",
         tests=LSTM_T,
         why="a wide LN input's preactivation adds the cell bias b alone, not the LayerNorms' biases bx and bh"),
    dict(name="v92-lstm-cell-ln-mean-over-G", file=LSTM,
         old="                mc *= invH\n",
         new="                mc *= invG\n",
         tests=LSTM_T,
         why="the cell LayerNorm's mean divided by G, the gates' width, instead of H"),
    dict(name="v92-lstm-cell-ln-bias-dropped", file=LSTM,
         old="w = two * _sigmoid(two * (gc[k] * u + bc[k])) - one",
         new="w = two * _sigmoid(two * (gc[k] * u)) - one",
         tests=LSTM_T,
         why="the cell LayerNorm's bias bc is never added"),
    dict(name="v92-lstm-plain-tanh-of-half-cell", file=LSTM,
         old="w = two * _sigmoid(two * ct[k]) - one",
         new="w = two * _sigmoid(ct[k]) - one",
         tests=LSTM_T,
         why="the plain LSTM's tanh(c_t) as 2 sigmoid(c_t) - 1, which is tanh(c_t / 2)"),
    # ---- lstm_backward / _backward_rows ----
    dict(name="v92-lstm-bwd-dgc-times-gain", file=LSTM,
         old="pgc[k] += d * ch[k]",
         new="pgc[k] += d * gc[k]",
         tests=LSTM_T,
         why="the cell LayerNorm's gain gradient sums d * gc instead of d * chat"),
    dict(name="v92-lstm-bwd-s2-without-cell-gain", file=LSTM,
         old="s2 += u * ch[k]",
         new="s2 += d * ch[k]",
         tests=LSTM_T,
         why="the cell LayerNorm backward's sum of dL/dchat * chat forgets the gain: right only where gc is 1"),
    dict(name="v92-lstm-bwd-dgx-dgh-swapped", file=LSTM,
         old="db, dgx, dgh = pG[:, :, :G].sum(axis=1)",
         new="db, dgh, dgx = pG[:, :, :G].sum(axis=1)",
         tests=LSTM_T,
         why="the x and h LayerNorms' gain gradients unpacked in the wrong order"),
    dict(name="v92-lstm-bwd-dh0-from-dc", file=LSTM,
         old="    copy_rows(dh0[lo:hi], dh_next)",
         new="    copy_rows(dh0[lo:hi], dc_next)",
         tests=LSTM_T,
         why="dh0 copied from the carried dL/dc instead of dL/dh"),
    # ---- rnn ----
    dict(name="v92-rnn-bwd-untransposed-wh", file=RNN,
         old="    WhT = transposed(Wh)\n",
         new="    WhT = Wh\n",
         tests=RNN_T,
         why="dL/dh_{t-1} = dA_t Wh instead of dA_t Wh^T (square Wh: no shape error tells)"),
    dict(name="v92-rnn-bwd-dwh-step0-from-y0", file=RNN,
         old="dWh = recurrent_weight_grad(dA, h0, y, nchunks)",
         new="dWh = recurrent_weight_grad(dA, y[0], y, nchunks)",
         tests=RNN_T,
         why="dWh's step-0 share multiplies by h_0 (the first output) instead of the initial state"),
    dict(name="v92-rnn-bwd-dh0-rows-of-first-chunk", file=RNN,
         old="    copy_rows(dh0[lo:hi], dh_next)",
         new="    copy_rows(dh0[:hi - lo], dh_next)",
         tests=RNN_T,
         why="every chunk writes its dh0 into the first rows of dh0: rows past the first chunk are garbage"),
    dict(name="v92-rnn-bwd-derivative-at-previous-h", file=RNN,
         old="                yk = y[t, bb, k]",
         new="                yk = y[t - 1, bb, k]",
         tests=RNN_T,
         why="tanh's derivative at step t taken at h_{t-1} (at step 0: the last step's h)"),
]
