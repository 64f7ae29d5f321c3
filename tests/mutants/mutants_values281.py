"""Planted bugs, round 281 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the text metrics (lnrnn/textmetrics.py), the handwriting judge (lnrnn/judge.py), the per-step
diagnostics (lnrnn/diagnostics.py), the gradient checker (lnrnn/gradcheck.py) and lnrnn gradcheck
(lnrnn/commands/gradcheck.py), thirteenth pass: edit_distance's inner loop numbering the hypothesis from 0;
error_rates counting word edits where character edits belong (over the characters asked); the compiled
label_edit_distances never filling the last hypothesis column; the judge's mean travel averaging the peak phis;
its table reading 'read -> asked'; its summary's all-edits CER printing the mean of the lines' CER; check_judge
naming the characters a reader lacks without quotes; the diagnostics' std returned as a variance; their head
reading the bottom layer of a stack without skip connections; a layer-normalized RNN replayed with gains of 1;
rel_error computing in float32; check_stack naming each LSTM's c0 as h0; lnrnn gradcheck's size refusal naming
--steps' value for every option; its tolerance refusal naming the default tolerance instead of the one given.

14 mutants. Against the old targeted files alone: 10 of 14 caught (missed: an LN-RNN replayed with gains of 1, an
LSTM's c0 named h0 so h0 goes unchecked, gradcheck's size refusal naming --steps, its tolerance refusal naming the
default). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values281_textmetrics (edit distances written out by hand at empty strings, one character, repeated characters,
a hypothesis longer than the reference, cross-checked with test_values48_textmetrics' brute-force recursion; CER and
WER of one line; the empty reference's refusal word for word; error_rates over two lines with 5 character and 2 word
edits; padded label rows whose distance hangs on the last hypothesis label), test_values281_judge (summary and the
table with its summary sentence written out by hand over three lines where the mean CER, the all-edits CER, the mean
travel and the mean peak phi all differ; check_judge's refusal of 'c' and '?' word for word on stand-in runs),
test_values281_diagnostics (the masked std and saturation share on hand-fed arrays, a value of exactly 3 not
counted; per_step on a two-layer layer-normalized RNN with gains moved off 1: its loss against the model's own
loss_and_grad and each layer's h_std against the std of the compiled layers' outputs), test_values281_gradcheck
(rel_error of 1 + d against 1 by its definition d / (2 + d) at d = 1e-9 .. 3e-6 and its verdict either side of d =
2e-6; check_stack's names for two-layer LSTM and RNN stacks: the stack's parameters, x, then l0.h0, l0.c0, l1.h0,
l1.c0), test_values281_gradcheck_cli (refusals of --hidden, --input, --layers, --max-elems and --tolerance word for
word with the values given, exit status 2, no check run). Left out as equivalent: edit_distance's `prev = cur` made
a copy (cur is rebuilt every row); label_edit_distances' B taken from hyp (both arrays have B rows); sample_idx's
arr.size <= k made < (round 267: k distinct of k, sorted, is arange(k)); export's format passed as the literal
'safetensors' (the option's only choice). Left out as not cheap or not observable: replay_kappa's padding and code
lines (a synthesis writer replayed independently is a test of its own; tests/test_values20_judge.py covers the
replay against the sampler); check_model's output counts and gradcheck's per-mode heads (only the errors' digits
change, and they stay under the tolerance); eval's and export's remaining lines (decorators, imports and load_run,
whose slips crash at import or at the first call).

    python tests/mutants/run.py --only 'v281-*'
"""
TEXT = "lnrnn/textmetrics.py"
JUDGE = "lnrnn/judge.py"
DIAG = "lnrnn/diagnostics.py"
GRAD = "lnrnn/gradcheck.py"
CLI = "lnrnn/commands/gradcheck.py"

