"""Planted bugs, round 256 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the heads (lnrnn/model/heads.py), the synthesis window's stack (lnrnn/model/window.py) and the
sampler (lnrnn/sample.py): the mean over a batch of no scored unit dividing by zero; a per-step classifier
reading its (B,T) labels without turning them to (T,B) (wrong numbers on a square batch, a crash elsewhere);
a regression head's tolerance ignored for the default 0.04; a regression head's weights drawn from seed 0
whatever seed is given; a mixture's output-count refusal with its two counts swapped; the component-count
refusal naming the count after int() instead of what was given; an unknown head refused naming the whole
config instead of its kind; an unknown window_norm refused naming the stack's norm; a wrong count of layer
states refused with the two counts swapped; a free model given a text sent on into the writing path instead
of refused (and a synthesis model refused); a synthesis model given no lines told to give them with
prime_strokes; .npy prime files refused as of the wrong extension; pickled .npy primes loaded instead of
refused.

13 mutants. Against the old targeted files alone: 6 of 13 caught; they missed a batch of no scored unit dividing by
zero, a regression head's seed dropped, the component-count refusal naming int() of the value, an unknown head kind
refused naming the whole config, the layer-state count refusal swapped, the no-lines refusal naming prime_strokes,
and a prime file's pickles loaded. The new value tests catch every mutant on their own (checked with the old files
taken off the lists): test_values256_heads (a per-step classifier on T = B = 3 with lengths 0, 3, 2 and a -1 label
against log-softmax, argmax hits and scored steps counted in NumPy here; means of an all-length-0 batch; a
regression's acc at tolerance 0.3 with errors of 0.29 and 0.31; its W against default_rng([seed, 7]) drawn here;
three refusals word for word), test_values256_window (the window_norm and layer-count refusals word for word),
test_values256_sampler (the free model's refusal and the no-lines refusal word for word, a .npy prime in both
extension cases read back, a pickled .npy refused as pickled, a .txt refused naming .npz and .npy, nothing written).

Left out as equivalent: the classifier forward's safe = where(valid, ...) for where(mask, ...) (a -1 label on
a valid step picks the last class, but both the loss sum and the gradient multiply it by the mask's 0);
WindowStack.step's phi[0] made phi[-1] (a step's forward has T = 1). Left out as a crash on every use rather
than a value: the window layer's (h, c) state widened only for len(state) == 4 (a 2-array state then reaches the
kernel short of kappa and w). The stop rule itself (past_the_end, the step loop's n, running and
capped) and the window's kappa/phi arithmetic are mutated by earlier rounds; no line of them is left.

    python tests/mutants/run.py --only 'v256-*'
"""
HEADS = "lnrnn/model/heads.py"
WINDOW = "lnrnn/model/window.py"
SAMPLE = "lnrnn/sample.py"

T_HEADS = "tests/model/test_values256_heads.py::"
T_WINDOW = "tests/model/test_values256_window.py::"
T_SAMPLE = "tests/commands/test_values256_sampler.py::"
OLD_HEADS = ["tests/model/test_values250_heads.py", "tests/model/test_values235_heads.py"]
OLD_WINDOW = ["tests/model/test_values238_window_model.py"]
OLD_SAMPLE = ["tests/test_values238_sampler.py", "tests/commands/test_values52_sampler.py"]

