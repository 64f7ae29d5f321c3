"""Planted bugs, round 304 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the NumPy spec itself (lnrnn/reference.py), second value pass: the LSTM's candidate g taken through a
sigmoid instead of tanh; the LSTM's backward not passing Graves's clip on; the plain RNN's bias dropped; inference
BatchNorm's eps dropped from under the root; a training step with one active row treated as a step with none
(mean 0, rstd 1/sqrt(eps), running row left alone); training BatchNorm ignoring lengths; the BN-LSTM's cell
statistics counting padded rows; the BN-RNN scaling its hidden term by the input's rstd; the mixture density's
rho_max dropped; the mixture's mu1 read one column early; the window's bias bp dropped; the window's backward
dropping alpha from dbeta and dkappa; CTC scoring a one-step row as if it had no step; CTC's backward leaving
the last extended position out of beta.

14 mutants. Against the old targeted files alone: not measured yet. The old targeted files are
test_values288_reference_cells, test_values191_reference_cells, test_values83_reference_forward and
test_values83_reference_backward for the cells; test_values288_reference_heads, test_values191_reference_heads and
test_values83_reference_ctc for the heads. The new value tests catch every mutant on their own (checked with the
old files taken off the lists): test_values304_reference_cells (two-layer bidirectional LSTMs and RNNs composed
from the spec's one-direction forwards against torch.nn.LSTM and torch.nn.RNN with the same weights; the LSTM's
backward with clip 0.05, some gate gradients past it and some inside, against autograd of the cell in torch ops
with a hook clamping dL/d(preactivations); training BatchNorm over lengths 0, 1 and T in one batch written out
row by row with its running rows after one and two updates; inference BatchNorm with running variances below eps
and 0; the BN-LSTM and BN-RNN written out step by step with the same masked statistics and running rows),
test_values304_reference_heads (the mixture density at K 1 and 3 against scipy's bivariate normal from its
covariance matrix, correlations at rho_max tanh(+-20) and tanh(+-3), points on the ridge; Graves's window at U 1
and 5 summed position by position and its backward by autograd; CTC over input lengths 0, 1, 1, 5, 5 with empty,
one-label, repeated and three-label targets against torch.nn.functional.ctc_loss with zero_infinity, its
gradient by autograd, the one-step rows also by hand). Left out as equivalent: ctc_forward's
`logz = 0.0 if S == 1 else -np.inf` made `-np.inf` for Tb = 0 (a non-finite logz leaves the row's loss at its
0, and ctc_backward skips Tb = 0 rows before reading logz); sigmoid's errstate dropped (a warning, the same 0).
Left out as a crash rather than a value: window_backward's dalpha summed over axis 1 (shape (B,U) against
(B,K)); ctc_backward's `Tb == 0 or` dropped (beta's empty first axis is indexed at Tb - 1).

    python tests/mutants/run.py --only 'v304-*'
"""
REF = "lnrnn/reference.py"

T_CELLS = "tests/test_values304_reference_cells.py::"
T_HEADS = "tests/test_values304_reference_heads.py::"
OLD_CELLS = ["tests/test_values288_reference_cells.py", "tests/test_values191_reference_cells.py",
             "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py"]
OLD_HEADS = ["tests/test_values288_reference_heads.py", "tests/test_values191_reference_heads.py",
             "tests/test_values83_reference_ctc.py"]

