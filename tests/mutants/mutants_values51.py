"""Planted bugs, round 51 (format: tests/mutants/mutants.py): single-line slips in the sequence model, the
recurrent stack and the layer functions, on lines no earlier round mutates. The model: a last-step head reading
every row at step T-1, a bidirectional stack's backward columns given their gradient at the last step as well
as at step 0, a per-step head's mask in a truncated-BPTT chunk compared with the absolute lengths, the gradient
divided by the batch's rows instead of the scored units, each chunk's sums replacing the earlier ones', a given
initial state replaced by noise, the noise counter that never advances, inference's last outputs read at the
chunk's last step, a one-direction stack taken for a bidirectional one (truncated BPTT refused), rows of
length 0 counted. The stack: a backward direction named by its index in the layer list, a skip stack's dy
columns k..k+H for layer k, a bidirectional skip layer reading [h | x], the forward direction run without the
lengths (its final state the padding's), dstate0 left in the backward's order. The layer functions: eps and
momentum swapped in the settings record, dL/dh_n added at step T-2, a NaN gate clip let through, BatchNorm
statistics of exactly T rows refused, reverse_valid without lengths reversing the batch axis, dL/dy at padded
steps kept for the cells whose kernels take no lengths, a dL/dc_n with one zero entry dropped.

22 mutants. Against the existing targeted tests alone 17 were caught and 5 missed: the given initial state
replaced by noise and the stuck noise counter (no old test passes a state to a noisy model, or compares two
updates without a key: the old ones always pass noise_key), eps and momentum swapped (the old tests compare the
layer functions with a RecurrentLayer, which runs the same setup), dL/dh_n at step T-2 (the old h_n gradients
are taken with lengths, where each row's own last step is used) and the NaN clip (no old test passes one). The
new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values51_models (2-layer plain LSTM stacks, one direction, skip,
bidirectional and both, float64 at I = H = 2: the loss against a NumPy reimplementation written from the
equations, each row over its own steps, a backward direction over each row's valid steps reversed, the head's
forward columns at the row's last step and backward ones at step 0, and every gradient against central
differences of that loss; per-step heads with unscored labels; a row of length 0; truncated BPTT against the
chunked loss with each chunk's initial state held fixed; inference in chunks of 2 steps; the noise's spread and
keys, successive updates drawing keys 0 and 1, a given state used as given; the stack's names and flat layout,
its final states, and dstate0 against central differences in the initial states), test_values51_functional (an
LN-LSTM layer against NumPy LayerNorm with eps 1e-5, BatchNorm's running statistics of exactly T rows against the
batch moments of x_t Wx and h0 Wh with momentum 0.1, layer_backward's gradients of h_n, of a c_n with a zero
entry and of a dy non-zero at padded steps against central differences, reverse_valid against its definition,
NaN and negative clips refused). Dropped before the catalogue as equivalent: the inference mask of a chunk's
lengths not shifted by t0 (the rows it runs past their end are padding, read by no head and, in inference, by no
BatchNorm statistic), dh0 of a row of length 0 assigned instead of added (the kernel's own dh0 there is 0),
``T <= Ts`` as ``T < Ts`` in the inference rows (the gathered rows are the buffers' own), ``tbptt >= T`` as
``tbptt > T`` (one chunk of T steps either way). Also left out: the CPU stack's ``on_device`` flags between
layers (NumPy either way on the CPU; the CUDA tests cover them) and the order of the model's flat
buffer, which no reader of it depends on (the optimizer saves its slots by name).

    python tests/mutants/run.py --only 'v51-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"
FUNC = "lnrnn/model/functional.py"

# existing tests of these modules
MODELS_OLD = ["tests/model/test_models.py", "tests/model/test_values10_models.py",
              "tests/model/test_values16_models.py", "tests/model/test_values20_models.py",
              "tests/model/test_values37_models.py", "tests/model/test_state_noise.py",
              "tests/model/test_eval_chunks.py", "tests/model/test_layers_models_bidirectional.py"]
LAYERS_OLD = ["tests/model/test_layers.py","tests/model/test_layers_models_bidirectional.py",
              "tests/model/test_values9_layers.py",
              "tests/model/test_values13_layers.py", "tests/model/test_values24_layers.py",
              "tests/model/test_values33_layers.py", "tests/model/test_combinations.py"]
FUNC_OLD = ["tests/model/test_functional.py", "tests/model/test_values13_functional.py",
            "tests/model/test_values16_functional.py", "tests/model/test_values22_functional.py",
            "tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MODELS_NEW = ["tests/model/test_values51_models.py"]
LAYERS_NEW = ["tests/model/test_values51_models.py"]
FUNC_NEW = ["tests/model/test_values51_functional.py"]

MUTANTS = [
    # ---- the model: which rows and columns the head reads, where its gradient goes, how the loss is normalized ----
    dict(name="v51-models-last-step-head-reads-step-T-1", file=MODELS,
         old="        return y[idx, np.arange(B)], valid, idx",
         new="        return y[T - 1], valid, idx",
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head reads every row at the chunk's last step: a row shorter than the batch is scored "
             "on its padding, and a row that ends in an earlier truncated-BPTT chunk on that chunk's last step"),
    dict(name="v51-models-bidirectional-backward-columns-also-at-last-step", file=MODELS,
         old="            dy[where, rows] = np.where(rev, 0, dh)",
         new="            dy[where, rows] = dh",
         tests=MODELS_NEW + MODELS_OLD,
         why="the head's gradient of a backward direction's columns goes to step 0 (right) and to each row's last "
             "step as well: the backward direction's gradients count a step its output was never read at"),
    dict(name="v51-models-per-step-valid-not-shifted-by-chunk", file=MODELS,
         old="running_mask(L - t0, T, bool)",
         new="running_mask(L, T, bool)",
         tests=MODELS_NEW + MODELS_OLD,
         why="a per-step head's mask in a chunk starting at t0 compares the chunk's own step with the absolute "
             "lengths: with truncated BPTT, padded steps of the later chunks are scored"),
    dict(name="v51-models-gradient-over-batch-rows", file=MODELS,
         old="        scale = 1.0 / total\n",
         new="        scale = 1.0 / B\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="the gradient is divided by the batch's rows, the loss by the scored units: a per-step head's "
             "gradient is T times too large (and not the loss's when rows are masked)"),
    dict(name="v51-models-tbptt-sums-of-last-chunk-only", file=MODELS,
         old="            for m in s:\n                sums[m] += s[m]\n            dh = self.head.backward",
         new="            for m in s:\n                sums[m] = s[m]\n            dh = self.head.backward",
         tests=MODELS_NEW + MODELS_OLD,
         why="each truncated-BPTT chunk's sums replace the earlier chunks' instead of adding to them: the loss "
             "and accuracy of a per-step head are the last chunk's over the whole batch's count"),
    dict(name="v51-models-given-state-replaced-by-noise", file=MODELS,
         old="        if state is None and self.state_noise:\n",
         new="        if self.state_noise:\n",
         tests=MODELS_NEW + MODELS_OLD,
         why="a model with state noise draws noise even when the caller passes the initial states"),
    dict(name="v51-models-noise-counter-never-advances", file=MODELS,
         old="noise_key, self._noise_calls = self._noise_calls, self._noise_calls + 1",
         new="noise_key = self._noise_calls",
         tests=MODELS_NEW + MODELS_OLD,
         why="updates without a noise key all draw the initial states of key 0: the noise is the same every update"),
    dict(name="v51-models-last-outputs-read-chunks-last-step", file=MODELS,
         old="            h[rows] = y[last[rows] - t0, rows]",
         new="            h[rows] = y[-1, rows]",
         tests=MODELS_NEW + MODELS_OLD,
         why="inference's last outputs take the last step of the chunk a row ends in, not the row's own last step"),
    dict(name="v51-models-unidirectional-stack-gets-reverse-columns", file=MODELS,
         old='getattr(stack, "reverse_columns", None) if getattr(stack, "bidirectional", False)',
         new='getattr(stack, "reverse_columns", None) if hasattr(stack, "bidirectional")',
         tests=MODELS_NEW + MODELS_OLD,
         why="every RecurrentStack has the attribute: a one-direction model is taken for a bidirectional one and "
             "refuses truncated BPTT"),
    dict(name="v51-models-count-includes-rows-without-steps", file=MODELS,
         old='        valid_all = running_mask(L, T, bool) if self.head.steps == "all" else L > 0\n',
         new='        valid_all = running_mask(L, T, bool) if self.head.steps == "all" else L >= 0\n',
         tests=MODELS_NEW + MODELS_OLD,
         why="a last-step head's count includes rows of length 0, which it does not score: the mean loss and "
             "the gradient are divided by too many rows"),
    # ---- the stack: names, skip columns, bidirectional inputs, states and their gradients ----
    dict(name="v51-layers-reverse-name-by-layer-index", file=LAYERS,
         old='        return f"l{k}_reverse." if rev else f"l{k}."',
         new='        return f"l{j}_reverse." if rev else f"l{k}."',
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a backward direction is named by its index in self.layers: layer 1's is l3_reverse, not l1_reverse"),
    dict(name="v51-layers-skip-backward-columns-not-scaled-by-H", file=LAYERS,
         old="dyk = np.ascontiguousarray(dy[:, :, k * H:(k + 1) * H])",
         new="dyk = np.ascontiguousarray(dy[:, :, k:k + H])",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a skip stack's layer k > 0 takes its share of dy from columns k..k+H instead of kH..(k+1)H"),
    dict(name="v51-layers-bidirectional-skip-input-order", file=LAYERS,
         old="inp = kn.join_columns([x, h]) if self.skip else h",
         new="inp = kn.join_columns([h, x]) if self.skip else h",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional skip stack's upper layer reads [h | x] where its weights (and the backward's column "
             "split) expect [x | h]"),
    dict(name="v51-layers-bidirectional-forward-direction-unmasked", file=LAYERS,
         old="hf, sf = fwd.forward(inp, st[0], training, on_device=dev, lengths=lengths, keep=keep)",
         new="hf, sf = fwd.forward(inp, st[0], training, on_device=dev, lengths=None, keep=keep)",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="the forward direction runs every row all T steps: its final state is the padding's, not the row's "
             "last step's"),
    dict(name="v51-layers-bidirectional-dstate0-not-reordered", file=LAYERS,
         old="        self.dstate0 = dstate[::-1]\n        if dev:\n"
             "            return dx if on_device else kn.to_host(dx)\n"
             "        return np.ascontiguousarray(dx)\n\n    def step",
         new="        self.dstate0 = dstate\n        if dev:\n            return dx if on_device else kn.to_host(dx)\n"
             "        return np.ascontiguousarray(dx)\n\n    def step",
         tests=LAYERS_NEW + LAYERS_OLD,
         why="a bidirectional stack's dstate0 stays in the order the backward collected it (top layer first, "
             "backward direction first): the initial-state gradients are given to the wrong layers"),
    # ---- the layer functions ----
    dict(name="v51-functional-setup-eps-and-momentum-swapped", file=FUNC,
         old="cells.Facts(spec.norm, float(eps), float(momentum),",
         new="cells.Facts(spec.norm, float(momentum), float(eps),",
         tests=FUNC_NEW + FUNC_OLD,
         why="the settings record takes momentum for eps and eps for momentum: LayerNorm divides by "
             "sqrt(var + 0.1), and BatchNorm's statistics barely move"),
    dict(name="v51-functional-dh-n-at-second-last-step", file=FUNC,
         old="        if dh_n is not None:  # h_n of a row is y at its last step: its gradient adds into dy there\n"
             "            last = np.full(B, T, np.int64) if lengths is None else lengths",
         new="        if dh_n is not None:  # h_n of a row is y at its last step: its gradient adds into dy there\n"
             "            last = np.full(B, T - 1, np.int64) if lengths is None else lengths",
         tests=FUNC_NEW + FUNC_OLD,
         why="without lengths, dL/dh_n is added at step T-2 instead of T-1"),
    dict(name="v51-functional-gate-clip-nan-accepted", file=FUNC,
         old="    if not clip >= 0.0:",
         new="    if clip < 0.0:",
         tests=FUNC_NEW + FUNC_OLD,
         why="a NaN clip_gates passes the check (NaN < 0 is False) and silently means no clip"),
    dict(name="v51-functional-bn-buffers-of-exactly-T-rows-refused", file=FUNC,
         old="        if Ts < T:\n",
         new="        if Ts <= T:\n",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_forward refuses BatchNorm statistics holding exactly the sequence's T steps"),
    dict(name="v51-functional-reverse-without-lengths-reverses-rows", file=FUNC,
         old="        return np.ascontiguousarray(a[::-1])",
         new="        return np.ascontiguousarray(a[:, ::-1])",
         tests=FUNC_NEW + FUNC_OLD,
         why="reverse_valid without lengths reverses the batch axis instead of time: a bidirectional stack's "
             "backward direction reads another row forwards"),
    dict(name="v51-functional-padded-dy-not-dropped", file=FUNC,
         old="    masked = lengths is not None and not spec.masked_kernel",
         new="    masked = lengths is not None and spec.masked_kernel",
         tests=FUNC_NEW + FUNC_OLD,
         why="the plain and LN cells (kernels without lengths) keep dL/dy at padded steps: a caller's dy there "
             "adds into the gradients through steps past the row's end"),
    dict(name="v51-functional-dc-n-with-a-zero-entry-dropped", file=FUNC,
         old="        dc_n = dc_n if np.any(dc_n) else None",
         new="        dc_n = dc_n if np.all(dc_n) else None",
         tests=FUNC_NEW + FUNC_OLD,
         why="layer_backward drops dL/dc_n unless every entry is non-zero (meant: a dc_n of zeros is no gradient)"),
]
