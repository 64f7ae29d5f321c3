"""Planted bugs, round 365 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the JAX binding (lnrnn/interop/jax.py), the export format (lnrnn/interop/export.py), predict's
inputs and outputs (lnrnn/predict_io.py) and the per-step diagnostics (lnrnn/diagnostics.py), nineteenth pass:
a bidirectional stack's backward direction looked up under the next layer's names; the state's vmapped axes not
broadcast before the folded forward; a vmapped gradient's forward saving no residuals; apply(mutable=True) of a
cell without BatchNorm returning no statistics dict; an export without bias_hh; float64 tensors written as F32;
a tensor's data offsets read as [end, begin]; mnist-rows left out of the MNIST family; complex sequences cast to
float (their imaginary parts dropped) instead of refused; the task looked up under the wrong key of the
checkpoint's spec; only the first of several inputs read; the saturation threshold at 2 instead of 3; the top
layer's statistics left at zero; a BN-LSTM replayed in inference mode.

14 mutants. Against the old targeted files alone (each mutant's v365 files taken off its list): 11 of 14 caught;
missed: the export without bias_hh, float64 tensors written as F32, the task looked up under the wrong key of the
spec. The old targeted files are test_jax_bidirectional, test_values340_jax, test_values314_jax and
test_values291_jax (the JAX binding), test_values_export, test_values273_export, test_values225_export and
test_values219_export (the export), test_values219_predict_io, test_values319_predict_io, test_values277_predict_io
and test_values_predict_io (predict's files), test_values281_diagnostics, test_values267_diagnostics,
test_values184_diagnostics and test_diagnostics (the diagnostics).
The new value tests catch every mutant on their own: test_values365_jax (a bidirectional LSTM against
reference.lstm_forward over x and over x reversed; jax.vmap of an LN-LSTM forward per example against the
reference; jax.vmap(jax.grad(...)) per example against central differences of the float64 reference;
mutable=True of an LN-LSTM returning ((y, (h_n, c_n)), {})), test_values365_export (the names, shapes and values
of a two-layer LSTM's export against the module docstring; write_safetensors' bytes parsed by hand with struct
and json; read_safetensors of a file packed by hand), test_values365_predict_io (uint8 .npy scaled by 1/255 for
each MNIST-family task; complex sequences refused word for word; the MNIST-family record of a spec without
"data"; two .npy inputs read in order with their index ranges) and test_values365_diagnostics (pre_std, pre_sat
and h_std of a two-layer plain LSTM against pre-activations written out by hand from the reference's outputs,
the threshold 3 included; a BN-LSTM's h_std against reference.bn_lstm_forward with batch statistics).
Left out as equivalent: VMAP_METHOD "sequential" or "broadcast_all" (the host code handles either, only slower);
_layer_params' layer count starting at 1 (weight_ih_l0 is there already); the dtype of the gradients taken from
the state or the parameters instead of x (apply refuses mixed dtypes first); _host_backward's T, B, I taken from
x's first axes (only the residuals' dtypes are read off that layout, and they do not depend on the sizes);
_x64_everywhere's except clause narrowed (this JAX has enable_x64.get_global); the read-only flags (no compiled
signature depends on them); describe_training_data's min/max of lo, hi (the scale is positive).

    python tests/mutants/run.py --only 'v365-*'
"""
JAX = "lnrnn/interop/jax.py"
EXPORT = "lnrnn/interop/export.py"
PIO = "lnrnn/predict_io.py"
DIAG = "lnrnn/diagnostics.py"

T_JAX = "tests/interop/test_values365_jax.py::"
T_EXPORT = "tests/interop/test_values365_export.py::"
T_PIO = "tests/test_values365_predict_io.py::"
T_DIAG = "tests/test_values365_diagnostics.py::"
OLD_JAX = ["tests/interop/test_jax_bidirectional.py", "tests/interop/test_values340_jax.py",
           "tests/interop/test_values314_jax.py", "tests/interop/test_values291_jax.py"]
OLD_EXPORT = ["tests/interop/test_values_export.py", "tests/interop/test_values273_export.py",
              "tests/interop/test_values225_export.py", "tests/interop/test_values219_export.py"]
OLD_PIO = ["tests/test_values219_predict_io.py", "tests/commands/test_values319_predict_io.py",
           "tests/commands/test_values277_predict_io.py", "tests/test_values_predict_io.py"]
OLD_DIAG = ["tests/test_values281_diagnostics.py", "tests/test_values267_diagnostics.py",
            "tests/test_values184_diagnostics.py", "tests/test_diagnostics.py"]

