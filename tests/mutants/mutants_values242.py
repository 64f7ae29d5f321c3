"""Planted bugs, round 242 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates in
the sequence model and its stacks, second pass: load_arrays skipping the BatchNorm statistics; truncated BPTT
stopping one step early (the last chunk lost when T - 1 is a multiple of the chunk); batches_of handing every batch
all the lengths; a config without 'skip' building a skip stack; SequenceClassifier dropping its forget_bias; the
refusal of unknown settings printing a set instead of the sorted names; a bidirectional last-step head's dL/dh
falling through onto the backward columns at the last step; the num_layers refusal quoting int(1.5); a
bidirectional stack's config saying 'skip', and a skip stack's flag saved when it is bidirectional instead; a given
state checked against (B, I); the dtype refusal quoting the class repr; a skip stack's bottom layer never getting
what the layer above sent back through its h input.

13 mutants. Against the existing targeted tests alone (test_values231_models, test_values231_layers,
test_values211_models, test_values193_models, test_values193_layers_stacks, test_layers_models_bidirectional) 10
were caught; missed were batches_of handing every batch all the lengths (no old file evaluated several batches with
lengths), SequenceClassifier ignoring its forget_bias, and the num_layers refusal saying 'got 1' for 1.5. The old
files stay on the lists after the new ones. The new value tests catch all 13 on their own (checked with the old
files taken off the lists): test_values242_models (truncated BPTT in chunks of 3 over 7 ragged steps against
test_values129_models' tanh RNN and cross-entropy, the head bias's gradient by the definition softmax - onehot;
evaluate over batches of 2 of 5 rows with lengths against the same sums; parameter counts by hand of plain, skip,
bidirectional and bidirectional skip two-layer stacks (51, 66, 117, 147) and their configs written out key by key
rebuilding the same count; BatchNorm statistics through load_arrays; every gradient of two-layer bidirectional
last-step models, with and without skip, against central differences; float32 against float64 of the same
parameters; SequenceClassifier's forget bias; the unknown settings refusal word for word),
test_values242_layers_stacks (a two-layer skip tanh RNN stack from a given state of width H != I written out step by
step, its input gradient against central differences; a state carried into the next chunk; stacks' configs key by
key; the num_layers and dtype refusals word for word). Left out as equivalent: loss_and_grad's chunk end without min
(slicing clips, and lengths - t0 never exceeds T - t0); the inference chunks' lengths not shifted by t0 (a row that
has ended runs padding steps that no head reads and whose state no caller gets); the skip forward's join of [x | h]
after the top layer too (never read); the plain stack backward's on_device flag (to_host is the identity on the
CPU).

    python tests/mutants/run.py --only 'v242-*'
"""
MODELS = "lnrnn/model/models.py"
LAYERS = "lnrnn/model/layers.py"

M = "tests/model/test_values242_models.py::"
S = "tests/model/test_values242_layers_stacks.py::"

OLD = ["tests/model/test_values231_models.py", "tests/model/test_values231_layers.py",
       "tests/model/test_values211_models.py", "tests/model/test_values193_models.py",
       "tests/model/test_values193_layers_stacks.py", "tests/model/test_layers_models_bidirectional.py"]

