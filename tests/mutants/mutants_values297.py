"""Planted bugs, round 297 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the model layer, fifteenth pass (lnrnn/model/models.py, layers.py, cells.py): a layer's refusal of
a state tuple naming the count given as the count wanted; a size of None escaping the refusal as a bare
TypeError; a bidirectional stack of 2 or 3 layers running only its bottom layer (the layer count taken for the
list of directions); a skip stack's backward with I and H swapped; the gradient of a bidirectional last-step
head's backward columns placed at each row's last step instead of step 0; build_model accepting one unknown
setting (refusing only two or more); SequenceClassifier's LSTM forget block starting at 0; SequenceClassifier's
first layer built with hidden_size inputs; build_model dropping num_layers; batches_of cutting 512 sequences by
default; evaluate adding up only the metrics' sums (an MDN's nats per sequence divided by 1, not by the
sequences); cells.lookup checking a kind against the cell names (a combined name ends in a KeyError); a state's
refusal naming 'h' and 'c' instead of h0 and c0.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values297_layers_stacks (refusals word for word: a state
tuple of 1 for an LSTM and of 2 for an RNN with the plural written out, a state array of the wrong shape naming h0
or c0, sizes of None, lookup given 'ln-lstm', 'bn-rnn' or 'gru' as a kind; a two-layer skip stack with I 2 != H 3
against the reference composed by test_values257_layers_stacks' skip_by_hand, its input and parameter gradients
against central differences; the bidirectional stack of two layers by test_values295_layers_stacks' over lengths 5,
2, 4), test_values297_models (a bidirectional last-step classifier over lengths 4, 1, 3: its loss against
log-softmax cross-entropy of [forward at the last step | backward at step 0] composed in NumPy, every gradient
against central differences of that composition in float64; an MDN model evaluated over two batches against
reference.mdn_nll, per point (14) and per sequence (5); parameter names, shapes and counts of stacks of 2 and 3
layers with I != H written out by hand; the forget block at 1; refusals of one and two unknown settings word for
word; batches_of over 1001 sequences: 500, 500, 1). Left out as equivalent: the plain stack's ``last =
len(self.layers) - 1`` and its backward's ``on_device or k > 0`` (on the CPU a layer's output is a host array either
way); the bidirectional forward's ``range(0, len(self.layers) - 1, 2)`` (the same layers); _select's last-step
branch taken for per-step rows in loss_sums (the chunk loop scores the same rows); CTCHead.log_probs' zero label
lengths made one (the log-softmax it returns does not read the labels); the classifier's ``np.where(mask, lab, 0)``
padding made -1 (masked rows add nothing either way). Left out as needing a GPU: every line of
loss_and_grad_on_device, the device fast path and the device buffers.

    python tests/mutants/run.py --only 'v297-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"
CELLS = "lnrnn/model/cells.py"

T_STACKS = "tests/model/test_values297_layers_stacks.py::"
T_MODELS = "tests/model/test_values297_models.py::"
OLD = ["tests/model/test_models.py", "tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py",
       "tests/model/test_values295_layers_stacks.py", "tests/model/test_values282_cells.py"]

MUTANTS = [
    # ---- lnrnn/model/layers.py ----
    dict(name="v297-layers-state-count-names-the-given", file=LAYERS,
         old="""raise ValueError(f"a {self.cell} layer's state is a tuple of {self.nstate} \"""",
         new="""raise ValueError(f"a {self.cell} layer's state is a tuple of {len(state)} \"""",
         tests=[T_STACKS + "test_a_state_of_the_wrong_count_is_refused_word_for_word"] + OLD,
         why="a state tuple of the wrong count is refused as a tuple of as many arrays as were given"),
    dict(name="v297-layers-size-none-not-refused", file=LAYERS,
         old="""        except (TypeError, ValueError, OverflowError):
            ok = False""",
         new="""        except (TypeError, ValueError, OverflowError):
            ok = True""",
         tests=[T_STACKS + "test_a_size_of_none_is_refused_by_name"] + OLD,
         why="a size of None passes the check and fails later in int() with a bare TypeError, not the sentence"),
    dict(name="v297-layers-bidirectional-runs-half-the-layers", file=LAYERS,
         old="        for j in range(0, len(self.layers), 2):",
         new="        for j in range(0, len(self.layers) // 2, 2):",
         tests=["tests/model/test_values295_layers_stacks.py::test_a_bidirectional_stack_over_more_steps_than_rows"]
         + OLD,
         why="a bidirectional stack of 2 or 3 layers runs only its first (lower) layers: y is a lower layer's"),
    dict(name="v297-layers-skip-backward-i-h-swapped", file=LAYERS,
         old="        H, I = self.layers[0].H, self.layers[0].I",
         new="        I, H = self.layers[0].H, self.layers[0].I",
         tests=[T_STACKS + "test_a_two_layer_skip_stack_with_i_unlike_h_and_its_gradients"] + OLD,
         why="a skip stack's backward splits dy and dx with I and H swapped (wrong where I != H)"),
    # ---- lnrnn/model/cells.py ----
    dict(name="v297-cells-lookup-kind-against-names", file=CELLS,
         old="    if cell not in KINDS:",
         new="    if cell not in CELLS:",
         tests=[T_STACKS + "test_lookup_takes_a_kind_not_a_cell_name"] + OLD,
         why="a combined cell name given as a kind ('ln-lstm') ends in a KeyError, not the refusal naming the kinds"),
    dict(name="v297-cells-state-names-without-zero", file=CELLS,
         old='        return ("h0", "c0")[:self.nstate]',
         new='        return ("h", "c")[:self.nstate]',
         tests=[T_STACKS + "test_a_state_array_of_the_wrong_shape_is_named"] + OLD,
         why="a state array of the wrong shape is refused as 'h' or 'c', not the argument names h0 and c0"),
    # ---- lnrnn/model/models.py ----
    dict(name="v297-models-scatter-bidirectional-test-inverted", file=MODELS,
         old="        if self.reverse_columns is not None:  # forward columns at the last step, backward ones at step 0",
         new="        if self.reverse_columns is None:  # forward columns at the last step, backward ones at step 0",
         tests=[T_MODELS + "test_a_bidirectional_last_step_classifier_and_its_gradients_over_ragged_rows"] + OLD,
         why="a bidirectional last-step head's gradient for the backward columns lands on each row's last step, "
             "not on step 0 where they were read"),
    dict(name="v297-models-one-unknown-setting-accepted", file=MODELS,
         old="    if unknown:",
         new="    if len(unknown) > 1:",
         tests=[T_MODELS + "test_build_model_refuses_unknown_settings_word_for_word"] + OLD,
         why="a config with one unknown setting builds a model; only two or more are refused"),
    dict(name="v297-models-classifier-forget-bias-zero", file=MODELS,
         old='objective="ce", per_step=False, tolerance=0.04, dtype="float32", forget_bias=1.0, seed=0,',
         new='objective="ce", per_step=False, tolerance=0.04, dtype="float32", forget_bias=0.0, seed=0,',
         tests=[T_MODELS + "test_sequence_classifiers_forget_block_starts_at_one_by_default"] + OLD,
         why="SequenceClassifier's LSTM forget block starts at 0 by default"),
    dict(name="v297-models-classifier-input-size-from-hidden", file=MODELS,
         old="return build_model(dict(cell=cell, norm=norm, input_size=input_size, hidden_size=hidden_size,",
         new="return build_model(dict(cell=cell, norm=norm, input_size=hidden_size, hidden_size=hidden_size,",
         tests=[T_MODELS + "test_sequence_classifier_names_shapes_and_count_of_a_two_layer_lstm"] + OLD,
         why="SequenceClassifier builds its first layer for hidden_size inputs (wrong where I != H)"),
    dict(name="v297-models-build-drops-num-layers", file=MODELS,
         old='    stack = RecurrentStack(cfg["cell"], cfg["norm"], cfg["input_size"], cfg["hidden_size"], cfg["num_layers"],',
         new='    stack = RecurrentStack(cfg["cell"], cfg["norm"], cfg["input_size"], cfg["hidden_size"],',
         tests=[T_MODELS + "test_build_model_names_and_shapes_of_every_layer"] + OLD,
         why="build_model ignores num_layers: every model has one layer"),
    dict(name="v297-models-batches-of-512", file=MODELS,
         old="def batches_of(x, targets, lengths=None, batch_size=500):",
         new="def batches_of(x, targets, lengths=None, batch_size=512):",
         tests=[T_MODELS + "test_batches_of_cuts_500_sequences_by_default"] + OLD,
         why="batches_of cuts 512 sequences a batch by default, not 500"),
    dict(name="v297-models-evaluate-sums-metrics-only", file=MODELS,
         old="        tot, count = dict.fromkeys(self.head.sum_keys, 0.0), 0",
         new="        tot, count = dict.fromkeys(self.head.metrics, 0.0), 0",
         tests=[T_MODELS + "test_an_mdn_models_evaluation_per_point_and_per_sequence"] + OLD,
         why="evaluate drops the sums that are not metrics ('seqs'): an MDN's nats per sequence is the total"),
]
