"""Planted bugs, round 282 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the cell rows (lnrnn/model/cells.py), the functional layer API (lnrnn/model/functional.py),
LayerNorm's CPU kernel (lnrnn/kernels/layernorm.py), the length masks (lnrnn/kernels/masks.py), the shared
constants (lnrnn/kernels/codes.py) and the MDN kernel (lnrnn/kernels/mdn.py), thirteenth pass: the LN-LSTM's and
the LN-RNN's backward run as the plain cell's; the BN-LSTM's forward with its input and recurrent gains swapped;
the BN-LSTM's backward reading h0 as c0 and c0 as h0; dL/dc_n of rows of length 1 added into dc0 as if they were
empty; BatchNorm statistics shorter than the sequence refused in evaluation and grown in training; lengths of the
wrong shape refused naming T for B; |rho| bounded by 1 - 1e-3; LayerNorm's last column left without gain and
bias; LayerNorm's backward summing the first row chunk in every chunk; the MDN's mixture weights normalized
without the first component; the target's dx and dy swapped; the end-of-stroke Bernoulli term with e_hat's sign
flipped; the MDN gradient's 1 / (1 - rho^2) written 1 / (1 - rho).

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values282_cells (plain and LN cells' gradients
against central differences of the layer's own forward at B 3, H 5, I 7 with lengths 0, 1 and T and dL/dh_n; an
LN-LSTM's state carried over two chunks against one lnrnn.reference run; a BN-LSTM's training forward, running
statistics and backward against lnrnn.reference with random, distinct gains and h0 != c0; a BN-RNN's evaluation
with 2 rows of statistics for 4 steps against lnrnn.reference and its training refusal word for word; dL/dc_n of
an empty row and of one-step rows worked out by hand through the forget gate), test_values282_norm_masks
(LayerNorm against its definition written out over 1, 2 and 3 row chunks, its backward against central
differences and dgain, dbias by their definition; step_mask by its definition; the lengths refusals word for
word), test_values282_mdn (the mixture density of Graves 2013's eqs. 23-26 written out with K 1 and 3, rho near
+1 and -1, end of stroke 0 and 1, and the gradient against central differences of it).

Left out as equivalent: functional._buffer_rows' `T <= Ts` made `T < Ts` (at T = Ts the rows taken are 0..T-1,
the buffers themselves); forward's `lengths if spec.masked_kernel else None` made `lengths` (the plain and LN
adapters never read lengths); the NORM_LN code changed (both twins and the adapters read the same constant);
clip_bound's `0.0 < clip` made `0.0 <= clip` (0 maps to 0.0 either way); layernorm's clamp_chunks dropped
(chunk_bounds gives empty chunks past N); the log-softmax's first running maximum pmax = yh[1] read from
another slot (the log-sum-exp is exact for any shift at these magnitudes). Left out as flaky: LayerNorm's
partial sums started from np.empty (leftover memory may hold zeros); codes.centered skipping its last row
(np.empty again).

    python tests/mutants/run.py --only 'v282-*'
"""
CELLS = "lnrnn/model/cells.py"
FUNC = "lnrnn/model/functional.py"
LN = "lnrnn/kernels/layernorm.py"
MASKS = "lnrnn/kernels/masks.py"
CODES = "lnrnn/kernels/codes.py"
MDN = "lnrnn/kernels/mdn.py"

T_CELLS = "tests/model/test_values282_cells.py::"
T_NM = "tests/kernels/test_values282_norm_masks.py::"
T_MDN = "tests/kernels/test_values282_mdn.py::"
OLD_MODEL = ["tests/model/test_values252_functional.py", "tests/model/test_values169_functional.py",
             "tests/model/test_values204_cells.py"]
OLD_KERN = ["tests/kernels/test_values_layernorm.py", "tests/kernels/test_values155_masks.py",
            "tests/kernels/test_values_masks.py"]
OLD_MDN = ["tests/kernels/test_values261_mdn.py", "tests/kernels/test_mdn.py"]

GRAD = T_CELLS + "test_gradients_against_central_differences_with_lengths_zero_one_and_t"
BN_LSTM = T_CELLS + "test_bn_lstm_training_forward_and_backward_against_the_reference"
MDN_LOSS = T_MDN + "test_loss_is_the_mixture_density_written_out"
MDN_GRAD = T_MDN + "test_gradient_against_central_differences_of_the_written_out_loss"

