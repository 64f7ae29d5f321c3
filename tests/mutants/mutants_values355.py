"""Planted bugs, round 355 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the NumPy spec itself (lnrnn/reference.py), fourth value pass: the LSTM's cache holding h_t for h_{t-1}; the
LN-LSTM's x-side LayerNorm backward reading the h-side gains; the plain RNN starting from zeros instead of h0; the
LN RNN not passing its eps on to LayerNorm; the RNN's cache holding h_{t-1} for its output; the LN RNN's backward
normalizing the tanh argument instead of the sum it normalized; training BatchNorm's eps added outside the root;
the BN-RNN's x-side backward always in training mode; the BN-LSTM's dWx taken from the h side's gradient; the
mixture density's end-of-stroke sigmoid of the negated logit; the mixture logits shifted by each component's
largest over the rows; the window's cache holding kappa for exp(k_hat); CTC's step from s - 1 read at s; CTC's
beta skipping to s + 1 instead of s + 2.

14 mutants. Against the old targeted files alone (each mutant's v355 files taken off its list): 13 of 14 caught;
missed: the BN-RNN backward's x side always in training. The old targeted files are
test_values330_reference_cells, test_values304_reference_cells, test_values288_reference_cells and
test_values83_reference_backward for the cells; test_values330_reference_heads, test_values304_reference_heads and
test_values83_reference_ctc for the heads. The new value tests catch every mutant on their own (checked with the
old files taken off the lists): test_values355_reference_cells (two-layer bidirectional LSTMs and RNNs composed
from the spec's one-direction forwards and backwards against autograd of torch.nn.LSTM and torch.nn.RNN with the
same weights and non-zero h0 and c0; the LN-LSTM's every gradient by autograd over 1 and 3 steps with x-side and
h-side gains far apart; the LN RNN at eps 0.5 against torch's layer_norm and autograd over 1 and 4 steps; training
BatchNorm over lengths 0, 1, 2 and T in one batch at eps 0.3 with the statistics and running rows written out row
by row; the BN-RNN and the BN-LSTM in inference over lengths 0, 1 and T against the cells in torch ops and autograd
of the masked loss, the BN-LSTM with the clip off and past every bound), test_values355_reference_heads (the
mixture density at K 1 and 3 against torch.distributions with pen down and up, end-of-stroke logits of both signs
and each component's largest mixture logit in its own row, a row left out by valid; Graves's window at K 1 and 3
over texts of 0, 1 and U characters with kappa_0 far from 0, forward and backward against the window in torch ops
and autograd with dL/dkappa fed in; CTC over input lengths 0, 1, 3 and T with empty, one-label, repeated, distinct
and impossible labels against torch's ctc_loss with zero_infinity and its gradient by autograd).
Left out as equivalent: lstm_backward's `grads["dbx"] += dbx` made `+= dbh` (LayerNorm's bias gradient is da summed
over the batch on either side); rnn_backward's db sized by Wh.shape[1] made Wx.shape[1] (both H); the mixture
logits' shift over the rows at K 1 (pi is 1 whatever the shift: only K 3 shows it); sigmoid's errstate dropped (a
warning, the same 0).

    python tests/mutants/run.py --only 'v355-*'
"""
REF = "lnrnn/reference.py"

T_CELLS = "tests/test_values355_reference_cells.py::"
T_HEADS = "tests/test_values355_reference_heads.py::"
OLD_CELLS = ["tests/test_values330_reference_cells.py", "tests/test_values304_reference_cells.py",
             "tests/test_values288_reference_cells.py", "tests/test_values83_reference_backward.py"]
OLD_HEADS = ["tests/test_values330_reference_heads.py", "tests/test_values304_reference_heads.py",
             "tests/test_values83_reference_ctc.py"]

