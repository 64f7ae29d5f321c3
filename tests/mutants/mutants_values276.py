"""Planted bugs, round 276 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the model layer, thirteenth pass (lnrnn/model/flat.py, layers.py, models.py, heads.py, beam.py):
repack's offsets advanced by each array's first dimension instead of its size; join's shape refusal naming the
layout's shape as the one given; repack leaving the dicts holding copies, not views of the buffer; a stack's
gradient leaves taking the layers' parameters (zeroing the gradients zeroes the weights); a size given as a
string refused without its quotes; a bidirectional stack's config saving its flag only with skip; inference
chunks stopping one step short of T; head_config's regression head always of one output; upgrade_config's
state_noise defaulting to 0.1; the head's parameters named rnn.*; a CTC head's evaluation ignoring the rows'
lengths; the beam search's best labelling one label short; the CTC head's per_step refusal naming the wrong
value.

13 mutants. Against the old targeted files alone: not measured yet. (Old files: test_values257_models,
test_values257_layers_stacks, test_values231_models, test_values216_flat, test_values250_beam, test_values256_heads.)
The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values276_models (a three-layer last-step classifier over whole and ragged rows against
lnrnn/reference.py's rnn_forward composed layer by layer and its cross-entropy written out; a two-layer
bidirectional regression model's every gradient against central differences of the mean squared error over
ragged rows; a CTC head over ragged rows against reference.ctc_forward at each row's own steps; the parameter
names and both flat buffers' layouts of a two-layer bidirectional model counted by hand (offsets 0..117), the
named arrays views of the buffers, zero_grad leaving the parameters; head_config's mse head and
upgrade_config's output written out), test_values276_flat (repack of 2-D arrays: offsets and values, views
both ways, join's refusal word for word), test_values276_refusals (a string size refused as '3', the CTC
per_step refusal, a bidirectional stack's config written out and rebuilt), test_values276_beam (a beam of
every prefix against brute force over the 27 paths of 3 steps over a blank and 2 labels, rows of lengths 3, 2,
1 and 0, best labellings of 0, 1 and 2 labels).

Left out as equivalent: _width's `total >= width` made `>` (min(width, total) is width either way); _search_rows's
logq taken from tots[0] instead of tots[best] (the kept prefixes come most probable first, so tots[0] is the
best's log p); the CTC log_probs' label lengths of 0 made 1 (the labels are all -1 and log_probs reads only the
log-softmax); the classifier's safe labels of masked units -1 instead of 0 (their rows are multiplied by the mask
of 0 in the loss and the backward); RecurrentStack.forward's `last = len(layers) - 1` made len(layers) (on the
CPU on_device changes nothing); head arrays cast to the head's dtype (every test model here is float64 and its
head float64). Left out as device-only (no cheap CPU test): the lines of loss_and_grad_on_device, device_buffers,
_stats_on_device and the heads' _device_objective / _device_loss.

    python tests/mutants/run.py --only 'v276-*'
"""
FLAT = "lnrnn/model/flat.py"
LAYERS = "lnrnn/model/layers.py"
MODELS = "lnrnn/model/models.py"
HEADS = "lnrnn/model/heads.py"
BEAM = "lnrnn/model/beam.py"

T_MODELS = "tests/model/test_values276_models.py::"
T_FLAT = "tests/model/test_values276_flat.py::"
T_REF = "tests/model/test_values276_refusals.py::"
T_BEAM = "tests/model/test_values276_beam.py::"
OLD_MODELS = ["tests/model/test_values257_models.py", "tests/model/test_values231_models.py"]
OLD_STACKS = ["tests/model/test_values257_layers_stacks.py"]
OLD_FLAT = ["tests/model/test_values216_flat.py"]
OLD_BEAM = ["tests/model/test_values250_beam.py"]
OLD_HEADS = ["tests/model/test_values256_heads.py"]

LAYOUT = T_MODELS + "test_names_and_flat_layout_of_a_two_layer_bidirectional_model"