T_TEXT = "tests/test_values281_textmetrics.py::"
T_JUDGE = "tests/test_values281_judge.py::"
T_DIAG = "tests/test_values281_diagnostics.py::"
T_GRAD = "tests/test_values281_gradcheck.py::"
T_CLI = "tests/commands/test_values281_gradcheck_cli.py::"
OLD_TEXT = ["tests/test_values48_textmetrics.py", "tests/test_values235_textmetrics.py",
            "tests/test_values137_textmetrics.py"]
OLD_JUDGE = ["tests/test_values267_judge.py", "tests/test_values184_judge.py", "tests/test_values70_judge.py"]
OLD_DIAG = ["tests/test_values267_diagnostics.py", "tests/test_values184_diagnostics.py",
            "tests/test_diagnostics.py"]
OLD_GRAD = ["tests/test_values267_gradcheck.py", "tests/test_values27_gradcheck.py",
            "tests/test_values9_gradcheck.py"]
OLD_CLI = ["tests/commands/test_gradcheck_cli.py", "tests/commands/test_values253_gradcheck.py",
           "tests/commands/test_values215_gradcheck.py"]

MUTANTS = [
    # ---- text metrics: lnrnn/textmetrics.py ----
    dict(name="v281-textmetrics-hyp-numbered-from-zero", file=TEXT,
         old="        for j, h in enumerate(hyp, 1):",
         new="        for j, h in enumerate(hyp):",
         tests=[T_TEXT + "test_edit_distance_by_hand", T_TEXT + "test_one_lines_rates_are_edits_over_the_reference",
                T_TEXT + "test_error_rates_sum_character_and_word_edits_apart"] + OLD_TEXT,
         why="the inner loop numbers the hypothesis from 0: each cell reads the previous column's neighbour one "
             "place off and the last column is never filled"),
    dict(name="v281-textmetrics-char-edits-counted-by-words", file=TEXT,
         old="    ce = sum(edit_distance(r, h) for r, h in zip(refs, hyps))",
         new="    ce = sum(edit_distance(r.split(), h.split()) for r, h in zip(refs, hyps))",
         tests=[T_TEXT + "test_error_rates_sum_character_and_word_edits_apart"] + OLD_TEXT,
         why="error_rates' CER counts word edits over the characters asked (2/7 instead of 5/7)"),
    dict(name="v281-textmetrics-labels-last-column-skipped", file=TEXT,
         old="            for j in range(1, n + 1):",
         new="            for j in range(1, n):",
         tests=[T_TEXT + "test_label_distances_of_padded_rows_by_hand"] + OLD_TEXT,
         why="the compiled distances never fill the last hypothesis column: each row's result is a stale cell"),
    # ---- the judge: lnrnn/judge.py ----
    dict(name="v281-judge-mean-travel-of-peaks", file=JUDGE,
         old='            "mean_travel": float(np.mean([j.travel for j in judged])),',
         new='            "mean_travel": float(np.mean([j.peak_phi for j in judged])),',
         tests=[T_JUDGE + "test_summary_by_hand", T_JUDGE + "test_the_table_and_summary_word_for_word"] + OLD_JUDGE,
         why="the summary's mean travel averages the lines' peak phi"),
    dict(name="v281-judge-row-read-before-asked", file=JUDGE,
         old='f"{j.peak_phi:>8.2f}  {j.text!r} -> {j.read!r}{cap}")',
         new='f"{j.peak_phi:>8.2f}  {j.read!r} -> {j.text!r}{cap}")',
         tests=[T_JUDGE + "test_the_table_and_summary_word_for_word"] + OLD_JUDGE,
         why="each table row prints read -> asked under the header 'asked -> read'"),
    dict(name="v281-judge-all-edits-cer-is-mean", file=JUDGE,
         old="""characters {s['cer']:.3f}); mean travel""",
         new="""characters {s['mean_cer']:.3f}); mean travel""",
         tests=[T_JUDGE + "test_the_table_and_summary_word_for_word"] + OLD_JUDGE,
         why="the summary sentence's 'all edits / all characters' prints the mean of the lines' CER (0.833, not "
             "0.500)"),
    dict(name="v281-judge-missing-characters-unquoted", file=JUDGE,
         old="never learned to read {', '.join(map(repr, missing))} (its",
         new="never learned to read {', '.join(map(str, missing))} (its",
         tests=[T_JUDGE + "test_characters_outside_the_alphabet_refused_word_for_word_in_order_of_first_use"]
         + OLD_JUDGE,
         why="the characters a reader lacks are named bare (a space or a comma would be unreadable)"),
    # ---- diagnostics: lnrnn/diagnostics.py ----
    dict(name="v281-diag-variance-for-std", file=DIAG,
         old="    return np.sqrt(var), sat",
         new="    return var, sat",
         tests=[T_DIAG + "test_masked_std_and_saturation_by_hand",
                T_DIAG + "test_h_std_is_the_std_of_the_compiled_stacks_output"] + OLD_DIAG,
         why="pre_std and h_std are variances, not standard deviations"),
    dict(name="v281-diag-head-reads-bottom-layer", file=DIAG,
         old="    Y = np.concatenate(ys, axis=2) if stack.skip else ys[-1]",
         new="    Y = np.concatenate(ys, axis=2) if stack.skip else ys[0]",
         tests=[T_DIAG + "test_loss_is_the_models_own_top_layer_loss"] + OLD_DIAG,
         why="without skip connections the head reads the bottom layer: loss and gradients of another model"),
    dict(name="v281-diag-ln-rnn-gain-dropped", file=DIAG,
         old='        g = p["g"] if ln else np.ones(H)',
         new="        g = np.ones(H)",
         tests=[T_DIAG + "test_h_std_is_the_std_of_the_compiled_stacks_output",
                T_DIAG + "test_loss_is_the_models_own_top_layer_loss"] + OLD_DIAG,
         why="a layer-normalized RNN is replayed with gains of 1: every figure is of an untrained gain"),
    # ---- the gradient checker: lnrnn/gradcheck.py ----
    dict(name="v281-grad-rel-error-in-float32", file=GRAD,
         old="    a = np.asarray(a, dtype=np.float64)",
         new="    a = np.asarray(a, dtype=np.float32)",
         tests=[T_GRAD + "test_rel_error_keeps_float64_digits_near_one"] + OLD_GRAD,
         why="the analytic gradient is rounded to float32 (7 digits) before a comparison at 1e-6"),
    dict(name="v281-grad-c0-named-h0", file=GRAD,
         old='        for name, s, ds in zip(("h0", "c0"), layer_state, dstate):',
         new='        for name, s, ds in zip(("h0", "h0"), layer_state, dstate):',
         tests=[T_GRAD + "test_check_stack_names_every_parameter_then_x_then_each_layers_states"] + OLD_GRAD,
         why="an LSTM's c0 is named h0: it replaces h0 among the targets and h0 is never checked"),
    # ---- lnrnn gradcheck: lnrnn/commands/gradcheck.py ----
    dict(name="v281-cli-size-refusal-names-steps", file=CLI,
         old='            raise UserError(f"{what} must be at least 1, got {v}.")',
         new='            raise UserError(f"{what} must be at least 1, got {T}.")',
         tests=[T_CLI + "test_a_size_below_one_names_its_option_and_value"] + OLD_CLI,
         why="a size refusal names --steps' value (5) whatever option was below 1"),
    dict(name="v281-cli-tolerance-refusal-names-default", file=CLI,
         old='must be a finite number of at least 0, not {tolerance}.")',
         new='must be a finite number of at least 0, not {TOLERANCE}.")',
         tests=[T_CLI + "test_a_bad_tolerance_names_the_value_given"] + OLD_CLI,
         why="a bad --tolerance is refused naming the default 1e-06, not the value given"),
]
