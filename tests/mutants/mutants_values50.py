"""Planted bugs, round 50 (format: tests/mutants/mutants.py): single-line slips in the JAX binding and the Python
API, on lines no earlier round mutates. lnrnn.jax: a backward direction named by its flat index instead of its
layer, init_stats of a bidirectional stack making one entry per layer, params_from_stack asking the stack's
directions count (always true) for whether it is bidirectional, load_export leaving the BatchNorm statistics in
the parameters, a bad weight of a layer above the first explained with the stack's input size, the lengths'
value check run on traced lengths only, a bidirectional layer's halves concatenated [backward | forward],
_reverse_valid's lengths broadcast down the time axis, the default statistics of a bidirectional BatchNorm stack
made one-way, and vmap's folded forward reshaping its input without moving the mapped axis behind time or
splitting its residuals' rows as (B,V). lnrnn.api: Run.step reading the epoch, "0 finished epoch" in singular,
task_spec handing out the checkpoint's own dict (evaluate_run's data_dir override sticking to the Run), the
input/head mismatch check needing both, an evaluation of the training set counting the validation rows,
predict's classes taken over the batch axis and a per-step prediction's lengths left as given (None),
require_reader passing a CTC run without a stroke scale, export_run of a run folder not loading it, fit()'s
option check letting fixed and unknown options through, and fit() writing the validation set without its lengths.

22 mutants. Against the existing targeted tests alone 11 were caught and 11 missed: the message of a bad layer
above the first (the old test matches the message's start only) and ten of the eleven API mutants (the old API
tests build their checkpoints by hand or load the pretrained reader, and none reads a trained run's step or
description, evaluates on other data or counts the training set, exports a run folder, asks fit() for a fixed or
unknown option or reads its data file, reads a per-step prediction's lengths or hands read() a CTC run without a
stroke scale); every other lnrnn.jax mutant fails the old JAX tests. The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): tests/interop/test_values50_jax.py compares apply's y, h_n,
c_n and the gradients of the parameters, x and the initial state (one-way and bidirectional, two layers, ragged
rows with a row of length 0, remat, batch_first with c_n in the loss, vmap of the gradient over examples) with
JAX's autodiff of a plain jax.numpy stack written there, which runs each row alone over its own valid steps (a
backward direction over them reversed); and the trees with their documented torch names and shapes (init,
init_stats, params_from_stack, load_export of an export), a bidirectional BatchNorm stack trained without stats
with init_stats', the message of a bad layer above the first and lengths above T refused eagerly.
tests/test_values50_api.py trains two tiny runs with lnrnn.fit (2 updates inside the first epoch; one whole
epoch of a two-layer per-step classifier) and holds load_run, describe, predict, evaluate_run, export_run, fit
and require_reader to a NumPy LSTM run there (softmax of the head at each row's last valid step), to
predict's probabilities of the true classes (loss and accuracy), to the counts the runs were trained with and
to the model's own arrays under the export's documented names. Dropped before the catalogue as equivalent:
StepPredictions.probability without np.maximum (take_along_axis then reads class -1, which np.where replaces
by NaN), _read_only leaving the views writeable (the kernels never write their inputs), _param_names putting
bias_hh after the norm's parameters (every reader looks names up in a dict) and _backward_one's dtype taken from
y (x, y and the parameters share one dtype). Also left out: the forward callback's H read from the state's batch
axis (a shape error whenever B != H, which every test with B != H shows at once).

    python tests/mutants/run.py --only 'v50-*'
"""
JAX = "lnrnn/interop/jax.py"
API = "lnrnn/api.py"

# existing tests of these modules
JAX_OLD = ["tests/interop/test_values19_jax.py", "tests/interop/test_values41_jax.py",
           "tests/interop/test_values23_jax.py", "tests/interop/test_jax_bidirectional.py",
           "tests/interop/test_jax.py"]   # the long gradient checks last
