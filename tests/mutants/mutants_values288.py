"""Planted bugs, round 288 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the NumPy spec itself (lnrnn/reference.py), first value pass: LayerNorm's backward taking x for
x - mean in xhat; Graves's clip turned on at 0 (every gate gradient clipped to nothing); the LN-LSTM's gate bias
b dropped; the input and forget gates read from each other's slices; the LN-LSTM carrying LN(c_t) on instead of
c_t; the LSTM's backward dropping dL/dh from later steps; the RNN reading h0 at every step; the RNN's backward
taking tanh' at the previous state; training BatchNorm's mean taken over padded rows too; BatchNorm's dgain
keeping the first step's sum alone; the mixture density's sigma2 left unclipped by smax; the window's w missing
each row's last character; CTC's skip transition reading s - 1 for s - 2; CTC ignoring each row's input length.

14 mutants. Against the old targeted files alone: not measured yet. The old targeted files are
test_values83_reference_forward, test_values83_reference_backward, test_values83_reference_ctc,
test_values105_reference, test_values191_reference_cells and test_values191_reference_heads. The new value tests
catch every mutant on their own (checked with the old files taken off the lists): test_values288_reference_cells
(LayerNorm by torch.nn.functional.layer_norm and its backward by central differences on rows whose mean is far
from 0; the plain LSTM by nn.LSTMCell with copied weights over three steps and its backward by autograd with clip
0 given and by default; the LN-LSTM by Ba et al.'s equations written out in torch ops, every gradient by
autograd; the plain RNN by nn.RNNCell from a given h0, its backward by central differences; training BatchNorm
with lengths by torch.nn.functional.batch_norm on the active rows alone; BatchNorm's backward over three steps by
autograd), test_values288_reference_heads (a two-component bivariate Gaussian mixture and Bernoulli pen written
out by hand with a log-sigma past smax on each axis; the window's phi and w summed by hand over each row's own
characters with a repeat; CTC's loss and gradient by torch.nn.functional.ctc_loss with zero_infinity and
autograd over input lengths 6, 4, 3). Left out as equivalent: ctc_backward's `if S > 1` made `S > 2` (the
extended label has 2L + 1 positions, always odd, so S > 1 and S > 2 agree); sigmoid's errstate dropped (only a
warning, the value is the same 0). Left out as a crash rather than a value: the mixture's pi slice taken as
1:M (the shapes no longer broadcast).

    python tests/mutants/run.py --only 'v288-*'
"""
REF = "lnrnn/reference.py"

T_CELLS = "tests/test_values288_reference_cells.py::"
T_HEADS = "tests/test_values288_reference_heads.py::"
OLD = ["tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py",
       "tests/test_values83_reference_ctc.py", "tests/test_values105_reference.py",
       "tests/test_values191_reference_cells.py", "tests/test_values191_reference_heads.py"]

