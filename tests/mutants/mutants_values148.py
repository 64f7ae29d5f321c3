"""Planted bugs, round 148 (format: tests/mutants/mutants.py): a sixth pass over the layers, the cell registry
and the functional layer API, on lines no earlier round mutates.

Covered: RecurrentLayer binding its kernels with
eps and momentum swapped, a bidirectional stack with skip connections dropping the gradient the layer above sends
back, a BatchNorm training chunk at 0 < t0 < T given the statistics from row 0; the LSTM's inference forward
returning (c, h), the BN-LSTM adapter's eps and momentum swapped, its cell-state sequence read from y (a short
row's c_n), the BN-RNN kernel not told the lengths, the init's candidate-bias kick for LN cells only and ten times
wider; layer_backward writing an empty row's dL/dh_n into the last state's gradient, adding a one-step row's
dL/dh_n to dh0, never reading dL/dc_n, and layer_forward's inference past the statistics reading row t+1.

13 mutants. Against the existing targeted tests alone 7 were caught and 6 missed: the chunk at 0 < t0 < T (no
old test trains a BatchNorm layer in a chunk starting there), the BN-LSTM's c_n of a short row (no
old test reads a BN-LSTM's final c with lengths), both init kicks (no old test looks at the BN cells' initial b
or bounds the kick), the one-step row's dh_n into h0 (no old test gives dL/dh_n to a one-step row) and the
inference statistics' rows (no old test runs layer_forward's inference past its statistics rows). The new value
tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values148_layers (an LN-LSTM layer in float64 and float32 against lnrnn.reference; BN-LSTM and BN-RNN
training forwards over a full, a one-step and an empty row against the reference with lengths: y at valid steps,
each row's own final h and c, the running statistics; a BN-RNN trained in chunks of 1 and 3 steps carrying state
equal to one pass and to the reference, statistics included; a two-layer LSTM stack stepped T times equal to the
stack over T steps and to the reference; a bidirectional two-layer RNN stack with skip connections against a
row-by-row reference stack written there, dx and three weight gradients against central differences in float64;
every cell's initial b by the init's definition), test_values148_functional (a plain LSTM's dh0, dc0, dx and dWx
with dL/dh_n over a full, an empty and a one-step row, and with dL/dc_n alone, against central differences of
the reference run row by row; a BN-RNN's inference over 4 steps with 2 statistics rows against the reference and
by hand at the last step; layer_forward's y, final state and residuals and layer_backward's gradients against a
RecurrentLayer's forward and backward on the same parameters). Dropped before the catalogue as equivalent: the
stack's last-layer index for on_device and the backward's on_device flag on the CPU (to_host is the identity
there); batch_blocks counted over T instead of B (the row partition changes no value); dL/dh_n of an empty row
assigned instead of added to dh0 (no step of that row sends anything back to h0); _buffer_rows' T <= Ts as T < Ts
(stat_rows over Ts rows is the identity); the orthogonal init without the sign of R's diagonal (still orthogonal:
only the exact draw differs).
Also left out: residual_layout (only the JAX bindings read it) and the CUDA paths (tests/model/*cuda*).

    python tests/mutants/run.py --only 'v148-*'
"""
LAYERS = "lnrnn/model/layers.py"
CELLS = "lnrnn/model/cells.py"
FUNC = "lnrnn/model/functional.py"

# existing tests of these modules
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values101_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values77_layers.py",
              "tests/model/test_eval_chunks.py"]
