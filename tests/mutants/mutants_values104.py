"""Planted bugs, round 104 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent
kernels (lstm_cuda, rnn_cuda), a fourth pass, on lines no earlier round mutates: the LSTM's dL/do without
tanh(c_t), the cell LayerNorm's backward sums swapped, the x side's second LN sum read from hhat; the graph
forward's cT taken from step 0, the per-step forward's c_{-1} read from h0, the graph backward's c_{-1} read from
h0, the narrow input's xhat_x recomputed with the h side's rstd, dgh summed against xhat_x, the per-step
backward's dL/dh carried through dXW; the RNN's LayerNorm without eps, hT taken from step 0, the per-step
backward reading the previous step's y, the LN backward's dA written as dL/dz, the graph backward's db summed
over dA.

14 mutants. Against the existing targeted tests alone (the OLD lists below) 14 were caught and 0 missed. The
new value tests come first in every list and catch all 14 on their own (checked with the old tests taken off the
lists):
test_values104_lstm_cuda (y, hT, cT and all twelve gradients against the CPU twin and lnrnn.reference on every
time loop, T = 2, B = 3, H = 5 over blocks of 4, I = 1 and I = 5, with and without LN, gains and biases off their
defaults, h0 and c0 of their own; cT also against f c_{T-2} + i g from the CPU twin's gates, hT against the last
y), test_values104_rnn_cuda (y, hT and all six gradients against the CPU twin and the spec on every loop, with and
without LN; LN step 0 recomputed by the definition with eps 0.3). Dropped before the catalogue as equivalent or
near it: step_threads' 1 << max(H - 1, 0).bit_length() as max(H, 0) (the same block for H = 5 and for every H
not a power of two; a power of two only gets a wider block whose extra threads have no units); the per-step
backward's DCN[t if ln else 0] as DCN[t] (an index error, not a wrong value, and only without LN).

    python tests/mutants/run.py --only 'v104-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values85_lstm_cuda.py", "tests/kernels/test_values_lstm_cuda.py",
            "tests/kernels/test_values11_lstm_cuda.py", "tests/kernels/test_values30_lstm_cuda.py",
            "tests/kernels/test_cuda_kernels.py", "tests/kernels/test_cuda_graphs.py"]
RNN_OLD = ["tests/kernels/test_values85_rnn_cuda.py", "tests/kernels/test_values38_rnn_cuda.py",
           "tests/kernels/test_cuda_kernels.py", "tests/kernels/test_cuda_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values104_lstm_cuda.py"]
RNN_NEW = ["tests/kernels/test_values104_rnn_cuda.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    dict(name="v104-lstm-cuda-do-without-tanh-c", file=LSTM,
         old="                dav[4 * u + 3] = dhk * tk * o * (one - o)\n",
         new="                dav[4 * u + 3] = dhk * o * (one - o)\n",
         tests=LSTM_T,
         why="dL/d(output gate's preactivation) drops its tanh(c_t) factor: every gradient is off on every loop"),
    dict(name="v104-lstm-cuda-cell-ln-sums-swapped", file=LSTM,
         old="                    d = r_c * (d * uv[5 * u + 2] - s1 - uv[5 * u + 1] * s2)\n",
         new="                    d = r_c * (d * uv[5 * u + 2] - s2 - uv[5 * u + 1] * s1)\n",
         tests=LSTM_T,
         why="the cell LayerNorm's backward subtracts mean(g d chat) as the plain mean and the other way round"),
    dict(name="v104-lstm-cuda-x-ln-sum-from-hhat", file=LSTM,
         old="                        x2 += d * lnv[16 * u + 8 + q] * lnv[16 * u + 12 + q]\n",
         new="                        x2 += d * lnv[16 * u + 8 + q] * lnv[16 * u + 4 + q]\n",
         tests=LSTM_T,
         why="the x side's LayerNorm backward sums gx da hhat (the h side's) instead of gx da xhat_x: dx and dWx off"),
    dict(name="v104-lstm-cuda-graph-cT-step-0", file=LSTM,
         old="        return y, take_row(y, T - 1), take_row(saved[1], T - 1), saved\n",
         new="        return y, take_row(y, T - 1), take_row(saved[1], 0), saved\n",
         tests=LSTM_T,
         why="the graph loop's cT is step 0's cell state: a sequence carried on in chunks restarts from a stale c"),
    dict(name="v104-lstm-cuda-step-c-prev-h0", file=LSTM,
         old="        fwd_step[B, tpb](hw, xp[t], c0 if t == 0 else c[t - 1], p, ln, eps, out,\n",
         new="        fwd_step[B, tpb](hw, xp[t], h0 if t == 0 else c[t - 1], p, ln, eps, out,\n",
         tests=LSTM_T,
         why="the per-step forward starts the cell from h0: a given c0 is ignored"),
    dict(name="v104-lstm-cuda-graph-bwd-c-prev-h0", file=LSTM,
         old="            sv = (self.gates[t], self.xp[t], self.hhat[t], self.c0 if t == 0 else self.c[t - 1], self.tc[t],\n",
         new="            sv = (self.gates[t], self.xp[t], self.hhat[t], self.h0 if t == 0 else self.c[t - 1], self.tc[t],\n",
         tests=LSTM_T,
         why="the graph backward's step 0 reads c_{-1} from h0: df at step 0, hence db, dWx, dx, dh0 off"),
    dict(name="v104-lstm-cuda-xhat-rstd-h", file=LSTM,
         old="        xp = _xhat(x, Wx, rstd[0])\n",
         new="        xp = _xhat(x, Wx, rstd[1])\n",
         tests=LSTM_T,
         why="a narrow input's xhat_x is recomputed with the h side's rstd: dgx and dx off (LN, I <= FOLD_MAX_I)"),
    dict(name="v104-lstm-cuda-dgh-against-xhat", file=LSTM,
         old="colsum_prod(DA, hhat)",
         new="colsum_prod(DA, xp)",
         tests=LSTM_T,
         why="dgh summed against xhat_x (dgx's operand) instead of hhat, off the graph loop"),
    dict(name="v104-lstm-cuda-step-dh-through-dxw", file=LSTM,
         old="        matmul(dHW[t], Wh, out=dh_next, trans_b=True)\n",
         new="        matmul(dXW[t], Wh, out=dh_next, trans_b=True)\n",
         tests=LSTM_T,
         why="the per-step backward carries dL/dh through the x side's LN backward (the same buffer without LN)"),
    dict(name="v104-rnn-cuda-ln-without-eps", file=RNN,
         old="            m, r = local_stats(sh, av, 1, s, H, inv_h, e, one)\n",
         new="            m, r = local_stats(sh, av, 1, s, H, inv_h, zero, one)\n",
         tests=RNN_T,
         why="the LN-RNN's rstd is 1 / sqrt(var): the eps given is ignored on every loop"),
    dict(name="v104-rnn-cuda-hT-step-0", file=RNN,
         old="    return y, copy(y[T - 1]), (y, ahat, rstd)\n",
         new="    return y, copy(y[0]), (y, ahat, rstd)\n",
         tests=RNN_T,
         why="hT is step 0's y off the graph loop: a sequence carried on in chunks restarts from a stale h"),
    dict(name="v104-rnn-cuda-step-bwd-previous-y", file=RNN,
         old="        bwd_step[B, tpb](dy[t], dh_next, y[t],",
         new="        bwd_step[B, tpb](dy[t], dh_next, y[t - 1],",
         tests=RNN_T,
         why="the per-step backward takes tanh' from the previous step's y (the last one's at step 0)"),
    dict(name="v104-rnn-cuda-ln-da-as-dz", file=RNN,
         old="                    da[k] = v\n",
         new="                    da[k] = dzv[u]\n",
         tests=RNN_T,
         why="with LN, dA (read by dx, dWx, dWh) is dL/dz, not the LayerNorm's backward of it (dh still right)"),
    dict(name="v104-rnn-cuda-graph-db-over-da", file=RNN,
         old="            colsum_launch(dZ2, dZ2, d1, d1, SUM, self.sums[0], part, stream)\n",
         new="            colsum_launch(dA2, dA2, d1, d1, SUM, self.sums[0], part, stream)\n",
         tests=RNN_T,
         why="the graph backward's db sums dL/da, not dL/dz: wrong with LN (the same buffer without)"),
]
