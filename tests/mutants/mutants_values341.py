"""Planted bugs, round 341 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the layer stacks (lnrnn/model/layers.py) and the models (lnrnn/model/models.py), eighteenth pass: a
stack taking its input size for its hidden size and the other way round; a bidirectional stack's layers built
direction by direction ([l0, l1, l0 backward, l1 backward]) instead of layer by layer; a plain stack's backward
running the layers bottom up; Graves's skip stack listing its final states top layer first (the next chunk starts
each layer from another's state), and its initial-state gradients in the same reversed order; a bidirectional
stack checking x against the hidden size instead of the input size; a bidirectional backward splitting dL/dy at
2I columns instead of 2H; the two directions' input gradients subtracted instead of added; a model's config
dropping forget_bias (a model cannot be rebuilt from it); the model's parameter names losing the dot after
'rnn'; load_arrays walking the buffers instead of the parameters (another model's arrays load nothing, and a
wrong shape passes); upgrade_config returning the caller's 0.1 keys beside the head (build_model then refuses
them); inference chunks sized by the batch instead of the steps; per-step targets not sliced to a truncated-BPTT
chunk.

14 mutants. Against the old targeted files alone: 11 of 14 (missed: a skip stack's final states listed top layer
first, its dstate0 reversed, a per-step head's targets not cut to a truncated-BPTT chunk). The old targeted files:
tests/model/ test_layers.py, tests/model/test_layers_models_bidirectional.py, tests/model/test_models.py,
tests/model/test_values315_models.py. The new value tests catch every mutant on their own (checked with the old
files taken off the lists): test_values341_layers_stacks (bidirectional plain-RNN stacks of 1, 2 and 3 layers over
rows of lengths 0, 1, 4 and 3 in one batch composed from reference.rnn_forward, each backward direction reading its
row's active steps reversed, final states in the stack's order, parameter names, shapes and counts written out;
every gradient of a two-layer bidirectional stack, dx and all 96 parameters, against central differences of that
composition in float64; a plain three-layer LN-RNN stack's output, dx and parameter gradients the same way; a
two-layer LN-LSTM skip stack run in chunks of 2 and 3 steps from carried states against one pass of
reference.lstm_forward over [x | h_0]; the skip stack's dx and each layer's dstate0 against central differences from
given initial states), test_values341_models (a model's config, parameter and gradient names and count by hand and a
rebuild from its config; another seed's arrays loaded parameter for parameter and other models' refused word for
word, nothing changed; a 0.1 config upgraded to the form written out with the caller's dict untouched; last_outputs
and loss_sums of a two-layer LN-RNN model over rows of lengths 5, 0 and 2, in inference chunks of 2 steps and in
one, against the spec and log-softmax written out; a per-step classifier in truncated-BPTT chunks of 2 steps scoring
the mean cross-entropy over its 7 scored steps). Left out as equivalent: step's 'return y[0], states' made 'y[-1]'
(a step is one step long); the plain stack's 'on_device or k > 0' (on the CPU a layer's on_device changes nothing);
loss_sums' 'if self.head.steps == "last"' made '== "all"' for a plain stack (the per-chunk path with _select scores
each row at its last step in the chunk that holds it: the same sums); num_params counting the gradient buffer
instead of the parameter buffer (the two have one layout). Dropout has no line in these modules (the PyTorch
binding's option), so no mutant covers it here.

    python tests/mutants/run.py --only 'v341-*'
"""
LAYERS = "lnrnn/model/layers.py"
MODELS = "lnrnn/model/models.py"

T_STACKS = "tests/model/test_values341_layers_stacks.py::"
T_MODELS = "tests/model/test_values341_models.py::"
OLD_LAYERS = ["tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py"]
OLD_MODELS = ["tests/model/test_models.py", "tests/model/test_values315_models.py"]

BI = T_STACKS + "test_bidirectional_stacks_of_1_2_3_layers_against_the_spec"
BI_GRAD = T_STACKS + "test_two_layer_bidirectional_every_gradient_against_central_differences"
PLAIN3 = T_STACKS + "test_plain_three_layer_ln_rnn_gradients_against_central_differences"
SKIP_CHUNKS = T_STACKS + "test_skip_stack_chunks_from_carried_states_equal_one_pass_of_the_spec"
SKIP_DSTATE = T_STACKS + "test_skip_stack_initial_state_gradients_layer_by_layer"
CONFIG = T_MODELS + "test_config_and_names_by_hand_and_a_rebuild_from_the_config"
LOAD = T_MODELS + "test_the_arrays_of_another_seed_load_and_other_models_are_refused_word_for_word"
UPGRADE = T_MODELS + "test_a_0_1_config_upgraded_and_the_callers_dict_untouched"
LAST = T_MODELS + "test_last_outputs_in_chunks_and_in_one_call_against_the_spec"
TBPTT = T_MODELS + "test_per_step_classifier_in_truncated_bptt_chunks_scores_the_mean_over_scored_steps"

