"""Planted bugs, round 225 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the JAX binding and the export format: apply taking an LSTM state given as a list [h0, c0] for one stacked array;
the state's refusal naming c0 h0; training=True handed to the statistics in every mode (BatchNorm inference without
stats runs on fresh ones); remat not passed on to the layers; remat's rerun of the forward without the lengths;
inference growing short population statistics to T rows (mutable=True hands back more rows than it got); stats={}
taken as no stats; the refusal of params of another cell counting directions as layers; the parameter shape check
comparing ranks only (a (1,) bias_hh broadcasts); a bidirectional stack's backward direction reading the forward's
statistics; the reader's refusal of a long header naming 8 + N, its spans recorded empty (the back-to-back check
never fires), its refusal of offsets naming the byte count as the end; the export metadata's config the stack's,
not the model's.

14 mutants. Against the existing targeted tests alone (test_jax, test_jax_bidirectional, test_values216_jax,
test_jax_refusals_as_passed; test_values219_export, test_values212_export, test_values183_export,
test_values63_export) 7 were caught and 7 missed: the list state, the grown inference statistics, the empty stats
dict, the layer count of the mismatch refusal (no bidirectional stack was refused there), and the three reader
mutants (no header length was refused word for word, no gap or overlap between tensors was tried, the offsets
refusal was read only with begin 0, where the end and the byte count agree). The new value tests catch every
mutant on their own (checked with the old files taken off the lists): test_values225_jax (remat with ragged
lengths, batch_first and a list state gives the gradients of test_values161_jax's lax.scan LN-LSTM, check_grads
passes, and the kernels' keep flags are False then True; remat on a ragged BatchNorm batch passes check_grads;
a bidirectional BatchNorm stack's backward half and its updated statistics equal a one-direction stack of the
reverse parameters over x reversed; inference with 2 rows of statistics for 4 steps hands them back as given and
equals a run with them grown by hand, training grows them to 4; refusals word for word), test_values225_export
(header lengths ending exactly at the file's end and one byte past it; two tensors back to back, with a gap,
overlapping, starting late, by the safetensors definition; offsets 4..20 for 24 bytes; the metadata's config
against the keys given to build_model, handed back by lnrnn.jax.load_export with the parameters). Only the
remat-without-lengths mutant needs BatchNorm: for plain and LN cells it is equivalent (right padding: the valid
steps' residuals do not depend on the lengths, and the backward ignores the padded ones), so the LN test does
not catch it and the BN one does. Dropped before the catalogue as equivalent: _layer_params counting layers from
L = 1 (weight_ih_l0 is required before the count); exported_tensors splitting the layer key with rpartition
(lnrnn's keys have one dot there); apply's mutable return without the spec.buffers test (new_stats is empty
without buffers); training's growth of the statistics at < T made <= T (F.grown returns v itself at T rows);
write_safetensors' "if metadata" made "is not None" (an empty __metadata__ reads back as {}: only the bytes differ).

    python tests/mutants/run.py --only 'v225-*'
"""
JAX = "lnrnn/interop/jax.py"
EXPORT = "lnrnn/interop/export.py"

TJ = "tests/interop/test_values225_jax.py::"
TE = "tests/interop/test_values225_export.py::"

OLD_JAX = ["tests/interop/test_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_values216_jax.py", "tests/interop/test_jax_refusals_as_passed.py"]
OLD_EXPORT = ["tests/interop/test_values219_export.py", "tests/interop/test_values212_export.py",
              "tests/interop/test_values183_export.py", "tests/interop/test_values63_export.py"]

