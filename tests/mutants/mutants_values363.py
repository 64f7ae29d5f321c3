"""Planted bugs, round 363 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the layers (lnrnn/model/layers.py) and the models (lnrnn/model/models.py), nineteenth pass: a layer
built without forget_bias starting its LSTM forget block at 0; a layer's seed ignored (a fresh generator each
time); a layer's gradients starting as a copy of its parameters instead of zeros; synchronized BatchNorm handed to
LN layers instead of BN ones; a BN layer's training and inference rows of statistics swapped (a training forward
longer than max_steps updates a gathered copy and the statistics never grow); the trainer's forward hook fired on
inference forwards (keep=False); a stack loading each layer's BN statistics under the next layer's name; a
bidirectional backward taking the input width for the hidden one; a model's flat buffers built from the
gradients' leaves for the parameters and the other way round (zero_grad then zeroes the parameters); the model's
grads naming the parameters' arrays; an update's noise key ignored (the counter of calls used in its place);
scored_count checking lengths against B steps and T rows; upgrade_config writing state_noise into the caller's
dict; build_model's recurrent_init defaulting to identity blocks.

14 mutants. Against the old targeted files alone (each mutant's v363 files taken off its list): 7 of 14 caught (the
last two in a second run); missed: a layer's forget_bias default 0, its seed ignored, its gradients starting as its
parameters, synchronized BatchNorm handed to LN layers, the forward hook fired on keep=False forwards,
scored_count's T and B swapped, upgrade_config writing the caller's dict. The old targeted files:
tests/model/test_layers.py and tests/model/test_layers_models_bidirectional.py (the layers),
tests/model/test_models.py and tests/model/test_values315_models.py (the models), with
tests/model/test_state_noise.py for the noise key. The new value tests catch every mutant on their own (checked with
the old files taken off the lists): test_values363_layers (a default layer's float32 parameters and forget block at
1 written out; a seed's Glorot-uniform Wx drawn by hand from numpy's generator, equal for one seed and not for
another; a fresh LN-RNN layer's first backward, dx, dh0 and every parameter gradient, against
reference.rnn_backward; a BN-RNN layer with a group-of-one reduce calling it and matching reference.bn_rnn_forward,
an LN layer never calling it; a BN-RNN layer of max_steps 2 trained over 4 steps growing and updating four rows of
statistics as reference.bn_rnn_forward does, then a 6-step inference reading row 3 at steps 4 and 5; the
training-forward and before-backward hooks called only on a training forward that keeps and its backward; two-layer
BN stacks' statistics loaded name by name and the inference outputs equal; a bidirectional layer with I = 2, H = 5
over rows of lengths 3, 0, 2, dx and both directions' dWx against central differences of the spec composed by hand),
test_values363_models (a last-step classifier's loss by reference.rnn_forward and log-softmax, every gradient that
model.grads names against central differences and the flat buffers holding the same values; the initial-state noise
of an update drawn by hand from default_rng([noise_seed, 1, key]) for key 7 and for the counter's 0 and 1; scored
counts of last-step and per-step heads over rows of lengths 5, 0 and 2 counted by hand; a config upgraded and built
with the caller's dict unchanged; build_model's default Wh blocks orthogonal and far from the identity, RNN and
LSTM). Left out as equivalent: the plain stack's 'last = len(self.layers) - 1' made 'len(self.layers)' and the
layer's 'fetch' choosing to_host (both only choose where an array lives, and on the CPU to_host is the identity);
backward's 'zip(self.spec.grads, dp)' made 'zip(self.spec.param_names, dp)' (every cell lists its gradients in its
parameters' order); the model's '_leaves' returning 'head' without its dot (the flat names are read only by the
device update); 'if self._saved is None' made 'if not self._saved' (the saved tuple is never empty). Left out as
reaching only the CUDA paths (no value a CPU test sees): the device branches of _check_array, _add and _reversal,
_fast_last, device_buffers, pull_params, _stats_on_device, _set_device_views and loss_and_grad_on_device.

    python tests/mutants/run.py --only 'v363-*'
"""
LAYERS = "lnrnn/model/layers.py"
MODELS = "lnrnn/model/models.py"

