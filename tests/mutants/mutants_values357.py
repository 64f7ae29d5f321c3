"""Planted bugs, round 357 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the synchronized BatchNorm cells (lnrnn/kernels/bn_sync.py) and the training update (lnrnn/training/update.py),
eighteenth pass: a step's column sums leaving out the last column; the x side's running rows counted one short (the
last x row never moved, the step before it normalized with the wrong running row); BN-LSTM and BN-RNN evaluation
dropping the lengths on their way to the fused kernels; the BN-LSTM's h rows moved one step late (row Tsh - 1
updated twice); the BN-RNN's h rows moved by every step past the running rows; the BN-LSTM's h-side forward sums
left unreduced (the cell's buffer reduced in their place); Graves's clip not passed to the gate gradients; the
BN-LSTM backward loop stopping before step 0; the BN-RNN evaluation backward handing the fused kernel the counts
too; the BN-LSTM starting from c0 = h0; one device update dropping --tbptt or the text on the way to the model; a
layer's NaN or infinite refusal reported as "NaN or inf".

14 mutants. Against the old targeted files alone (each mutant's v357 files taken off its list): 7 of 14 caught; missed:
the LSTM and RNN inference passes dropping the lengths, the BN-LSTM clip not passed, the BN-RNN evaluation backward
handed the counts, the device update dropping --tbptt or the text, the non-finite refusal's words. The new value tests
catch every mutant on their own (checked with the old files taken off the lists): test_values357_bn_sync (float64, B 5,
H 3, T 4, lengths 4, 0, 1, 4, 2, fewer h and c running rows than steps, I 2 and FOLD_MAX_I + 1, a group of one and
stand-in groups of two and three ranks on threads (tests/thread_ranks.py): the training forward's y, hT, cT, every
rank's running rows and the counts by hand against lnrnn.reference on the whole batch to 1e-12; every group's gradients,
with and without a clip that bites, against the reference's backward to 1e-12 and, unclipped, the reference against
central differences of its loss over the active (row, step)s; evaluation with lengths against the reference forward and
its gradients against central differences of the reference's evaluation loss; a group of three's running rows after two
calls against (1 - m) r + m s written out), test_values357_update (test_values289_update's stand-in device trainer: the
keyword arguments the model receives, the sums with lengths 3, 0, 5 counting 2 sequences, the loss 2.4 / 8; the diverged
run's two names and "NaN or infinite"; the DataError word for word at batch 12 of epoch 3).

Left out as equivalent: _step_chunks made min(T, threads + 1) or min(T - 1, ...) (every step's sums are one chunk's
own loop over the rows, so the chunking changes no bit, which test_bn_sync_speed_bits shows); the shift rows taken
from another running row (_shift_rows, _h_sums, _lstm_gates: the shifted single-pass variance is the same number
up to roundings unless the batch mean is far from both rows); DeviceUpdate allocating its metrics on every call
(`if self.metrics is None` made True: the stand-in and the device give the same numbers). Left out as flaky: slips
that leave rows or columns of an np.empty array unwritten (the loops of stats_from_sums, bwd_dx's rows, _gate_rows
started at row 1: leftover memory of a freed array of the same size may hold the right numbers).

    python tests/mutants/run.py --only 'v357-*'
"""
SYNC = "lnrnn/kernels/bn_sync.py"
UPD = "lnrnn/training/update.py"

T_SYNC = "tests/kernels/test_values357_bn_sync.py::"
T_UPD = "tests/training/test_values357_update.py::"
FWD = T_SYNC + "test_training_forward_of_groups_of_one_two_three_against_the_reference"
GRAD = T_SYNC + "test_gradients_of_groups_against_the_reference_and_central_differences"
EVAL = T_SYNC + "test_evaluation_with_lengths_against_the_reference_and_central_differences"
MOM = T_SYNC + "test_running_rows_of_three_ranks_after_two_calls_are_the_momentum_formula"
OLD_SYNC = ["tests/kernels/test_values296_bn_sync.py", "tests/kernels/test_values317_bn_sync.py",
            "tests/kernels/test_values287_bn_sync.py", "tests/kernels/test_values195_bn_sync.py"]
OLD_UPD = ["tests/training/test_values289_update.py", "tests/training/test_values114_update.py"]

