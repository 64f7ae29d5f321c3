"""Planted bugs, round 333 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the attention window's CPU kernel (lnrnn/kernels/window.py) and the synthesis layer and stack
(lnrnn/model/window.py), eighteenth pass: the window vector w_t started at 1 in every column instead of 0; h_t
written over h_{t-1}'s row of the saved hs; the float32 exp's reduction rounding k down instead of to the nearest
(the polynomial then runs on [0, ln 2) and misses 4e-7); exp(-87) itself returned as -87 (the floor taken as
strict); LayerNorm's backward dividing its sums by F - 1; the cell norm's gain and bias gradients swapped; the x
side's LayerNorm backward reading the h side's 1/std; LayerNorm's dbx and dbh zeroed as if BatchNorm; dbp missing
its last column; the layer's C and K read from window and alphabet_size swapped; the lengths checked against (B,
T) instead of (T, B); a carried state's kappa and w checked against (B, H); dy's refusal naming dw; the stack's
backward splitting layer 2's input gradient at C instead of I.

14 mutants. Against the old targeted files alone: not measured yet. The old targeted files are
tests/kernels/test_window.py, test_values146_window.py and test_values303_window.py (kernel) and
tests/model/test_values_window.py and test_values308_window.py (layer and stack). The new value tests catch
every mutant on their own (checked with the old files taken off the lists): test_values333_window (h_t
against lnrnn.reference, phi, kappa and w written out from Graves's eq. 46-51 for K 1 and 3, U 1, 4 and 7
with text lengths 0, 1 and U in one batch; two calls carrying (h, c, kappa, w) equal to one call; the float32
exp at -87, at the float below it and on a grid within 4e-7 of exp in float64; every parameter's and initial
state's gradient, NORM_NONE and LayerNorm, against central differences in float64), test_values333_window_model
(the layer's and stack's shapes with I, C, K and H all different; lengths 5, 2, 0 over T = 5, B = 3 and a
length of 6 refused word for word; chunks of 2 and 3 steps carrying kappa and w equal to one call; dy's
refusal word for word; a two-layer stack's dx against central differences).

Left out as equivalent: S2 = min(T, 1) without keep (kappa_t and c_t are then updated in place element by
element, which reads each kappa_{t-1} and c_{t-1} entry before writing it: the same numbers); the gap row of m
dropped (only cache-line spacing between chunks); _chunks returning 1 chunk (results are the same bit for bit
whatever the chunking of rows: the module docstring's promise); step_phi = phi[-1] (a step has T = 1); k =
np.round(...) for np.floor(... + 0.5) (they differ only at exact ties, where either k gives a reduced argument
of the same size). Left out as not deterministic: zeroing w's columns only up to C - 1 and reading dP[t - 1] in
the window's share of dL/dh_t (np.empty's leftover memory decides the values). Left out as not cheap to catch
on the CPU: the device-view lines (CUDA only) and the crossings count (zero on the CPU).

    python tests/mutants/run.py --only 'v333-*'
"""
KWIN = "lnrnn/kernels/window.py"
MWIN = "lnrnn/model/window.py"

T_K = "tests/kernels/test_values333_window.py::"
T_M = "tests/model/test_values333_window_model.py::"
OLD_K = ["tests/kernels/test_window.py", "tests/kernels/test_values146_window.py",
         "tests/kernels/test_values303_window.py"]
OLD_M = ["tests/model/test_values_window.py", "tests/model/test_values308_window.py"]

PHI = T_K + "test_phi_kappa_and_w_written_out_for_text_lengths_0_1_and_u"
CARRY_K = T_K + "test_two_calls_carrying_h_c_kappa_and_w_equal_one_call"
EXP = T_K + "test_float32_exp_keeps_minus_87_drops_below_and_stays_within_4e_7"
GRAD = T_K + "test_every_gradient_against_central_differences"