T_LAYERS = "tests/model/test_values363_layers.py::"
T_MODELS = "tests/model/test_values363_models.py::"
OLD_LAYERS = ["tests/model/test_layers.py", "tests/model/test_layers_models_bidirectional.py"]
OLD_MODELS = ["tests/model/test_models.py", "tests/model/test_values315_models.py"]
NOISE_OLD = ["tests/model/test_state_noise.py"]

DEFAULTS = T_LAYERS + "test_a_layer_built_with_its_defaults_is_float32_with_the_forget_block_at_one"
SEED = T_LAYERS + "test_a_layers_seed_fixes_its_glorot_uniform_draw"
FRESH = T_LAYERS + "test_a_fresh_layers_first_backward_against_the_spec"
SYNC = T_LAYERS + "test_synchronized_batchnorm_reaches_bn_layers_and_leaves_ln_layers_alone"
GROW = T_LAYERS + "test_bn_statistics_grow_past_max_steps_in_training_and_are_read_at_the_last_row_beyond"
HOOKS = T_LAYERS + "test_the_trainers_hooks_fire_only_on_forwards_a_backward_can_follow"
LOAD = T_LAYERS + "test_a_stack_loads_each_layers_bn_statistics_by_name"
BI = T_LAYERS + "test_bidirectional_gradients_with_input_and_hidden_of_different_widths"
GRADS = T_MODELS + "test_loss_and_every_named_gradient_against_the_spec_and_central_differences"
NOISE = T_MODELS + "test_an_updates_initial_state_noise_drawn_by_hand_for_its_key_and_for_the_counter"
COUNT = T_MODELS + "test_scored_counts_by_hand_over_rows_of_lengths_5_0_2"
UPGRADE = T_MODELS + "test_upgrade_config_and_build_model_leave_the_callers_dict_as_it_was"
ORTHO = T_MODELS + "test_build_model_draws_random_orthogonal_recurrent_blocks_by_default"