STACK_LSTM = T_CELLS + "test_two_layer_bidirectional_forward_and_backward_composed_from_the_spec_match_torch_autograd[lstm]"
STACK_RNN = T_CELLS + "test_two_layer_bidirectional_forward_and_backward_composed_from_the_spec_match_torch_autograd[rnn]"
LN_LSTM1 = T_CELLS + "test_ln_lstm_over_one_and_three_steps_every_gradient_matches_autograd[1]"
LN_LSTM3 = T_CELLS + "test_ln_lstm_over_one_and_three_steps_every_gradient_matches_autograd[3]"
LN_RNN1 = T_CELLS + "test_ln_rnn_with_eps_one_half_matches_torch_layer_norm_and_autograd[1]"
LN_RNN4 = T_CELLS + "test_ln_rnn_with_eps_one_half_matches_torch_layer_norm_and_autograd[4]"
BN_TRAIN = T_CELLS + "test_batchnorm_train_over_lengths_0_1_2_T_with_eps_under_the_root_written_out_row_by_row"
BN_RNN = T_CELLS + "test_bn_rnn_inference_over_lengths_0_1_T_forward_and_backward_match_autograd"
BN_LSTM0 = T_CELLS + "test_bn_lstm_inference_over_lengths_0_1_T_forward_and_backward_match_autograd[0.0]"
BN_LSTM_PAST = T_CELLS + "test_bn_lstm_inference_over_lengths_0_1_T_forward_and_backward_match_autograd[1000000.0]"
MDN1 = T_HEADS + "test_mixture_density_at_one_and_three_components_with_both_pen_states_matches_torch[1]"
MDN3 = T_HEADS + "test_mixture_density_at_one_and_three_components_with_both_pen_states_matches_torch[3]"
WIN1 = T_HEADS + "test_window_at_one_and_three_components_over_texts_of_0_1_and_U_characters_matches_autograd[1]"
WIN3 = T_HEADS + "test_window_at_one_and_three_components_over_texts_of_0_1_and_U_characters_matches_autograd[3]"
CTC = T_HEADS + "test_ctc_over_lengths_0_1_3_T_with_empty_repeated_distinct_and_impossible_labels_matches_torch"

