"""Planted bugs, round 317 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the synchronized BatchNorm cells (lnrnn/kernels/bn_sync.py) and the BN op (lnrnn/kernels/batchnorm.py),
seventeenth pass: the shifted sums of a step's columns swapped (the mean read from the squares); the backward's
x and dy swapped in dx; the h side's sums counted with the next step's lengths; dh_{t-1} taken from the gates'
gradient instead of the h side's BN backward; the cell's running rows updated past the last one; the inference
path handing the x side's running rows to the h side; the cell's running row count taken from the h side's; the
op's run of active rows taking a row at its length; the op's count of active rows one step late; the full
batch's variance taken around the running mean; the op's running rows updated past Ts; the op's running row
count one short; bn_forward dropping the lengths; the op's backward sums skipping a row at its last step.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (the old files taken off the lists: 14 of 14; v317-bn-run-takes-row-at-its-length by the runner's
timeout: the run search never moves past a row at its length). The new tests: test_values317_bn_sync (BN-RNN and BN-LSTM in float64,
B 5, H 3, T 4, lengths [4, 0, 1, 4, 2], running rows x 4, h 2, c 3; one process with the identity reduce and
two ranks on threads holding the halves 0-1 and 2-4 whose reduce sums their buffers; y, hT, cT, every running row
and the counts 4, 3, 2, 2 against lnrnn.reference and the fused kernels; the gradients against central differences
of the reference's loss over the active (row, step)s and the fused backward, the halves' input gradients their
rows and their parameter gradients adding up; the running rows of the halves after one and two calls against
(1 - m) r + m s with n/(n - 1) written out; inference with x 3, h 2, c 1 rows against the reference, nothing
written), test_values317_batchnorm (the op over (4, 5, 3) with lengths [4, 1, 2, 3, 4], [4, 0, 1, 4, 2] and
None against the mean and biased variance of the active rows written out, the running rows Ts = 3 after one and
two calls by the momentum formula, inference with Ts = 2 reading row min(t, 1), the backward against central
differences of the masked formula in float64, padded dx exactly 0). Left out as equivalent: _step_chunks and the
copies of the shift rows (_shift_rows, _h_sums', _lstm_gates' shift loops: the shift cancels in the mean and
variance up to rounding, as round 296 says); the inference path of bn_sync.bn_lstm_forward dropping lengths
(inference ignores them); _x_backward's dgain and dbias allocated in the other order (both zeros of G).
Left out as garbage-dependent rather than a value: loops over rows or columns cut one short in _seq_normalize,
_gate_rows' row count and bn_col_backward's zero fill (np.empty's leftover memory); the LSTM backward's time loop
stopping before step 0 (step 0's gates' gradient stays np.empty).

    python tests/mutants/run.py --only 'v317-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
BN = "lnrnn/kernels/batchnorm.py"

T_SYNC = "tests/kernels/test_values317_bn_sync.py::"
T_BN = "tests/kernels/test_values317_batchnorm.py::"
S_FWD = T_SYNC + "test_forward_one_process_and_two_halves_against_the_reference_and_fused"
S_BWD = T_SYNC + "test_backward_against_central_differences_fused_and_two_halves"
S_RUN = T_SYNC + "test_running_rows_after_one_and_two_calls_of_two_halves_are_the_momentum_formula"
S_INF = T_SYNC + "test_inference_past_the_running_rows_against_the_reference"
B_FWD = T_BN + "test_training_forward_and_running_rows_after_one_and_two_calls"
B_INF = T_BN + "test_inference_reads_row_min_t_and_last_running_row_past_ts"
B_BWD = T_BN + "test_training_backward_against_central_differences_of_the_masked_formula"
OLD_SYNC = ["tests/kernels/test_values296_bn_sync.py", "tests/kernels/test_values287_bn_sync.py",
            "tests/kernels/test_values195_bn_sync.py"]
OLD_BN = ["tests/kernels/test_values269_batchnorm.py", "tests/kernels/test_values195_batchnorm.py",
          "tests/kernels/test_batchnorm.py"]

MUTANTS = [
    # ---- the synchronized cells: lnrnn/kernels/bn_sync.py ----
    dict(name="v317-sync-col-sums-swapped", file=SYNC,
         old='    x2 (B,F); shift (F,)."""\n    B, F = x2.shape\n    s1, s2 = out[:F], out[F:]\n',
         new='    x2 (B,F); shift (F,)."""\n    B, F = x2.shape\n    s1, s2 = out[F:], out[:F]\n',
         tests=[S_FWD + "[rnn]", S_FWD + "[lstm]", S_RUN] + OLD_SYNC,
         why="a step's shifted sums land in each other's halves: the mean is read from the sum of squares"),
    dict(name="v317-sync-bwd-dx-x-and-dy-swapped", file=SYNC,
         old="            xr, dr = x2[b], dy2[b]\n            for k in range(F):\n                xhat",
         new="            xr, dr = dy2[b], x2[b]\n            for k in range(F):\n                xhat",
         tests=[S_BWD + "[rnn]", S_BWD + "[lstm]"] + OLD_SYNC,
         why="the BN backward's dx normalizes dy and subtracts from x: every input gradient wrong"),
    dict(name="v317-sync-h-sums-next-step-lengths", file=SYNC,
         old="    col_sums(hw_t, lengths, t, shift, sums)",
         new="    col_sums(hw_t, lengths, t + 1, shift, sums)",
         tests=[S_FWD + "[rnn]", S_FWD + "[lstm]"] + OLD_SYNC,
         why="the h side's sums leave out a row at its last step while the count keeps it: mean and variance wrong"),
    dict(name="v317-sync-dh-from-gates-gradient", file=SYNC,
         old="    blocks_mul(dhw_t, WT, packs, dhn, dhn.shape[0], nblk, 0, nblk)",
         new="    blocks_mul(da_t, WT, packs, dhn, dhn.shape[0], nblk, 0, nblk)",
         tests=[S_BWD + "[rnn]", S_BWD + "[lstm]"] + OLD_SYNC,
         why="dh_{t-1} skips the h side's BN backward (da_t Wh^T instead of dhw_t Wh^T): dh0, dx, dWx wrong"),
    dict(name="v317-sync-lstm-cell-rows-always-updated", file=SYNC,
         old="    stats_from_sums(sums, n, shift, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t)\n"
             "    _output_rows(",
         new="    stats_from_sums(sums, n, shift, True, rm_row, rv_row, momentum, eps, mean_t, rstd_t)\n"
             "    _output_rows(",
         tests=[S_FWD + "[lstm]"] + OLD_SYNC,
         why="the cell's running rows are updated at steps t >= Ts too: the last row folds in step 3's statistics"),
    dict(name="v317-sync-lstm-inference-h-reads-x-rows", file=SYNC,
         old="        y, hT, cT, saved = fused_lstm.bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, "
             "rmh, rvh,",
         new="        y, hT, cT, saved = fused_lstm.bn_lstm_forward(x, h0, c0, Wx, Wh, b, gx, gh, gc, bc, rmx, rvx, "
             "rmx, rvx,",
         tests=[S_INF + "[lstm]"] + OLD_SYNC,
         why="in inference the BN-LSTM normalizes h Wh with the x side's running rows"),
    dict(name="v317-sync-lstm-cell-rows-counted-as-h", file=SYNC,
         old="    Tsh, Tsc = rmh.shape[0], rmc.shape[0]",
         new="    Tsh, Tsc = rmh.shape[0], rmh.shape[0]",
         tests=[S_FWD + "[lstm]"] + OLD_SYNC,
         why="the cell's running row count is the h side's: with 2 h rows and 3 cell rows, cell row 2 is never "
             "updated and row 1 takes steps 1-3"),
    # ---- the BN op: lnrnn/kernels/batchnorm.py ----
    dict(name="v317-bn-run-takes-row-at-its-length", file=BN,
         old="    while b < B and t >= lengths[b]:",
         new="    while b < B and t > lengths[b]:",
         tests=[B_FWD + "[runs]", B_BWD + "[runs]"] + OLD_BN,
         why="a run of active rows starts at a row whose length is t: its values enter step t's sums"),
    dict(name="v317-bn-count-one-step-late", file=BN,
         old="    n = active_rows(lengths, t)\n    if n == 0:",
         new="    n = active_rows(lengths, t + 1)\n    if n == 0:",
         tests=[B_FWD + "[runs]", B_FWD + "[zero-one-T]"] + OLD_BN,
         why="the forward divides step t's sums by step t+1's active rows (and skips steps before an empty one)"),
    dict(name="v317-bn-full-variance-around-running-mean", file=BN,
         old="\n                d = xr[k] - m_[k]\n",
         new="\n                d = xr[k] - rm[k]\n",
         tests=[B_FWD + "[none]", B_FWD + "[runs]"] + OLD_BN,
         why="with every row active the variance is taken around the running mean, not the batch mean"),
    dict(name="v317-bn-update-past-ts", file=BN,
         old="        if update:\n",
         new="        if training:\n",
         tests=[B_FWD + "[none]"] + OLD_BN,
         why="steps t >= Ts update the last running row again (the decision fires whenever training)"),
    dict(name="v317-bn-running-rows-one-short", file=BN,
         old="    Ts = running_mean.shape[0]\n    for t in range(t0, t1):\n        row = min(t, Ts - 1)",
         new="    Ts = running_mean.shape[0] - 1\n    for t in range(t0, t1):\n        row = min(t, Ts - 1)",
         tests=[B_FWD + "[none]", B_INF + "[none]"] + OLD_BN,
         why="the last running row is never updated in training and never read in inference"),
    dict(name="v317-bn-forward-drops-lengths", file=BN,
         old="    return _bn_forward(x, as_lengths(lengths, T, B), gain,",
         new="    return _bn_forward(x, as_lengths(None, T, B), gain,",
         tests=[B_FWD + "[runs]", B_FWD + "[zero-one-T]"] + OLD_BN,
         why="bn_forward ignores the lengths: padded rows enter the statistics and the running rows"),
    dict(name="v317-bn-backward-sums-skip-last-step-row", file=BN,
         old="        r0, r1 = active_run(lengths, t, r1)\n        for b in range(r0, r1):\n            xr = x2[b, k0:k1]",
         new="        r0, r1 = active_run(lengths, t + 1, r1)\n        for b in range(r0, r1):\n            xr = x2[b, k0:k1]",
         tests=[B_BWD + "[runs]", B_BWD + "[zero-one-T]"] + OLD_BN,
         why="the backward's sums (and dgain, dbias) leave out a row at its last step"),
]