MUTANTS = [
    # ---- the layers: lnrnn/model/layers.py ----
    dict(name="v363-layers-forget-bias-default-zero", file=LAYERS,
         old="    def __init__(self, cell, norm, input_size, hidden_size, dtype=np.float32, seed=0, forget_bias=1.0,",
         new="    def __init__(self, cell, norm, input_size, hidden_size, dtype=np.float32, seed=0, forget_bias=0.0,",
         tests=[DEFAULTS] + OLD_LAYERS,
         why="a layer built without forget_bias starts its LSTM forget gates at sigmoid(0) instead of sigmoid(1)"),
    dict(name="v363-layers-seed-ignored", file=LAYERS,
         old="        rng = np.random.default_rng(seed) if rng is None else rng",
         new="        rng = np.random.default_rng() if rng is None else rng",
         tests=[SEED] + OLD_LAYERS,
         why="a layer's seed is dropped: every layer draws fresh weights, and no run can be repeated"),
    dict(name="v363-layers-grads-start-as-params", file=LAYERS,
         old="        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}",
         new="        self.grads = {k: v.copy() for k, v in self.params.items()}",
         tests=[FRESH] + OLD_LAYERS,
         why="a fresh layer's gradients start as a copy of its parameters: its first backward adds onto them"),
    dict(name="v363-layers-batch-reduce-on-ln", file=LAYERS,
         old='        if reduce is not None and self.norm == "bn":',
         new='        if reduce is not None and self.norm == "ln":',
         tests=[SYNC] + OLD_LAYERS,
         why="synchronized BatchNorm is handed to LN layers (which have no synced kernels) and dropped for BN ones"),
    dict(name="v363-layers-bn-rows-training-inverted", file=LAYERS,
         old="            return {}\n        if training:",
         new="            return {}\n        if not training:",
         tests=[GROW] + OLD_LAYERS,
         why="a training forward reads the inference rows: past max_steps it updates a gathered copy and the "
             "statistics never grow, while inference grows them"),
    dict(name="v363-layers-hook-on-inference-forwards", file=LAYERS,
         old='        if keep and training and HOOKS["training_forward"] is not None:',
         new='        if training and HOOKS["training_forward"] is not None:',
         tests=[HOOKS] + OLD_LAYERS,
         why="the trainer's forward hook (it starts compiling a backward elsewhere) fires on keep=False forwards "
             "that no backward follows"),
    dict(name="v363-layers-load-buffers-names-shifted", file=LAYERS,
         old="        for j, layer in enumerate(self.layers):\n            for n in layer.buffers:",
         new="        for j, layer in enumerate(self.layers, 1):\n            for n in layer.buffers:",
         tests=[LOAD] + OLD_LAYERS,
         why="a stack loads each layer's BN statistics under the next layer's name (the top one finds none)"),
    dict(name="v363-layers-bidirectional-backward-widths-swapped", file=LAYERS,
         old="        rev, H, I = self._reverse, self.layers[0].H, self.layers[0].I",
         new="        rev, H, I = self._reverse, self.layers[0].I, self.layers[0].H",
         tests=[BI] + OLD_LAYERS,
         why="a bidirectional backward splits dL/dy at the input width instead of the hidden one"),
    # ---- the models: lnrnn/model/models.py ----
    dict(name="v363-models-leaves-swapped", file=MODELS,
         old='            inner = self.stack.param_leaves("rnn.") if attr == "params" else self.stack.grad_leaves("rnn.")',
         new='            inner = self.stack.param_leaves("rnn.") if attr != "params" else self.stack.grad_leaves("rnn.")',
         tests=[GRADS] + OLD_MODELS,
         why="the model's flat parameters are packed from the stack's gradients and the other way round: "
             "zero_grad zeroes the stack's weights"),
    dict(name="v363-models-grads-name-the-params", file=MODELS,
         old='        return {**{"rnn." + k: v for k, v in self.stack.grads.items()},',
         new='        return {**{"rnn." + k: v for k, v in self.stack.params.items()},',
         tests=[GRADS] + OLD_MODELS,
         why="model.grads hands out the stack's parameters under the gradients' names"),
    dict(name="v363-models-noise-key-ignored", file=MODELS,
         old="        if noise_key is None:",
         new="        if noise_key is not None:",
         tests=[NOISE] + OLD_MODELS + NOISE_OLD,
         why="an update's noise key is replaced by the counter of calls (and without one, int(None) fails): a "
             "resumed run draws other initial states"),
    dict(name="v363-models-scored-count-t-b-swapped", file=MODELS,
         old='of T steps."""\n        lengths = check_lengths(lengths, T, B)',
         new='of T steps."""\n        lengths = check_lengths(lengths, B, T)',
         tests=[COUNT] + OLD_MODELS,
         why="scored_count checks lengths as T values in [0, B]: a batch whose T differs from B is refused"),
    dict(name="v363-models-upgrade-config-writes-the-callers-dict", file=MODELS,
         old="    cfg = dict(config)\n    cfg.setdefault(",
         new="    cfg = config\n    cfg.setdefault(",
         tests=[UPGRADE] + OLD_MODELS,
         why="upgrade_config (and build_model through it) writes state_noise, and pops 0.1 keys, in the caller's dict"),
    dict(name="v363-models-build-identity-default", file=MODELS,
         old='def build_model(config, seed=0, device="cpu", max_steps=1, recurrent_init="orthogonal", clip_gates=0.0):',
         new='def build_model(config, seed=0, device="cpu", max_steps=1, recurrent_init="identity", clip_gates=0.0):',
         tests=[ORTHO + "[rnn]", ORTHO + "[lstm]"] + OLD_MODELS,
         why="build_model's recurrent matrices default to identity blocks instead of random orthogonal ones"),
]