MUTANTS = [
    # ---- the synchronized BatchNorm cells: lnrnn/kernels/bn_sync.py ----
    dict(name="v357-sync-col-sums-skip-last-column", file=SYNC,
         old="            xr = x2[b]\n            for k in range(F):\n",
         new="            xr = x2[b]\n            for k in range(F - 1):\n",
         tests=[FWD] + OLD_SYNC,
         why="a step's shifted column sums leave out the last feature: its mean is the running mean, its variance 0"),
    dict(name="v357-sync-x-running-rows-one-short", file=SYNC,
         old="    Ts = rm.shape[0]\n    for t in range(t0, t1):\n",
         new="    Ts = rm.shape[0] - 1\n    for t in range(t0, t1):\n",
         tests=[FWD, MOM] + OLD_SYNC,
         why="the x side counts one running row fewer: the last row never moves and the last step updates no row"),
    dict(name="v357-sync-lstm-inference-drops-lengths", file=SYNC,
         old="                                                      rmc, rvc, training, momentum, eps, lengths=lengths)",
         new="                                                      rmc, rvc, training, momentum, eps)",
         tests=[EVAL] + OLD_SYNC,
         why="BN-LSTM evaluation runs every row for T steps: padded rows' outputs and hT, cT of short rows change"),
    dict(name="v357-sync-rnn-inference-drops-lengths", file=SYNC,
         old="                                                eps, lengths=lengths)",
         new="                                                eps)",
         tests=[EVAL] + OLD_SYNC,
         why="BN-RNN evaluation runs every row for T steps: padded rows' outputs and hT of short rows change"),
    dict(name="v357-sync-lstm-h-rows-updated-one-step-late", file=SYNC,
         old="        _lstm_gates(bh, counts[t], sh, hw[t], xn[t], cprev, gh, t < Tsh,",
         new="        _lstm_gates(bh, counts[t], sh, hw[t], xn[t], cprev, gh, t <= Tsh,",
         tests=[FWD] + OLD_SYNC,
         why="step Tsh also moves the BN-LSTM's last h running row, which step Tsh - 1 already moved"),
    dict(name="v357-sync-rnn-h-rows-always-updated", file=SYNC,
         old="    stats_from_sums(sums, n, shift, update, rm_row, rv_row, momentum, eps, mean_t, rstd_t)\n"
             "    _forward_rows(",
         new="    stats_from_sums(sums, n, shift, True, rm_row, rv_row, momentum, eps, mean_t, rstd_t)\n"
             "    _forward_rows(",
         tests=[FWD, MOM] + OLD_SYNC,
         why="every BN-RNN step past the running rows moves the last h row again"),
    dict(name="v357-sync-lstm-h-sums-reduce-wrong-buffer", file=SYNC,
         old="        reduce(bh)\n",
         new="        reduce(bc_)\n",
         tests=[FWD] + OLD_SYNC,
         why="the BN-LSTM's h-side forward sums stay each rank's own (the cell's stale buffer is reduced instead): "
             "a group of two or three normalizes with its shard's statistics"),
    dict(name="v357-sync-lstm-clip-not-passed", file=SYNC,
         old="    _gate_grad_rows(0, B, dy_t, dhn, dcarry, dcbn, gates_t, tc_t, cprev, clip, da_t)",
         new="    _gate_grad_rows(0, B, dy_t, dhn, dcarry, dcbn, gates_t, tc_t, cprev, 0.0, da_t)",
         tests=[GRAD] + OLD_SYNC,
         why="the synchronized BN-LSTM ignores --clip: the gate gradients are never clipped"),
    dict(name="v357-sync-lstm-backward-stops-before-step-0", file=SYNC,
         old="    for t in range(T - 1, -1, -1):\n        cprev = c0 if t == 0 else c[t - 1]",
         new="    for t in range(T - 1, 0, -1):\n        cprev = c0 if t == 0 else c[t - 1]",
         tests=[GRAD] + OLD_SYNC,
         why="the BN-LSTM backward never runs step 0: dh0, dc0 are the gradients at h_0, c_0 and step 0's part is lost"),
    dict(name="v357-sync-rnn-eval-backward-passes-counts", file=SYNC,
         old="        return fused_rnn.bn_rnn_backward(dy, saved[:-1], x, h0, Wx, Wh, gx, gh)",
         new="        return fused_rnn.bn_rnn_backward(dy, saved, x, h0, Wx, Wh, gx, gh)",
         tests=[EVAL] + OLD_SYNC,
         why="the BN-RNN backward in evaluation hands the fused kernel its saved tuple with the counts: it fails"),
    dict(name="v357-sync-lstm-starts-from-h0-for-c0", file=SYNC,
         old="    hprev, cprev = np.ascontiguousarray(h0), c0",
         new="    hprev, cprev = np.ascontiguousarray(h0), h0",
         tests=[FWD] + OLD_SYNC,
         why="the synchronized BN-LSTM's first step reads h0 as the carried cell state"),
    # ---- one training update: lnrnn/training/update.py ----
    dict(name="v357-update-device-tbptt-not-passed", file=UPD,
         old="noise_key=t.step, lengths=lengths, tbptt=cfg.tbptt,",
         new="noise_key=t.step, lengths=lengths, tbptt=None,",
         tests=[T_UPD + "test_one_device_update_passes_lengths_tbptt_and_text_through"] + OLD_UPD,
         why="a device update ignores --tbptt: the whole batch is one backward"),
    dict(name="v357-update-device-text-not-passed", file=UPD,
         old="                                          text=text)\n",
         new="                                          text=None)\n",
         tests=[T_UPD + "test_one_device_update_passes_lengths_tbptt_and_text_through"] + OLD_UPD,
         why="a synthesis network's device update loses its batch's text"),
    dict(name="v357-update-nonfinite-words", file=UPD,
         old='                      "NaN or infinite")',
         new='                      "NaN or inf")',
         tests=[T_UPD + "test_a_layers_nonfinite_refusal_is_a_diverged_run_named_by_its_source"] + OLD_UPD,
         why="a diverged run from a layer's refusal is reported as 'NaN or inf'"),
]
