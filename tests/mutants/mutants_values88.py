"""Planted bugs, round 88 (format: tests/mutants/mutants.py): single-line slips in the sequence models, stacks, heads,
cell rows and decoding, on lines no earlier round mutates: _select reading the chunk's step count as the
sequence's (a last-step head under truncated BPTT without lengths scores the first chunk's last step), _scatter
placing a last-step head's gradient at the chunk's end instead of each row's last step, loss_sums scoring rows of
no step, a model's step running BatchNorm at step 0 whatever t; a one-direction stack's layers named by
divmod(j, 2), a bidirectional skip stack's upper layers one direction wide, its final states backward direction
first, its top output the bottom layer's and its forward direction's backward reading the backward columns; the
regression loss as the square of the summed error and the mixture density head's NLL averaged; the LN-LSTM's
gains gx and gh passed the other way round and its row naming the gradients of gx and bx the other way round, the
BN cells losing the lengths; best_path_array padding with the blank and prefix_beam_search returning the
blank-ending paths' log p.

16 mutants. Against the existing targeted tests alone (the value-test files of these modules listed below; the
CLI, training and structure files that also touch them were left out of the measurement, minutes each) 14 were
caught and 2 missed: the model's step at time 0 (no listed test steps a BatchNorm model past step 0 against its
statistics) and the BN cells without lengths (no listed test runs a BN layer over ragged rows against the spec). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values88_models (2-layer plain LSTM stacks, one direction and both, against a stack written from
lnrnn.reference.lstm_forward row by row over each row's own steps, a backward direction over the row reversed;
classifier loss, accuracy, every gradient against central differences of that loss and the final states of
ragged rows; inference with a row of no step, last_outputs and evaluate over two batches; truncated BPTT in
chunks of 3 over 7 steps for a last-step classifier without lengths and a per-step regression, gradients against
the loss with each chunk's initial state held at the full forward's; per-step regression and mixture density
(reference.mdn_nll) heads on ragged rows; parameter names and counts of a 3-layer stack and of bidirectional
stacks with and without skip, counted by hand; a BN-RNN model's step against the running statistics of row
min(t, Ts-1) by the formula; every parameter, head biases included, away from its initial value),
test_values88_cells (an LN-LSTM layer whose six LayerNorm gains and biases all differ, forward and every named
gradient against reference.lstm_forward and lstm_backward; a BN-RNN training forward over ragged rows, y and the
running statistics against reference.bn_rnn_forward with the lengths), test_values88_decode (best_path_array
against a greedy loop over each row's steps, padding -1; a wide prefix_beam_search against the sum over all 81
paths of 4 steps and 3 classes). Dropped as equivalent: the LN-LSTM's x- and h-side biases bx and bh passed the
other way round (both add to the same preactivation, and their gradients are both the column sums of
dL/d(preactivation): no test can see it; replaced by the gains' swap); the stack passing on_device=True
between CPU layers (to_host is the identity on the CPU); the skip stack's join on axis -1 for axis 2 (the same
axis); the classifier's masked labels filled with -1 instead of 0 (those rows' loss and gradient are multiplied
by 0). Also left out: the head's mean over max(count, 1) as count (only an empty batch, where it divides by 0).

    python tests/mutants/run.py --only 'v88-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"
HEADS = "lnrnn/model/heads.py"
CELLS = "lnrnn/model/cells.py"
DECODE = "lnrnn/model/decode.py"

# existing tests of these modules (their value-test files; the CLI and training files that also touch them are
# left out: minutes each)
MODELS_OLD = ["tests/model/test_values10_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values20_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values51_models.py", "tests/model/test_values73_models.py"]
LAYERS_OLD = ["tests/model/test_values9_layers.py", "tests/model/test_values13_layers.py",
              "tests/model/test_values24_layers.py", "tests/model/test_values33_layers.py",
              "tests/model/test_values77_layers.py", "tests/model/test_values51_models.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values10_heads.py",
             "tests/model/test_values12_heads.py",
             "tests/model/test_values16_heads.py", "tests/model/test_values33_heads.py",
             "tests/model/test_values48_heads.py", "tests/model/test_values57_heads.py",
             "tests/model/test_values67_heads.py"]
CELLS_OLD = ["tests/model/test_values13_cells.py", "tests/model/test_values67_cells.py",
             "tests/model/test_values_bn.py"]
DECODE_OLD = ["tests/model/test_values_decode.py", "tests/model/test_values20_decode.py",
              "tests/model/test_values26_decode.py", "tests/model/test_values48_decode.py",
              "tests/model/test_values62_decode.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values88_models.py"]
CELLS_NEW = ["tests/model/test_values88_cells.py"]
DECODE_NEW = ["tests/model/test_values88_decode.py"]

MUTANTS = [
    # ---- models.py ----
    dict(name="v88-select-total-as-chunk-steps", file=MODELS,
         old="L = np.full(B, T_total, np.int64) if lengths is None else lengths",
         new="L = np.full(B, T, np.int64) if lengths is None else lengths",
         tests=MODELS_NEW + MODELS_OLD,
         why="without lengths a last-step head under truncated BPTT reads the first chunk's last step (the chunk's "
             "T stands for the sequence's)"),
    dict(name="v88-scatter-at-chunk-end", file=MODELS,
         old="        dy[where, rows] = dh\n        return dy",
         new="        dy[-1, rows] = dh\n        return dy",
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head's dL/dh goes back to the chunk's last step, not each row's own last step: rows "
             "shorter than T get the gradient of padding"),
    dict(name="v88-eval-scores-empty-rows", file=MODELS,
         old="s, count, _ = self.head.forward(h, targets, L > 0)",
         new="s, count, _ = self.head.forward(h, targets, L >= 0)",
         tests=MODELS_NEW + MODELS_OLD,
         why="inference scores rows of no step (their zero output) and counts them"),
    dict(name="v88-step-at-time-zero", file=MODELS,
         old="y_t, state = self.stack.step(x_t, state, t=t,",
         new="y_t, state = self.stack.step(x_t, state, t=0,",
         tests=MODELS_NEW + MODELS_OLD,
         why="a model's sampling step normalizes every step with BatchNorm's step-0 running statistics"),
    # ---- layers.py ----
    dict(name="v88-names-divmod-two", file=LAYERS,
         old="k, rev = divmod(j, self.directions)",
         new="k, rev = divmod(j, 2)",
         tests=MODELS_NEW + LAYERS_OLD,
         why="a one-direction stack names its second layer l0_reverse. (and its third l1.)"),
    dict(name="v88-bi-skip-input-one-direction", file=LAYERS,
         old="(I + W if self.skip else W)",
         new="(I + H if self.skip else W)",
         tests=MODELS_NEW + LAYERS_OLD,
         why="a bidirectional skip stack's upper layers read I + H columns, not I + 2H"),
    dict(name="v88-bi-states-swapped", file=LAYERS,
         old="states += [sf, sb]",
         new="states += [sb, sf]",
         tests=MODELS_NEW + LAYERS_OLD,
         why="a bidirectional stack's final states come backward direction first, against the layers' order"),
    dict(name="v88-bi-top-is-first-layer", file=LAYERS,
         old="else ys[-1]",
         new="else ys[0]",
         tests=MODELS_NEW + LAYERS_OLD,
         why="a bidirectional stack without skip returns its bottom layer's output"),
    dict(name="v88-bi-forward-takes-backward-columns", file=LAYERS,
         old="df, dsf = fwd.backward(kn.take_columns(dyk, 0, H), on_device=dev)",
         new="df, dsf = fwd.backward(kn.take_columns(dyk, H, 2 * H), on_device=dev)",
         tests=MODELS_NEW + LAYERS_OLD,
         why="the forward direction's backward reads the backward direction's columns of dL/dy"),
    # ---- heads.py ----
    dict(name="v88-regression-square-of-sum", file=HEADS,
         old="loss = float(np.sum(err.astype(np.float64) ** 2))",
         new="loss = float(np.sum(err.astype(np.float64)) ** 2)",
         tests=MODELS_NEW + HEADS_OLD,
         why="the regression loss squares the sum of the errors instead of summing their squares"),
    dict(name="v88-mdn-mean-not-sum", file=HEADS,
         old="total = float(nll.sum(dtype=np.float64))",
         new="total = float(nll.mean(dtype=np.float64))",
         tests=MODELS_NEW + HEADS_OLD,
         why="the mixture density head averages its points' NLL (padding included) where heads return sums"),
    # ---- cells.py ----
    dict(name="v88-ln-lstm-gx-gh-swapped", file=CELLS,
         old='gx, bx, gh, bh = (p["gx"], p["bx"], p["gh"], p["bh"]) if ln',
         new='gx, bx, gh, bh = (p["gh"], p["bx"], p["gx"], p["bh"]) if ln',
         tests=CELLS_NEW + CELLS_OLD,
         why="the LN-LSTM forward scales the x side's normalized product by the h side's gain and back"),
    dict(name="v88-ln-lstm-grad-names-gx-bx", file=CELLS,
         old='("Wx", "Wh", "b", "gx", "bx", "gh", "bh", "gc", "bc")',
         new='("Wx", "Wh", "b", "bx", "gx", "gh", "bh", "gc", "bc")',
         tests=CELLS_NEW + CELLS_OLD,
         why="the LN-LSTM row names its backward's gradients gx and bx the other way round"),
    dict(name="v88-bn-lengths-dropped", file=CELLS,
         old='return {} if lengths is None else {"lengths": lengths}',
         new="return {}",
         tests=CELLS_NEW + CELLS_OLD,
         why="BN cells never get the lengths: padded rows count in the per-step statistics"),
    # ---- decode.py ----
    dict(name="v88-best-path-pads-zero", file=DECODE,
         old="out = np.full((B, T), -1, np.int64)",
         new="out = np.zeros((B, T), np.int64)",
         tests=DECODE_NEW + DECODE_OLD,
         why="best_path_array pads its rows with 0, the blank, where -1 is promised"),
    dict(name="v88-prefix-beam-total-is-pb", file=DECODE,
         old="return [(p, float(np.logaddexp(*v))) for p, v in",
         new="return [(p, float(v[0])) for p, v in",
         tests=DECODE_NEW + DECODE_OLD,
         why="prefix_beam_search returns each prefix's blank-ending paths' log p, not all its paths'"),
]