API_OLD = ["tests/test_values_api.py", "tests/test_values10_api.py", "tests/test_values15_api.py",
           "tests/test_values27_api.py", "tests/test_values46_api.py", "tests/test_values_api_read.py",
           "tests/interop/test_predict_export.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
JAX_NEW = ["tests/interop/test_values50_jax.py"]
API_NEW = ["tests/test_values50_api.py"]

MUTANTS = [
    # ---- lnrnn.jax: parameter and statistics trees ----
    dict(name="v50-jax-reverse-suffix-counts-flat-layers", file=JAX,
         old='    return f"l{k}_reverse" if d else f"l{k}"',
         new='    return f"l{j}_reverse" if d else f"l{k}"',
         tests=JAX_NEW + JAX_OLD,
         why="a backward direction is named by its flat index j, not its layer k: init's bidirectional tree "
             "holds weight_ih_l1_reverse for layer 0 and weight_ih_l3_reverse for layer 1, which apply reads as "
             "a one-way stack (no weight_ih_l0_reverse) and refuses"),
    dict(name="v50-jax-init-stats-one-row-per-layer", file=JAX,
         old="    return {name: jnp.asarray(bufs[n]) for j in range(L * D) for n, name, _ in _stat_names(spec, j, D)}",
         new="    return {name: jnp.asarray(bufs[n]) for j in range(L) for n, name, _ in _stat_names(spec, j, D)}",
         tests=JAX_NEW + JAX_OLD,
         why="init_stats of a bidirectional stack makes L (layer, direction) entries instead of 2L: a two-layer "
             "stack gets l0 and l0_reverse and no statistics for layer 1"),
    dict(name="v50-jax-params-from-stack-directions-attribute", file=JAX,
         old='    D = stack.directions',
         new='    D = 2 if stack.directions else 1',
         tests=JAX_NEW + JAX_OLD,
         why="params_from_stack asks the stack's directions count (1 or 2, always true) instead of whether it is "
             "bidirectional: a two-layer one-way stack comes out as l0 and l0_reverse"),
    dict(name="v50-jax-load-export-stats-left-in-params", file=JAX,
         old="    return {k: v for k, v in stack.items() if k not in stats}, stats, config",
         new="    return stack, stats, config",
         tests=JAX_NEW + JAX_OLD,
         why="load_export returns the BatchNorm statistics in the parameter dict as well: apply refuses them as "
             "unexpected names and a gradient would be taken for them"),
    dict(name="v50-jax-shape-message-names-the-stacks-input", file=JAX,
         old='f"size {Ik} and hidden size {H}.")',
         new='f"size {I} and hidden size {H}.")',
         tests=JAX_NEW + JAX_OLD,
         why="a wrongly shaped weight of a layer above the first is explained with the stack's input size I "
             "instead of that layer's input size (H, or 2H when bidirectional)"),
    # ---- lnrnn.jax: lengths, directions, BN statistics ----
    dict(name="v50-jax-lengths-checked-only-under-jit", file=JAX,
         old="    if not isinstance(a, jax.core.Tracer):",
         new="    if isinstance(a, jax.core.Tracer):",
         tests=JAX_NEW + JAX_OLD,
         why="the lengths' value check runs on traced lengths (where it cannot) and skips concrete ones: lengths "
             "above T pass apply's boundary"),
    dict(name="v50-jax-directions-concatenated-backward-first", file=JAX,
         old="        inp = jnp.concatenate(ys, axis=2) if D == 2 else ys[0]",
         new="        inp = jnp.concatenate(ys[::-1], axis=2) if D == 2 else ys[0]",
         tests=JAX_NEW + JAX_OLD,
         why="a bidirectional layer's output is [backward | forward] instead of torch's [forward | backward]: y "
             "and every layer above the first read the halves swapped"),
    dict(name="v50-jax-reverse-valid-lengths-as-a-column", file=JAX,
         old="    L = lengths[None, :]",
         new="    L = lengths[:, None]",
         tests=JAX_NEW + JAX_OLD,
         why="_reverse_valid broadcasts the lengths down the time axis: (B,1) against t (T,1) reverses each step "
             "by the length of the row with that step's index (or fails to broadcast when T != B)"),
    dict(name="v50-jax-default-bn-stats-one-way", file=JAX,
         old="        stats = init_stats(spec.cell, spec.norm, H, L, T, dtype=dt, bidirectional=D == 2)",
         new="        stats = init_stats(spec.cell, spec.norm, H, L, T, dtype=dt)",
         tests=JAX_NEW + JAX_OLD,
         why="a bidirectional BatchNorm stack trained without stats= makes one-way statistics: the backward "
             "directions' are missing and apply refuses the call it documents as the default"),
    # ---- lnrnn.jax: the callbacks, vmap ----
    dict(name="v50-jax-folded-batch-not-time-major", file=JAX,
         old="    xf = np.ascontiguousarray(np.moveaxis(rows(x), 0, 1)).reshape(T, V * B, I)",
         new="    xf = np.ascontiguousarray(rows(x)).reshape(T, V * B, I)",
         tests=JAX_NEW + JAX_OLD,
         why="vmap's folded forward reshapes (V,T,B,I) to (T,V*B,I) without moving the mapped axis behind time: "
             "steps of one example become rows of others"),
    dict(name="v50-jax-folded-residuals-example-minor", file=JAX,
         old="        r = r.reshape(r.shape[:a] + (V, B) + r.shape[a + 1:])",
         new="        r = r.reshape(r.shape[:a] + (B, V) + r.shape[a + 1:])",
         tests=JAX_NEW + JAX_OLD,
         why="the folded forward splits its residuals' row axis as (B,V) instead of (V,B): each example's "
             "backward runs on rows of other examples (vmap of a gradient is wrong, the forward right)"),
    # ---- lnrnn.api: Run ----
    dict(name="v50-api-run-step-reads-the-epoch", file=API,
         old='        return self.meta.get("step")',
         new='        return self.meta.get("epoch")',
         tests=API_NEW + API_OLD,
         why="Run.step (and so describe() and an export's step) gives the finished epochs, not the updates"),
    dict(name="v50-api-describe-zero-epochs-singular", file=API,
         old="{'s' * (self.epoch != 1)}",
         new="{'s' * (self.epoch > 1)}",
         tests=API_NEW + API_OLD,
         why="a run stopped inside its first epoch is described as '0 finished epoch'"),
    dict(name="v50-api-task-spec-is-the-checkpoints-own", file=API,
         old='        return dict(self.meta.get("task") or {})',
         new='        return self.meta.get("task") or {}',
         tests=API_NEW + API_OLD,
         why="task_spec hands out the metadata's own dict: evaluate_run's data_dir or split override sticks to the "
             "Run, and a later evaluate_run without it reads the other data"),
    # ---- lnrnn.api: evaluate_run ----
    dict(name="v50-api-evaluate-mismatch-needs-both", file=API,
         old="    if m[\"input_size\"] != task.input_size or head != want:",
         new="    if m[\"input_size\"] != task.input_size and head != want:",
         tests=API_NEW + API_OLD,
         why="data of another input size with the same head (or the same inputs and another head) pass the "
             "check and fail later inside the model, not as the one-sentence CheckpointError"),
    dict(name="v50-api-evaluate-counts-the-val-set", file=API,
         old="    return Evaluation(means, task.size(which), which, task)",
         new='    return Evaluation(means, task.size("val"), which, task)',
         tests=API_NEW + API_OLD,
         why="an evaluation of the training set reports the validation set's sequence count"),
    # ---- lnrnn.api: predict ----
    dict(name="v50-api-predict-classes-over-the-batch-axis", file=API,
         old="        return Predictions(probs.argmax(1).astype(np.int64), probs)",
         new="        return Predictions(probs.argmax(0).astype(np.int64), probs)",
         tests=API_NEW + API_OLD,
         why="a classifier's classes are the argmax over the sequences (one per class) instead of over the classes"),
    dict(name="v50-api-step-predictions-lengths-as-given", file=API,
         old="    return StepPredictions(classes, probs, L)",
         new="    return StepPredictions(classes, probs, lengths)",
         tests=API_NEW + API_OLD,
         why="StepPredictions.lengths is None when no lengths were given (and the caller's array otherwise), not "
             "the (N,) int64 lengths the predictions were made with"),
    dict(name="v50-api-reader-check-skips-the-scale", file=API,
         old='    if head.kind != "ctc" or getattr(head, "scale", None) is None:',
         new='    if head.kind != "ctc":',
         tests=API_NEW + API_OLD,
         why="a CTC run without a stroke scale (a reader of plain arrays) passes require_reader and read fails "
             "later on its missing normalization instead of the one-sentence UserError"),
    # ---- lnrnn.api: export_run, fit ----
    dict(name="v50-api-export-run-takes-a-loaded-run-only", file=API,
         old="    return export_weights(_as_run(run), path, fmt)",
         new="    return export_weights(run, path, fmt)",
         tests=API_NEW + API_OLD,
         why="export_run of a run folder (a str) hands the path to export_weights, which needs a loaded Run: an "
             "AttributeError instead of the export the docstring promises"),
    dict(name="v50-api-fit-options-check-needs-both", file=API,
         old="        if name in FIT_FIXED or name not in fields:",
         new="        if name in FIT_FIXED and name not in fields:",
         tests=API_NEW + API_OLD,
         why="fit() lets fixed options (task=, steps=) and unknown ones through: a TypeError from TrainConfig or a "
             "fit on another task instead of the UserError listing the options"),
    dict(name="v50-api-fit-drops-the-validation-lengths", file=API,
         old='    arrays = {k: checked[k] for k in ("x", "y", "lengths", "x_val", "y_val", "lengths_val") '
             'if checked.get(k) is not None}',
         new='    arrays = {k: checked[k] for k in ("x", "y", "lengths", "x_val", "y_val") '
             'if checked.get(k) is not None}',
         tests=API_NEW + API_OLD,
         why="fit() writes the validation set without its lengths: its padded steps count as data in every "
             "evaluation of the run"),
]