MUTANTS = [
    dict(name="v225-jax-list-state-is-one-array", file=JAX,
         old="    parts = tuple(state) if isinstance(state, (tuple, list)) else (state,)",
         new="    parts = tuple(state) if isinstance(state, tuple) else (state,)",
         tests=[TJ + "test_remat_with_lengths_batch_first_and_a_list_state_gives_the_scans_gradients"] + OLD_JAX,
         why="an LSTM state given as a list [h0, c0] is taken as one stacked array and refused"),
    dict(name="v225-jax-c0-refusal-names-h0", file=JAX,
         old='    for n, s in zip(("h0", "c0"), parts):',
         new='    for n, s in zip(("h0", "h0"), parts):',
         tests=[TJ + "test_a_c0_of_the_wrong_shape_or_dtype_is_refused_by_its_name"] + OLD_JAX,
         why="a c0 of the wrong shape or dtype is refused under the name h0"),
    dict(name="v225-jax-inference-without-stats-not-refused", file=JAX,
         old="    bufs = _layer_stats(stats, spec, L, H, dt, T, bool(training), D)",
         new="    bufs = _layer_stats(stats, spec, L, H, dt, T, True, D)",
         tests=[TJ + "test_batchnorm_without_statistics_or_with_an_empty_dict_is_refused"] + OLD_JAX,
         why="BatchNorm inference without stats runs on fresh statistics (means 0, variances 1), not refused"),
    dict(name="v225-jax-remat-not-passed-on", file=JAX,
         old="    cfg = _Cfg(spec.name, bool(training), bool(remat))",
         new="    cfg = _Cfg(spec.name, bool(training), False)",
         tests=[TJ + "test_remat_with_lengths_batch_first_and_a_list_state_gives_the_scans_gradients"] + OLD_JAX,
         why="remat=True is dropped: the forward keeps its residuals and the backward does not rerun it"),
    dict(name="v225-jax-remat-rerun-without-lengths", file=JAX,
         old="        y, _, res, _ = _forward_one(cfg, True, x, state, p, lengths, bufs)",
         new="        y, _, res, _ = _forward_one(cfg, True, x, state, p, None, bufs)",
         tests=[TJ + "test_remat_of_a_ragged_batchnorm_batch_passes_check_grads"] + OLD_JAX,
         why="remat's rerun of the forward ignores lengths: a ragged batch's gradients use residuals of full rows"),
    dict(name="v225-jax-inference-grows-stats", file=JAX,
         old="            if training and v.shape[0] < T:",
         new="            if v.shape[0] < T:",
         tests=[TJ + "test_inference_hands_back_fewer_rows_than_steps_as_given_and_reads_the_last_one_on"] + OLD_JAX,
         why="inference grows the population statistics to T rows: mutable=True hands back more rows than it got"),
    dict(name="v225-jax-empty-stats-made-fresh", file=JAX,
         old="    if stats is None:\n        if not training:",
         new="    if not stats:\n        if not training:",
         tests=[TJ + "test_batchnorm_without_statistics_or_with_an_empty_dict_is_refused"] + OLD_JAX,
         why="stats={} for a BatchNorm stack is taken as no stats (fresh ones in training) instead of refused"),
    dict(name="v225-jax-mismatch-counts-directions-as-layers", file=JAX,
         old='raise ValueError(f"params do not match a {L}-layer {spec.name} stack',
         new='raise ValueError(f"params do not match a {L * D}-layer {spec.name} stack',
         tests=[TJ + "test_params_of_another_cell_are_refused_with_the_stacks_layer_count"] + OLD_JAX,
         why="the refusal of params for another cell calls a one-layer bidirectional stack two-layer"),
    dict(name="v225-jax-shape-check-rank-only", file=JAX,
         old="            if tuple(a.shape) != tuple(want_shape):",
         new="            if a.ndim != len(want_shape):",
         tests=[TJ + "test_a_bias_hh_of_one_element_is_refused_not_broadcast"] + OLD_JAX,
         why="a parameter of the right rank but the wrong sizes passes (a (1,) bias_hh broadcasts into every gate)"),
    dict(name="v225-jax-backward-direction-reads-forward-stats", file=JAX,
         old="                                    bufs[j])",
         new="                                    bufs[k])",
         tests=[TJ + "test_a_bidirectional_batchnorm_stacks_backward_direction_has_its_own_statistics"] + OLD_JAX,
         why="a bidirectional BatchNorm stack's backward direction reads (and updates from) the forward's statistics"),
    dict(name="v225-export-header-length-message-counts-prefix", file=EXPORT,
         old='f"{path}: header length {n} runs past the end of the file"',
         new='f"{path}: header length {8 + n} runs past the end of the file"',
         tests=[TE + "test_a_header_length_past_the_end_by_one_byte_is_refused_with_that_length"] + OLD_EXPORT,
         why="the refusal of a too-long header names the length plus the 8-byte prefix, not the length the file says"),
    dict(name="v225-export-spans-recorded-empty", file=EXPORT,
         old="        spans.append((b, e))",
         new="        spans.append((b, b))",
         tests=[TE + "test_tensors_with_a_gap_or_an_overlap_are_refused_and_back_to_back_ones_read"] + OLD_EXPORT,
         why="every span is recorded empty: the back-to-back check never fires (gaps and overlaps are read)"),
    dict(name="v225-export-config-of-the-stack", file=EXPORT,
         old='"model_config": json.dumps(run.model.config, sort_keys=True)',
         new='"model_config": json.dumps(run.model.stack.config, sort_keys=True)',
         tests=[TE + "test_the_metadata_holds_the_models_config_and_load_export_hands_it_back"] + OLD_EXPORT,
         why="the metadata's model config is the stack's (no head, no state noise), not the model's"),
    dict(name="v225-export-offsets-message-names-length", file=EXPORT,
         old='raise ValueError(f"{path}: {name} has offsets {b}..{e} that do not fit',
         new='raise ValueError(f"{path}: {name} has offsets {b}..{e - b} that do not fit',
         tests=[TE + "test_offsets_that_do_not_fit_the_shape_are_named_as_written"] + OLD_EXPORT,
         why="the refusal of offsets that do not fit the shape names the tensor's byte count as its end offset"),
]
