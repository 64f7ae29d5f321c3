"""Planted bugs, round 184 (format: tests/mutants/mutants.py): single-line slips on lines of the finite-difference
judge, the run judge and the diagnostics that no earlier round mutates: numeric_grad letting an order other than
2 or 4 through, its minus side stepped from the plus side's value and an idx subset walked in sorted order;
rel_error's zero floor TINY raised and the numeric gradient read as float32; sample_idx of a small array
returning k indices; check_stack perturbing a copy of the input sequence and check_model reading its analytic
gradients from the live gradient array; the judge's mean CER taken over the lines' travel, the report's "stop at
last" column reading the capped flag and a synthesis run given as the reader refused under the writer's name;
per_step leaving its head gradients in the model, its pre-activation statistics taken over h, and the layer
below fed the layer above's dL/dy instead of its dL/dx.

14 mutants. Against the existing targeted tests alone 11 were caught and 3 missed: TINY raised to 1e-10 (no
old test compares two gradients that are both below 1e-10), check_model's analytic gradients read from the live
array (the old gradcheck files in the lists never call check_model) and the writer-as-
reader refusal naming the writer (the old tests check that refusal's text for a writer without a window only).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values184_gradcheck (numeric_grad against 3x^2 + eps^2 for order 2 on x^3 and 5x^4 - 4 eps^4 for order 4
on x^5 at eps = 0.1, an idx subset [5, 1, 3, 0] against 2 w x by hand in that order, orders 1 and 3 refused;
rel_error's TINY floor (1e-13 against 0 is 0.1), a 1e-9 disagreement at 1, the scale floor on a 1e-6 element;
sample_idx of arrays of 4 elements with k = 10 and 4; check_stack and check_model with one gradient planted
1.001 times too large (and check_stack's dx as well) reporting 0.001 / 2.001 on exactly those lines and below
1e-7 on every other), test_values184_judge (the summary's mean CER against Levenshtein distances computed here,
the report's stop column and capped mark on lines where the two flags disagree, the writer-as-reader refusal's
folder), test_values184_diagnostics (per_step on a two-layer plain RNN against a NumPy replay: loss, pre_std,
pre_sat, h_std, both layers' dL/dh at the last step by the chain rule by hand, and the model's parameter and
gradient arrays unchanged by the call). Dropped as equivalent or near it: sample_idx's `<=` as `<` (an array of
exactly k elements gets every index either way, only the generator's later draws move) and numeric_grad
of order 2 inside check_stack (its truncation stays far below the tolerance, so no reported line can show
it). Also left out: a reader whose run records no task let through (the intended verdict
for such a run is not written down anywhere).

    python tests/mutants/run.py --only 'v184-*'
"""
GRADCHECK = "lnrnn/gradcheck.py"
JUDGE = "lnrnn/judge.py"
DIAG = "lnrnn/diagnostics.py"

# existing tests of these modules
GRADCHECK_OLD = ["tests/test_values_gradcheck.py", "tests/test_values9_gradcheck.py",
                 "tests/test_values27_gradcheck.py", "tests/test_values83_gradcheck.py",
                 "tests/test_values118_gradcheck.py"]
JUDGE_OLD = ["tests/commands/test_judge.py", "tests/commands/test_values_judge.py",
             "tests/commands/test_values37_judge.py", "tests/test_values12_judge.py", "tests/test_values20_judge.py",
             "tests/test_values70_judge.py", "tests/test_values96_judge_backend.py",
             "tests/test_values118_diagnostics_judge.py"]
