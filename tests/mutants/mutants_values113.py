"""Planted bugs, round 113 (format: tests/mutants/mutants.py): single-line slips in the CUDA twins of the
recurrent-BN cells, the device-array helpers and the graph plans, a fourth pass on lines no earlier round
mutates: the BN-LSTM's input gate adding the forget gate's x column, its h-side batch sums counting the padded
rows, h_t taken from the g column's raw hw instead of the output gate, the backward's dL/d(BN(c_t)) without o,
its h-side xhat sum from the centred hw and its dhw adding the xhat projection back, the forward plan clamping the
cell's running row by the h side's row count; the BN-RNN's xhat sum from the centred hw, its evaluation dhw
without the running rstd and its forward loading the bias and the x gain swapped; mask_steps splitting a step's
flat index by B, add_into assigning, rows2d taking the first axis as the row width; graphs_cuda's c_strides in
elements rather than bytes.

14 mutants. Against the existing targeted tests alone (the *_OLD lists below, without a baseline; a BN mutant
takes one to two minutes there, so four LSTM mutants were not measured: the padded rows in the gate sums, h_t
from the g column, dL/d(BN(c_t)) without o, the xhat sum without rstd) 9 of the 10 measured were caught and 1
missed: rows2d taking the first axis as the row width (no old test reshapes an array whose first axis differs
from its last through rows2d and looks at the shape or the rows). The new value tests catch all 14 on their
own (checked with the old tests taken off the lists): test_values113_bn_cuda (the BN-LSTM and BN-RNN twins
against their CPU twins in float64, T 3, B 3 of lengths (2, 3, 1) so step 2 has one active row, H 5 over tiles
of 4, running rows x 3, h 2, cell 1 so both run out before the last step, eps 0.2 and momentum 0.6; training and
evaluation; every output, saved array, running row and the gradient of every input and parameter; the saved
h-side statistics against BN_t by its definition; the RNN's captured plan replayed twice and then serving a
2-step call, against fresh CPU calls) and test_values113_arrays_cuda (mask_steps, take_steps and put_steps with
and without reversed columns, reverse_valid, final_rows, add_into twice, transpose, rows2d, copy of a strided
view, head, take_row and fill_zeros against NumPy on B 3, H 5, T 1-3 over blocks of 4 threads; c_strides
against NumPy's strides of C-ordered arrays). Dropped as equivalent: the padded step's dcarry left as it came in
the LSTM backward (the step after a padded step is padded too and the carry starts at zero, so it is zero
already); 1/max(n, 1) as 1/n (a training step always has an active row); grid_1d without its rounding up
(grid-stride loops cover every element from any block count); capture_loop's warm-up at another step (the
stand-in library ignores warm, and a device's warm-up only loads kernels).

    python tests/mutants/run.py --only 'v113-*'
"""
LSTM = "lnrnn/kernels/bn_lstm_cuda.py"
RNN = "lnrnn/kernels/bn_rnn_cuda.py"
ARR = "lnrnn/kernels/cuda/arrays_cuda.py"
GRAPHS = "lnrnn/kernels/cuda/graphs_cuda.py"

# existing tests of these modules
LSTM_OLD = ["tests/kernels/test_values85_bn_lstm_cuda.py", "tests/kernels/test_values60_bn_lstm_cuda.py",
            "tests/kernels/test_values79_bn_cells_cuda.py"]
RNN_OLD = ["tests/kernels/test_values79_bn_cells_cuda.py", "tests/kernels/test_values38_bn_cells_cuda.py",
           "tests/kernels/test_values22_bn_cells_cuda.py"]
ARR_OLD = ["tests/kernels/test_values_arrays_cuda.py", "tests/kernels/test_values19_arrays_cuda.py",
           "tests/kernels/test_values82_arrays_cuda.py"]