MUTANTS = [
    # ---- the heads: lnrnn/model/heads.py ----
    dict(name="v256-heads-mean-divides-by-count", file=HEADS,
         old="        return {m: sums[m] / c for m in self.metrics}",
         new="        return {m: sums[m] / count for m in self.metrics}",
         tests=[T_HEADS + "test_a_batch_of_no_scored_unit_has_mean_zero"] + OLD_HEADS,
         why="a batch whose every row has length 0 divides its metrics by zero instead of giving 0"),
    dict(name="v256-heads-classifier-labels-untransposed", file=HEADS,
         old="        lab = self._labels(targets)\n",
         new="        lab = np.asarray(targets)\n",
         tests=[T_HEADS + "test_per_step_classifier_on_a_square_batch_reads_labels_by_row_and_step"] + OLD_HEADS,
         why="a per-step classifier scores step t of row b against label[t, b]: wrong loss and acc when T = B"),
    dict(name="v256-heads-regression-tolerance-ignored", file=HEADS,
         old="        self.tolerance = float(tolerance)",
         new="        self.tolerance = float(0.04)",
         tests=[T_HEADS + "test_regression_acc_counts_errors_below_its_own_tolerance"] + OLD_HEADS,
         why="--tolerance is dropped: a regression's acc always counts errors below 0.04"),
    dict(name="v256-heads-regression-seed-dropped", file=HEADS,
         old="        super().__init__(hidden_size, outputs, per_step, dtype, seed)",
         new="        super().__init__(hidden_size, outputs, per_step, dtype)",
         tests=[T_HEADS + "test_regression_weights_come_from_the_seed_given"] + OLD_HEADS,
         why="a regression head's weights come from seed 0 whatever --seed is"),
    dict(name="v256-heads-mdn-output-counts-swapped", file=HEADS,
         old="has {K} outputs, not {outputs}",
         new="has {outputs} outputs, not {K}",
         tests=[T_HEADS + "test_mixture_output_count_refused_naming_both"] + OLD_HEADS,
         why="a wrong output count is refused saying the mixture has the count given, not the one it needs"),
    dict(name="v256-heads-mdn-components-names-int", file=HEADS,
         old='raise ValueError(f"components must be at least 1, got {components}")',
         new='raise ValueError(f"components must be at least 1, got {self.M}")',
         tests=[T_HEADS + "test_mixture_of_no_component_refused_naming_what_was_given"] + OLD_HEADS,
         why="components=0.5 is refused as 'got 0', a value nobody gave"),
    dict(name="v256-heads-unknown-kind-names-config", file=HEADS,
         old='raise ValueError(f"unknown head {kind!r}; expected',
         new='raise ValueError(f"unknown head {config!r}; expected',
         tests=[T_HEADS + "test_unknown_head_kind_refused_naming_the_kind"] + OLD_HEADS,
         why="an unknown head kind is refused naming the whole config dict instead of the kind"),
    # ---- the synthesis stack: lnrnn/model/window.py ----
    dict(name="v256-window-norm-refusal-names-stack-norm", file=WINDOW,
         old='                             f"got {window_norm!r}")',
         new='                             f"got {norm!r}")',
         tests=[T_WINDOW + "test_an_unknown_window_norm_is_refused_naming_it"] + OLD_WINDOW,
         why="window_norm='layer' is refused as 'got 'ln'' (the stack's norm), not the value given"),
    dict(name="v256-window-state-count-refusal-swapped", file=WINDOW,
         old='per layer ({len(self.layers)}), got {len(state)}',
         new='per layer ({len(state)}), got {len(self.layers)}',
         tests=[T_WINDOW + "test_states_for_another_layer_count_are_refused_naming_both_counts"] + OLD_WINDOW,
         why="states for 3 layers given to a 2-layer stack are refused as 'one entry per layer (3), got 2'"),
    # ---- the sampler: lnrnn/sample.py ----
    dict(name="v256-sample-free-model-check-inverted", file=SAMPLE,
         old='    if not model.conditioned:\n        raise UserError("this model was trained without text',
         new='    if model.conditioned:\n        raise UserError("this model was trained without text',
         tests=[T_SAMPLE + "test_a_free_model_given_a_text_is_refused_and_a_text_model_writes"] + OLD_SAMPLE,
         why="a synthesis model is refused as trained without text, and a free model given a text goes on to crash"),
    dict(name="v256-sample-no-lines-names-prime-strokes", file=SAMPLE,
         old='f"the lines to write with {t}.")',
         new='f"the lines to write with {ps}.")',
         tests=[T_SAMPLE + "test_a_text_model_given_no_lines_is_told_to_give_them_with_text"] + OLD_SAMPLE,
         why="a synthesis run given no lines is told to give them with prime_strokes (--prime-strokes)"),
    dict(name="v256-sample-npy-extension-refused", file=SAMPLE,
         old='    if ext not in (".npz", ".npy"):',
         new='    if ext not in (".npz",):',
         tests=[T_SAMPLE + "test_a_npy_prime_is_read"] + OLD_SAMPLE,
         why="a .npy prime file is refused as of the wrong extension"),
    dict(name="v256-sample-prime-pickles-loaded", file=SAMPLE,
         old="np.load(text, allow_pickle=False)",
         new="np.load(text, allow_pickle=True)",
         tests=[T_SAMPLE + "test_a_npy_of_pickled_objects_is_refused_unread"] + OLD_SAMPLE,
         why="a prime file's pickled objects are unpickled (code run from a file) before being refused as not numbers"),
]
