"""Planted bugs, round 330 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the NumPy spec itself (lnrnn/reference.py), third value pass: LayerNorm's forward dropping its bias; the plain
LSTM's tanh read from the previous cell; the plain LSTM's g-gate derivative written (1 - g)^2; the LN-LSTM's cell
gain gradient summing the bias gradient and its h-side gain gradient summing the x side's; the RNN's tanh taken of
the un-normalized sum; the LN RNN's dWx taken from the gradient before LayerNorm; the mixture density's sigma1 read
from sigma2's slot and its pen from the y offset; the window's phi not zeroed past each row's text and its dalpha
summed over the distances; CTC's emission read at the extended position instead of its class, its beta started at S
- 1 twice, and an impossible row's gradient no longer skipped.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values330_reference_cells (LayerNorm with a bias against
torch.nn.functional.layer_norm and the biased variance written out; the plain LSTM of 5 inputs and 3 units written
in torch ops, its backward by autograd with the clip at 0, inf and a bound past every gate gradient; the LN-LSTM's
every gain and bias gradient by autograd; the plain and LN RNN in torch ops, forward and backward),
test_values330_reference_heads (the mixture density at K 1 and 3 against torch.distributions' MultivariateNormal
from its scale_tril and a Bernoulli, log sigmas at and past the clip bound 10, a row left out by valid; the window
at K 1 and 3 with phi written position by position and zero past each text, w with a repeated character, its
backward by autograd; CTC over input lengths 0, 1 and T in one batch with empty, repeated and impossible repeated
labels against torch's ctc_loss with zero_infinity and its gradient by autograd). Left out as equivalent: the
LN-LSTM's dbh accumulating dbx (both are da summed over the batch: LayerNorm's bias gradient does not depend on its
input); ctc_backward's `if S > 1:` made `if S > 2:` (S = 2L + 1 is odd, so S > 1 and S > 2 agree); window_forward's
K = Wp.shape[1] // 3 made // 2 at K = 1 (3 // 2 = 1; at K = 3 it is a crash, not a value). Left out as a crash
rather than a value: layernorm_forward's mean over axis 0 (shapes (G,) against (B,G) fail to broadcast unless B =
G).

    python tests/mutants/run.py --only 'v330-*'
"""
REF = "lnrnn/reference.py"

T_CELLS = "tests/test_values330_reference_cells.py::"
T_HEADS = "tests/test_values330_reference_heads.py::"
OLD_CELLS = ["tests/test_values288_reference_cells.py", "tests/test_values304_reference_cells.py",
             "tests/test_values83_reference_forward.py", "tests/test_values83_reference_backward.py"]
OLD_HEADS = ["tests/test_values288_reference_heads.py", "tests/test_values304_reference_heads.py",
             "tests/test_values83_reference_ctc.py"]

LN = T_CELLS + "test_layernorm_forward_with_a_bias_matches_torch_layer_norm_and_the_biased_variance"
LSTM = T_CELLS + "test_plain_lstm_forward_and_backward_match_the_cell_in_torch_ops_with_the_clip_off_or_never_reached"
LN_LSTM = T_CELLS + "test_ln_lstm_gradients_of_every_gain_and_bias_match_autograd"
RNN = T_CELLS + "test_rnn_plain_and_ln_forward_and_backward_match_the_cell_in_torch_ops"
MDN = T_HEADS + "test_mixture_density_at_one_and_three_components_against_torch_distributions_with_sigmas_clipped"
WIN = T_HEADS + "test_window_at_one_and_three_components_against_phi_written_out_and_autograd"
CTC = T_HEADS + "test_ctc_over_lengths_0_1_and_T_with_empty_repeated_and_impossible_labels_matches_torch"