MUTANTS = [
    dict(name="v288-ln-backward-xhat-without-mean", file=REF,
         old='    """-> dx (..., F), dgain (F,), dbias (F,)."""\n    xhat = (x - mean[..., None]) * rstd[..., None]',
         new='    """-> dx (..., F), dgain (F,), dbias (F,)."""\n    xhat = x * rstd[..., None]',
         tests=[T_CELLS + "test_layernorm_backward_against_central_differences_on_rows_far_from_zero"] + OLD,
         why="LayerNorm's backward rebuilds xhat as x * rstd: dx and dgain are wrong wherever a row's mean is not 0"),
    dict(name="v288-clip-zero-clips-everything", file=REF,
         old="    if 0.0 < clip < np.inf:",
         new="    if 0.0 <= clip < np.inf:",
         tests=[T_CELLS + "test_plain_lstm_backward_matches_autograd_of_lstmcell_with_clip_zero_given_and_by_default"]
         + OLD,
         why="clip 0 (off, the default) clips every gate gradient to [0, 0]: the LSTM's weights get no gradient"),
    dict(name="v288-ln-lstm-gate-bias-dropped", file=REF,
         old="            a = hn + xn + b",
         new="            a = hn + xn",
         tests=[T_CELLS + "test_ln_lstm_against_ba_et_al_written_out_with_the_cell_carried_unnormalized"] + OLD,
         why="the LN-LSTM's gate bias b never reaches the pre-activations"),
    dict(name="v288-lstm-input-forget-swapped", file=REF,
         old="            a = hw + xw + b\n        i, f = sigmoid(a[:, :H]), sigmoid(a[:, H:2 * H])",
         new="            a = hw + xw + b\n        i, f = sigmoid(a[:, H:2 * H]), sigmoid(a[:, :H])",
         tests=[T_CELLS + "test_plain_lstm_matches_nn_lstmcell_over_three_steps"] + OLD,
         why="the plain LSTM reads the input gate from the forget gate's slice and back: gate order [f|i|g|o]"),
    dict(name="v288-ln-lstm-carries-normalized-cell", file=REF,
         old="        h, c = h_new, c_new",
         new="        h, c = h_new, cn",
         tests=[T_CELLS + "test_ln_lstm_against_ba_et_al_written_out_with_the_cell_carried_unnormalized"] + OLD,
         why="the LN-LSTM carries LN(c_t) to the next step instead of c_t (and returns it as cT)"),
    dict(name="v288-lstm-backward-truncated", file=REF,
         old="        dh = dy[t] + dh_next",
         new="        dh = dy[t]",
         tests=[T_CELLS + "test_plain_lstm_backward_matches_autograd_of_lstmcell_with_clip_zero_given_and_by_default"]
         + OLD,
         why="the LSTM's backward drops dL/dh_t from later steps: gradients are truncated to one step"),
    dict(name="v288-rnn-reads-h0-every-step", file=REF,
         old="        a = x[t] @ Wx + h @ Wh",
         new="        a = x[t] @ Wx + h0 @ Wh",
         tests=[T_CELLS + "test_plain_rnn_matches_nn_rnncell_from_h0_and_its_backward_central_differences"] + OLD,
         why="the RNN's recurrence reads the initial state at every step instead of the previous one"),
    dict(name="v288-rnn-backward-tanh-derivative-of-previous-state", file=REF,
         old='        dz = (dy[t] + dh_next) * (1.0 - s["y"] ** 2)',
         new='        dz = (dy[t] + dh_next) * (1.0 - s["h"] ** 2)',
         tests=[T_CELLS + "test_plain_rnn_matches_nn_rnncell_from_h0_and_its_backward_central_differences"] + OLD,
         why="the RNN's backward takes tanh' at h_{t-1} instead of at h_t"),
    dict(name="v288-bn-mean-over-padded-rows", file=REF,
         old="    mean = xa.mean(axis=0)",
         new="    mean = x_t.mean(axis=0)",
         tests=[T_CELLS + "test_batchnorm_training_with_lengths_matches_torch_batch_norm_on_the_active_rows"] + OLD,
         why="training BatchNorm's mean counts the padded rows of a step too (the variance still the active rows')"),
    dict(name="v288-bn-backward-dgain-not-summed", file=REF,
         old="        dgain += dg",
         new="        dgain = dg",
         tests=[T_CELLS + "test_batchnorm_backward_gain_and_bias_summed_over_every_step_against_autograd"] + OLD,
         why="BatchNorm's dgain keeps the last step (T - 1) alone instead of the sum over steps"),
    dict(name="v288-mdn-sigma2-unclipped", file=REF,
         old="    s2 = np.exp(np.clip(y[:, 1 + 4 * M:1 + 5 * M], -smax, smax))",
         new="    s2 = np.exp(y[:, 1 + 4 * M:1 + 5 * M])",
         tests=[T_HEADS + "test_mixture_density_nll_against_a_mixture_written_out_with_both_sigmas_clipped"] + OLD,
         why="the mixture density's log sigma2 is not clipped to [-smax, smax] (sigma1's still is)"),
    dict(name="v288-window-w-misses-last-character", file=REF,
         old="        n = int(ulen[b])",
         new="        n = int(ulen[b]) - 1",
         tests=[T_HEADS + "test_window_w_sums_phi_over_each_rows_own_characters"] + OLD,
         why="the window's w sums phi over all but each row's last character"),
    dict(name="v288-ctc-skip-reads-s-minus-one", file=REF,
         old="                    a = np.logaddexp(a, alpha[t - 1, s - 2])",
         new="                    a = np.logaddexp(a, alpha[t - 1, s - 1])",
         tests=[T_HEADS + "test_ctc_loss_and_gradient_match_torch_over_rows_of_their_own_lengths"] + OLD,
         why="CTC's skip over a blank adds alpha[t-1, s-1] again instead of alpha[t-1, s-2]"),
    dict(name="v288-ctc-input-lengths-ignored", file=REF,
         old="        Tb, ext = int(input_lengths[b]), ctc_extend(",
         new="        Tb, ext = T, ctc_extend(",
         tests=[T_HEADS + "test_ctc_loss_and_gradient_match_torch_over_rows_of_their_own_lengths"] + OLD,
         why="CTC scores every row over all T steps, padding included, not its own input length"),
]
