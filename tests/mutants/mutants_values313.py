"""Planted bugs, round 313 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the layer stacks (lnrnn/model/layers.py), the CTC prefix beam search (lnrnn/model/beam.py) and the
cell registry (lnrnn/model/cells.py), seventeenth pass: a stack drawing its initial parameters from seed 0
whatever its seed; a stack not passing forget_bias, or recurrent_init, on to its layers; a bidirectional stack's
layer width taken as H instead of 2H (output size, the reversed columns and the next layer's input); the stack's
parameter leaves dropping the caller's prefix; a bidirectional backward running the layers bottom up; a plain
stack's final states listed top layer first (the next chunk starts each layer from another's state); NumPy's
log-add-exp rewritten with x >= y for x == y (every unequal sum becomes max + log 2); a step keeping only as
many prefixes as the previous step kept (the beam never widens past 1); an extension that ties the beam's worst
dropped instead of winning by its labels; a row's label length one short; the plain RNN's gradients of Wx and
Wh, and the LN-RNN's of b and g, returned under each other's names; param_shapes' gate width taken as H.

14 mutants. Against the old targeted files alone: not measured yet. The old targeted files: tests/model/
test_layers.py, tests/model/test_layers_models_bidirectional.py, tests/model/test_beam.py,
tests/model/test_values276_beam.py, tests/model/test_values282_cells.py. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values313_layers (a two-layer bidirectional stack
over rows of lengths 0, 1, 4 and 3 in one batch composed by hand from reference.rnn_forward, the backward direction
reading each row's active steps reversed; its dx against central finite differences of that composition; a two-layer
LN-LSTM stack run in chunks of 2 and 3 steps from carried states against reference.lstm_forward layer by layer;
l0.Wx against the Glorot-uniform draw of default_rng(seed) made in the test; forget_bias 2.5 and identity Wh in
every layer and direction; widths, reversed columns, leaf names and the parameter count written out),
test_values313_beam (the kept prefixes and the best label of widths 1 and 2 against an exact brute force over every
path in Fractions, at an alphabet of 2 labels, rows of lengths 0, 1, 2 and 4 in one batch, and a tie at the cut, (2,
1) against (1, 2) at 0.18 each, where the extension offered last has the first labels), test_values313_cells (the
RNN's and LN-RNN's gradients at I = H against reference.rnn_backward, under their own names; every cell's parameter
shapes and names written out). Left out as equivalent: the plain stack's 'last = len(self.layers) - 1' and its
backward's 'on_device or k > 0' (on the CPU a layer's on_device changes nothing); the heap's sift-down 'heap[0, k]
>= s' made '>' (an equal child moved up leaves a valid heap, and ties are broken by labels, not by place); the class
ordering 'topv[i - 1] < v' made '<=' (the order of equal classes changes only the order of offers, and the heap
breaks ties at its cut by labels); _width's 'total >= width' made '>' (the min that follows gives the same width);
the LSTM adapter's 'ln = f.norm == "ln"' made '!= "none"' (the BN rows have their own adapter). Left out as a crash
or a flaky read rather than a value: the trie's 'N = 1 + steps * W' made 'steps * W' and the class insertion's
'min(nk, K - 1)' made 'min(nk, K)' (writes one past an array, unchecked in compiled code). Left out as not caught
cheaply: the tie search 'for k in range(1, W)' at the cut made 'range(1, W - 1)' (at width 2 it needs two tied
entries with the later labels in the root's child and a third candidate tying them; no small case found in the time
of this round).

    python tests/mutants/run.py --only 'v313-*'
"""
LAYERS = "lnrnn/model/layers.py"
BEAM = "lnrnn/model/beam.py"
CELLS = "lnrnn/model/cells.py"

T_LAYERS = "tests/model/test_values313_layers.py::"
T_BEAM = "tests/model/test_values313_beam.py::"
T_CELLS = "tests/model/test_values313_cells.py::"
OLD_LAYERS = ["tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py"]
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values276_beam.py"]
OLD_CELLS = ["tests/model/test_values282_cells.py"]