MUTANTS = [
    dict(name="v242-models-load-arrays-buffers-inverted", file=MODELS,
         old="        if own_b:\n            self.stack.load_buffers(",
         new="        if not own_b:\n            self.stack.load_buffers(",
         tests=[M + "test_load_arrays_copies_batchnorm_statistics_as_well"] + OLD,
         why="load_arrays never loads BatchNorm statistics: a checkpoint's BN model evaluates with fresh ones"),
    dict(name="v242-models-tbptt-last-chunk-dropped", file=MODELS,
         old="        for t0 in range(0, T, chunk):\n            t1 = min(t0 + chunk, T)\n",
         new="        for t0 in range(0, T - 1, chunk):\n            t1 = min(t0 + chunk, T)\n",
         tests=[M + "test_truncated_bptt_in_chunks_of_3_over_7_steps_scores_every_row_at_its_last_step"] + OLD,
         why="truncated BPTT stops one step early: when T - 1 is a multiple of the chunk the last step is never run"),
    dict(name="v242-models-batches-of-lengths-unsliced", file=MODELS,
         old="None if lengths is None else lengths[sl]",
         new="None if lengths is None else lengths",
         tests=[M + "test_evaluate_over_batches_of_two_with_lengths_against_the_sums_by_hand"] + OLD,
         why="batches_of hands every batch all the lengths: evaluation over several batches with lengths fails"),
    dict(name="v242-models-build-skip-default-on", file=MODELS,
         old='skip=cfg.get("skip", False)',
         new='skip=cfg.get("skip", True)',
         tests=[M + "test_parameter_counts_by_hand_and_the_saved_config_rebuilds_the_same_model"] + OLD,
         why="a config without the 'skip' key (every plain stack's) builds a skip stack"),
    dict(name="v242-models-classifier-forget-bias-dropped", file=MODELS,
         old="num_layers=num_layers, dtype=np.dtype(dtype).name, forget_bias=float(forget_bias),",
         new="num_layers=num_layers, dtype=np.dtype(dtype).name, forget_bias=1.0,",
         tests=[M + "test_sequence_classifier_passes_its_forget_bias_on"] + OLD,
         why="SequenceClassifier ignores its forget_bias argument: every LSTM starts at 1"),
    dict(name="v242-models-unknown-settings-unsorted", file=MODELS,
         old='raise ValueError(f"unknown model settings {sorted(unknown)}")',
         new='raise ValueError(f"unknown model settings {unknown}")',
         tests=[M + "test_unknown_settings_are_refused_sorted_word_for_word"] + OLD,
         why="the refusal of unknown settings prints a set in hash order instead of the sorted names"),
    dict(name="v242-models-bidir-scatter-falls-through", file=MODELS,
         old="            return dy\n        dy[where, rows] = dh",
         new="            pass\n        dy[where, rows] = dh",
         tests=[M + "test_a_bidirectional_last_step_models_gradients_against_central_differences"] + OLD,
         why="a bidirectional last-step head's dL/dh also lands on the backward columns at the last step"),
    dict(name="v242-layers-num-layers-message-truncated", file=LAYERS,
         old='raise ValueError(f"num_layers must be a positive integer, got {num_layers}")',
         new='raise ValueError(f"num_layers must be a positive integer, got {int(num_layers)}")',
         tests=[S + "test_num_layers_and_dtype_refusals_word_for_word"] + OLD,
         why="the refusal of num_layers=1.5 says 'got 1', a value that would have been accepted"),
    dict(name="v242-layers-config-bidirectional-key-is-skip", file=LAYERS,
         old='            self.config["bidirectional"] = True',
         new='            self.config["skip"] = True',
         tests=[S + "test_a_stacks_config_names_its_flags",
                M + "test_parameter_counts_by_hand_and_the_saved_config_rebuilds_the_same_model"] + OLD,
         why="a bidirectional stack's config says skip instead: the saved model is rebuilt one-directional with skip"),
    dict(name="v242-layers-config-skip-reads-bidirectional", file=LAYERS,
         old='        if self.skip:\n            self.config["skip"] = True',
         new='        if self.bidirectional:\n            self.config["skip"] = True',
         tests=[S + "test_a_stacks_config_names_its_flags",
                M + "test_parameter_counts_by_hand_and_the_saved_config_rebuilds_the_same_model"] + OLD,
         why="the skip flag is saved when the stack is bidirectional, not when it has skip connections"),
    dict(name="v242-layers-state-checked-against-input-size", file=LAYERS,
         old="state = tuple(_check_array(n, s, 2, self.dtype, (B, self.H), device_ok=True)",
         new="state = tuple(_check_array(n, s, 2, self.dtype, (B, self.I), device_ok=True)",
         tests=[S + "test_a_skip_stack_from_a_given_state_and_its_input_gradient",
                S + "test_a_state_carried_into_the_next_chunk_continues_the_run",
                M + "test_truncated_bptt_in_chunks_of_3_over_7_steps_scores_every_row_at_its_last_step"] + OLD,
         why="a given state is checked against (B, I): carried states (truncated BPTT) refused when I != H"),
    dict(name="v242-layers-dtype-message-repr", file=LAYERS,
         old='raise TypeError(f"dtype must be float32 or float64, got {np.dtype(dtype).name}")',
         new='raise TypeError(f"dtype must be float32 or float64, got {dtype}")',
         tests=[S + "test_num_layers_and_dtype_refusals_word_for_word"] + OLD,
         why="the dtype refusal shows the class repr (<class 'numpy.float16'>) instead of the dtype's name"),
    dict(name="v242-layers-skip-backward-drops-top-gradient-at-bottom", file=LAYERS,
         old="            if dh_above is not None:\n                dyk = dyk + dh_above",
         new="            if dh_above is not None and k > 0:\n                dyk = dyk + dh_above",
         tests=[S + "test_a_skip_stack_from_a_given_state_and_its_input_gradient"] + OLD,
         why="a skip stack's bottom layer never gets what the layer above sent back through its h input"),
]