DIAG_OLD = ["tests/test_diagnostics.py", "tests/test_values_diagnostics.py", "tests/test_values21_diagnostics.py",
            "tests/test_values37_diagnostics.py", "tests/test_values70_diagnostics.py",
            "tests/test_values96_diagnostics.py", "tests/test_values145_diagnostics.py",
            "tests/test_values118_diagnostics_judge.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
GRADCHECK_NEW = ["tests/test_values184_gradcheck.py"]
JUDGE_NEW = ["tests/test_values184_judge.py"]
DIAG_NEW = ["tests/test_values184_diagnostics.py"]

MUTANTS = [
    # ---- numeric_grad, rel_error, sample_idx ----
    dict(name="v184-numeric-grad-order-check-lets-3-through", file=GRADCHECK,
         old="    if order not in (2, 4):",
         new="    if order > 4:",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="order 3 (or 1) is accepted and silently runs the order-2 formula instead of being refused"),
    dict(name="v184-numeric-grad-minus-side-from-the-plus-side", file=GRADCHECK,
         old="        flat[k] = old - eps\n",
         new="        flat[k] -= eps\n",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the minus side steps back from old + eps, so f is read at old: the order-2 formula becomes half a "
             "forward difference and the order-4 one is off as well"),
    dict(name="v184-numeric-grad-idx-walked-sorted", file=GRADCHECK,
         old="    which = range(flat.size) if idx is None else idx",
         new="    which = range(flat.size) if idx is None else sorted(idx)",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="an idx subset is walked in sorted order: the returned derivatives no longer line up with idx as "
             "given"),
    dict(name="v184-rel-error-tiny-floor-raised", file=GRADCHECK,
         old="TINY = 1e-12 ",
         new="TINY = 1e-10 ",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the absolute floor of the denominator is 100 times higher: a gradient of 1e-13 against 0 reads as "
             "an error of 1e-3 instead of 0.1"),
    dict(name="v184-rel-error-numeric-side-float32", file=GRADCHECK,
         old="    n = np.asarray(n, dtype=np.float64)",
         new="    n = np.asarray(n, dtype=np.float32)",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the numeric gradient is rounded to float32 before the comparison: a disagreement of 1e-9 at 1 "
             "vanishes (and errors of 1e-8 appear)"),
    dict(name="v184-sample-idx-small-array-k-indices", file=GRADCHECK,
         old="        return np.arange(arr.size)",
         new="        return np.arange(k)",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="an array no larger than k returns k indices: past its end when it is smaller"),
    # ---- check_stack, check_model ----
    dict(name="v184-check-stack-perturbs-a-copy-of-x", file=GRADCHECK,
         old='    targets["x"] = x\n',
         new='    targets["x"] = x.copy()\n',
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the input sequence's numeric gradient perturbs a copy the loss never reads: it is 0 and the x line "
             "reports an error of 1"),
    dict(name="v184-check-model-analytic-not-copied", file=GRADCHECK,
         old="    analytic = model.flat[1].data.copy()",
         new="    analytic = model.flat[1].data",
         tests=GRADCHECK_NEW + GRADCHECK_OLD,
         why="the analytic gradients are the live array every finite-difference loss rewrites: they are read at "
             "the last perturbed point"),
    # ---- judge ----
    dict(name="v184-judge-mean-cer-over-travel", file=JUDGE,
         old='    return {"mean_cer": float(np.mean([j.cer for j in judged])),',
         new='    return {"mean_cer": float(np.mean([j.travel for j in judged])),',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the summary's mean CER averages the lines' travel"),
    dict(name="v184-judge-report-stop-column-reads-capped", file=JUDGE,
         old="{'yes' if j.stop_at_last else 'no':>12}",
         new="{'yes' if j.capped else 'no':>12}",
         tests=JUDGE_NEW + JUDGE_OLD,
         why="the per-line 'stop at last' column says whether the line was capped"),
    dict(name="v184-judge-writer-as-reader-names-the-writer", file=JUDGE,
         old='        raise UserError(f"{reader_name} ({reader.path}) is a writer (a synthesis run)',
         new='        raise UserError(f"{writer_name} ({writer.path}) is a writer (a synthesis run)',
         tests=JUDGE_NEW + JUDGE_OLD,
         why="a synthesis run given as the reader is refused naming the writer's folder instead of its own"),
    # ---- diagnostics ----
    dict(name="v184-diag-head-grads-not-restored", file=DIAG,
         old="    if saved_grads is not None:",
         new="    if saved_grads is None:",
         tests=DIAG_NEW + DIAG_OLD,
         why="per_step leaves its own head gradients in the model's gradient array"),
    dict(name="v184-diag-pre-stats-over-h", file=DIAG,
         old="        pre_std[l], pre_sat[l] = _masked_stats(pres[l], run)",
         new="        pre_std[l], pre_sat[l] = _masked_stats(ys[l], run)",
         tests=DIAG_NEW + DIAG_OLD,
         why="pre_std and pre_sat are taken over the layer's outputs h instead of its pre-activations"),
    dict(name="v184-diag-layer-below-gets-dy", file=DIAG,
         old="        dnext = dx\n",
         new="        dnext = dy\n",
         tests=DIAG_NEW + DIAG_OLD,
         why="the layer below is fed the layer above's dL/dy instead of dL/d(its input): its dL/dh is wrong"),
]