MUTANTS = [
    dict(name="v304-lstm-candidate-through-sigmoid", file=REF,
         old="        g, o = np.tanh(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])\n        c_new = f * c + i * g",
         new="        g, o = sigmoid(a[:, 2 * H:3 * H]), sigmoid(a[:, 3 * H:])\n        c_new = f * c + i * g",
         tests=[T_CELLS + "test_two_layer_bidirectional_lstm_composed_from_the_spec_matches_torch_nn_lstm"]
         + OLD_CELLS,
         why="the LSTM's candidate g goes through a sigmoid instead of tanh: it can only add to the cell"),
    dict(name="v304-lstm-backward-clip-not-passed", file=REF,
         old='        da = clip_gate_grads(da, clip)\n        grads["db"] += da.sum(0)',
         new='        da = clip_gate_grads(da, 0.0)\n        grads["db"] += da.sum(0)',
         tests=[T_CELLS + "test_lstm_backward_with_clip_matches_autograd_with_the_gate_gradients_clamped"]
         + OLD_CELLS,
         why="the LSTM's backward never passes its clip on: Graves's clip is silently off"),
    dict(name="v304-rnn-bias-dropped", file=REF,
         old="            z, m, r = a + b, None, None",
         new="            z, m, r = a, None, None",
         tests=[T_CELLS + "test_two_layer_bidirectional_rnn_composed_from_the_spec_matches_torch_nn_rnn"]
         + OLD_CELLS,
         why="the plain RNN's bias never reaches the tanh"),
    dict(name="v304-bn-infer-eps-dropped", file=REF,
         old="        return rm[row].copy(), 1.0 / np.sqrt(rv[row] + eps)",
         new="        return rm[row].copy(), 1.0 / np.sqrt(rv[row])",
         tests=[T_CELLS + "test_batchnorm_infer_reads_row_min_t_Ts_minus_1_with_eps_inside_the_root"]
         + OLD_CELLS,
         why="inference BatchNorm divides by sqrt(running var) without eps: a small running variance blows up"),
    dict(name="v304-bn-one-active-row-taken-as-none", file=REF,
         old="    if n == 0:  # no row runs at this step",
         new="    if n <= 1:  # no row runs at this step",
         tests=[T_CELLS + "test_batchnorm_train_over_lengths_0_1_T_with_running_rows_after_one_and_two_updates"]
         + OLD_CELLS,
         why="a training step with one active row gets mean 0 and rstd 1/sqrt(eps) and leaves its running row "
             "alone, as a step with none"),
    dict(name="v304-bn-train-lengths-not-passed", file=REF,
         old="    active = step_mask(lengths, T, B)\n    y = np.empty_like(x)",
         new="    active = step_mask(None, T, B)\n    y = np.empty_like(x)",
         tests=[T_CELLS + "test_batchnorm_train_over_lengths_0_1_T_with_running_rows_after_one_and_two_updates"]
         + OLD_CELLS,
         why="training BatchNorm ignores lengths: padded rows count in every step's statistics"),
    dict(name="v304-bn-lstm-cell-stats-over-padded-rows", file=REF,
         old="        mc, sc = _bn_stats(c, rmc, rvc, t, training, momentum, eps, active[t])",
         new="        mc, sc = _bn_stats(c, rmc, rvc, t, training, momentum, eps)",
         tests=[T_CELLS + "test_bn_lstm_training_over_lengths_0_1_T_against_the_cell_written_out"] + OLD_CELLS,
         why="the BN-LSTM's cell statistics (and running rmc, rvc) count padded rows"),
    dict(name="v304-bn-rnn-hidden-scaled-by-input-rstd", file=REF,
         old="        pre = gh * (hw - mh) * sh + gx * (xw - mx) * sx + b",
         new="        pre = gh * (hw - mh) * sx + gx * (xw - mx) * sx + b",
         tests=[T_CELLS + "test_bn_rnn_training_over_lengths_0_1_T_against_the_cell_written_out"] + OLD_CELLS,
         why="the BN-RNN normalizes h Wh with the input term's rstd"),
    dict(name="v304-mdn-rho-max-dropped", file=REF,
         old="    rho = rho_max * np.tanh(y[:, 1 + 5 * M:1 + 6 * M])",
         new="    rho = np.tanh(y[:, 1 + 5 * M:1 + 6 * M])",
         tests=[T_HEADS + "test_mixture_density_nll_at_one_and_three_components_with_correlations_near_plus_and_"
                          "minus_one"] + OLD_HEADS,
         why="the mixture's correlation is not kept inside rho_max: a saturated tanh gives rho = +-1 and an "
             "infinite density"),
    dict(name="v304-mdn-mu1-one-column-early", file=REF,
         old="    mu1, mu2 = y[:, 1 + M:1 + 2 * M], y[:, 1 + 2 * M:1 + 3 * M]",
         new="    mu1, mu2 = y[:, M:2 * M], y[:, 1 + 2 * M:1 + 3 * M]",
         tests=[T_HEADS + "test_mixture_density_nll_at_one_and_three_components_with_correlations_near_plus_and_"
                          "minus_one"] + OLD_HEADS,
         why="the mixture's mu1 is read one column early (the last pi logit and all but the last mu1)"),
    dict(name="v304-window-bias-dropped", file=REF,
         old="    p = h @ Wp + bp ",
         new="    p = h @ Wp ",
         tests=[T_HEADS + "test_window_at_one_and_five_positions_summed_position_by_position"] + OLD_HEADS,
         why="the window's parameters ignore the bias bp"),
    dict(name="v304-window-backward-alpha-dropped", file=REF,
         old='    ae = s["alpha"][:, :, None] * s["e"] * dphi[:, None, :]',
         new='    ae = s["e"] * dphi[:, None, :]',
         tests=[T_HEADS + "test_window_backward_at_one_and_five_positions_matches_autograd"] + OLD_HEADS,
         why="the window's backward drops alpha from dbeta and dkappa (dalpha still right)"),
    dict(name="v304-ctc-one-step-row-scored-as-empty", file=REF,
         old="        if Tb == 0:\n            logz = 0.0 if S == 1 else -np.inf",
         new="        if Tb <= 1:\n            logz = 0.0 if S == 1 else -np.inf",
         tests=[T_HEADS + "test_ctc_over_input_lengths_0_1_1_and_T_matches_torch_ctc_loss_and_its_gradient"]
         + OLD_HEADS,
         why="a row of one input step is scored as a row of none: loss 0 whatever its one emission"),
    dict(name="v304-ctc-beta-misses-last-position", file=REF,
         old="            for s in range(S):\n                nxt = [s]",
         new="            for s in range(S - 1):\n                nxt = [s]",
         tests=[T_HEADS + "test_ctc_over_input_lengths_0_1_1_and_T_matches_torch_ctc_loss_and_its_gradient"]
         + OLD_HEADS,
         why="CTC's backward never fills beta of the final blank before the last step: its posterior is lost"),
]