MUTANTS = [
    # ---- the layer stacks: lnrnn/model/layers.py ----
    dict(name="v313-layers-stack-seed-ignored", file=LAYERS,
         old="        rng = np.random.default_rng(seed)\n        self.skip = bool(skip)",
         new="        rng = np.random.default_rng(0)\n        self.skip = bool(skip)",
         tests=[T_LAYERS + "test_stack_seed_draws_the_first_layers_weights_from_its_generator"] + OLD_LAYERS,
         why="a stack draws its initial parameters from seed 0 whatever seed it is given"),
    dict(name="v313-layers-forget-bias-not-passed", file=LAYERS,
         old="            dtype=dtype, forget_bias=forget_bias, max_steps=max_steps, eps=eps, momentum=momentum, device=device,",
         new="            dtype=dtype, forget_bias=1.0, max_steps=max_steps, eps=eps, momentum=momentum, device=device,",
         tests=[T_LAYERS + "test_forget_bias_and_identity_init_reach_every_layer_and_direction"] + OLD_LAYERS,
         why="a stack's LSTM layers start their forget gates at 1.0 whatever forget_bias says"),
    dict(name="v313-layers-recurrent-init-not-passed", file=LAYERS,
         old="            recurrent_init=recurrent_init, clip_gates=clip_gates))",
         new='            recurrent_init="orthogonal", clip_gates=clip_gates))',
         tests=[T_LAYERS + "test_forget_bias_and_identity_init_reach_every_layer_and_direction"] + OLD_LAYERS,
         why="a stack asked for identity recurrent weights gets orthogonal ones"),
    dict(name="v313-layers-bidirectional-width-one-direction", file=LAYERS,
         old="        W = D * H                                                   # one layer's output width",
         new="        W = H                                                       # one layer's output width",
         tests=[T_LAYERS + "test_bidirectional_widths_names_and_reversed_columns_by_hand",
                T_LAYERS + "test_bidirectional_two_layers_over_lengths_0_1_and_T_by_hand"] + OLD_LAYERS,
         why="a bidirectional stack's output size, reversed columns and upper layers' inputs count H, not 2H"),
    dict(name="v313-layers-leaves-drop-prefix", file=LAYERS,
         old="        return [(prefix + self._name(j), layer.params) for j, layer in enumerate(self.layers)]",
         new="        return [(self._name(j), layer.params) for j, layer in enumerate(self.layers)]",
         tests=[T_LAYERS + "test_bidirectional_widths_names_and_reversed_columns_by_hand"] + OLD_LAYERS,
         why="the stack's parameter leaves drop the caller's prefix (a model's 'enc.' names lose it)"),
    dict(name="v313-layers-bidirectional-backward-bottom-up", file=LAYERS,
         old="        for k in reversed(range(L)):\n            if self.skip:",
         new="        for k in range(L):\n            if self.skip:",
         tests=[T_LAYERS + "test_bidirectional_two_layers_gradient_against_finite_differences"] + OLD_LAYERS,
         why="a bidirectional stack's backward runs its layers bottom up, before the gradient from above exists"),
    dict(name="v313-layers-plain-states-top-first", file=LAYERS,
         old="            states.append(s)\n        if self.device == \"cuda\" and not on_device:",
         new="            states.insert(0, s)\n        if self.device == \"cuda\" and not on_device:",
         tests=[T_LAYERS + "test_plain_stack_chunks_from_carried_states_equal_the_spec_layer_by_layer"] + OLD_LAYERS,
         why="a plain stack lists its final states top layer first: the next chunk starts each layer from "
             "another layer's state"),
    # ---- the prefix beam search: lnrnn/model/beam.py ----
    dict(name="v313-beam-logaddexp-ge", file=BEAM,
         old="    if x == y:\n        return x + LOG2",
         new="    if x >= y:\n        return x + LOG2",
         tests=[T_BEAM + "test_kept_prefixes_equal_the_brute_force_at_widths_1_and_2",
                T_BEAM + "test_batch_rows_of_lengths_0_1_and_T_by_brute_force"] + OLD_BEAM,
         why="log(exp(x) + exp(y)) is x + log 2 whenever x > y too: merged prefix probabilities come out wrong"),
    dict(name="v313-beam-keeps-only-previous-count", file=BEAM,
         old="        for k in range(W):                                # the heap's entries, most probable first (the",
         new="        for k in range(nb):                               # the heap's entries, most probable first (the",
         tests=[T_BEAM + "test_kept_prefixes_equal_the_brute_force_at_widths_1_and_2",
                T_BEAM + "test_batch_rows_of_lengths_0_1_and_T_by_brute_force"] + OLD_BEAM,
         why="a step keeps only as many heap places as the previous step kept: the beam never widens past 1"),
    dict(name="v313-beam-tie-at-cut-dropped", file=BEAM,
         old="                if e < worst or e == NINF:",
         new="                if e <= worst or e == NINF:",
         tests=[T_BEAM + "test_a_tie_at_the_cut_goes_to_the_first_labels_even_offered_last"] + OLD_BEAM,
         why="an extension tying the beam's worst is dropped, even where its labels come first"),
    dict(name="v313-beam-label-length-one-short", file=BEAM,
         old="        label_lengths[b], logq[b] = d, tots[k]",
         new="        label_lengths[b], logq[b] = d - 1, tots[k]",
         tests=[T_BEAM + "test_batch_rows_of_lengths_0_1_and_T_by_brute_force"] + OLD_BEAM,
         why="each row's label length is one short of the labels written"),
    # ---- the cell registry: lnrnn/model/cells.py ----
    dict(name="v313-cells-rnn-grads-wx-wh-swapped", file=CELLS,
         old='    Cell("rnn", "rnn", "none", 1, 1, (), (), _rnn_forward, _rnn_backward, ("Wx", "Wh", "b"),',
         new='    Cell("rnn", "rnn", "none", 1, 1, (), (), _rnn_forward, _rnn_backward, ("Wh", "Wx", "b"),',
         tests=[T_CELLS + "test_rnn_gradients_land_under_their_own_names[none]"] + OLD_CELLS,
         why="the plain RNN's gradients of Wx and Wh land under each other's names (silent where I = H)"),
    dict(name="v313-cells-ln-rnn-grads-b-g-swapped", file=CELLS,
         old='         ("Wx", "Wh", "b", "g"), activations=(3, 1),',
         new='         ("Wx", "Wh", "g", "b"), activations=(3, 1),',
         tests=[T_CELLS + "test_rnn_gradients_land_under_their_own_names[ln]"] + OLD_CELLS,
         why="the LN-RNN's gradients of the LayerNorm bias b and gain g land under each other's names"),
    dict(name="v313-cells-param-shapes-gate-width-h", file=CELLS,
         old="        G = self.blocks * H\n        return [",
         new="        G = H\n        return [",
         tests=[T_CELLS + "test_parameter_shapes_of_every_cell_by_hand"] + OLD_CELLS,
         why="param_shapes gives the LSTM's Wx, Wh and b the width H instead of 4H"),
]
