"""Planted bugs, round 140 (format: tests/mutants/mutants.py): single-line slips in the Python API and the JAX
binding, a seventh pass on lines no earlier round mutates: Run.train_config reading the task's record, describe()
naming cell-norm instead of norm-cell, _count's message quoting 1 as the least value (a negative seed), _head_words'
components taken from the outputs, StepPredictions.probability gathering along the steps, require_reader looking for
the alphabet outside the run's text record, sample_run checking steps twice instead of count, fit() taking steps=
(dropped from the options it fixes); lnrnn.jax.apply's default norm none instead of 'ln', h0 and c0 swapped in the
state checks' messages, a BN-LSTM gate statistic's width quoted as H, a parameter's dtype and x's swapped in the
message, stats given to a stack without BatchNorm let through in inference, a missing statistic named by its
internal key.

14 mutants. Against the existing targeted tests alone 3 were caught and 11 missed: describe's order, _count's least
value, _head_words' components, sample_run's count, fit's steps, apply's default norm, the swapped h0/c0, the
statistic's width, the swapped dtypes, stats on a plain stack in inference and the missing statistic's name (no old
test reads those messages, calls apply without a norm, or builds a Run without a train cell). The old JAX tests were
measured on the four most direct tests of tests/interop/test_jax.py (the lists below) and
tests/interop/test_values86_jax.py, not the whole file: the full JAX files take minutes. The new value tests catch
every mutant on their own (checked with the old tests taken off the lists): test_values140_api (a Run built from a
description written here: train_config, task_spec, block_rows and describe() against it; StepPredictions.probability
against a loop over the steps; require_reader's alphabet and scale, and the corrupt checkpoint whose alphabet does
not fit its CTC classes; both kinds of _head_words; sample_run's and fit()'s one-sentence messages, fit's list of
options against TrainConfig's fields less what its docstring says it fixes, nothing written), test_values140_jax
(apply with its defaults against the NumPy reference LN-LSTM, lnrnn.reference.lstm_forward, run layer by layer on
the same weights, from a given and from the zero state; jax.test_util.check_grads of it in float64; the messages of
the state, lengths, dtype and statistics checks, each matched whole). Dropped: apply's lengths message counting T
instead of B (the old test_user_errors_are_one_sentence already catches it, T = 5 and B = 4; the new file checks it
too); not planted: the statistics grown in inference too (y is the same, inference reads row min(t, Ts-1), but
mutable=True would hand back the grown statistics: left for another pass); StepPredictions.probability without
np.maximum(classes, 0) (index -1 reads the last class, then masked to NaN: equivalent); _stat_names' ("rm", "rv")
order and the bias_hh slot in _param_names (dict order only: equivalent).

    python tests/mutants/run.py --only 'v140-*'
"""
API = "lnrnn/api.py"
JAX = "lnrnn/interop/jax.py"

# existing tests of these modules
API_OLD = ["tests/test_values_api.py", "tests/test_values101_api.py", "tests/test_values117_api.py",
           "tests/test_values_api_read.py", "tests/test_values46_api.py"]
