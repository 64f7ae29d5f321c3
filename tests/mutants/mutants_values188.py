"""Planted bugs, round 188 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the recurrent
kernels (lstm_cuda, rnn_cuda), an eighth pass, on lines no earlier round mutates: the LSTM forward row reading
c_{t-1} of the thread's first unit for all its units, normalizing h_{t-1} Wh with the cell's 1/std, taking h_t
from the candidate gate instead of the output gate; the LSTM backward row dropping g from the input gate's
derivative, using 1 - g for tanh's derivative, leaving the cell LayerNorm's second sum undivided by H, dropping gh
from the h side's second LayerNorm sum; the sequence forward launched with h0 and c0 swapped, the per-step backward
launched without the clip, the graph backward not clearing its dL/dc buffer between calls or handing back dL/dh0
and dL/dc0 swapped; the RNN forward row adding x_t Wx of the thread's first unit, the RNN per-step forward skipping
the last step, the RNN backward row reading ahat of the thread's first unit.

14 mutants. Against the existing targeted tests alone 14 were caught and 0 missed, measured on the two most direct
old files of each module only (test_values174_lstm_cuda and test_values85_lstm_cuda; test_values153_rnn_cuda and
test_values85_rnn_cuda; without the baseline run: the full old lists take about a minute a mutant under the
simulator), so the old tests already guard these lines; the new value tests pin them down on their own and
cheaply. The new value tests come first in every list and catch all 14 on their own (checked with the old tests
taken off the lists): test_values188_lstm_cuda (the per-step loop with LN, every gain and bias off its default, a
clip at 0.05 that bites and a seed dL/dc_T of its own: y, hT, cT against the spec, the saved layout's shapes and
all twelve gradients against the CPU twin; the sequence loop's forward with h0 and c0 far apart against the spec;
the captured backward called twice at one shape, each call against the CPU twin), test_values188_rnn_cuda (the
per-step loop with LN: y at every step and hT against the spec, the six gradients against the spec and the CPU
twin). B = 3 and H = 5 over blocks of 4 threads (neither a multiple of the block), T = 3, float64.
Dropped before the catalogue as equivalent or near it: the sequence backward's dc0 cleared to dh (dh is zero
there), the row kernels' rstd written by every thread instead of thread 0 (all hold the same value). The kernels
take no lengths, masks or state noise (the layers above them do), so none are exercised here.

    python tests/mutants/run.py --only 'v188-*'
"""
LSTM = "lnrnn/kernels/lstm_cuda.py"
RNN = "lnrnn/kernels/rnn_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values174_lstm_cuda.py", "tests/kernels/test_values153_lstm_cuda.py",
            "tests/kernels/test_values85_lstm_cuda.py", "tests/kernels/test_values104_lstm_cuda.py",
            "tests/kernels/test_values_lstm_cuda.py", "tests/kernels/test_values11_lstm_cuda.py",
            "tests/kernels/test_values30_lstm_cuda.py", "tests/kernels/test_cuda_kernels.py",
            "tests/kernels/test_cuda_graphs.py"]
RNN_OLD = ["tests/kernels/test_values174_rnn_cuda.py", "tests/kernels/test_values153_rnn_cuda.py",
           "tests/kernels/test_values104_rnn_cuda.py", "tests/kernels/test_values85_rnn_cuda.py",
           "tests/kernels/test_values38_rnn_cuda.py", "tests/kernels/test_cuda_kernels.py",
           "tests/kernels/test_cuda_graphs.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values188_lstm_cuda.py"]
RNN_NEW = ["tests/kernels/test_values188_rnn_cuda.py"]
LSTM_T = LSTM_NEW + LSTM_OLD
RNN_T = RNN_NEW + RNN_OLD