MUTANTS = [
    # ---- the window op's CPU kernel: lnrnn/kernels/window.py ----
    dict(name="v333-kernel-w-columns-start-at-one", file=KWIN,
         old="            for j in range(C):\n                wr[j] = zero\n",
         new="            for j in range(C):\n                wr[j] = one\n",
         tests=[PHI, CARRY_K] + OLD_K,
         why="w_t starts at 1 in every column before phi is scattered into it: every window vector is 1 too big"),
    dict(name="v333-kernel-h-written-over-previous-row", file=KWIN,
         old="            ct, tr, yr = c[tn, bb], tc[ts, bb], hs[t + 1, bb]",
         new="            ct, tr, yr = c[tn, bb], tc[ts, bb], hs[t, bb]",
         tests=[PHI] + OLD_K,
         why="h_t is written into h_{t-1}'s row of the saved hs: y is shifted by a step and hs[t + 1] is never set"),
    dict(name="v333-kernel-exp32-reduction-rounds-down", file=KWIN,
         old="            k = np.floor(v * _LOG2E + np.float32(0.5))",
         new="            k = np.floor(v * _LOG2E)",
         tests=[EXP] + OLD_K,
         why="the float32 exp's k rounds down: the reduced argument lies in [0, ln 2) and the degree-7 polynomial "
             "misses the 4e-7 bound"),
    dict(name="v333-kernel-exp32-floor-strict", file=KWIN,
         old="            return p if z >= _EXP_MIN else (np.float32(0.0) if z < _EXP_MIN else z)",
         new="            return p if z > _EXP_MIN else (np.float32(0.0) if z < _EXP_MIN else z)",
         tests=[EXP] + OLD_K,
         why="at z = -87 exactly the float32 exp returns z itself (-87) instead of exp(-87)"),
    dict(name="v333-kernel-ln-backward-divides-by-f-minus-1", file=KWIN,
         old="    invF = dv.dtype.type(1.0) / dv.dtype.type(F)",
         new="    invF = dv.dtype.type(1.0) / dv.dtype.type(F - 1)",
         tests=[GRAD] + OLD_K,
         why="LayerNorm's backward averages its two sums over F - 1 features: every gradient through LN is off"),
    dict(name="v333-kernel-cell-norm-gain-bias-grads-swapped", file=KWIN,
         old="_ln_rows_backward(dcn, chat[t, r0:r1], rstd[2, t, r0:r1], gc, pc[0], pc[1], dcc)",
         new="_ln_rows_backward(dcn, chat[t, r0:r1], rstd[2, t, r0:r1], gc, pc[1], pc[0], dcc)",
         tests=[GRAD] + OLD_K,
         why="the cell's LayerNorm gradients land swapped: dgc gets dbc's sums and dbc gets dgc's"),
    dict(name="v333-kernel-x-side-ln-backward-reads-h-rstd", file=KWIN,
         old="_ln_rows_backward(da, xhat[t, r0:r1], rstd[0, t, r0:r1], gx, pg[1], pg[2], dXW[t, r0:r1])",
         new="_ln_rows_backward(da, xhat[t, r0:r1], rstd[1, t, r0:r1], gx, pg[1], pg[2], dXW[t, r0:r1])",
         tests=[GRAD] + OLD_K,
         why="the LayerNorm of X_t Wx is backpropagated with h_{t-1} Wh's 1/std: dx, dw0 and dWx are off"),
    dict(name="v333-kernel-ln-bias-grads-zeroed-as-bn", file=KWIN,
         old="    elif norm == NORM_BN:\n        dbx, dbh = np.zeros(G, dt), np.zeros(G, dt)",
         new="    elif norm == NORM_LN:\n        dbx, dbh = np.zeros(G, dt), np.zeros(G, dt)",
         tests=[GRAD] + OLD_K,
         why="LayerNorm's dbx and dbh are returned as zeros (BatchNorm's rule): the two biases never learn"),
    dict(name="v333-kernel-dbp-last-column-dropped", file=KWIN,
         old="        for j in range(dP.shape[1]):\n            sb[j] += dpi[j]",
         new="        for j in range(dP.shape[1] - 1):\n            sb[j] += dpi[j]",
         tests=[GRAD] + OLD_K,
         why="dbp's last column (the last k_hat bias) stays 0"),
    # ---- the layer and the stack: lnrnn/model/window.py ----
    dict(name="v333-layer-c-and-k-swapped", file=MWIN,
         old="self.I_x, self.C, self.K = int(input_size), int(alphabet_size), int(window)",
         new="self.I_x, self.C, self.K = int(input_size), int(window), int(alphabet_size)",
         tests=[T_M + "test_layer_parameter_shapes_and_stack_outputs"] + OLD_M,
         why="the layer's alphabet size is the window's K and its K the alphabet size: Wp has 3C columns"),
    dict(name="v333-layer-lengths-checked-as-b-by-t", file=MWIN,
         old="        lengths = check_lengths(lengths, T, B)",
         new="        lengths = check_lengths(lengths, B, T)",
         tests=[T_M + "test_lengths_5_2_0_over_five_steps_and_a_length_of_6_refused"] + OLD_M,
         why="lengths are checked as T numbers in [0, B]: with T != B valid lengths are refused"),
    dict(name="v333-layer-state-kappa-w-checked-as-h", file=MWIN,
         old="        state = tuple(_check_array(n, s, 2, dt, (B, w), device_ok=True) for n, s, w in",
         new="        state = tuple(_check_array(n, s, 2, dt, (B, H), device_ok=True) for n, s, w in",
         tests=[T_M + "test_chunks_of_2_and_3_carrying_kappa_and_w_equal_one_call"] + OLD_M,
         why="a carried (h, c, kappa, w) has kappa and w checked against (B, H): a state the layer returned is "
             "refused when K or C differs from H"),
    dict(name="v333-layer-dy-refusal-names-dw", file=MWIN,
         old='        dy = _check_array("dy", dy, 3, self.dtype, (T, B, self.H), device_ok=True)',
         new='        dy = _check_array("dw", dy, 3, self.dtype, (T, B, self.H), device_ok=True)',
         tests=[T_M + "test_a_dy_of_c_columns_refused_word_for_word"] + OLD_M,
         why="a dy of the wrong shape is refused as 'dw must have shape (T,B,H)': the wrong array is named"),
    dict(name="v333-stack-backward-splits-at-c", file=MWIN,
         old="        H, I = self.H, self.I\n",
         new="        H, I = self.H, self.C\n",
         tests=[T_M + "test_two_layer_stack_dx_against_central_differences"] + OLD_M,
         why="the stack's backward splits layer 2's input gradient [x | h1 | w] at C instead of I"),
]
