"""Planted bugs, round 234 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the public API (lnrnn/api.py), the functional layer API (lnrnn/model/functional.py) and the cell registry
(lnrnn/model/cells.py): the refusal of an unknown device listing the choices unquoted; the count check letting a
batch size of 0 through; sample_run's refusal of count 0 quoting the steps; Predictions.probability reading
another sequence's row; fit's refusal of x_val with split naming y_val; the masked final state left at step T;
layer_forward not passing lengths on; a BN forward always in training mode; dy at padded steps kept when no
dL/dh_n is given; the dL/dc_n seed never reaching the LSTM kernel; an empty row's dc_n written over dh0; the
backward after an inference forward rebuilt in training mode; the BN-RNN kernels not given lengths; the plain
LSTM's row claiming its infer kernel returns state sequences.

14 mutants. Against the existing targeted tests alone (test_values214_api, test_values196_api,
test_values161_api, test_values_api; test_functional, test_values169_functional, test_values204_functional,
test_values148_functional, test_values51_functional) the five API mutants were all missed (four measured;
the fifth read off: no old file passes split at all; none tries a device other than the two, a batch size of 0,
a count of 0 or the probability property); the nine functional and registry mutants' runs against the old
files had not finished when the round was committed (the host was loaded: 2-4 minutes a mutant). The new value
tests caught the first six on their own (checked with the old files taken off the lists):
test_values234_api (the device refusal word for word, the choices quoted as the device is; batch sizes
0, True and -1 refused by predict and evaluate_run before the run is read, a run whose model is only a head
standing in; sample_run's refusals of steps 0 and counts 0 and -2 quoting their own value with no run looked
for; Predictions.probability picked by hand at 5 sequences and 3 classes; fit's refusal of x_val with split
word for word, nothing written), test_values234_functional (final states of rows of 1, 0 and inner lengths for
the plain LSTM with and without keep and the LN-LSTM against lnrnn.reference run over each row's own steps; a
BN-LSTM inference forward with population statistics off the unit ones against the reference, the statistics
unmoved; a BN-RNN backward after an inference forward against the reference's inference backward; a BN-RNN
training forward with lengths 4, 3, 4, 2 against the reference's statistics over running rows, running
statistics included; an LN-LSTM's gradients with dy at padded steps against the reference's backward of dy
masked by hand; dL/dc_n of an empty row by the hand rule (dc0 = dc_n, dh0 and dx zero) and of full rows with
dy by central differences). Dropped before the catalogue as equivalent: _buffer_rows' `T <= Ts` as `T < Ts`
(at T == Ts the rows picked are every row in order, the same statistics); unit_gains' plain-cell stand-ins of
the wrong width or value (the plain kernels never read the LayerNorm gains and biases); check_lengths returning
int32 (the kernels read the same counts); predict's model._run without lengths on a unidirectional stack (each
row's last output does not depend on the steps after it). Left out as needing a trained synthesis or reader
run (tens of seconds each): sample_run's count-against-text refusal and read's batch sizes.

    python tests/mutants/run.py --only 'v234-*'
"""
API = "lnrnn/api.py"
FUNCTIONAL = "lnrnn/model/functional.py"
CELLS = "lnrnn/model/cells.py"

A = "tests/test_values234_api.py::"            # the new value tests
F = "tests/model/test_values234_functional.py::"

OLD_API = ["tests/test_values214_api.py", "tests/test_values196_api.py", "tests/test_values161_api.py",
           "tests/test_values_api.py"]
OLD_FN = ["tests/model/test_functional.py", "tests/model/test_values169_functional.py",
          "tests/model/test_values204_functional.py", "tests/model/test_values148_functional.py",
          "tests/model/test_values51_functional.py"]

