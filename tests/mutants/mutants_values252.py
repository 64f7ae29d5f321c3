"""Planted bugs, round 252 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the public API (lnrnn/api.py), the functional layer API (lnrnn/model/functional.py) and the cell
registry (lnrnn/model/cells.py), second pass: evaluate_run's split override inverted (a split given is ignored);
its refusal of data with other inputs naming the checkpoint's input count twice; fit dropping its objective
before the run's configuration; reverse_valid's step index counted from 1; the refusal of a dL/dc_n seed naming
the cell kind instead of the cell passed; residual_layout claiming the CPU fold's x side for any input width;
dL/dc_n read from dL/dh_n's slot; the LN-LSTM adapter passing BatchNorm's momentum as LayerNorm's eps; its
backward given gx for gh; the LN-RNN backward run as a plain RNN's; the LN-LSTM row refusing a gate clip; the
BN-LSTM row's kernels not given lengths; the forget-gate bias set on the RNN rows instead of the LSTM ones.

13 mutants. Against the old targeted files alone (the OLD_* lists): 6 caught; missed were evaluate_run ignoring a
split given, fit dropping objective, reverse_valid counting from 1, the dL/dc_n refusal naming the kernel family,
the LN-RNN's backward run as a plain one, the LN-LSTM row refusing clip_gates and the BN-LSTM kernels given no
lengths (the old cell and functional files never took an LN-RNN's gradients, a clipped LN-LSTM or a masked BN-LSTM
through the registry). The new value tests catch every mutant on their own (checked with the old files taken off the
lists; residual_layout's mutant by test_values204_functional's layout test, widened to all six rows at I = 2 and
FOLD_MAX_I + 1 rather than written again here): test_values252_api (runs that lnrnn.fit trains here from 11
sequences in batches of 4: evaluate_run with split 7/4 and 8/3 counting 4 and 8 sequences, without one fit's
hold-out of round(11 / 10) = 1 and its 10 training sequences; a data_dir of 3 inputs refused word for word naming
the checkpoint's 2; integer labels fitted with objective mse giving a regression head of 1 output, without it a
classifier of 3, 3 updates each, the objective kept in the run's task so that evaluate_run reads other integer
labels as the run was trained), test_values252_functional (reverse_valid written out by hand with lengths 2, 0 and
T; the dL/dc_n refusal word for word for bn-lstm and ln-rnn; rows of length 0 passing dh_n and dc_n straight to dh0
and dc0 by hand beside an inner row against lnrnn.reference's backward; an LN-LSTM forward with eps 0.3, with and
without keep, its gradients with clip 0 and 0.05, an LN-RNN's gradients and a BN-LSTM's training forward with
lengths 4, 1, 3 and its running statistics, all against lnrnn.reference; each row's b from init_params with forget
bias 1.5 against the definition: 1.5 on the LSTM forget block only, the normalized rows' candidate block within
+-0.1). Left out as equivalent: unit_gains' plain-cell stand-ins of the wrong value (the plain kernels never read
the LayerNorm gains and biases); forward passing lengths to every row's adapter (the unmasked adapters ignore them;
the final state is taken from the sequences either way); _count's int(value) dropped (a NumPy integer batch size
slices the same); load_run not passing its device on (only 'cpu' runs here, the default). Left out as needing a GPU:
_device_dy and the CUDA branch of final_state. Left out as needing a trained reader or synthesis run (tens of
seconds each): read's batch size and sample_run's count of text lines. Left out as not a value: predict's model._run
in training mode on a BN run (the initial-state noise is drawn per batch by design, so no batching-free figure
exists to compare against without retracing the model).

    python tests/mutants/run.py --only 'v252-*'
"""
API = "lnrnn/api.py"
FUNCTIONAL = "lnrnn/model/functional.py"
CELLS = "lnrnn/model/cells.py"

T_API = "tests/test_values252_api.py::"
T_FUNC = "tests/model/test_values252_functional.py::"
OLD_API = ["tests/test_values234_api.py", "tests/test_values214_api.py", "tests/test_values196_api.py"]
OLD_FUNC = ["tests/model/test_values234_functional.py", "tests/model/test_values169_functional.py",
            "tests/model/test_functional.py"]
OLD_CELLS = ["tests/model/test_values204_cells.py", "tests/model/test_values169_cells.py",
             "tests/model/test_values234_functional.py"]

