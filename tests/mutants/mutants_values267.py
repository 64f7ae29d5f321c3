"""Planted bugs, round 267 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in lnrnn export (lnrnn/interop/export.py), the handwriting judge (lnrnn/judge.py), the per-step
diagnostics (lnrnn/diagnostics.py) and the gradient checker (lnrnn/gradcheck.py), twelfth pass: the head's
weight exported untransposed ((H, O) where nn.Linear wants (O, H)); bias_hh exported as a copy of b (PyTorch adds
the two: the bias counted twice); a refusal of a file name saying 'ends in pt' without the dot; an unknown format
named without quotes; the judge's table numbering its lines from 0; ' (capped)' on the lines that were not capped
and missing on those that were; '1 lines' in the summary of one line; as_record dropping what it is about (writer,
reader, bias, seed); the diagnostics' backward walking the layers bottom up (the bottom layer never receives the
top layer's gradient); pre_sat returning pre_std; the head's gradients 'restored' from themselves (left as the
diagnostics' own backward wrote them); numeric_grad stepping to a - eps where a + eps belongs (every derivative
of the second-order rule 0, the fourth-order one wrong); numeric_grad's derivatives returned flat for idx None;
rel_error dividing by |n| alone (a planted error judged twice as large, so the verdict flips between d = 1.9e-6
and 2.1e-6).

14 mutants. Against the old targeted files alone: 8 of 14 caught; they missed an unknown export format unquoted, the
judge's table numbered from 0, '1 lines' in its summary, its record without writer, reader, bias and seed,
numeric_grad of every element flat, and rel_error over |n| alone. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values267_export (a one-layer LSTM classifier with I 2, H
3, O 4 exported and read back by test_values183_export's reader written from the safetensors definition, each name,
shape, dtype and value against the docstring's table, the same tensors loaded into torch.nn.LSTM + nn.Linear with
strict=True giving the model's last-step outputs; names that are not a safetensors file refused word for word with
nothing written: a double suffix, a trailing dot, no suffix; an unknown format), test_values267_judge (the table and
summary sentence written out by hand over four lines and over one, the CER against Levenshtein distances written out
at an empty read, one character, all wrong and insertions past the text, cross-checked with
test_values48_textmetrics' brute force; as_record's keys; stop_at_last and peak_phi on rows made here),
test_values267_diagnostics (a two-layer plain RNN on lengths 4, 1, 3: grad_h and dh against torch.autograd's total
derivatives of the mean last-step cross-entropy, pre_std, pre_sat and h_std over running rows from
test_values184_diagnostics' NumPy replay, the head's gradients set to a pattern and left as they were),
test_values267_gradcheck (central differences exact on a cubic and a quadratic against 3 c a^2 and 2 c a, the
second-order rule's c eps^2 on a cubic, shapes and index order; rel_error against its definition; the verdict at a
planted error either side of the tolerance). Left out as equivalent: sample_idx's arr.size <= k made < (k distinct
of k, sorted, is arange(k); only the generator's later draws change, which no result reads as such);
write_safetensors' compact JSON separators made the default ones (the bytes change, every value read back is the
same and the format leaves the spacing free); gradcheck's np.empty for the derivatives made float32-typed for
float32 arrays (only rounding past the 1e-6 tolerance of float64 checks, which run on float64). Left out as not
cheap: replay_kappa's alpha slice and inputs (a synthesis writer's window replayed independently is a test of its
own, tests/test_values20_judge.py covers the replay against the sampler).

    python tests/mutants/run.py --only 'v267-*'
"""
EXPORT = "lnrnn/interop/export.py"
JUDGE = "lnrnn/judge.py"
DIAG = "lnrnn/diagnostics.py"
GRAD = "lnrnn/gradcheck.py"

T_EXPORT = "tests/interop/test_values267_export.py::"
T_JUDGE = "tests/test_values267_judge.py::"
T_DIAG = "tests/test_values267_diagnostics.py::"
T_GRAD = "tests/test_values267_gradcheck.py::"
OLD_EXPORT = ["tests/interop/test_values225_export.py", "tests/interop/test_values219_export.py",
              "tests/interop/test_values212_export.py", "tests/interop/test_values183_export.py"]
OLD_JUDGE = ["tests/test_values184_judge.py", "tests/test_values118_diagnostics_judge.py"]
OLD_DIAG = ["tests/test_values184_diagnostics.py", "tests/test_diagnostics.py",
            "tests/test_values118_diagnostics_judge.py"]
OLD_GRAD = ["tests/test_values27_gradcheck.py", "tests/test_values9_gradcheck.py"]

E_READ = T_EXPORT + "test_every_exported_tensor_read_back_by_the_definition"
E_TORCH = T_EXPORT + "test_the_exported_weights_run_in_torch_give_the_models_outputs"

