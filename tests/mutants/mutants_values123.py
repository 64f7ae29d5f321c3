"""Planted bugs, round 123 (format: tests/mutants/mutants.py): the CPU LSTM and RNN kernels, a fifth pass, on
lines no earlier round mutates: lstm_forward's final cell state taken a step early; ln_weights centring Wx down
its columns; the forward's cell LayerNorm dividing by G; lstm_infer's two cell rows indexed by the gates' or
tc's row count (the same in training, always row 0 in lstm_infer); a narrow input's x_t Wx leaving out its
third column, its LN variance reading Rx's lower triangle; a wide input's x-side LN variance taken from
h_{t-1} Wh; the plain wide LSTM without its bias; backward: the cell LN's dbc assigned, the plain LSTM's
dL/d(cell output) without the output gate, the narrow LN backward on Wx uncentred; the RNN's narrow x_t Wx
from x_t's first column only and its BPTT stopping before step 0.

14 mutants. Against the existing targeted tests alone (test_values11, 45, 72, 92 and 106 of the LSTM,
test_values45, 72 and 92 of the RNN) all 14 were caught and none missed. The new value tests catch every
mutant on their own (checked with the old tests taken off the lists): test_values123_lstm and
test_values123_rnn compare lstm_forward, lstm_infer, rnn_forward and rnn_infer in float64 (outputs, final h
and c) with the cells written out from their equations in the test, gains and biases away from 1 and 0, inputs
1, 3, FOLD_MAX_I and FOLD_MAX_I + 2 columns wide, one and two chunks, T = 4 (so that lstm_infer's third and
fourth steps read rows written two steps before); a sequence in two pieces with the state carried over
against one call; every gradient of every input and parameter (and a final-cell gradient through dcT) against
central differences of the loss through those equations.

Dropped as equivalent: lstm_infer keeping one cell row instead of two (c_{t-1} and c_t then share a row, read
and written element by element in the same loop, which stays right), its per-step arrays given two rows, or
run with keep on (only memory changes); the RNN's fold bound < FOLD_MAX_I (both paths compute the same x_t Wx);
the largest chunk's rows as B // nch (the work buffers' spare row absorbs it); the narrow LN backward not
clearing pG[1, 1:] (nothing adds into those partials there); nchunks forced to 1 in lstm_infer (any chunk
count gives the same bits); the prefetch helpers (_fetch_row, fetch_table's contiguity test: no value
changes; plan_steps' regions have their own test in test_values106_lstm).

    python tests/mutants/run.py --only 'v123-*'

    python tests/mutants/run.py --only 'v123-*'
"""
LSTM = "lnrnn/kernels/lstm.py"
RNN = "lnrnn/kernels/rnn.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values11_lstm.py", "tests/kernels/test_values45_lstm.py",
            "tests/kernels/test_values72_lstm.py", "tests/kernels/test_values92_lstm.py",
            "tests/kernels/test_values106_lstm.py"]