MUTANTS = [
    # ---- the cell rows: lnrnn/model/cells.py ----
    dict(name="v282-cells-ln-lstm-backward-as-plain", file=CELLS,
         old='def _lstm_backward(kern, f, dy, saved, x, state, p, nch, dc_n=None):\n    h0, c0 = state\n'
             '    c = f.consts\n    ln = f.norm == "ln"',
         new='def _lstm_backward(kern, f, dy, saved, x, state, p, nch, dc_n=None):\n    h0, c0 = state\n'
             '    c = f.consts\n    ln = f.norm == "none"',
         tests=[GRAD] + OLD_MODEL,
         why="the LSTM backward keys LayerNorm on the wrong norm: an LN-LSTM's gradients are the plain cell's"),
    dict(name="v282-cells-ln-rnn-backward-as-plain", file=CELLS,
         old='def _rnn_backward(kern, f, dy, saved, x, state, p, nch):\n    (h0,) = state\n    ln = f.norm == "ln"',
         new='def _rnn_backward(kern, f, dy, saved, x, state, p, nch):\n    (h0,) = state\n    ln = f.norm == "bn"',
         tests=[GRAD] + OLD_MODEL,
         why="an LN-RNN's backward runs the plain kernel with unit gains: its gradients ignore g"),
    dict(name="v282-cells-bn-lstm-gains-swapped", file=CELLS,
         old='p["Wx"], p["Wh"], p["b"], p["gx"], p["gh"], p["gc"], p["bc"],',
         new='p["Wx"], p["Wh"], p["b"], p["gh"], p["gx"], p["gc"], p["bc"],',
         tests=[BN_LSTM] + OLD_MODEL,
         why="the BN-LSTM's forward scales the normalized input by gh and the recurrent sum by gx"),
    dict(name="v282-cells-bn-lstm-backward-state-swapped", file=CELLS,
         old="def _bn_lstm_backward(kern, f, dy, saved, x, state, p, nch):\n    h0, c0 = state",
         new="def _bn_lstm_backward(kern, f, dy, saved, x, state, p, nch):\n    c0, h0 = state",
         tests=[BN_LSTM] + OLD_MODEL,
         why="the BN-LSTM's backward reads h0 as c0 and c0 as h0: wrong dWh, forget-gate and state gradients"),
    # ---- the functional layer API: lnrnn/model/functional.py ----
    dict(name="v282-func-dc-n-one-step-rows-as-empty", file=FUNC,
         old="        z = np.nonzero(lengths == 0)[0]\n        dc0 =",
         new="        z = np.nonzero(lengths <= 1)[0]\n        dc0 =",
         tests=[T_CELLS + "test_dc_n_of_an_empty_row_is_dc0_and_of_a_one_step_row_goes_through_the_forget_gate"]
         + OLD_MODEL,
         why="dL/dc_n of a row of length 1 is added straight into dc0 on top of the kernel's forget-gate path"),
    dict(name="v282-func-buffer-rows-training-inverted", file=FUNC,
         old="    if training:\n        if Ts < T:",
         new="    if not training:\n        if Ts < T:",
         tests=[T_CELLS + "test_bn_rnn_statistics_shorter_than_the_sequence_read_their_last_row_in_evaluation"]
         + OLD_MODEL,
         why="short BatchNorm statistics are refused in evaluation (where they repeat their last row) and "
             "silently grown in training"),
    # ---- masks and codes ----
    dict(name="v282-masks-shape-refusal-names-t", file=MASKS,
         old='raise ValueError(f"lengths must be (B,) = ({B},) integers',
         new='raise ValueError(f"lengths must be (B,) = ({T},) integers',
         tests=[T_NM + "test_lengths_of_the_wrong_shape_refused_naming_b"] + OLD_KERN,
         why="lengths of the wrong shape are refused naming the step count as the batch size"),
    dict(name="v282-codes-rho-bound-looser", file=CODES,
         old="MDN_RHO = 1.0 - 1e-4",
         new="MDN_RHO = 1.0 - 1e-3",
         tests=[MDN_LOSS, MDN_GRAD] + OLD_MDN,
         why="|rho| is bounded by 1 - 1e-3: correlations near +-1 come out 0.1% smaller, the loss with them"),
    # ---- LayerNorm: lnrnn/kernels/layernorm.py ----
    dict(name="v282-ln-forward-last-column-raw", file=LN,
         old="            for j in range(F):\n                y[r, j] = y[r, j] * gain[j] + bias[j]",
         new="            for j in range(F - 1):\n                y[r, j] = y[r, j] * gain[j] + bias[j]",
         tests=[T_NM + "test_forward_against_the_definition_every_column"] + OLD_KERN,
         why="LayerNorm's last feature is left normalized but without its gain and bias"),
    dict(name="v282-ln-backward-every-chunk-the-first", file=LN,
         old="        lo, hi = chunk_bounds(N, nch, k)\n        xhat = np.empty(F, dtype=x.dtype)",
         new="        lo, hi = chunk_bounds(N, nch, 0)\n        xhat = np.empty(F, dtype=x.dtype)",
         tests=[T_NM + "test_backward_against_central_differences_and_the_definition"] + OLD_KERN,
         why="with several row chunks each thread redoes the first chunk: dgain, dbias count its rows again and "
             "the other rows' dx are never written"),
    # ---- the MDN kernel: lnrnn/kernels/mdn.py ----
    dict(name="v282-mdn-softmax-sum-skips-first", file=MDN,
         old="    psum = yh.dtype.type(0.0)\n    for k in range(M):",
         new="    psum = yh.dtype.type(0.0)\n    for k in range(1, M):",
         tests=[MDN_LOSS, MDN_GRAD] + OLD_MDN,
         why="the mixture weights' softmax leaves the first component out of its sum (K 1: log 0)"),
    dict(name="v282-mdn-target-dx-dy-swapped", file=MDN,
         old="    x1, x2 = tg[0], tg[1]",
         new="    x1, x2 = tg[1], tg[0]",
         tests=[MDN_LOSS, MDN_GRAD] + OLD_MDN,
         why="the target's pen offsets are read as (dy, dx): the density is taken at the mirrored point"),
    dict(name="v282-mdn-end-of-stroke-sign", file=MDN,
         old="    eh = yh[0]",
         new="    eh = -yh[0]",
         tests=[T_MDN + "test_end_of_stroke_term_by_hand", MDN_LOSS] + OLD_MDN,
         why="the Bernoulli term scores pen-up with 1 - e and pen-down with e"),
    dict(name="v282-mdn-grad-c-linear-in-rho", file=MDN,
         old="        C = one / (one - rho * rho)",
         new="        C = one / (one - rho)",
         tests=[MDN_GRAD] + OLD_MDN,
         why="the gradient's 1 / (1 - rho^2) is written 1 / (1 - rho): every mean, sigma and rho gradient is off"),
]
