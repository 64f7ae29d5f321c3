"""Planted bugs, round 257 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the sequence model (lnrnn/model/models.py), its recurrent stacks (lnrnn/model/layers.py) and the
compiled beam search (lnrnn/model/beam.py), twelfth pass: a bidirectional stack's upper layers built H wide
instead of 2H; a three-layer skip stack's top layer reading [x | h_0] instead of [x | h_1]; a bidirectional layer
giving only its forward direction as its output; a skip stack's backward skipping its top layer; chunked
inference running each row's steps counted from the chunk's end (t1) instead of its start; a bidirectional
model's last outputs taking the backward columns at the last step where they are wanted at step 0; every
bidirectional config refused as a synthesis network; a regression head's tolerance dropped for the default 0.04;
the refusal of a text losing its 'not'; the beam width's prefix count keeping only the last level; the beam's heap
sifting to the right child only.

11 mutants. Against the old targeted files alone: 10 of 11 caught; they missed the no-window refusal of a text
losing its 'not'. The new value tests catch every mutant on their own (checked with the old files taken off the
lists): test_values257_layers_stacks (a bidirectional two-layer tanh RNN stack over ragged rows 4, 1, 3, with and
without skip, against lnrnn/reference.py's rnn_forward composed row by row, each backward direction over the row's
own steps reversed; its final states and its input gradient against central differences; parameter names and shapes
counted by hand; a three-layer skip stack and every gradient against central differences), test_values257_models
(inference in chunks of 2 steps over 7 with lengths 7, 1, 5, 4 from a given state against the RNN written out row by
row, and the cross-entropy sum from zero states by hand; a bidirectional model's last outputs over ragged rows; a
regression head's hits at tolerance 0.3 by hand with errors of 0.29, 0.35 and -0.31; two refusals word for word),
test_values257_beam (every labelling some path spells, 9 at T 3, C 3 and 10 at T 2, C 4, with its sum over all C^T
paths; widths 1, 2, 3, the alphabet and one past it against the plain beam written out in test_values198_beam, on
random rows and on uniform steps where labellings tie). Left out as equivalent: _forward_skip's join made for every
layer (k < len(layers)) (the top layer's next input is never read); the plain stack's on_device flags (k < last, k >
0) on the CPU (the host arrays come back either way); _width's `total >= width` made `>` (the answer is min(width,
total) either way); beam_search_array's initial label_lengths and logq (every row writes both); _search_row's `n >=
0` made `n > 0` in the sibling walk (node 0, the root, is never a child); _infer_chunks' clip of `lengths - t0`
without the t0 (a row's output at its last step is the same however far past it the chunk runs, and later outputs
are padding); _chunk_targets without the whole_sequence test (a whole-sequence head meets no chunk: loss_sums joins
the chunks first and truncated BPTT is refused for it). Left out as unsafe to plant: the tree's capacity 1 + steps *
W made one less (compiled without bounds checks: writes past the array); the walk up in prefix_beams along labels
instead of parents (loops forever on a node whose label is its index).

    python tests/mutants/run.py --only 'v257-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"
BEAM = "lnrnn/model/beam.py"

T_STACKS = "tests/model/test_values257_layers_stacks.py::"
T_MODELS = "tests/model/test_values257_models.py::"
T_BEAM = "tests/model/test_values257_beam.py::"
OLD_LAYERS = ["tests/model/test_values242_layers_stacks.py", "tests/model/test_layers_models_bidirectional.py"]
OLD_MODELS = ["tests/model/test_values242_models.py", "tests/model/test_layers_models_bidirectional.py"]
OLD_BEAM = ["tests/model/test_values250_beam.py", "tests/model/test_values198_beam.py"]

BIDI = T_STACKS + "test_a_bidirectional_two_layer_stack_over_ragged_rows_against_the_reference"
BIDI_GRAD = T_STACKS + "test_a_bidirectional_stacks_input_gradient_against_central_differences"
NAMES = T_STACKS + "test_parameter_names_and_shapes_counted_by_hand"
SKIP3 = T_STACKS + "test_a_three_layer_skip_stack_and_all_its_gradients"
CHUNKS = T_MODELS + "test_chunked_inference_carries_each_rows_state_into_the_next_chunk"
BIDI_LAST = T_MODELS + "test_a_bidirectional_models_last_outputs_over_ragged_rows"
TOL = T_MODELS + "test_a_regression_heads_tolerance_is_passed_on_and_counts_its_hits"
NO_TEXT = T_MODELS + "test_a_text_given_to_a_model_without_a_window_is_refused_word_for_word"
NO_BIDI_WINDOW = T_MODELS + "test_a_bidirectional_synthesis_network_is_refused_word_for_word"
EVERY = T_BEAM + "test_a_search_wider_than_every_prefix_lists_every_labelling"
WIDTHS = T_BEAM + "test_widths_one_two_the_alphabet_and_past_it_on_random_rows"
UNIFORM = T_BEAM + "test_uniform_steps_keep_the_plain_beams_tie_broken_list"

MUTANTS = [
    # ---- the recurrent stacks: lnrnn/model/layers.py ----
    dict(name="v257-layers-upper-input-one-direction-wide", file=LAYERS,
         old="        W = self.directions * H\n        return [RecurrentLayer(",
         new="        W = H\n        return [RecurrentLayer(",
         tests=[NAMES, BIDI] + OLD_LAYERS,
         why="a bidirectional stack's layers above the first read H columns instead of [forward | backward], 2H"),
    dict(name="v257-layers-skip-top-reads-layer-below-its-input", file=LAYERS,
         old="            if k + 1 < len(self.layers):\n                inp = join([x, h])",
         new="            if k + 2 < len(self.layers):\n                inp = join([x, h])",
         tests=[SKIP3] + OLD_LAYERS,
         why="a skip stack's top layer reads [x | h_{L-3}] (the input of the layer below) instead of [x | h_{L-2}]"),
    dict(name="v257-layers-bidirectional-output-forward-only", file=LAYERS,
         old="            ys.append(h)\n            states += [sf, sb]",
         new="            ys.append(hf)\n            states += [sf, sb]",
         tests=[BIDI, BIDI_GRAD] + OLD_LAYERS,
         why="a bidirectional layer's output is its forward direction alone, H wide, not [forward | backward]"),
    dict(name="v257-layers-skip-backward-skips-top-layer", file=LAYERS,
         old="        for k in reversed(range(len(self.layers))):\n            if dev:\n                d_in, ds",
         new="        for k in reversed(range(len(self.layers) - 1)):\n            if dev:\n                d_in, ds",
         tests=[SKIP3] + OLD_LAYERS,
         why="a skip stack's backward starts one layer down: the top layer gets no gradient and sends none to x"),
    # ---- the sequence model: lnrnn/model/models.py ----
    dict(name="v257-models-infer-chunk-lengths-from-chunk-end", file=MODELS,
         old="            lc = None if lengths is None else np.clip(lengths - t0, 0, t1 - t0)\n"
             "            y, state, _ = self._run(np.ascontiguousarray(x[t0:t1]), state, False, lc, t0, text)",
         new="            lc = None if lengths is None else np.clip(lengths - t1, 0, t1 - t0)\n"
             "            y, state, _ = self._run(np.ascontiguousarray(x[t0:t1]), state, False, lc, t0, text)",
         tests=[CHUNKS] + OLD_MODELS,
         why="inference chunks run each row's steps counted from the chunk's end: rows lose a chunk of steps"),
    dict(name="v257-models-last-outputs-backward-columns-at-last-step", file=MODELS,
         old="            if self.reverse_columns is not None:  # one chunk (t0 = 0)",
         new="            if self.reverse_columns is None:  # one chunk (t0 = 0)",
         tests=[BIDI_LAST] + OLD_MODELS,
         why="a bidirectional model's last outputs take the backward columns at each row's last step, not step 0"),
    dict(name="v257-models-every-bidirectional-refused-as-synthesis", file=MODELS,
         old='    if cfg.get("window") and cfg.get("bidirectional"):',
         new='    if cfg.get("window") or cfg.get("bidirectional"):',
         tests=[BIDI_LAST, NO_BIDI_WINDOW] + OLD_MODELS,
         why="every bidirectional config (and every synthesis network) is refused as a bidirectional synthesis "
             "network"),
    dict(name="v257-models-regression-tolerance-dropped", file=MODELS,
         old='                "tolerance": float(tolerance)}',
         new='                "tolerance": 0.04}',
         tests=[TOL] + OLD_MODELS,
         why="head_config drops the tolerance asked for: a regression head always counts hits within 0.04"),
    dict(name="v257-models-no-text-refusal-loses-not", file=MODELS,
         old='"this model reads no text (it was not trained with an attention window)"',
         new='"this model reads no text (it was trained with an attention window)"',
         tests=[NO_TEXT] + OLD_MODELS,
         why="the refusal of a text says the model was trained with an attention window, the opposite of the truth"),
    # ---- the beam search: lnrnn/model/beam.py ----
    dict(name="v257-beam-width-counts-last-level-only", file=BEAM,
         old="        total += level\n",
         new="        total = level\n",
         tests=[EVERY] + OLD_BEAM,
         why="the width cap counts only the last level's prefixes: a 'wide' search keeps fewer than exist"),
    dict(name="v257-beam-heap-sifts-to-right-child", file=BEAM,
         old="        k = 2 * i + 1\n",
         new="        k = 2 * i + 2\n",
         tests=[WIDTHS, UNIFORM] + OLD_BEAM,
         why="the candidates' heap sifts the newcomer down past the right child only: the worst is not at the root"),
]