RNN_OLD = ["tests/kernels/test_values45_rnn.py", "tests/kernels/test_values72_rnn.py",
           "tests/kernels/test_values92_rnn.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LSTM_NEW = ["tests/kernels/test_values123_lstm.py"]
RNN_NEW = ["tests/kernels/test_values123_rnn.py"]

MUTANTS = [
    # ---- the LSTM forward: the last step, lstm_infer's two cell rows, the narrow and wide inputs ----
    dict(name="v123-lstm-final-cell-from-the-step-before", file=LSTM,
         old="c[T - 1].copy(), saved",
         new="c[T - 2].copy(), saved",
         tests=LSTM_NEW + LSTM_OLD,
         why="lstm_forward hands back c_{T-2} as the final cell state (the output and saved arrays are right)"),
    dict(name="v123-lstm-ln-weights-centred-down-the-columns", file=LSTM,
         old="Wx.mean(axis=1, keepdims=True",
         new="Wx.mean(axis=0, keepdims=True",
         tests=LSTM_NEW + LSTM_OLD,
         why="ln_weights centres Wx over its I rows, not each row over G: x Wc keeps a row mean the LN-LSTM "
             "never subtracts"),
    dict(name="v123-lstm-cell-mean-over-g", file=LSTM,
         old="    invH = one / x.dtype.type(H)\n    hw = ",
         new="    invH = one / x.dtype.type(G)\n    hw = ",
         tests=LSTM_NEW + LSTM_OLD,
         why="the forward's cell LayerNorm divides its sums by G = 4H: mean and variance a quarter of theirs"),
    dict(name="v123-lstm-infer-cell-row-by-the-gates", file=LSTM,
         old="tn = t % c.shape[0]",
         new="tn = t % gates.shape[0]",
         tests=LSTM_NEW + LSTM_OLD,
         why="c_t's row taken modulo the gates' rows: the same in training (T rows each), always row 0 in "
             "lstm_infer (one row of gates), so from step 2 on it reads c_{t-1} from a row never written"),
    dict(name="v123-lstm-infer-previous-cell-row-by-tc", file=LSTM,
         old="tp = (t - 1) % c.shape[0]",
         new="tp = (t - 1) % tc.shape[0]",
         tests=LSTM_NEW + LSTM_OLD,
         why="c_{t-1}'s row taken modulo tc's rows: the same in training, always row 0 in lstm_infer, where "
             "from step 2 on it holds c_{t-2}"),
    dict(name="v123-lstm-narrow-input-loop-from-3", file=LSTM,
         old="                for i in range(2, I):\n",
         new="                for i in range(3, I):\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's x_t Wx leaves out its third column (I = 3 or 4)"),
    dict(name="v123-lstm-narrow-ln-rx-transposed", file=LSTM,
         old="u += Rx[k, i] * xt[i]",
         new="u += Rx[i, k] * xt[i]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a narrow input's LN variance ||Rx x_t||^2 reads Rx's lower triangle (zeros) beside the diagonal"),
    dict(name="v123-lstm-wide-ln-x-variance-from-h", file=LSTM,
         old="v += xr[j] * xr[j]",
         new="v += hr[j] * hr[j]",
         tests=LSTM_NEW + LSTM_OLD,
         why="a wide input's LayerNorm of x_t Wx takes the variance of h_{t-1} Wh"),
    dict(name="v123-lstm-plain-wide-without-bias", file=LSTM,
         old="(hr[j] + xr[j] + bs[j])",
         new="(hr[j] + xr[j])",
         tests=LSTM_NEW + LSTM_OLD,
         why="the plain LSTM with a wide input leaves the bias b out of the preactivation"),
    # ---- the LSTM backward ----
    dict(name="v123-lstm-bwd-dbc-assigned", file=LSTM,
         old="                    pbc[k] += d\n",
         new="                    pbc[k] = d\n",
         tests=LSTM_NEW + LSTM_OLD,
         why="the cell LayerNorm's bias gradient is assigned, not accumulated: the last row of step 0's only"),
    dict(name="v123-lstm-bwd-plain-dcn-without-o", file=LSTM,
         old="dcn[k] = dh * o * (one - tk * tk)",
         new="dcn[k] = dh * (one - tk * tk)",
         tests=LSTM_NEW + LSTM_OLD,
         why="the plain LSTM's dL/d(cell output) leaves out the output gate"),
    dict(name="v123-lstm-bwd-narrow-ln-weights-uncentred", file=LSTM,
         old="Wc = centered(Wx)",
         new="Wc = Wx",
         tests=LSTM_NEW + LSTM_OLD,
         why="the LN-LSTM's narrow-input backward works from Wx uncentred: dx, dWx and dgx wrong"),
    # ---- the RNN ----
    dict(name="v123-rnn-narrow-input-first-column-only", file=RNN,
         old="a[r, k] += x[t, bb, i] * Wx[i, k]",
         new="a[r, k] += x[t, bb, 0] * Wx[i, k]",
         tests=RNN_NEW + RNN_OLD,
         why="a narrow input's x_t Wx multiplies every row of Wx by x_t's first column"),
    dict(name="v123-rnn-bwd-stops-before-step-0", file=RNN,
         old="for t in range(T - 1, -1, -1):",
         new="for t in range(T - 1, 0, -1):",
         tests=RNN_NEW + RNN_OLD,
         why="BPTT stops at step 1: dx_0, dh0 and step 0's shares of every parameter gradient are lost"),
]
