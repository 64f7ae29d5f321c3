"""Planted bugs, round 231 (format: tests/mutants/mutants.py): single-line slips on lines of the sequence model and
the layers that no earlier round mutates, options on their way to the kernels, saved configs and refusals.
models.py: the config's flags loop reading the 'skip' key for 'bidirectional' too (a bidirectional model saved
alone rebuilt one-directional); load_arrays' refusal listing only the extra names (a missing array named by
nothing); truncated BPTT scoring every chunk of a per-step head against the first chunk's targets; a last-step
evaluation without lengths counting rows one step short (one-step batches score nothing); last_outputs of a
float32 model in float64; a version 0.1 'mse' config upgraded with tolerance 0.05, not 0.04; build_model dropping
forget_bias (every LSTM at 1) and clip_gates (no clip). layers.py: the size refusal without the value's repr
('3' shown as 3); inference counting the BatchNorm statistics' rows by their width; an inference forward passing
training=True to the kernels (batch statistics, population ones moved); a stack's config saving the output width
2H as the hidden size; a bidirectional stack's t0 refusal firing only from t0 = 2; step's refusal naming the
type of an array of the wrong rank instead of its shape.

14 mutants. Against the existing targeted tests alone (test_values211_models, test_values193_models,
test_values163_models and test_models for models.py; test_values211_layers, test_values193_layers_stacks,
test_values163_layers and test_layers for layers.py) 1 was caught and 13 missed: only the truncated BPTT targets
(test_values193_models' per-step regression in chunks of two). No old file saved a bidirectional model's config
alone and rebuilt it, refused a checkpoint missing an array by name, evaluated one-step rows without lengths,
read a float32 model's last outputs, upgraded an 'mse' config without a tolerance, built through build_model
with a forget bias other than 1 or with clip_gates, read the size refusal of a string, ran a BatchNorm layer's
inference past max_steps against the reference or checked that it leaves its statistics alone, ran a
bidirectional stack from t0 = 1, or gave step an array of the wrong rank. The old files stay on the lists after
the new ones. The new value tests catch all 14 on their own (checked with the old files taken off the lists):
test_values231_models (a bidirectional model's config written out key by key and the model it rebuilds shaped by
the definitions, loss equal once loaded; a skip stack's config; load_arrays' refusals word for word with nothing
loaded; a per-step classifier in chunks of 2 over 5 ragged steps against the tanh RNN of test_values163_models and
a cross-entropy summed here; one-step rows evaluated without lengths against test_values129_models' ce_sums; a
float32 model's last outputs against the float64 reference; the upgraded 'mse' config; an LSTM's forget block at
2.5; every dL/db_j within T*B*clip, below the unclipped central differences), test_values231_layers (a BN-RNN
layer's inference at T 4 and 2 over max_steps 2 against reference.bn_rnn_forward with training=False, its
statistics untouched; the size refusal of '3', 2.5 and True; the bidirectional refusal at t0 = 1 and 2; step's
refusals of (2,), (1, 1, 2) and a list). Left out as equivalent: loss_and_grad's last chunk end min(t0 + chunk,
T) as t0 + chunk (slicing past the end gives the same chunk, and lengths - t0 never exceeds T - t0, so the
clip is not binding); _chunk_targets' getattr(head, "whole_sequence", False) with default True (Head defines
the attribute, every head has it); step's y[0] as y[-1] (a one-step run); the non-skip stack backward's
"on_device or k > 0" as "on_device" (to_host is the identity on the CPU; only a GPU run could tell); the
inference chunks' lengths clipped from 1 instead of 0 (a row without steps, or one that has ended, runs one
padding step whose output no head reads and whose state no caller gets back).

    python tests/mutants/run.py --only 'v231-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"

# existing tests of these modules (their most direct value-test files)
MODELS_OLD = ["tests/model/test_values211_models.py", "tests/model/test_values193_models.py",
              "tests/model/test_values163_models.py", "tests/model/test_models.py"]
LAYERS_OLD = ["tests/model/test_values211_layers.py", "tests/model/test_values193_layers_stacks.py",
              "tests/model/test_values163_layers.py", "tests/model/test_layers.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
MT = "tests/model/test_values231_models.py::"
LT = "tests/model/test_values231_layers.py::"
BI_CONFIG = MT + "test_a_bidirectional_config_saves_h_and_the_flag_and_rebuilds_the_same_model"
BN_INFER = LT + "test_batchnorm_inference_past_max_steps_reads_the_population_rows"

MUTANTS = [
    # ---- models.py ----
    dict(name="v231-config-flags-read-the-skip-key", file=MODELS,
         old="            if stack.config.get(k):\n                self.config[k] = True",
         new="            if stack.config.get(\"skip\"):\n                self.config[k] = True",
         tests=[BI_CONFIG, MT + "test_a_skip_stacks_config_saves_skip_alone"] + MODELS_OLD,
         why="the model's config records 'bidirectional' only for a skip stack: a bidirectional model "
                       "saved alone is rebuilt one-directional"),
    dict(name="v231-load-arrays-lists-only-extra-names", file=MODELS,
         old="sorted(set(arrays) ^ names)[:5]",
         new="sorted(set(arrays) - names)[:5]",
         tests=[MT + "test_load_arrays_refuses_a_missing_and_an_extra_array_by_name_and_loads_nothing"] + MODELS_OLD,
         why="load_arrays' refusal of a checkpoint missing an array names nothing ([])"),
    dict(name="v231-tbptt-chunks-read-the-first-targets", file=MODELS,
         old="            s, _, cache = self.head.forward(h, _chunk_targets(targets, self.head, t0, t1), valid)",
         new="            s, _, cache = self.head.forward(h, _chunk_targets(targets, self.head, 0, t1 - t0), valid)",
         tests=[MT + "test_truncated_bptt_scores_each_chunk_against_its_own_steps_targets"] + MODELS_OLD,
         why="under truncated BPTT every chunk of a per-step head is scored against the first chunk's "
                       "targets"),
    dict(name="v231-loss-sums-full-rows-one-step-short", file=MODELS,
         old="            L = np.full(B, T, np.int64) if lengths is None else lengths\n"
             "            s, count, _ = self.head.forward(h, targets, L > 0)",
         new="            L = np.full(B, T - 1, np.int64) if lengths is None else lengths\n"
             "            s, count, _ = self.head.forward(h, targets, L > 0)",
         tests=[MT + "test_a_last_step_evaluation_of_one_step_rows_without_lengths_scores_every_row"] + MODELS_OLD,
         why="a last-step evaluation without lengths counts its rows one step short: batches of one "
                       "step score nothing"),
    dict(name="v231-last-outputs-in-float64", file=MODELS,
         old="h = np.zeros((B, y.shape[2]), y.dtype)",
         new="h = np.zeros((B, y.shape[2]))",
         tests=[MT + "test_a_float32_models_last_outputs_are_float32"] + MODELS_OLD,
         why="last_outputs of a float32 model come back as float64"),
    dict(name="v231-upgrade-tolerance-default", file=MODELS,
         old='cfg.pop("tolerance", 0.04))',
         new='cfg.pop("tolerance", 0.05))',
         tests=[MT + "test_a_version_0_1_mse_config_takes_the_default_tolerance"] + MODELS_OLD,
         why="a version 0.1 'mse' config without a tolerance is upgraded with 0.05, not head_config's 0.04"),
    dict(name="v231-build-drops-forget-bias", file=MODELS,
         old='.type, seed=seed, forget_bias=cfg["forget_bias"],\n',
         new='.type, seed=seed, forget_bias=1.0,\n',
         tests=[MT + "test_an_lstm_built_with_forget_bias_2_5_starts_its_forget_block_there"] + MODELS_OLD,
         why="build_model builds every LSTM with forget bias 1 whatever its config says"),
    dict(name="v231-build-drops-clip-gates", file=MODELS,
         old="                           recurrent_init=recurrent_init, clip_gates=clip_gates,\n"
             "                           bidirectional=",
         new="                           recurrent_init=recurrent_init, clip_gates=0.0,\n"
             "                           bidirectional=",
         tests=[MT + "test_clip_gates_bounds_every_bias_gradient_by_steps_times_rows_times_clip"] + MODELS_OLD,
         why="build_model's clip_gates never reaches the stack: the LSTM gradients are not clipped"),
    # ---- layers.py ----
    dict(name="v231-size-refusal-without-repr", file=LAYERS,
         old='raise ValueError(f"{what}: {name} must be a positive integer, not {v!r}.")',
         new='raise ValueError(f"{what}: {name} must be a positive integer, not {v}.")',
         tests=[LT + "test_a_size_refusal_shows_the_value_as_python_writes_it"] + LAYERS_OLD,
         why="the size refusal shows a string '3' as 3, which reads as a valid size"),
    dict(name="v231-inference-statistics-rows-counted-across", file=LAYERS,
         old="        Ts = next(iter(self.buffers.values())).shape[0]",
         new="        Ts = next(iter(self.buffers.values())).shape[1]",
         tests=[BN_INFER] + LAYERS_OLD,
         why="inference counts the BatchNorm statistics' rows by their width: steps past max_steps "
                       "read rows that do not exist (or the wrong last row)"),
    dict(name="v231-layer-forward-always-training", file=LAYERS,
         old="functional.forward(self.setup, x, state, p, bufs, training, lengths, keep)",
         new="functional.forward(self.setup, x, state, p, bufs, True, lengths, keep)",
         tests=[BN_INFER] + LAYERS_OLD,
         why="an inference forward of a BatchNorm layer normalizes by the batch's statistics (and "
                       "moves the population ones)"),
    dict(name="v231-stack-config-hidden-is-output-width", file=LAYERS,
         old="        self.config = dict(cell=cell, norm=norm, input_size=I, hidden_size=H,\n",
         new="        self.config = dict(cell=cell, norm=norm, input_size=I, hidden_size=W,\n",
         tests=[BI_CONFIG] + LAYERS_OLD,
         why="a bidirectional stack saves its output width 2H as its hidden size: rebuilt, it is twice "
                       "as wide"),
    dict(name="v231-bidirectional-t0-one-late", file=LAYERS,
         old="        if t0 != 0:\n            raise ValueError(\"a bidirectional stack",
         new="        if t0 > 1:\n            raise ValueError(\"a bidirectional stack",
         tests=[LT + "test_a_bidirectional_stack_refuses_every_chunk_after_the_first_step"] + LAYERS_OLD,
         why="a bidirectional stack runs a chunk from t0 = 1 instead of refusing it"),
    dict(name="v231-step-refusal-names-the-type", file=LAYERS,
         old="got {getattr(x_t, 'shape', type(x_t).__name__)}",
         new="got {type(x_t).__name__}",
         tests=[LT + "test_step_refuses_an_input_of_the_wrong_rank_by_its_shape_and_a_list_by_its_type"]
               + LAYERS_OLD,
         why="step's refusal of an array of the wrong rank says 'got ndarray', not its shape"),
]