MUTANTS = [
    # ---- one buffer for many arrays: lnrnn/model/flat.py ----
    dict(name="v276-flat-offset-advances-by-first-dimension", file=FLAT,
         old="            off += a.size",
         new="            off += len(a)",
         tests=[LAYOUT, T_FLAT + "test_repack_offsets_are_sums_of_sizes_and_join_refuses_a_shape_word_for_word"]
         + OLD_FLAT,
         why="repack advances the offset by each array's first dimension: 2-D arrays overlap in the buffer"),
    dict(name="v276-flat-join-refusal-shapes-swapped", file=FLAT,
         old='raise ValueError(f"{name}: shape {a.shape} vs {v.shape}")',
         new='raise ValueError(f"{name}: shape {v.shape} vs {a.shape}")',
         tests=[T_FLAT + "test_repack_offsets_are_sums_of_sizes_and_join_refuses_a_shape_word_for_word"] + OLD_FLAT,
         why="join's refusal names the layout's shape as the one given and the given one as the layout's"),
    dict(name="v276-flat-dicts-hold-copies", file=FLAT,
         old="            d[name] = v\n    return flat",
         new="            d[name] = v.copy()\n    return flat",
         tests=[LAYOUT, T_FLAT + "test_repack_offsets_are_sums_of_sizes_and_join_refuses_a_shape_word_for_word"]
         + OLD_FLAT,
         why="the named arrays are copies: an optimizer step on the buffer never reaches the parameters"),
    # ---- stacks: lnrnn/model/layers.py ----
    dict(name="v276-layers-grad-leaves-are-params", file=LAYERS,
         old="        return [(prefix + self._name(j), layer.grads) for j, layer in enumerate(self.layers)]",
         new="        return [(prefix + self._name(j), layer.params) for j, layer in enumerate(self.layers)]",
         tests=[LAYOUT] + OLD_STACKS + OLD_MODELS,
         why="the stack's gradient buffer packs the layers' parameters: zero_grad zeroes the weights"),
    dict(name="v276-layers-size-refusal-without-repr", file=LAYERS,
         old='raise ValueError(f"{what}: {name} must be a positive integer, not {v!r}.")',
         new='raise ValueError(f"{what}: {name} must be a positive integer, not {v}.")',
         tests=[T_REF + "test_a_size_given_as_a_string_is_refused_with_its_quotes"] + OLD_STACKS,
         why="a size given as the string '3' is refused as 'not 3.', which reads as a valid size"),
    dict(name="v276-layers-bidirectional-flag-saved-with-skip", file=LAYERS,
         old='        if self.bidirectional:\n            self.config["bidirectional"] = True',
         new='        if self.skip:\n            self.config["bidirectional"] = True',
         tests=[T_REF + "test_a_bidirectional_stacks_config_and_its_rebuild"] + OLD_STACKS + OLD_MODELS,
         why="a bidirectional stack's config lacks the flag: a checkpoint rebuilds a one-direction model"),
    # ---- the sequence model: lnrnn/model/models.py ----
    dict(name="v276-models-infer-chunk-stops-short", file=MODELS,
         old="        for t0 in range(0, max(T, 1), chunk):  # T = 0 reaches the layer, which says what is wrong\n"
             "            t1 = min(t0 + chunk, T)",
         new="        for t0 in range(0, max(T, 1), chunk):  # T = 0 reaches the layer, which says what is wrong\n"
             "            t1 = min(t0 + chunk, T - 1)",
         tests=[T_MODELS + "test_a_three_layer_last_step_classifier_over_whole_and_ragged_rows"] + OLD_MODELS,
         why="inference chunks stop one step before T: rows running all T steps get zero last outputs"),
    dict(name="v276-models-mse-head-one-output", file=MODELS,
         old='        return {"kind": "regression", "outputs": int(num_classes), "per_step": bool(per_step),',
         new='        return {"kind": "regression", "outputs": 1, "per_step": bool(per_step),',
         tests=[T_MODELS + "test_head_config_of_mse_and_upgrade_config_defaults_written_out"] + OLD_MODELS,
         why="head_config's regression head always has one output whatever num_classes asks"),
    dict(name="v276-models-state-noise-default", file=MODELS,
         old='    cfg.setdefault("state_noise", 0.0)',
         new='    cfg.setdefault("state_noise", 0.1)',
         tests=[T_MODELS + "test_head_config_of_mse_and_upgrade_config_defaults_written_out"] + OLD_MODELS,
         why="an old config without state_noise is rebuilt with noise on its initial states"),
    dict(name="v276-models-head-params-named-rnn", file=MODELS,
         old='**{"head." + k: v for k, v in self.head.params.items()}}',
         new='**{"rnn." + k: v for k, v in self.head.params.items()}}',
         tests=[LAYOUT] + OLD_MODELS,
         why="the head's parameters are named rnn.W, rnn.b: checkpoints and load_arrays mismatch the grads"),
    dict(name="v276-models-whole-sequence-eval-ignores-lengths", file=MODELS,
         old="            h, valid, _ = self._select(y, T, lengths, 0)",
         new="            h, valid, _ = self._select(y, T, None, 0)",
         tests=[T_MODELS + "test_a_ctc_head_over_ragged_rows_scores_each_rows_own_steps"] + OLD_MODELS + OLD_HEADS,
         why="a CTC head's evaluation scores every row over all T steps, its padding included"),
    # ---- heads and the beam search ----
    dict(name="v276-heads-ctc-per-step-refusal-wrong-value", file=HEADS,
         old='raise ValueError("the CTC head scores every step (per_step=True)")',
         new='raise ValueError("the CTC head scores every step (per_step=False)")',
         tests=[T_REF + "test_a_ctc_head_on_the_last_step_only_is_refused"] + OLD_HEADS,
         why="the refusal of a last-step CTC head names per_step=False, the value that was refused"),
    dict(name="v276-beam-best-one-label-short", file=BEAM,
         old="        d = tree[2, n]",
         new="        d = tree[2, n] - 1",
         tests=[T_BEAM + "test_a_beam_of_every_prefix_returns_the_brute_force_best_of_each_row"] + OLD_BEAM,
         why="each row's best labelling is returned one label short (its length one less, -1 for the empty one)"),
]