J = "tests/interop/test_jax.py"
JAX_OLD = [f"{J}::test_user_errors_are_one_sentence", f"{J}::test_batch_first_and_default_state",
           f"{J}::test_half_precision_and_mixed_dtypes_are_refused_in_one_sentence",
           f"{J}::test_batchnorm_inference_and_statistics_like_flax", "tests/interop/test_values86_jax.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
API_NEW = ["tests/test_values140_api.py"]
JAX_NEW = ["tests/interop/test_values140_jax.py"]

MUTANTS = [
    # ---- lnrnn/api.py: Run's fields, the checks' messages, predictions, the reader, sample_run, fit ----
    dict(name="v140-api-train-config-from-task", file=API,
         old='        return dict(self.meta.get("train") or {})',
         new='        return dict(self.meta.get("task") or {})',
         tests=API_NEW + API_OLD,
         why="Run.train_config reads the task's spec (a copy of task_spec's line): block_rows, eval_batch_size and "
             "the cell describe() names fall back to their defaults"),
    dict(name="v140-api-describe-cell-order", file=API,
         old="""named = m['cell'] if m['norm'] == "none" else f"{m['norm']}-{m['cell']}"  # the --cell spelling""",
         new="""named = m['cell'] if m['norm'] == "none" else f"{m['cell']}-{m['norm']}"  # the --cell spelling""",
         tests=API_NEW + API_OLD,
         why="describe() of a run whose train settings do not name the cell writes 'lstm-ln' for an ln-lstm"),
    dict(name="v140-api-count-message-least-1", file=API,
         old='raise UserError(f"{name} must be a whole number of at least {least}{hint}, not {value!r}.")',
         new='raise UserError(f"{name} must be a whole number of at least 1{hint}, not {value!r}.")',
         tests=API_NEW + API_OLD,
         why="a negative seed is told it must be at least 1, where 0 is allowed"),
    dict(name="v140-api-head-words-components-from-outputs", file=API,
         old="_how_many(head.get('components', '?'), 'component')",
         new="_how_many(head.get('outputs', '?'), 'component')",
         tests=API_NEW + API_OLD,
         why="a mixture density head is described with '?' components in evaluate_run's mismatch message"),
    dict(name="v140-api-step-probability-along-time", file=API,
         old="axis=-1)[..., 0]",
         new="axis=1)[..., 0]",
         tests=API_NEW + API_OLD,
         why="StepPredictions.probability gathers along the steps, not the classes: p[n, class, 0] instead of "
             "p[n, t, class]"),
    dict(name="v140-api-reader-alphabet-at-top-level", file=API,
         old='alphabet = record.get("alphabet") if isinstance(record, dict) else None',
         new='alphabet = run.meta.get("alphabet")',
         tests=API_NEW + API_OLD,
         why="require_reader looks for the alphabet beside the run's settings instead of in its text record: "
             "every reader is refused as corrupt"),
    dict(name="v140-api-sample-count-checked-as-steps", file=API,
         old='for what, v in (("steps", steps), ("count", count)):',
         new='for what, v in (("steps", steps), ("count", steps)):',
         tests=API_NEW + API_OLD,
         why="sample_run checks steps twice (a copy-paste): count=0 is let through to the sampler"),
    dict(name="v140-api-fit-steps-not-fixed", file=API,
         old='FIT_FIXED = ("task", "data_dir", "charset", "allow_pickle", "steps", "out", "cell", "objective")',
         new='FIT_FIXED = ("task", "data_dir", "charset", "allow_pickle", "out", "cell", "objective")',
         tests=API_NEW + API_OLD,
         why="fit() takes steps= (a synthetic task's length, meaningless for the arrays given) and lists it among "
             "its options"),
    # ---- lnrnn/interop/jax.py: apply's defaults and the messages of its input checks ----
    dict(name="v140-jax-apply-default-norm-none", file=JAX,
         old='def apply(params, x, state=None, lengths=None, cell="lstm", norm="ln", *,',
         new='def apply(params, x, state=None, lengths=None, cell="lstm", norm=None, *,',
         tests=JAX_NEW + JAX_OLD,
         why="apply's default norm is none, not 'ln' as its signature documents: the parameters init('lstm', 'ln') "
             "makes are refused unless norm is passed"),
    dict(name="v140-jax-state-message-names-swapped", file=JAX,
         old='for n, s in zip(("h0", "c0"), parts):',
         new='for n, s in zip(("c0", "h0"), parts):',
         tests=JAX_NEW + JAX_OLD,
         why="a wrong shape or dtype of c0 is blamed on h0 (and of h0 on c0)"),
    dict(name="v140-jax-stats-message-width-H", file=JAX,
         old='raise ValueError(f"{name} must be a (steps, {spec.width(H, w)}) {dt} array',
         new='raise ValueError(f"{name} must be a (steps, {H}) {dt} array',
         tests=JAX_NEW + JAX_OLD,
         why="a BN-LSTM gate statistic of the wrong width is told to be H wide where it is 4H"),
    dict(name="v140-jax-param-dtype-message-swapped", file=JAX,
         old='raise TypeError(f"{name} is {jnp.asarray(v).dtype} but x is {dt}: pass x',
         new='raise TypeError(f"{name} is {dt} but x is {jnp.asarray(v).dtype}: pass x',
         tests=JAX_NEW + JAX_OLD,
         why="a parameter of another dtype than x is reported with the two dtypes the other way round"),
    dict(name="v140-jax-stats-on-plain-stack-checked-in-training-only", file=JAX,
         old="        if stats:\n",
         new="        if stats and training:\n",
         tests=JAX_NEW + JAX_OLD,
         why="stats given to a stack without BatchNorm are ignored in inference (training=False) instead of "
             "refused"),
    dict(name="v140-jax-stats-missing-message-internal-key", file=JAX,
         old='raise ValueError(f"stats lack {name}: pass',
         new='raise ValueError(f"stats lack {n}: pass',
         tests=JAX_NEW + JAX_OLD,
         why="a missing statistic is named by its internal key (rmx) instead of the name init_stats gave it"),
]