MUTANTS = [
    # ---- the layer stacks: lnrnn/model/layers.py ----
    dict(name="v341-layers-stack-sizes-swapped", file=LAYERS,
         old="        I, H = int(input_size), int(hidden_size)\n        W = D * H",
         new="        I, H = int(hidden_size), int(input_size)\n        W = D * H",
         tests=[BI + "[1]", PLAIN3] + OLD_LAYERS,
         why="a stack builds its layers with the input size as the hidden size and the other way round"),
    dict(name="v341-layers-bidirectional-layers-direction-major", file=LAYERS,
         old="                for k in range(num_layers) for _ in range(self.directions)]",
         new="                for _ in range(self.directions) for k in range(num_layers)]",
         tests=[BI + "[2]", BI + "[3]", BI_GRAD] + OLD_LAYERS,
         why="a bidirectional stack's layers come direction by direction: l0's backward direction gets l1's input width"),
    dict(name="v341-layers-plain-backward-bottom-up", file=LAYERS,
         old="        for k, layer in reversed(list(enumerate(self.layers))):",
         new="        for k, layer in enumerate(self.layers):",
         tests=[PLAIN3] + OLD_LAYERS,
         why="a plain stack's backward starts at the bottom layer with the top layer's dL/dy"),
    dict(name="v341-layers-skip-states-top-first", file=LAYERS,
         old="            ys.append(h)\n            states.append(s)",
         new="            ys.append(h)\n            states.insert(0, s)",
         tests=[SKIP_CHUNKS] + OLD_LAYERS,
         why="a skip stack lists its final states top layer first: the next chunk starts each layer from another's"),
    dict(name="v341-layers-skip-dstate-reversed", file=LAYERS,
         old="            d_in, ds = self.layers[k].backward(dyk)\n            dstate.append(ds)",
         new="            d_in, ds = self.layers[k].backward(dyk)\n            dstate.insert(0, ds)",
         tests=[SKIP_DSTATE] + OLD_LAYERS,
         why="a skip stack's dstate0 lists the layers' initial-state gradients top layer first"),
    dict(name="v341-layers-bidirectional-x-checked-against-h", file=LAYERS,
         old="        x = _check_array(\"x\", x, 3, self.layers[0].dtype, (None, None, self.layers[0].I), device_ok=dev)\n"
             "        lengths = check_lengths(lengths, x.shape[0], x.shape[1])",
         new="        x = _check_array(\"x\", x, 3, self.layers[0].dtype, (None, None, self.layers[0].H), device_ok=dev)\n"
             "        lengths = check_lengths(lengths, x.shape[0], x.shape[1])",
         tests=[BI + "[1]", BI + "[2]", BI + "[3]"] + OLD_LAYERS,
         why="a bidirectional stack refuses x of its input width and asks for the hidden width"),
    dict(name="v341-layers-bidirectional-backward-width-from-input", file=LAYERS,
         old="        W, L = 2 * H, len(self.layers) // 2",
         new="        W, L = 2 * I, len(self.layers) // 2",
         tests=[BI_GRAD] + OLD_LAYERS,
         why="a bidirectional backward splits dL/dy at 2I columns instead of 2H"),
    dict(name="v341-layers-add-subtracts", file=LAYERS,
         old="    return a + b",
         new="    return a - b",
         tests=[BI_GRAD] + OLD_LAYERS,
         why="a bidirectional layer's input gradient is the forward direction's minus the backward one's"),
    # ---- the models: lnrnn/model/models.py ----
    dict(name="v341-models-config-drops-forget-bias", file=MODELS,
         old='STACK_KEYS = ("cell", "norm", "input_size", "hidden_size", "num_layers", "dtype", "forget_bias")',
         new='STACK_KEYS = ("cell", "norm", "input_size", "hidden_size", "num_layers", "dtype")',
         tests=[CONFIG] + OLD_MODELS,
         why="a model's config leaves out forget_bias: a checkpoint's model cannot be rebuilt from it"),
    dict(name="v341-models-params-prefix-no-dot", file=MODELS,
         old='        return {**{"rnn." + k: v for k, v in self.stack.params.items()},',
         new='        return {**{"rnn" + k: v for k, v in self.stack.params.items()},',
         tests=[CONFIG] + OLD_MODELS,
         why="a model's parameter names read 'rnnl0.Wx' instead of 'rnn.l0.Wx'"),
    dict(name="v341-models-load-arrays-walks-buffers", file=MODELS,
         old="        for k, p in own_p.items():",
         new="        for k, p in own_b.items():",
         tests=[LOAD] + OLD_MODELS,
         why="load_arrays copies no parameter (and lets a wrong shape pass): a checkpoint loads nothing"),
    dict(name="v341-models-upgrade-keeps-old-keys", file=MODELS,
         old='    return {**cfg, "head": head}',
         new='    return {**config, "head": head}',
         tests=[UPGRADE] + OLD_MODELS,
         why="an upgraded 0.1 config keeps num_classes, objective and per_step beside the head (build_model refuses it)"),
    dict(name="v341-models-infer-chunks-batch-as-steps", file=MODELS,
         old="        T = x.shape[0]\n        # a bidirectional",
         new="        T = x.shape[1]\n        # a bidirectional",
         tests=[LAST + "[6]", LAST + "[8192]"] + OLD_MODELS,
         why="inference chunks run over B steps instead of T: rows longer than the batch lose their last steps"),
    dict(name="v341-models-per-step-targets-unsliced", file=MODELS,
         old='    if head.steps == "all" and not getattr(head, "whole_sequence", False):',
         new='    if head.steps == "all" and getattr(head, "whole_sequence", False):',
         tests=[TBPTT] + OLD_MODELS,
         why="a per-step head's targets are not cut to a truncated-BPTT chunk's steps"),
]