GRAPHS_OLD = ["tests/kernels/test_values30_graphs_cuda.py", "tests/kernels/test_upload_strides.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
BN_NEW = ["tests/kernels/test_values113_bn_cuda.py"]
ARR_NEW = ["tests/kernels/test_values113_arrays_cuda.py"]

MUTANTS = [
    # ---- bn_lstm_cuda: the step kernels ----
    dict(name="v113-bn-lstm-input-gate-reads-f-column", file=LSTM,
         old="i = sigmoid(g4[0] * (a[4 * r] - m4[0]) * r4[0] + xn_t[b, j], one)",
         new="i = sigmoid(g4[0] * (a[4 * r] - m4[0]) * r4[0] + xn_t[b, H + j], one)",
         tests=BN_NEW + LSTM_OLD,
         why="the input gate adds the forget gate's normalized x column"),
    dict(name="v113-bn-lstm-gate-sums-count-padded-rows", file=LSTM,
         old="                    if on:\n                        s4[q] += v\n",
         new="                    if valid:\n                        s4[q] += v\n",
         tests=BN_NEW + LSTM_OLD,
         why="the h side's batch mean sums the padded rows' hw too (divided by the active count)"),
    dict(name="v113-bn-lstm-output-times-g-preactivation", file=LSTM,
         old="y_t[b, j] = a[4 * r + 3] * tcv",
         new="y_t[b, j] = a[4 * r + 2] * tcv",
         tests=BN_NEW + LSTM_OLD,
         why="h_t multiplies tanh(BN(c_t)) by the g column's raw hw instead of the output gate"),
    dict(name="v113-bn-lstm-bwd-dcn-without-o", file=LSTM,
         old="d = dho * o * (one - tcv * tcv)",
         new="d = dho * (one - tcv * tcv)",
         tests=BN_NEW + LSTM_OLD,
         why="dL/d(BN(c_t)) drops the output gate factor"),
    dict(name="v113-bn-lstm-bwd-gate-s2-without-rstd", file=LSTM,
         old="s24[q] += ga[4 * r + q] * xm[4 * r + q] * r4[q]",
         new="s24[q] += ga[4 * r + q] * xm[4 * r + q]",
         tests=BN_NEW + LSTM_OLD,
         why="the h side's sum of dL/da times xhat uses the centred hw, not xhat: dgh and dhw wrong"),
    dict(name="v113-bn-lstm-bwd-dhw-projection-sign", file=LSTM,
         old="(ga[4 * r + q] - (s14[q] + xm[4 * r + q] * r4[q] * s24[q])",
         new="(ga[4 * r + q] - (s14[q] - xm[4 * r + q] * r4[q] * s24[q])",
         tests=BN_NEW + LSTM_OLD,
         why="BN's backward subtracts the mean term but adds back the xhat projection"),
    dict(name="v113-bn-lstm-plan-cell-row-from-h-count", file=LSTM,
         old="rh, rc = min(s, Tsh - 1), min(s, Tsc - 1)",
         new="rh, rc = min(s, Tsh - 1), min(s, Tsh - 1)",
         tests=BN_NEW + LSTM_OLD,
         why="the cell's running row is clamped by the h side's row count: past the cell's rows it reads out of range "
             "or another row"),
    # ---- bn_rnn_cuda ----
    dict(name="v113-bn-rnn-bwd-s2-without-rstd", file=RNN,
         old="s2 += d * xm[r] * r1",
         new="s2 += d * xm[r]",
         tests=BN_NEW + RNN_OLD,
         why="the RNN's sum of dL/da times xhat uses the centred hw: dgh and dhw wrong in training"),
    dict(name="v113-bn-rnn-bwd-eval-without-rstd", file=RNN,
         old="dhw_t[b, j] = g * r1 * da[r]",
         new="dhw_t[b, j] = g * da[r]",
         tests=BN_NEW + RNN_OLD,
         why="in evaluation dL/dhw forgets the running rstd"),
    dict(name="v113-bn-rnn-bias-and-x-gain-swapped", file=RNN,
         old="(x, Wx, h0, Wh, b, gx, gh, *run)",
         new="(x, Wx, h0, Wh, gx, b, gh, *run)",
         tests=BN_NEW + RNN_OLD,
         why="the forward loads the bias into the plan's x gain and the x gain into its bias"),
    # ---- arrays_cuda ----
    dict(name="v113-mask-steps-row-by-batch", file=ARR,
         old="        b = r // H\n        j = r - b * H\n        out[t, b, j] = a[t, b, j] if t < lengths[b]",
         new="        b = r // B\n        j = r - b * H\n        out[t, b, j] = a[t, b, j] if t < lengths[b]",
         tests=ARR_NEW + ARR_OLD,
         why="mask_steps splits a step's flat index by B instead of H: wrong elements, some never written"),
    dict(name="v113-add-into-assigns", file=ARR,
         old="out[i] += a[i]",
         new="out[i] = a[i]",
         tests=ARR_NEW + ARR_OLD,
         why="add_into overwrites out with a instead of adding"),
    dict(name="v113-rows2d-first-axis", file=ARR,
         old="F = a.shape[a.ndim - 1]",
         new="F = a.shape[0]",
         tests=ARR_NEW + ARR_OLD,
         why="rows2d takes the first axis's length as the row width: (B*H, T) rows instead of (T*B, H)"),
    # ---- graphs_cuda ----
    dict(name="v113-c-strides-in-elements", file=GRAPHS,
         old="out, step = [], itemsize",
         new="out, step = [], 1",
         tests=ARR_NEW + GRAPHS_OLD,
         why="the caching allocator's arrays get strides in elements, not bytes"),
]