MUTANTS = [
    # ---- the JAX binding: lnrnn/interop/jax.py ----
    dict(name="v365-jax-reverse-direction-reads-next-layers-names", file=JAX,
         old="        for n, name, transposed in _param_names(spec, j, D):\n            a = params[name]",
         new="        for n, name, transposed in _param_names(spec, j):\n            a = params[name]",
         tests=[T_JAX + "test_bidirectional_lstm_is_the_reference_forward_and_reversed"] + OLD_JAX,
         why="D dropped: layer run 1 of a bidirectional stack looks for weight_ih_l1, not weight_ih_l0_reverse"),
    dict(name="v365-jax-folded-state-not-broadcast", file=JAX,
         old="    sf = tuple(np.ascontiguousarray(rows(s)).reshape(V * B, -1) for s in state)",
         new="    sf = tuple(np.ascontiguousarray(s).reshape(V * B, -1) for s in state)",
         tests=[T_JAX + "test_vmap_over_x_only_is_the_reference_per_example"] + OLD_JAX,
         why="an unmapped state (size 1 in front) is reshaped as if it had one row per example"),
    dict(name="v365-jax-folded-residuals-dropped", file=JAX,
         old="    for r, a in zip(res, _batch_axes(cfg.cell, I, H, np.dtype(x.dtype).str) if keep else ()):",
         new="    for r, a in zip(res, _batch_axes(cfg.cell, I, H, np.dtype(x.dtype).str) if not keep else ()):",
         tests=[T_JAX + "test_vmap_of_grad_is_central_differences_of_the_reference_per_example"] + OLD_JAX,
         why="the folded forward of a differentiated vmap hands back no residuals"),
    dict(name="v365-jax-mutable-without-batchnorm-no-stats", file=JAX,
         old="    if mutable:\n        return out, (new_stats",
         new="    if mutable and spec.buffers:\n        return out, (new_stats",
         tests=[T_JAX + "test_mutable_ln_lstm_returns_the_reference_outputs_and_empty_stats"] + OLD_JAX,
         why="apply(mutable=True) of an LN-LSTM returns (y, state) instead of ((y, state), {})"),
    # ---- the export format: lnrnn/interop/export.py ----
    dict(name="v365-export-bias-hh-missing", file=EXPORT,
         old='        if name == "b":',
         new='        if name == "bp":',
         tests=[T_EXPORT + "test_two_layer_lstm_export_names_shapes_and_values_as_documented"] + OLD_EXPORT,
         why="the zero bias_hh_l{k} is not exported, so nn.LSTM.load_state_dict(strict=True) fails"),
    dict(name="v365-export-float64-written-as-f32", file=EXPORT,
         old="        a = np.asarray(tensors[name])",
         new="        a = np.asarray(tensors[name], np.float32)",
         tests=[T_EXPORT + "test_written_bytes_parsed_by_hand"] + OLD_EXPORT,
         why="every tensor is written as F32: float64 weights lose precision, integers change type"),
    dict(name="v365-export-offsets-read-swapped", file=EXPORT,
         old="        b, e, shape = _entry(path, name, info)",
         new="        e, b, shape = _entry(path, name, info)",
         tests=[T_EXPORT + "test_a_file_packed_by_hand_reads_back"] + OLD_EXPORT,
         why="data_offsets [begin, end] taken as [end, begin]: every non-empty tensor refused"),
    # ---- predict's inputs and outputs: lnrnn/predict_io.py ----
    dict(name="v365-pio-mnist-rows-not-mnist-family", file=PIO,
         old='MNIST_TASKS = ("mnist", "pmnist", "mnist-rows")',
         new='MNIST_TASKS = ("mnist", "pmnist")',
         tests=[T_PIO + "test_uint8_npy_scaled_by_1_over_255_for_each_mnist_task"] + OLD_PIO,
         why="a uint8 .npy for a mnist-rows run is not scaled to [0, 1]; its IDX images are refused"),
    dict(name="v365-pio-cast-before-dtype-checks", file=PIO,
         old="    x = np.asarray(x)\n    if x.dtype == object",
         new="    x = np.asarray(x, np.float64)\n    if x.dtype == object",
         tests=[T_PIO + "test_complex_and_text_sequences_refused_word_for_word"] + OLD_PIO,
         why="complex sequences are cast to float (imaginary parts dropped) instead of refused"),
    dict(name="v365-pio-task-read-under-wrong-key", file=PIO,
         old='    task = spec.get("task")',
         new='    task = spec.get("name")',
         tests=[T_PIO + "test_record_without_data_from_the_task_spec"] + OLD_PIO,
         why="a checkpoint without a 'data' record never gets the MNIST family's [0, 1] range"),
    dict(name="v365-pio-only-first-input-read", file=PIO,
         old="    for path in paths:",
         new="    for path in paths[:1]:",
         tests=[T_PIO + "test_two_inputs_read_in_order_with_their_index_ranges"] + OLD_PIO,
         why="predict --input a.npy --input b.npy predicts only a.npy"),
    # ---- the diagnostics: lnrnn/diagnostics.py ----
    dict(name="v365-diag-saturation-at-2", file=DIAG,
         old="SATURATED = 3.0",
         new="SATURATED = 2.0",
         tests=[T_DIAG + "test_two_layer_lstm_pre_and_h_statistics_by_hand"] + OLD_DIAG,
         why="pre_sat counts |a| > 2, where the docstring says 3"),
    dict(name="v365-diag-top-layer-stats-left-zero", file=DIAG,
         old="    for l in range(L):\n        pre_std[l], pre_sat[l]",
         new="    for l in range(L - 1):\n        pre_std[l], pre_sat[l]",
         tests=[T_DIAG + "test_two_layer_lstm_pre_and_h_statistics_by_hand"] + OLD_DIAG,
         why="the top layer's pre_std, pre_sat and h_std stay zero"),
    dict(name="v365-diag-bn-lstm-inference-mode", file=DIAG,
         old="bufs[\"rmc\"], bufs[\"rvc\"], True, layer.momentum",
         new="bufs[\"rmc\"], bufs[\"rvc\"], False, layer.momentum",
         tests=[T_DIAG + "test_bn_lstm_h_std_uses_the_batch_statistics"] + OLD_DIAG,
         why="a BN-LSTM is replayed with its population statistics, not the batch's (the docstring: training mode)"),
]