MUTANTS = [
    dict(name="v234-api-device-choices-unquoted", file=API,
         old="""raise UserError(f"device must be one of {', '.join(map(repr, DEVICES))}, not {device!r}.")""",
         new="""raise UserError(f"device must be one of {', '.join(DEVICES)}, not {device!r}.")""",
         tests=[A + 'test_load_run_refuses_an_unknown_device_quoting_the_choices'] + OLD_API,
         why="the refusal of an unknown device lists the choices unquoted while quoting what was passed"),
    dict(name="v234-api-count-least-zero", file=API,
         old='def _count(value, name, hint="", least=1):',
         new='def _count(value, name, hint="", least=0):',
         tests=[A + 'test_batch_sizes_below_one_are_refused_before_the_run_is_read'] + OLD_API,
         why="a batch size (or beam) of 0 passes the count check: predict then fails outside the one-sentence "
             "refusal"),
    dict(name="v234-api-sample-refusal-quotes-steps", file=API,
         old='            raise UserError(f"{what} must be at least 1, not {v}.")',
         new='            raise UserError(f"{what} must be at least 1, not {steps}.")',
         tests=[A + 'test_sample_run_refusals_quote_their_own_value'] + OLD_API,
         why="sample_run's refusal of count 0 quotes the steps instead of the count"),
    dict(name="v234-api-probability-indices-swapped", file=API,
         old="        return self.probabilities[np.arange(len(self.classes)), self.classes]",
         new="        return self.probabilities[self.classes, np.arange(len(self.classes))]",
         tests=[A + 'test_prediction_probability_is_each_sequences_own_class'] + OLD_API,
         why="Predictions.probability reads row class[n], column n: another sequence's probability"),
    dict(name="v234-api-fit-split-refusal-names-y-val", file=API,
         old='raise UserError("fit() got both x_val and split; give one way of choosing the validation set.")',
         new='raise UserError("fit() got both y_val and split; give one way of choosing the validation set.")',
         tests=[A + 'test_fit_refuses_x_val_with_split_and_writes_nothing'] + OLD_API,
         why="fit's refusal of a validation set given twice names y_val, though x_val is what it checks"),
    dict(name="v234-fn-final-state-ignores-lengths", file=FUNCTIONAL,
         old="        res.append(k.to_device(out))\n",
         new="        res.append(k.to_device(s_T))\n",
         tests=[F + 'test_final_state_is_each_rows_own_last_step'] + OLD_FN,
         why="the masked final state returns the kernel's step-T state, not each row's own last step"),
    dict(name="v234-fn-layer-forward-drops-lengths", file=FUNCTIONAL,
         old="        y, final, saved = forward(s, x, state, params, bufs, training, lengths, keep)",
         new="        y, final, saved = forward(s, x, state, params, bufs, training, None, keep)",
         tests=[F + 'test_final_state_is_each_rows_own_last_step',
                F + 'test_bn_rnn_training_statistics_count_the_running_rows_only'] + OLD_FN,
         why="layer_forward does not pass lengths on: final states at step T, BN statistics over padded rows"),
    dict(name="v234-fn-forward-always-training", file=FUNCTIONAL,
         old="x, tuple(state), params, bufs, bool(training),",
         new="x, tuple(state), params, bufs, True,",
         tests=[F + 'test_bn_lstm_inference_reads_the_population_statistics'] + OLD_FN,
         why="BN inference uses (and updates) batch statistics instead of the population ones"),
    dict(name="v234-fn-dy-unmasked-without-dh-n", file=FUNCTIONAL,
         old="    elif masked or dh_n is not None:\n",
         new="    elif dh_n is not None:\n",
         tests=[F + 'test_ln_lstm_dy_at_padded_steps_is_dropped'] + OLD_FN,
         why="without dL/dh_n, dy at padded steps of the plain and LN cells is not dropped"),
    dict(name="v234-fn-dc-n-seed-dropped", file=FUNCTIONAL,
         old="                                   batch_blocks(B), **seed)",
         new="                                   batch_blocks(B))",
         tests=[F + 'test_dc_n_of_an_empty_row_and_of_full_rows_with_dy'] + OLD_FN,
         why="dL/dc_n never reaches the LSTM backward kernel: the gradient of the final cell state is ignored"),
    dict(name="v234-fn-empty-row-dc-n-into-dh0", file=FUNCTIONAL,
         old="        dstate[1] = k.to_device(dc0)",
         new="        dstate[0] = k.to_device(dc0)",
         tests=[F + 'test_dc_n_of_an_empty_row_and_of_full_rows_with_dy'] + OLD_FN,
         why="an empty row's dc_n, added to dc0, is written over dh0 instead"),
    dict(name="v234-fn-backward-residuals-training-mode", file=FUNCTIONAL,
         old="    saved = _from_residuals(spec, res, y, training)",
         new="    saved = _from_residuals(spec, res, y, True)",
         tests=[F + 'test_bn_rnn_backward_after_an_inference_forward_is_the_inference_backward'] + OLD_FN,
         why="a BN layer's backward after an inference forward runs the batch-statistics backward"),
    dict(name="v234-cells-bn-rnn-kernel-unmasked", file=CELLS,
         old="saved_y=BN_RNN_SAVED_Y, masked_kernel=True, synced=BN_RNN_SYNCED),",
         new="saved_y=BN_RNN_SAVED_Y, masked_kernel=False, synced=BN_RNN_SYNCED),",
         tests=[F + 'test_bn_rnn_training_statistics_count_the_running_rows_only'] + OLD_FN,
         why="the BN-RNN kernels are not given lengths: batch statistics count the padded rows"),
    dict(name="v234-cells-lstm-infer-has-seqs", file=CELLS,
         old='saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=False),\n    Cell("ln-rnn"',
         new='saved_y=LSTM_SAVED_Y, gate_clip=True, infer_seqs=True),\n    Cell("ln-rnn"',
         tests=[F + 'test_final_state_is_each_rows_own_last_step[lstm-False]'] + OLD_FN,
         why="the plain LSTM claims its infer kernel returns state sequences: keep=False with lengths runs it"),
]