MUTANTS = [
    dict(name="v355-lstm-cache-h-is-new", file=REF,
         old="        step = dict(x=x[t], h=h, c=c, i=i,",
         new="        step = dict(x=x[t], h=h_new, c=c, i=i,",
         tests=[STACK_LSTM, LN_LSTM3] + OLD_CELLS,
         why="the backward's dWh multiplies by h_t instead of h_{t-1}"),
    dict(name="v355-ln-lstm-bwd-x-side-reads-gh", file=REF,
         old='            dxw, dgx, dbx = layernorm_backward(da, s["xw"], s["mx"], s["rx"], gx)',
         new='            dxw, dgx, dbx = layernorm_backward(da, s["xw"], s["mx"], s["rx"], gh)',
         tests=[LN_LSTM1, LN_LSTM3] + OLD_CELLS,
         why="the LN-LSTM's dx and dWx go through the h side's gains"),
    dict(name="v355-rnn-starts-from-zeros", file=REF,
         old="    h = h0\n    ys, cache = [], []\n",
         new="    h = np.zeros_like(h0)\n    ys, cache = [], []\n",
         tests=[STACK_RNN, LN_RNN1] + OLD_CELLS,
         why="the plain and LN RNN ignore the initial state h0"),
    dict(name="v355-ln-rnn-eps-not-passed", file=REF,
         old="            z, m, r = layernorm_forward(a, g, b, eps)",
         new="            z, m, r = layernorm_forward(a, g, b)",
         tests=[LN_RNN1, LN_RNN4] + OLD_CELLS,
         why="the LN RNN's eps argument is dropped: LayerNorm runs at the default eps"),
    dict(name="v355-rnn-cache-y-is-previous-h", file=REF,
         old="y=h_new, pre=z))",
         new="y=h, pre=z))",
         tests=[STACK_RNN, LN_RNN1] + OLD_CELLS,
         why="the backward's tanh derivative reads h_{t-1} instead of h_t"),
    dict(name="v355-ln-rnn-bwd-normalizes-the-tanh-argument", file=REF,
         old='            da, dgt, dbt = layernorm_backward(dz, s["a"], s["m"], s["r"], g)',
         new='            da, dgt, dbt = layernorm_backward(dz, s["pre"], s["m"], s["r"], g)',
         tests=[LN_RNN1, LN_RNN4] + OLD_CELLS,
         why="the LN RNN's backward takes xhat of the normalized output instead of the sum it normalized"),
    dict(name="v355-bn-train-eps-outside-root", file=REF,
         old="    return mean, 1.0 / np.sqrt(var + eps)",
         new="    return mean, 1.0 / (np.sqrt(var) + eps)",
         tests=[BN_TRAIN] + OLD_CELLS,
         why="training BatchNorm's rstd is 1 / (sqrt(var) + eps); a one-row step gives 1/eps"),
    dict(name="v355-bn-rnn-bwd-x-side-always-training", file=REF,
         old=('        dxw, dg_, _ = _bn_step_backward(da, s["xw"], s["mx"], s["sx"], gx, training, active[t])\n'
              '        dgx += dg_\n        dWh += s["h_prev"].T @ dhw\n        dWx += x[t].T @ dxw\n'
              '        dx[t] = dxw @ Wx.T\n        dh_next = dhw @ Wh.T\n    return dx, dh_next, dWx'),
         new=('        dxw, dg_, _ = _bn_step_backward(da, s["xw"], s["mx"], s["sx"], gx, True, active[t])\n'
              '        dgx += dg_\n        dWh += s["h_prev"].T @ dhw\n        dWx += x[t].T @ dxw\n'
              '        dx[t] = dxw @ Wx.T\n        dh_next = dhw @ Wh.T\n    return dx, dh_next, dWx'),
         tests=[BN_RNN] + OLD_CELLS,
         why="the BN-RNN's inference backward subtracts batch means from the x side's gradient"),
    dict(name="v355-bn-lstm-dwx-from-h-side", file=REF,
         old="        dWx += x[t].T @ dxw\n        dx[t] = dxw @ Wx.T\n        dh_next = dhw @ Wh.T\n        dc_next = dc * f",
         new="        dWx += x[t].T @ dhw\n        dx[t] = dxw @ Wx.T\n        dh_next = dhw @ Wh.T\n        dc_next = dc * f",
         tests=[BN_LSTM0, BN_LSTM_PAST] + OLD_CELLS,
         why="the BN-LSTM's dWx multiplies x by dL/d(h Wh) instead of dL/d(x Wx)"),
    dict(name="v355-mdn-eos-sign", file=REF,
         old="    e = 1.0 / (1.0 + np.exp(-y[:, 0]))",
         new="    e = 1.0 / (1.0 + np.exp(y[:, 0]))",
         tests=[MDN1, MDN3] + OLD_HEADS,
         why="the end-of-stroke probability is the sigmoid of the negated logit: pen up and down swapped"),
    dict(name="v355-mdn-pi-shift-over-rows", file=REF,
         old="y[:, 1:1 + M].max(axis=1, keepdims=True))",
         new="y[:, 1:1 + M].max(axis=0, keepdims=True))",
         tests=[MDN3] + OLD_HEADS,
         why="each mixture logit is shifted by its component's largest over the rows: pi is wrong at K > 1"),
    dict(name="v355-window-cache-ek-is-kappa", file=REF,
         old="dict(h=h, alpha=alpha, beta=beta, ek=ek,",
         new="dict(h=h, alpha=alpha, beta=beta, ek=kappa,",
         tests=[WIN1, WIN3] + OLD_HEADS,
         why="the backward scales dL/dk_hat by kappa_t instead of exp(k_hat)"),
    dict(name="v355-ctc-step-from-s-minus-1-read-at-s", file=REF,
         old="                    a = np.logaddexp(a, alpha[t - 1, s - 1])",
         new="                    a = np.logaddexp(a, alpha[t - 1, s])",
         tests=[CTC] + OLD_HEADS,
         why="the forward never moves on to the next extended position and counts staying twice"),
    dict(name="v355-ctc-beta-skip-to-s-plus-1", file=REF,
         old="                    nxt.append(s + 2)",
         new="                    nxt.append(s + 1)",
         tests=[CTC] + OLD_HEADS,
         why="beta's skip over a blank lands on the blank instead of the next label: distinct labels' gradient wrong"),
]