MUTANTS = [
    # ---- lstm_cuda: the row functions ----
    dict(name="v188-lstm-cuda-fwd-row-c-prev-of-the-thread", file=LSTM,
         old="                cv[u] = c_prev[k]\n",
         new="                cv[u] = c_prev[tid]\n",
         tests=LSTM_T,
         why="the forward row loads c_{t-1} at the thread's index instead of its unit's: a thread owning a second "
             "unit (H above the block) carries the first unit's cell state into it"),
    dict(name="v188-lstm-cuda-fwd-row-hhat-scaled-by-the-cell-rstd", file=LSTM,
         old="                        hh = (v[4 * u + q] - m_h) * r_h\n",
         new="                        hh = (v[4 * u + q] - m_h) * r_c\n",
         tests=LSTM_T,
         why="h_{t-1} Wh centred but scaled by the cell LayerNorm's 1/std (still 1 at that point): hhat is not "
             "normalized, with LN only"),
    dict(name="v188-lstm-cuda-fwd-row-h-from-the-candidate-gate", file=LSTM,
         old="                h = v[4 * u + 3] * tk\n",
         new="                h = v[4 * u + 2] * tk\n",
         tests=LSTM_T,
         why="h_t = g tanh(c_t) instead of o tanh(c_t): the gate order [i|f|g|o] misread by one"),
    dict(name="v188-lstm-cuda-bwd-row-input-gate-without-g", file=LSTM,
         old="                dav[4 * u] = dck * g * i * (one - i)\n",
         new="                dav[4 * u] = dck * i * (one - i)\n",
         tests=LSTM_T,
         why="dL/da_i drops the candidate g (c_t = f c_{t-1} + i g): the input gate's gradient off"),
    dict(name="v188-lstm-cuda-bwd-row-candidate-tanh-derivative", file=LSTM,
         old="                dav[4 * u + 2] = dck * i * (one - g * g)\n",
         new="                dav[4 * u + 2] = dck * i * (one - g)\n",
         tests=LSTM_T,
         why="tanh's derivative written as 1 - g instead of 1 - g^2 (the sigmoid's habit): dL/da_g off"),
    dict(name="v188-lstm-cuda-bwd-row-cell-ln-second-sum-unaveraged", file=LSTM,
         old="            s1, s2 = s1 / fh, s2 / fh\n",
         new="            s1, s2 = s1 / fh, s2\n",
         tests=LSTM_T,
         why="the cell LayerNorm's backward subtracts chat times the sum of d gc chat instead of its mean over H: "
             "dL/dc_t off with LN"),
    dict(name="v188-lstm-cuda-bwd-row-h-side-second-sum-without-gh", file=LSTM,
         old="                        h2 += d * lnv[16 * u + q] * lnv[16 * u + 4 + q]\n",
         new="                        h2 += d * lnv[16 * u + 4 + q]\n",
         tests=LSTM_T,
         why="the h side's LayerNorm backward sums da hhat without the gain gh: dL/dh and dWh off with LN whenever "
             "gh is not 1"),
    # ---- lstm_cuda: the launches ----
    dict(name="v188-lstm-cuda-seq-fwd-h0-c0-swapped", file=LSTM,
         old="        fwd_seq[B, stpb](xp, h0, c0, Wh, p, ln, eps,",
         new="        fwd_seq[B, stpb](xp, c0, h0, Wh, p, ln, eps,",
         tests=LSTM_T,
         why="the sequence forward launched with the initial states swapped: the first step starts from h = c0, "
             "c = h0 (unseen when they are equal)"),
    dict(name="v188-lstm-cuda-step-bwd-clip-dropped", file=LSTM,
         old="        bwd_step[B, tpb](dy[t], dh_next, dc_next, sv, rs, p, ln, clip, ",
         new="        bwd_step[B, tpb](dy[t], dh_next, dc_next, sv, rs, p, ln, 0.0, ",
         tests=LSTM_T,
         why="the per-step backward (the loop a seed dL/dc_T takes) launched without the clip: Graves's clip "
             "silently off there"),
    dict(name="v188-lstm-cuda-graph-bwd-dc-not-cleared", file=LSTM,
         old="            fill_zeros(plan.dc)\n",
         new="            fill_zeros(plan.dh)\n",
         tests=LSTM_T,
         why="without a seed the graph backward clears dh twice and not dc: the second call at one shape starts "
             "from the first call's dL/dc0"),
    dict(name="v188-lstm-cuda-graph-bwd-dh0-dc0-swapped", file=LSTM,
         old="copy(plan.dh), copy(plan.dc), copy(plan.dWx)",
         new="copy(plan.dc), copy(plan.dh), copy(plan.dWx)",
         tests=LSTM_T,
         why="the graph backward hands back dL/dc0 as dL/dh0 and the other way round"),
    # ---- rnn_cuda ----
    dict(name="v188-rnn-cuda-fwd-row-xp-of-the-thread", file=RNN,
         old="                v = a[k] + xp[k]\n",
         new="                v = a[k] + xp[tid]\n",
         tests=RNN_T,
         why="the forward row adds x_t Wx at the thread's index instead of its unit's: a thread's second unit "
             "(H above the block) gets the first unit's input"),
    dict(name="v188-rnn-cuda-step-fwd-last-step-skipped", file=RNN,
         old="    for t in range(0 if seq else T):  # the per-step path\n",
         new="    for t in range(0 if seq else T - 1):  # the per-step path\n",
         tests=RNN_T,
         why="the per-step forward stops a step early: y's last step (and hT) is whatever the buffer held"),
    dict(name="v188-rnn-cuda-bwd-row-ahat-of-the-thread", file=RNN,
         old="                    ak = ahat[k]\n",
         new="                    ak = ahat[tid]\n",
         tests=RNN_T,
         why="the backward row's LayerNorm reads ahat at the thread's index: a thread's second unit uses the "
             "first unit's normalized preactivation, with LN only"),
]