MUTANTS = [
    # ---- lnrnn export: lnrnn/interop/export.py ----
    dict(name="v267-export-head-weight-not-transposed", file=EXPORT,
         old='            out["head.weight" if rest == "W" else "head.bias"] = arr.T if rest == "W" else arr',
         new='            out["head.weight" if rest == "W" else "head.bias"] = arr',
         tests=[E_READ, E_TORCH] + OLD_EXPORT,
         why="head.weight is exported as lnrnn's (H_out, O) W, not nn.Linear's (O, H_out) W.T"),
    dict(name="v267-export-bias-hh-copies-b", file=EXPORT,
         old='            out[f"rnn.bias_hh_{layer}"] = np.zeros_like(arr)',
         new='            out[f"rnn.bias_hh_{layer}"] = arr',
         tests=[E_READ, E_TORCH] + OLD_EXPORT,
         why="bias_hh repeats b instead of zeros: PyTorch adds bias_ih and bias_hh, so the bias counts twice"),
    dict(name="v267-export-suffix-said-without-dot", file=EXPORT,
         old="        ext = os.path.splitext(text)[1]\n",
         new="        ext = os.path.splitext(text)[1][1:]\n",
         tests=[T_EXPORT + "test_a_name_that_is_not_a_safetensors_file_is_refused_word_for_word"] + OLD_EXPORT,
         why="a refused name is said to end in 'pt' (no dot), and a trailing dot is called no suffix"),
    dict(name="v267-export-unknown-format-unquoted", file=EXPORT,
         old='raise UserError(f"unknown export format {fmt!r}; choose',
         new='raise UserError(f"unknown export format {fmt}; choose',
         tests=[T_EXPORT + "test_an_unknown_format_is_refused_with_its_name_quoted"] + OLD_EXPORT,
         why="an unknown format is named without quotes (an empty one vanishes from the sentence)"),
    # ---- the judge: lnrnn/judge.py ----
    dict(name="v267-judge-table-numbered-from-zero", file=JUDGE,
         old="    for k, j in enumerate(judged, 1):",
         new="    for k, j in enumerate(judged):",
         tests=[T_JUDGE + "test_the_table_word_for_word", T_JUDGE + "test_one_line_is_a_line_in_the_singular"]
         + OLD_JUDGE,
         why="the judge's table numbers its lines from 0"),
    dict(name="v267-judge-capped-mark-inverted", file=JUDGE,
         old='        cap = " (capped)" if j.capped else ""',
         new='        cap = " (capped)" if not j.capped else ""',
         tests=[T_JUDGE + "test_the_table_word_for_word", T_JUDGE + "test_one_line_is_a_line_in_the_singular"]
         + OLD_JUDGE,
         why="' (capped)' marks the lines the stop rule ended and not those that reached the step cap"),
    dict(name="v267-judge-one-lines", file=JUDGE,
         old="""line{'s' * (s['lines'] != 1)}""",
         new="""line{'s' * (s['lines'] > 0)}""",
         tests=[T_JUDGE + "test_one_line_is_a_line_in_the_singular"] + OLD_JUDGE,
         why="the summary of one judged line says '1 lines'"),
    dict(name="v267-judge-record-drops-about", file=JUDGE,
         old="    return dict(about, lines=[asdict(j) for j in judged], summary=summary(judged))",
         new="    return dict(lines=[asdict(j) for j in judged], summary=summary(judged))",
         tests=[T_JUDGE + "test_a_record_keeps_what_it_is_about_and_every_line"] + OLD_JUDGE,
         why="the JSON record loses the writer, reader, bias and seed it was about"),
    # ---- the diagnostics: lnrnn/diagnostics.py ----
    dict(name="v267-diag-layers-backward-bottom-up", file=DIAG,
         old="    for l in reversed(range(L)):",
         new="    for l in range(L):",
         tests=[T_DIAG + "test_grad_h_is_the_mean_norm_of_the_total_derivative_over_running_rows"] + OLD_DIAG,
         why="the backward walks the layers bottom up: the bottom layer starts from no gradient"),
    dict(name="v267-diag-pre-sat-is-pre-std", file=DIAG,
         old="    return dict(grad_h=grad_h, pre_std=pre_std, pre_sat=pre_sat, h_std=h_std,",
         new="    return dict(grad_h=grad_h, pre_std=pre_std, pre_sat=pre_std, h_std=h_std,",
         tests=[T_DIAG + "test_pre_std_pre_sat_and_h_std_over_the_running_rows_only"] + OLD_DIAG,
         why="pre_sat reports the pre-activations' standard deviation, not the saturated share"),
    dict(name="v267-diag-head-grads-restored-from-themselves", file=DIAG,
         old="        for k, v in saved_grads.items():",
         new="        for k, v in head.grads.items():",
         tests=[T_DIAG + "test_the_heads_gradients_are_left_as_they_were"] + OLD_DIAG,
         why="the head's gradients are 'restored' from themselves: the diagnostics' backward overwrites them"),
    # ---- the gradient checker: lnrnn/gradcheck.py ----
    dict(name="v267-grad-plus-eps-is-minus", file=GRAD,
         old="        flat[k] = old + eps\n",
         new="        flat[k] = old - eps\n",
         tests=[T_GRAD + "test_the_fourth_order_rule_is_exact_on_a_cubic_and_shaped_like_the_array",
                T_GRAD + "test_the_second_order_rule_is_exact_on_a_quadratic"] + OLD_GRAD,
         why="f(a + eps) is evaluated at a - eps: the second-order rule gives 0, the fourth-order one a wrong value"),
    dict(name="v267-grad-flat-for-every-element", file=GRAD,
         old="    return out.reshape(arr.shape) if idx is None else out",
         new="    return out",
         tests=[T_GRAD + "test_the_fourth_order_rule_is_exact_on_a_cubic_and_shaped_like_the_array"] + OLD_GRAD,
         why="numeric_grad of every element comes back flat, not shaped like the array"),
    dict(name="v267-grad-rel-error-over-n-alone", file=GRAD,
         old="    return float(np.max(np.abs(a - n) / np.maximum(mag, floor), initial=0.0))",
         new="    return float(np.max(np.abs(a - n) / np.maximum(np.abs(n), floor), initial=0.0))",
         tests=[T_GRAD + "test_the_verdict_at_a_planted_error_either_side_of_the_tolerance",
                T_GRAD + "test_rel_error_by_its_definition"] + OLD_GRAD,
         why="rel_error divides by |n| alone: a planted error is judged twice as large, the verdict flips early"),
]