MUTANTS = [
    # ---- cells ----
    dict(name="v330-ref-layernorm-bias-dropped", file=REF,
         old="    return xhat * gain + bias, mean, rstd",
         new="    return xhat * gain, mean, rstd",
         tests=[LN] + OLD_CELLS,
         why="LayerNorm's forward drops its bias: every LN output is off by bias"),
    dict(name="v330-ref-lstm-plain-tanh-of-previous-cell", file=REF,
         old="""        else:
            cn = c_new
        tc = np.tanh(cn)""",
         new="""        else:
            cn = c
        tc = np.tanh(cn)""",
         tests=[LSTM] + OLD_CELLS,
         why="the plain LSTM's h_t reads tanh(c_{t-1}) instead of tanh(c_t)"),
    dict(name="v330-ref-lstm-g-derivative-squared-wrong", file=REF,
         old='                             dg * (1 - s["g"] ** 2), do * s["o"] * (1 - s["o"])], axis=1)  # (B,G)',
         new='                             dg * (1 - s["g"]) ** 2, do * s["o"] * (1 - s["o"])], axis=1)  # (B,G)',
         tests=[LSTM] + OLD_CELLS,
         why="tanh's derivative written (1 - g)^2 instead of 1 - g^2 in the LSTM backward"),
    dict(name="v330-ref-lstm-dgc-sums-dbc", file=REF,
         old='            grads["gc"] += dgc',
         new='            grads["gc"] += dbc',
         tests=[LN_LSTM] + OLD_CELLS,
         why="the LN-LSTM's cell gain gradient accumulates the cell bias gradient"),
    dict(name="v330-ref-lstm-dgh-sums-dgx", file=REF,
         old='            grads["gh"] += dgh',
         new='            grads["gh"] += dgx',
         tests=[LN_LSTM] + OLD_CELLS,
         why="the LN-LSTM's h-side LN gain gradient accumulates the x-side one"),
    dict(name="v330-ref-rnn-tanh-of-unnormalized-sum", file=REF,
         old="        h_new = np.tanh(z)",
         new="        h_new = np.tanh(a)",
         tests=[RNN] + OLD_CELLS,
         why="the RNN's tanh skips LayerNorm (ln) and the bias (none)"),
    dict(name="v330-ref-rnn-dwx-from-dz", file=REF,
         old='        dWx += s["x"].T @ da',
         new='        dWx += s["x"].T @ dz',
         tests=[RNN] + OLD_CELLS,
         why="the LN RNN's dWx uses the gradient at LN's output instead of its input"),
    # ---- heads ----
    dict(name="v330-ref-mdn-sigma1-from-sigma2-slot", file=REF,
         old="    s1 = np.exp(np.clip(y[:, 1 + 3 * M:1 + 4 * M], -smax, smax))",
         new="    s1 = np.exp(np.clip(y[:, 1 + 4 * M:1 + 5 * M], -smax, smax))",
         tests=[MDN] + OLD_HEADS,
         why="sigma1 read from sigma2's columns"),
    dict(name="v330-ref-mdn-pen-from-dy", file=REF,
         old="    pen = t[:, 2]",
         new="    pen = t[:, 1]",
         tests=[MDN] + OLD_HEADS,
         why="the pen bit read from the y offset's column"),
    dict(name="v330-ref-window-phi-not-masked", file=REF,
         old="    phi = np.where(on, (alpha[:, :, None] * e).sum(axis=1), 0.0)       # (B,U)",
         new="    phi = (alpha[:, :, None] * e).sum(axis=1)       # (B,U)",
         tests=[WIN] + OLD_HEADS,
         why="phi is no longer zero at positions past a row's text"),
    dict(name="v330-ref-window-dalpha-from-d", file=REF,
         old='    dalpha = (s["e"] * dphi[:, None, :]).sum(axis=2)',
         new='    dalpha = (s["d"] * dphi[:, None, :]).sum(axis=2)',
         tests=[WIN] + OLD_HEADS,
         why="dL/dalpha sums the distances kappa - u instead of the Gaussian factors"),
    dict(name="v330-ref-ctc-emission-at-position", file=REF,
         old="                e = logp[t, b, ext[s]]",
         new="                e = logp[t, b, s]",
         tests=[CTC] + OLD_HEADS,
         why="CTC's alpha emits the class numbered by the extended position, not its label"),
    dict(name="v330-ref-ctc-beta-start-s-minus-1-twice", file=REF,
         old="            beta[Tb - 1, S - 2] = 0.0",
         new="            beta[Tb - 1, S - 1] = 0.0",
         tests=[CTC] + OLD_HEADS,
         why="beta's last step starts only at the final blank, not at the last label"),
    dict(name="v330-ref-ctc-impossible-row-not-skipped", file=REF,
         old="        if Tb == 0 or not np.isfinite(logz):   # nothing scored, or p = 0",
         new="        if Tb == 0:   # nothing scored, or p = 0",
         tests=[CTC] + OLD_HEADS,
         why="an impossible row (p = 0) gets NaN gradients instead of zero"),
]
