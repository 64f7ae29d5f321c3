"""Planted bugs, round 108 (format: tests/mutants/mutants.py): single-line slips in the sequence models,
layer stacks, heads, cells and layer functions, on lines no earlier round mutates: last_outputs reading each
row one step late and scored_count counting rows without steps for a last-step head; the bidirectional stack's
two directions swapped in its forward, its backward direction reversing the padded steps too, a two-layer
stack handing the layer below the forward direction's gradient alone, and a skip stack's output width of one
direction; the per-step classifier's (B,T) labels not transposed and the CTC head's host sums counting the
labels of rows without steps; param_shapes giving Wh the input's width and BatchNorm's running means starting
at 1; dL/dh_n of an empty row reaching its h0 only when every row is empty, and residual_layout giving the
LSTM's cell states the gates' width.

12 mutants. Against the existing targeted tests alone (the three or four most direct files per module) 8 were
caught and 2 missed: scored_count counting empty rows (no test asks it about a zero-length row of a
last-step head) and the running means starting at 1 (no test reads the initial statistics); the last two,
dL/dh_n into h0 and the LSTM's residual layout, were not measured against the old tests (their run was cut
short for time). The new value tests catch every mutant on their own (checked with the old tests taken off
the lists): test_values108_stacks (a two-layer bidirectional RNN stack, with and without skip connections,
against a NumPy RNN run row by row over each row's own steps, padding set to 50; every flat parameter's and
the input's gradient by central differences in float64; last_outputs, unidirectional and bidirectional, and
a last-step classifier's mean loss over ragged rows and an empty one against the same rows; scored_count by
hand), test_values108_heads (the per-step classifier's summed cross-entropy, accuracy, count and gradients as
softmax minus one-hot on square and non-square batches, the regression head's squared error and gradient,
the CTC head's host sums, all written from their definitions), test_values108_layouts (every cell's
parameter shapes and the flat buffer's count of a bidirectional two-layer model from Wx (I,G), Wh (H,G),
b (G,) and the gains; the BN statistics' names, shapes, zeros and ones; residuals against residual_layout;
dh0 of a row without steps by central differences). Dropped as equivalent or near it: the masked label
filled with -1 instead of 0 in the classifier (the picked log p and the one-hot entry are masked out
either way), the inference rows' T <= Ts as T < Ts (stat_rows gives the same rows), _orthogonal without the
sign of diag(r) (still orthogonal, only another draw), and the skip join along axis -1 instead of 2. No
dropout runs between a stack's layers, so nothing was planted there.

    python tests/mutants/run.py --only 'v108-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"
HEADS = "lnrnn/model/heads.py"
CELLS = "lnrnn/model/cells.py"
FUNCTIONAL = "lnrnn/model/functional.py"

# existing tests of these modules (the most direct ones)
MODELS_OLD = ["tests/model/test_models.py", "tests/model/test_values51_models.py",
              "tests/model/test_values73_models.py", "tests/model/test_eval_chunks.py"]
LAYERS_OLD = ["tests/model/test_layers_models_bidirectional.py", "tests/model/test_layers.py",
              "tests/model/test_values77_layers.py"]
HEADS_OLD = ["tests/model/test_values_heads.py", "tests/model/test_values33_heads.py",
             "tests/model/test_values67_heads.py"]
CELLS_OLD = ["tests/model/test_values13_cells.py", "tests/model/test_values67_cells.py",
             "tests/model/test_values88_cells.py"]
FUNCTIONAL_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
                  "tests/model/test_values77_functional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STACK_NEW = ["tests/model/test_values108_stacks.py"]
HEADS_NEW = ["tests/model/test_values108_heads.py"]
LAYOUT_NEW = ["tests/model/test_values108_layouts.py"]

MUTANTS = [
    # ---- models: the last-step outputs of ragged rows, the scored count of a last-step head ----
    dict(name="v108-last-outputs-one-step-late", file=MODELS,
         old="        last = (np.full(B, T, np.int64) if lengths is None else lengths) - 1   # (B,) each row's last step",
         new="        last = (np.full(B, T, np.int64) if lengths is None else lengths)   # (B,) each row's last step",
         tests=STACK_NEW + MODELS_OLD,
         why="last_outputs reads each row one step past its last valid one: full rows are never read (their "
             "output stays zero) and a short row scores its first padded step"),
    dict(name="v108-scored-count-counts-empty-rows", file=MODELS,
         old='running_mask(L, T, bool) if self.head.steps == "all" else L > 0)',
         new='running_mask(L, T, bool) if self.head.steps == "all" else L >= 0)',
         tests=STACK_NEW + MODELS_OLD,
         why="scored_count counts a row without steps as a scored sequence of a last-step head: a data-parallel "
             "update divides its loss by one more sequence per empty row"),
    # ---- layers: the bidirectional stack ----
    dict(name="v108-bidirectional-directions-swapped", file=LAYERS,
         old="            fwd, bwd = self.layers[j], self.layers[j + 1]\n",
         new="            fwd, bwd = self.layers[j + 1], self.layers[j]\n",
         tests=STACK_NEW + LAYERS_OLD,
         why="the forward pass runs l<k>_reverse over the input and l<k> over the reversed steps (the backward "
             "pass still takes them the other way round): outputs and gradients belong to the wrong layer"),
    dict(name="v108-bidirectional-reverses-padded-steps", file=LAYERS,
         old="        self._reverse = rev = self._reversal(x.shape[0], x.shape[1], lengths)",
         new="        self._reverse = rev = self._reversal(x.shape[0], x.shape[1], None)",
         tests=STACK_NEW + LAYERS_OLD,
         why="the backward direction reverses all T steps, padding included: a short row's backward layer starts "
             "on its padded steps and its output at step 0 has read them"),
    dict(name="v108-bidirectional-lower-gradient-forward-only", file=LAYERS,
         old="            elif k > 0:\n                d_above = d_in",
         new="            elif k > 0:\n                d_above = df",
         tests=STACK_NEW + LAYERS_OLD,
         why="a two-layer bidirectional stack hands the layer below only the forward direction's dL/d(input): the "
             "backward direction's share is dropped from every lower layer's gradient and from dx"),
    dict(name="v108-bidirectional-skip-width-one-direction", file=LAYERS,
         old="        self.output_size = W * int(num_layers) if self.skip else W",
         new="        self.output_size = H * int(num_layers) if self.skip else W",
         tests=STACK_NEW + LAYERS_OLD,
         why="a skip stack's output width counts one direction per layer: a bidirectional skip stack's head is "
             "built H*L wide for outputs 2H*L wide"),
    # ---- heads: per-step labels, the CTC head's host sums ----
    dict(name="v108-per-step-labels-not-transposed", file=HEADS,
         old="        return np.ascontiguousarray(lab.T) if self.per_step else lab   # (T,B) or (B,)",
         new="        return np.ascontiguousarray(lab) if self.per_step else lab   # (T,B) or (B,)",
         tests=HEADS_NEW + HEADS_OLD,
         why="the per-step classifier reads the (B,T) labels as (T,B): with T = B every step is scored against "
             "another row's label, otherwise the shapes clash"),
    dict(name="v108-ctc-host-chars-of-empty-rows", file=HEADS,
         old='        return {"chars": float(ll[il > 0].sum())}',
         new='        return {"chars": float(ll.sum())}',
         tests=HEADS_NEW + HEADS_OLD,
         why="the CTC head's host sums count the labels of rows without steps (unscored on the device): the "
             "device update's cer is divided by too many characters"),
    # ---- cells: shapes and buffers from the registry row ----
    dict(name="v108-param-shapes-wh-input-wide", file=CELLS,
         old='        return [("Wx", (I, G)), ("Wh", (H, G)), ("b", (G,))]',
         new='        return [("Wx", (I, G)), ("Wh", (I, G)), ("b", (G,))]',
         tests=LAYOUT_NEW + CELLS_OLD,
         why="param_shapes gives Wh the input's width: the pure layer functions' parameter contract (and any "
             "count taken from it) is wrong whenever I differs from H"),
    dict(name="v108-bn-running-mean-starts-at-one", file=CELLS,
         old='            bufs["rm" + s] = np.zeros((max_steps, self.width(H, w)), dtype)',
         new='            bufs["rm" + s] = np.ones((max_steps, self.width(H, w)), dtype)',
         tests=LAYOUT_NEW + CELLS_OLD,
         why="BatchNorm's running means start at 1 instead of 0: an untrained model's inference normalizes "
             "with a made-up mean"),
    # ---- functional: h_n of a row without steps, the LSTM's residual layout ----
    dict(name="v108-dh-n-into-h0-only-when-all-rows-empty", file=FUNCTIONAL,
         old="    if dh_n is not None and lengths is not None and np.any(lengths == 0):  # h_n is h0 there",
         new="    if dh_n is not None and lengths is not None and np.all(lengths == 0):  # h_n is h0 there",
         tests=LAYOUT_NEW + FUNCTIONAL_OLD,
         why="dL/dh_n of a row without steps (whose h_n is h0) reaches dh0 only when every row is empty: in a "
             "mixed batch it is lost"),
    dict(name="v108-residual-layout-lstm-c-gate-wide", file=FUNCTIONAL,
         old="        return [((T, B, G), dt), ((T, B, H), dt), ((T, B, H), dt),",
         new="        return [((T, B, G), dt), ((T, B, G), dt), ((T, B, H), dt),",
         tests=LAYOUT_NEW + FUNCTIONAL_OLD,
         why="residual_layout gives the LSTM's saved cell states the gates' width 4H: callers that allocate "
             "residuals from it (the bindings) get buffers of the wrong shape"),
]
