"""Planted bugs, round 310 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the heads (lnrnn/model/heads.py) and the functional layer API (lnrnn/model/functional.py), seventeenth
pass: make_head dropping the seed it is given; a head's hidden size and outputs swapped; gradients that start at
one instead of zero; the mean of sums divided by min(count, 1); the count of scored units ignoring the -1 labels;
the sum keys without 'seqs'; the classifier's gradient rounded to float32 in a float64 head; the mixture density
scoring padded points; grow_buffers one row short; check_lengths giving int32; functional.backward writing into
the caller's dy; layer_backward reading T and B swapped; layer_forward with keep=False returning None for its
residuals; the refusal of dL/dc_n naming h_n and c_n the wrong way round.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values310_heads (weights against the uniform
draw of default_rng([seed, 7]) with bound 1/sqrt(H) at seeds 0 and 4; parameter names, shapes and counts by hand
for the classifier, the regression head and mixture heads of 1 and 3 components, gradients all zero; means of
sums 6 and 3 over 4 units and over none; the per-step classifier's count of valid labelled steps; every head's
sum keys; the classifier's loss and backward against masked softmax cross-entropy with scale 0.37 to 1e-12 and
against central differences; the mixture's loss against lnrnn.reference.mdn_nll with correlations of +-0.999
and padded points, and its backward against central differences, at K 1 and 3), test_values310_functional
(grow_buffers of 2 rows to 5 by hand; check_lengths' int64; the caller's dy unchanged after functional.backward
with lengths and dL/dh_n; a plain RNN's layer_backward with lengths 4, 1, 2 at T 4, B 3 against central
differences of the masked loss; keep=False's []; the dL/dc_n refusal word for word). Left out as equivalent:
the classifier's safe labels filled with -1 instead of 0 at unscored units (their picked value and their
gradient are both multiplied by a zero mask); the mixture's T, B = h.shape read as B, T (only the product T*B
is used, and backward reshapes by h.shape); the mixture's 'if self.clip_output' made 'is not None' (training's
plan refuses a clip of 0 or less, so only None or a positive bound reaches the head); _buffer_rows' 'T <= Ts'
made 'T < Ts' (at T == Ts the rows re-indexed are 0..T-1, the same values); layer_backward's dfinal padded with
nstate Nones instead of the missing ones (the extra trailing entries are never read); functional.backward's
np.array(..., copy=True) made np.array(...) (NumPy's np.array copies by default; the mutant here uses
np.asarray, which does not).

    python tests/mutants/run.py --only 'v310-*'
"""
HEADS = "lnrnn/model/heads.py"
FUNC = "lnrnn/model/functional.py"

T_HEADS = "tests/model/test_values310_heads.py::"
T_FUNC = "tests/model/test_values310_functional.py::"
OLD_HEADS = ["tests/model/test_values_heads.py", "tests/model/test_values235_heads.py",
             "tests/model/test_values256_heads.py", "tests/model/test_values292_heads.py"]
OLD_FUNC = ["tests/model/test_functional.py", "tests/model/test_values169_functional.py",
            "tests/model/test_values252_functional.py"]