MUTANTS = [
    # ---- the public API: lnrnn/api.py ----
    dict(name="v252-api-evaluate-split-ignored", file=API,
         old='    if split is not None:\n        spec["split"] = split\n',
         new='    if split is None:\n        spec["split"] = split\n',
         tests=[T_API + "test_evaluate_run_counts_the_sequences_its_split_names"] + OLD_API,
         why="evaluate_run ignores a split given: it scores the run's own validation set (1 sequence, not 4)"),
    dict(name="v252-api-inputs-refusal-names-checkpoints-twice", file=API,
         old='                              f"{_how_many(task.input_size, \'input\')} and needs a',
         new='                              f"{_how_many(m[\'input_size\'], \'input\')} and needs a',
         tests=[T_API + "test_evaluate_run_refuses_data_of_other_inputs_naming_both"] + OLD_API,
         why="data of other inputs are refused as having the checkpoint's input count: '2 inputs ... has 2 inputs'"),
    dict(name="v252-api-fit-objective-dropped", file=API,
         old='    cfg = TrainConfig(cell=cell, task="npz", data_dir=path, out=out, objective=objective, '
             '**train_options)',
         new='    cfg = TrainConfig(cell=cell, task="npz", data_dir=path, out=out, **train_options)',
         tests=[T_API + "test_fit_passes_its_objective_to_the_run"] + OLD_API,
         why="fit(objective='mse') on integer labels trains a classifier: the objective never reaches the run"),
    # ---- the functional layer API: lnrnn/model/functional.py ----
    dict(name="v252-func-reverse-valid-steps-from-one", file=FUNCTIONAL,
         old="    t = np.arange(T)[:, None]                                            # (T,1)",
         new="    t = np.arange(1, T + 1)[:, None]                                     # (T,1)",
         tests=[T_FUNC + "test_reverse_valid_by_hand_with_lengths_two_zero_and_t"] + OLD_FUNC,
         why="reverse_valid counts steps from 1: each row's valid steps shift by one (and step T is read)"),
    dict(name="v252-func-dc-refusal-names-cell-kind", file=FUNCTIONAL,
         old="""raise NotImplementedError(f"lnrnn's {spec.name} kernels take no gradient""",
         new="""raise NotImplementedError(f"lnrnn's {spec.cell} kernels take no gradient""",
         tests=[T_FUNC + "test_dc_n_refused_naming_the_cell_as_passed"] + OLD_FUNC,
         why="the refusal of dL/dc_n says 'lstm kernels' for bn-lstm (whose plain twin takes one), 'rnn' for ln-rnn"),
    dict(name="v252-func-layout-fold-any-device-width", file=FUNCTIONAL,
         old='x_side = ((T, I + I * I), np.dtype(np.float64)) if fold and device == "cpu" else',
         new='x_side = ((T, I + I * I), np.dtype(np.float64)) if fold or device == "cpu" else',
         tests=["tests/model/test_values204_functional.py::test_residual_layout_is_what_layer_forward_returns"]
         + OLD_FUNC,
         why="a BN row with more than FOLD_MAX_I inputs is laid out with the fold's (T, I + I*I) x side on the CPU"),
    dict(name="v252-func-dc-n-from-dh-slot", file=FUNCTIONAL,
         old="        dc_n = k.to_host(dfinal[1])",
         new="        dc_n = k.to_host(dfinal[0])",
         tests=[T_FUNC + "test_final_state_gradients_of_empty_rows_by_hand_and_of_an_inner_row"] + OLD_FUNC,
         why="dL/dc_n is read from dL/dh_n's slot: an empty row's dc0 is its dh_n, inner rows refused"),
    # ---- the cell registry: lnrnn/model/cells.py ----
    dict(name="v252-cells-ln-eps-is-momentum", file=CELLS,
         old="gx, bx, gh, bh, gc, bc, NORM_LN if ln else NORM_NONE, f.eps, nch)",
         new="gx, bx, gh, bh, gc, bc, NORM_LN if ln else NORM_NONE, f.momentum, nch)",
         tests=[T_FUNC + "test_ln_lstm_forward_takes_the_eps_passed"] + OLD_CELLS,
         why="the LN-LSTM's LayerNorms get BatchNorm's momentum (0.1) as eps: the eps passed never reaches them"),
    dict(name="v252-cells-lstm-backward-gh-is-gx", file=CELLS,
         old='p["Wx"], p["Wh"], gx, gh, gc,\n',
         new='p["Wx"], p["Wh"], gx, gx, gc,\n',
         tests=[T_FUNC + "test_ln_lstm_gradients_against_the_reference_with_and_without_clip"] + OLD_CELLS,
         why="the LN-LSTM backward takes the input LayerNorm's gain for the recurrent one's"),
    dict(name="v252-cells-ln-rnn-backward-plain", file=CELLS,
         old="                                 NORM_LN if ln else NORM_NONE, nch)",
         new="                                 NORM_NONE, nch)",
         tests=[T_FUNC + "test_ln_rnn_gradients_against_the_reference"] + OLD_CELLS,
         why="the LN-RNN's backward runs as a plain RNN's: gradients of the wrong function"),
    dict(name="v252-cells-ln-lstm-refuses-clip", file=CELLS,
         old="saved_y=LSTM_SAVED_Y, gate_clip=True,\n         infer_seqs=False),",
         new="saved_y=LSTM_SAVED_Y, gate_clip=False,\n         infer_seqs=False),",
         tests=[T_FUNC + "test_ln_lstm_gradients_against_the_reference_with_and_without_clip"] + OLD_CELLS,
         why="the LN-LSTM row claims no gates: any clip_gates is refused for it"),
    dict(name="v252-cells-bn-lstm-kernels-unmasked", file=CELLS,
         old="         masked_kernel=True, gate_clip=True, synced=BN_LSTM_SYNCED),",
         new="         masked_kernel=False, gate_clip=True, synced=BN_LSTM_SYNCED),",
         tests=[T_FUNC + "test_bn_lstm_training_with_lengths_counts_running_rows_only"] + OLD_CELLS,
         why="the BN-LSTM kernels get no lengths: batch statistics count padded rows"),
    dict(name="v252-cells-forget-bias-on-rnn", file=CELLS,
         old="        if self.cell == \"lstm\":\n            p[\"b\"][H:2 * H] = forget_bias",
         new="        if self.cell == \"rnn\":\n            p[\"b\"][H:2 * H] = forget_bias",
         tests=[T_FUNC + "test_forget_bias_sits_in_the_lstm_forget_block_only"] + OLD_CELLS,
         why="the forget bias is set on the RNN rows (an empty slice) and never on the LSTM's forget block"),
]
