"""Planted bugs, round 174 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent
kernels (lstm_cuda, rnn_cuda), a seventh pass, on lines no earlier round mutates: the LSTM forward row's cell
LayerNorm gain read from gh, the cell LayerNorm backward's mean without gc, the x side's LayerNorm backward with
its second sum not divided by 4H; the sequence forward saving the cell's 1/std as the gates', the sequence
backward writing every step's dL/d(gc chat + bc) into row 0, the backward picking the sequence kernel (which drops
a seed dL/dc_T) when a seed is given; _rstd_load refusing a plan of exactly T steps, _rstd_head stepping through a
longer plan's buffer with the call's T, the narrow input's xhat_x recomputed from the uncentered Wx, the graph
forward's recurrent product reading h_t for h_{t-1}; the RNN backward row storing dL/dh as dL/dz, the RNN sequence
forward saving 1/std a step early, the RNN graph backward's transpose with its arguments swapped, the RNN graph
forward returning the plan's whole y.

14 mutants. Against the existing targeted tests alone 8 were caught and 0 missed of the 8 measured (the eight LSTM
mutants from the cell LayerNorm's gain through _rstd_head); the measurement was cut short there (about a minute a
mutant under the simulator, four for _rstd_head), so the last six (xhat_x, the graph forward's h_t and the four
RNN mutants) were not measured against the old files. The new value tests come first in every list and catch all
14 on their own (checked with the old tests taken off the lists): test_values174_lstm_cuda (a sequence cut in two
chunks on the sequence loop, the second from t0 = 1, with LN, I = 4 = FOLD_MAX_I, every gain and bias off its
default and a clip at 0.05 that bites: the later chunk's backward on the sequence kernel, the earlier one's seeded
with the later one's dL/dc0 and dL/dh0 on the per-step loop, against one CPU call, whose forward is also checked
against the spec; the captured plans at T = 10 and then T = 9, served by the plan of 10 steps, outputs, saved 1/std
shape and all twelve gradients against the CPU twin at each length), test_values174_rnn_cuda (the same two-chunk
cut on the sequence loop with LN against one CPU call and the spec; the captured plans at T = 10 and then T = 9
against the CPU twin). B = 3 and H = 5 over blocks of 4 threads (neither a multiple of the block), float64.
Dropped before the catalogue as equivalent or near it: step_threads' power of two or its bounds changed (only the
block size moves; the values stay), the row kernels' rstd written by every thread instead of thread 0 (all hold
the same value); _seq_geometry's thread count from H instead of G (only the launch geometry moves). The kernels take no lengths, masks or state noise (the layers above them do),
so none are exercised here.

    python tests/mutants/run.py --only 'v174-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values153_lstm_cuda.py", "tests/kernels/test_values104_lstm_cuda.py",
            "tests/kernels/test_values85_lstm_cuda.py", "tests/kernels/test_values_lstm_cuda.py",
            "tests/kernels/test_values11_lstm_cuda.py", "tests/kernels/test_values30_lstm_cuda.py",
            "tests/kernels/test_cuda_kernels.py", "tests/kernels/test_cuda_graphs.py"]
RNN_OLD = ["tests/kernels/test_values153_rnn_cuda.py", "tests/kernels/test_values104_rnn_cuda.py",
           "tests/kernels/test_values85_rnn_cuda.py", "tests/kernels/test_values38_rnn_cuda.py",
           "tests/kernels/test_cuda_kernels.py", "tests/kernels/test_cuda_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values174_lstm_cuda.py"]
RNN_NEW = ["tests/kernels/test_values174_rnn_cuda.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    # ---- lstm_cuda: the row functions ----
    dict(name="v174-lstm-cuda-cell-ln-gain-read-from-gh", file=LSTM,
         old="                    gcb[2 * u] = gc[k]\n",
         new="                    gcb[2 * u] = gh[k]\n",
         tests=LSTM_T,
         why="the forward row loads the cell LayerNorm's gain from gh (the h side's gains, of which it reads the "
             "input gate's columns) instead of gc: c's normalization scaled wrongly, with LN only"),
    dict(name="v174-lstm-cuda-cell-ln-bwd-sum-without-gc", file=LSTM,
         old="                    s1 += d * g\n",
         new="                    s1 += d\n",
         tests=LSTM_T,
         why="the cell LayerNorm's backward takes the mean of dL/d(cell output) without the gain gc: dL/dc_t off "
             "with LN whenever gc is not 1 (its default)"),
    dict(name="v174-lstm-cuda-x-ln-bwd-second-mean-unscaled", file=LSTM,
         old="            h1, h2, x1, x2 = h1 * inv_g, h2 * inv_g, x1 * inv_g, x2 * inv_g\n",
         new="            h1, h2, x1, x2 = h1 * inv_g, h2 * inv_g, x1 * inv_g, x2\n",
         tests=LSTM_T,
         why="the x side's LayerNorm backward subtracts the sum of gx da xhat_x instead of its mean over the 4H "
             "columns: dx and dWx off with LN"),
    # ---- lstm_cuda: the sequence kernels ----
    dict(name="v174-lstm-cuda-seq-fwd-saves-cell-rstd-as-gates", file=LSTM,
         old="                rstd[1, t, bb] = r_h\n",
         new="                rstd[1, t, bb] = r_c\n",
         tests=LSTM_T,
         why="the sequence forward saves the cell LayerNorm's 1/std in the gates' row of rstd: the outputs are "
             "right, the backward's h side is scaled wrongly"),
    dict(name="v174-lstm-cuda-seq-bwd-dcn-always-row-zero", file=LSTM,
         old="            tt = t if ln else 0\n",
         new="            tt = 0\n",
         tests=LSTM_T,
         why="the sequence backward writes every step's dL/d(gc chat + bc) into row 0 (as without LN): the other "
             "rows stay unwritten and dgc, dbc sum garbage with LN"),
    dict(name="v174-lstm-cuda-dcT-ignored-on-the-seq-path", file=LSTM,
         old="    path = lstm_path(H, dt, dcT is not None, T)\n",
         new="    path = lstm_path(H, dt, T=T)\n",
         tests=LSTM_T,
         why="the backward picks its time loop without telling it a seed dL/dc_T came: the sequence kernel, which "
             "starts from dc = 0, runs and the seed is dropped (a chunk's carried dc lost)"),
    # ---- lstm_cuda: the graph plans and the per-step helpers ----
    dict(name="v174-lstm-cuda-rstd-load-refuses-a-plan-of-T-steps", file=LSTM,
         old="tuple(rstd.shape) != (3, T, B) or T > S or",
         new="tuple(rstd.shape) != (3, T, B) or T >= S or",
         tests=LSTM_T,
         why="_rstd_load's bound check off by one: a plan of exactly T steps (every fixed-length call) is refused "
             "and the graph backward with LN raises"),
    dict(name="v174-lstm-cuda-rstd-head-reads-with-the-call-stride", file=LSTM,
         old="    n, m = T * B * rstd.dtype.itemsize, S * B * rstd.dtype.itemsize\n    for r in range(3):\n"
             "        copy_bytes(out, rstd, n, r * n, r * m)\n",
         new="    n, m = T * B * rstd.dtype.itemsize, T * B * rstd.dtype.itemsize\n    for r in range(3):\n"
             "        copy_bytes(out, rstd, n, r * n, r * m)\n",
         tests=LSTM_T,
         why="_rstd_head steps through the plan's rstd with the call's T instead of the plan's S: when a longer "
             "plan serves a shorter call (ragged lengths), the gates' and the cell's 1/std are read from the wrong "
             "steps and the backward goes wrong"),
    dict(name="v174-lstm-cuda-xhat-from-uncentered-weights", file=LSTM,
         old="    xhat_into(product(Direct()), (x.reshape(T * B, I), Wc, xh), Wx, Wc, xh, rstd_x.reshape(T * B))\n",
         new="    xhat_into(product(Direct()), (x.reshape(T * B, I), Wx, xh), Wx, Wc, xh, rstd_x.reshape(T * B))\n",
         tests=LSTM_T,
         why="the narrow input's xhat_x is recomputed as x Wx rstd instead of x centered(Wx) rstd: dgx, dx and "
             "dWx off with LN and I <= FOLD_MAX_I on the per-step and sequence loops"),
    dict(name="v174-lstm-cuda-graph-fwd-reads-h_t", file=LSTM,
         old="            gemm(vh0 if t == 0 else vy[t - 1], vWh, vhw)\n",
         new="            gemm(vh0 if t == 0 else vy[t], vWh, vhw)\n",
         tests=LSTM_T,
         why="the graph forward's recurrent product reads this step's (not yet written) h instead of h_{t-1}: "
             "every step after the first off"),
    # ---- rnn_cuda ----
    dict(name="v174-rnn-cuda-bwd-dz-without-tanh-derivative", file=RNN,
         old="                dz[k] = d\n",
         new="                dz[k] = dy[k] + dh[k]\n",
         tests=RNN_T,
         why="the backward row stores dL/dh instead of dL/dz = dL/dh (1 - y^2) as dZ: db and dg off with LN "
             "(without LN dZ is dA and the right value overwrites it)"),
    dict(name="v174-rnn-cuda-seq-fwd-rstd-a-step-early", file=RNN,
         old="                rstd[t, bb] = r\n",
         new="                rstd[t - 1, bb] = r\n",
         tests=RNN_T,
         why="the sequence forward saves step t's 1/std at t - 1 (step 0's at the last row): the outputs are "
             "right, the backward with LN is scaled by the wrong step's"),
    dict(name="v174-rnn-cuda-graph-bwd-transpose-swapped", file=RNN,
         old="            transpose_into(self.Wh, self.WhT, stream)\n",
         new="            transpose_into(self.WhT, self.Wh, stream)\n",
         tests=RNN_T,
         why="the graph backward's transpose with its arguments swapped: Wh^T stays zero (and Wh is overwritten), "
             "so no dL/dh flows back through time: dh0, dWh and earlier steps' gradients off"),
    dict(name="v174-rnn-cuda-graph-fwd-y-without-head", file=RNN,
         old="        y = head(plan.y, T)\n",
         new="        y = plan.y\n",
         tests=RNN_T,
         why="the graph forward hands back the plan's whole y buffer: when a longer plan serves a shorter call "
             "(ragged lengths) y has the plan's S steps, not T"),
]