MUTANTS = [
    # ---- heads: lnrnn/model/heads.py ----
    dict(name="v310-heads-make-head-drops-seed", file=HEADS,
         old="    return HEADS[kind](hidden_size, dtype=dtype, seed=seed, **cfg)",
         new="    return HEADS[kind](hidden_size, dtype=dtype, **cfg)",
         tests=[T_HEADS + "test_make_head_weights_are_the_uniform_draw_of_its_seed"] + OLD_HEADS,
         why="make_head ignores its seed: every head built from a config draws seed 0's weights"),
    dict(name="v310-heads-hidden-and-outputs-swapped", file=HEADS,
         old="        self.H, self.O = int(hidden_size), int(outputs)",
         new="        self.H, self.O = int(outputs), int(hidden_size)",
         tests=[T_HEADS + "test_parameter_names_shapes_and_counts_by_hand"] + OLD_HEADS,
         why="a head's W is (O,H) and b (H,): the hidden size and the outputs trade places"),
    dict(name="v310-heads-grads-start-at-one", file=HEADS,
         old="        self.grads = {k: np.zeros_like(v) for k, v in self.params.items()}",
         new="        self.grads = {k: np.ones_like(v) for k, v in self.params.items()}",
         tests=[T_HEADS + "test_parameter_names_shapes_and_counts_by_hand",
                T_HEADS + "test_classifier_loss_and_backward_are_masked_cross_entropy_in_float64"] + OLD_HEADS,
         why="a new head's gradients start at one: the first backward's dW and db are off by one everywhere"),
    dict(name="v310-heads-mean-min-count", file=HEADS,
         old="        c = max(count, 1)",
         new="        c = min(count, 1)",
         tests=[T_HEADS + "test_mean_divides_the_sums_by_the_scored_units"] + OLD_HEADS,
         why="the classifier's and regression head's means are the sums themselves (divided by 1), not per unit"),
    dict(name="v310-heads-count-ignores-unlabelled", file=HEADS,
         old="        return int(np.count_nonzero(self.valid_targets(targets, valid)))",
         new="        return int(np.count_nonzero(valid))",
         tests=[T_HEADS + "test_per_step_classifier_counts_valid_labelled_steps_only"] + OLD_HEADS,
         why="the loss normalizer counts valid steps labelled -1, which forward does not score"),
    dict(name="v310-heads-sum-keys-without-seqs", file=HEADS,
         old='        return tuple(self.metrics) + ("seqs",)',
         new="        return tuple(self.metrics)",
         tests=[T_HEADS + "test_sum_keys_are_the_metrics_and_seqs"] + OLD_HEADS,
         why="a batch's sums drop 'seqs': the mixture's nats per sequence lose their divisor"),
    dict(name="v310-heads-classifier-grad-float32", file=HEADS,
         old="        return self.linear_backward(h, d.astype(self.dtype))",
         new="        return self.linear_backward(h, d.astype(np.float32))",
         tests=[T_HEADS + "test_classifier_loss_and_backward_are_masked_cross_entropy_in_float64"] + OLD_HEADS,
         why="a float64 classifier's gradient is rounded to float32 before dW, db and dh are formed"),
    dict(name="v310-heads-mdn-scores-padded-points", file=HEADS,
         old="        nll, saved = mdn_forward(yhat, tg, v, self.M)",
         new="        nll, saved = mdn_forward(yhat, tg, np.ones_like(v), self.M)",
         tests=[T_HEADS + "test_mixture_loss_is_the_bivariate_normal_nll_over_valid_points",
                T_HEADS + "test_mixture_backward_against_central_differences"] + OLD_HEADS,
         why="the mixture density's valid mask is not passed on: padded points add to the loss and gradient"),
    # ---- the functional layer API: lnrnn/model/functional.py ----
    dict(name="v310-func-grow-buffers-one-short", file=FUNC,
         old="    return {n: grown(v, T) for n, v in buffers.items()}",
         new="    return {n: grown(v, T - 1) for n, v in buffers.items()}",
         tests=[T_FUNC + "test_grow_buffers_repeats_the_last_row_up_to_t"] + OLD_FUNC,
         why="grow_buffers grows BatchNorm statistics to T - 1 rows, one short of the sequence"),
    dict(name="v310-func-check-lengths-int32", file=FUNC,
         old="    return np.ascontiguousarray(a, dtype=np.int64)",
         new="    return np.ascontiguousarray(a, dtype=np.int32)",
         tests=[T_FUNC + "test_check_lengths_gives_int64"] + OLD_FUNC,
         why="check_lengths hands the kernels int32 lengths, not the int64 its docstring promises"),
    dict(name="v310-func-backward-writes-callers-dy", file=FUNC,
         old="        dy = np.array(k.to_host(dy), copy=True)\n        if masked:",
         new="        dy = np.asarray(k.to_host(dy))\n        if masked:",
         tests=[T_FUNC + "test_backward_leaves_the_callers_dy_as_it_was"] + OLD_FUNC,
         why="functional.backward masks padded steps and adds dL/dh_n into the caller's own dy array"),
    dict(name="v310-func-layer-backward-t-b-swapped", file=FUNC,
         old="    T, B, _ = x.shape\n    H = state[0].shape[1]",
         new="    B, T, _ = x.shape\n    H = state[0].shape[1]",
         tests=[T_FUNC + "test_rnn_layer_backward_with_lengths_against_central_differences"] + OLD_FUNC,
         why="layer_backward reads x's steps as its rows: lengths of B rows are refused when T != B"),
    dict(name="v310-func-no-keep-returns-none", file=FUNC,
         old="    return y, final, (_to_residuals(spec, saved) if keep else [])",
         new="    return y, final, (_to_residuals(spec, saved) if keep else None)",
         tests=[T_FUNC + "test_layer_forward_without_keep_returns_no_residuals"] + OLD_FUNC,
         why="layer_forward with keep=False returns None for its residuals, not the empty list it documents"),
    dict(name="v310-func-dcn-refusal-names-swapped", file=FUNC,
         old='"c_n: use the output sequence or h_n in the loss, or detach c_n.")',
         new='"c_n: use the output sequence or c_n in the loss, or detach h_n.")',
         tests=[T_FUNC + "test_gradient_for_a_cell_state_refused_word_for_word"] + OLD_FUNC,
         why="the refusal of dL/dc_n for a cell without a cell state advises using c_n and detaching h_n"),
]