CELLS_OLD = ["tests/model/test_values13_cells.py", "tests/model/test_values67_cells.py",
             "tests/model/test_values88_cells.py", "tests/model/test_values_bn.py", "tests/model/test_infer_path.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
            "tests/model/test_values51_functional.py", "tests/model/test_values77_functional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
LAYERS_NEW = ["tests/model/test_values148_layers.py"]
FUNC_NEW = ["tests/model/test_values148_functional.py"]

MUTANTS = [
    # ---- RecurrentLayer and RecurrentStack ----
    dict(name="v148-layer-setup-eps-and-momentum-swapped", file=LAYERS,
         old="self.dtype, self.device, self.eps, self.momentum,",
         new="self.dtype, self.device, self.momentum, self.eps,",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the layer binds its kernels with eps and momentum in each other's places: LayerNorm divides by "
             "sqrt(var + 0.1) and BatchNorm's running statistics barely move"),
    dict(name="v148-bidirectional-skip-backward-drops-the-layer-above", file=LAYERS,
         old="dyk = kn.take_columns(dy, k * W, (k + 1) * W, d_above)",
         new="dyk = kn.take_columns(dy, k * W, (k + 1) * W)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack with skip connections gives each layer only its own output columns' "
             "gradient: what the layer above sends back through its input is lost"),
    dict(name="v148-training-chunk-inside-the-first-window-takes-row-0", file=LAYERS,
         old="            if t0 == 0:\n                return self.buffers",
         new="            if t0 < T:\n                return self.buffers",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a BatchNorm training chunk starting at step t0 < T is given the running statistics from row 0: "
             "chunk 1..3 after chunk 0 updates rows 0..2 instead of 1..3"),
    # ---- the cell registry's adapters and init ----
    dict(name="v148-lstm-inference-state-swapped", file=CELLS,
         old="        return y, (hT, cT), None, None",
         new="        return y, (cT, hT), None, None",
         tests=LAYERS_NEW + CELLS_OLD,
         why="the LSTM's inference forward (keep=False: step, sampling) returns (c, h) as its state: the next "
             "step starts from the cell state as h"),
    dict(name="v148-bn-lstm-momentum-and-eps-swapped", file=CELLS,
         old="training, f.momentum, f.eps, **_bn_kw(lengths))",
         new="training, f.eps, f.momentum, **_bn_kw(lengths))",
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN-LSTM adapter passes eps as the momentum and the momentum as eps"),
    dict(name="v148-bn-lstm-final-c-read-from-y", file=CELLS,
         old="saved, (y, saved[BN_LSTM_SAVED_C])",
         new="saved, (y, saved[BN_LSTM_SAVED_Y])",
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN-LSTM's cell-state sequence for per-row final states is y: a short row's c_n is its h"),
    dict(name="v148-bn-rnn-lengths-not-passed", file=CELLS,
         old="training, f.momentum, f.eps,\n                                **_bn_kw(lengths))",
         new="training, f.momentum, f.eps)",
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN-RNN kernel is not told the rows' lengths: padded rows count in every step's batch "
             "statistics"),
    dict(name="v148-init-bias-kick-for-ln-only", file=CELLS,
         old='if self.norm != "none":',
         new='if self.norm == "ln":',
         tests=LAYERS_NEW + CELLS_OLD,
         why="the BN cells start with a zero candidate bias: the zero state stays a fixed point of BN cells"),
    dict(name="v148-init-bias-kick-ten-times-wider", file=CELLS,
         old="rng.uniform(-0.1, 0.1, H)",
         new="rng.uniform(-1.0, 1.0, H)",
         tests=LAYERS_NEW + CELLS_OLD,
         why="the normalized cells' random candidate bias is drawn from [-1, 1] instead of [-0.1, 0.1]"),
    # ---- the functional layer API ----
    dict(name="v148-dh-n-of-an-empty-row-written-to-the-last-state", file=FUNC,
         old="        dstate[0] = k.to_device(dh0)",
         new="        dstate[-1] = k.to_device(dh0)",
         tests=FUNC_NEW + FUNC_OLD,
         why="dL/dh_n of a zero-length row (h_n is h0) is written into the last state's gradient: an LSTM's "
             "dc0 becomes dh0 and dh0 loses dh_n"),
    dict(name="v148-dh-n-of-a-one-step-row-also-into-h0", file=FUNC,
         old="        z = np.nonzero(lengths == 0)[0]\n        dh0 =",
         new="        z = np.nonzero(lengths <= 1)[0]\n        dh0 =",
         tests=FUNC_NEW + FUNC_OLD,
         why="a one-step row's dL/dh_n is added to dh0 as if h_n were h0, on top of its step-0 dy"),
    dict(name="v148-dc-n-never-read", file=FUNC,
         old="if len(dfinal) > 1 and dfinal[1] is not None:",
         new="if len(dfinal) > 2 and dfinal[1] is not None:",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_backward never reads dL/dc_n: the final cell state's gradient is dropped"),
    dict(name="v148-inference-stat-rows-start-at-1", file=FUNC,
         old="    rows = stat_rows(Ts, 0, T)\n    return {n: k.to_device",
         new="    rows = stat_rows(Ts, 1, T)\n    return {n: k.to_device",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_forward's inference over more steps than the statistics hold normalizes step t with row "
             "t+1 (clamped) instead of row min(t, Ts-1)"),
]
