"""Planted bugs, round 364 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the public API (lnrnn/api.py), the heads (lnrnn/model/heads.py) and the functional layer API
(lnrnn/model/functional.py), nineteenth pass: the head phrase of evaluate_run's mismatch sentence with its test
inverted (a classifier read as a mixture of '?' components); read naming a bad line of a list counted from 0; read
batching by the run's training batch size in place of its evaluation batch; fit's refusal of an unknown option
listing the options it fixes too; predict taking a classifier's outputs for regression values (and a regression
run's for class probabilities); accuracy's metric flagged as not a percentage; zero_grad zeroing the parameters
instead of the gradients; the classifier's loss picking the raw logits instead of their log-softmax; the CTC head's
config keeping a scale only when there is none (a reader saved without its scale); the CTC refusal of left padding
saying 'left padding only'; CTCHead.log_probs returning the kernel's saved gradient in place of its
log-probabilities; the CTC head's sum keys without 'chars' (cer divided by 1, not by the labels' length);
final_state starting from the initial state (rows that run all T steps end where they began); the dL/dc_n refusal
inverted (the BN-LSTM's taken, the plain LSTM's refused).

14 mutants. Against the old targeted files alone (each mutant's v364 files taken off its list): 9 of 14 caught;
missed: read's bad line counted from 0, read batching by the training batch, accuracy flagged as no percentage, the
CTC refusal saying 'left padding only', the CTC sum keys without 'chars'. The old targeted files are
test_values315_api, test_values214_api and test_values343_api (the public API), test_values235_heads,
test_values223_heads and test_values343_heads (the heads), test_values169_functional, test_values234_functional and
test_values343_functional (the functional layer). The new value tests catch every mutant on their own (checked with
the old files taken off the lists): test_values364_api (the head phrases as the docstring writes them, singular and
plural; read's refusal of line 2 of a list, line 1's NaN and a single array's pen values word for word on a Run
built around a bare reader head; a reader of 5 lines batched 2, 2, 1 by its eval_batch_size of 2 with a training
batch of 3, and 4, 1 given batch_size=4, through a progress recorder; fit's refusal listing TrainConfig's fields
less the eight fit fixes, written out, with nothing written; a per-step regression run's predictions over lengths
4, 1, 3 in batches of 2 against lnrnn.reference's LSTM row by row times the head's W plus b, NaN past each length),
test_values364_heads (METRIC_INFO's flags against its labels' '(%)'; zero_grad on a regression head; a per-step
classifier's loss, accuracy and count over B 3, T 4, H 5, C 3 with -1 labels and ragged valid steps against log-
softmax by hand and central differences; the CTC config with and without a scale and make_head's round trip; the
right-padding refusal word for word; sum_keys against forward's sums and cer per character; log_probs against the
log-softmax by hand over lengths 4, 2, 0 and 0 past them), test_values364_functional (unit_gains of G 20, H 5;
final_state over lengths 0, 2, 4 against its docstring; an LSTM layer_forward over lengths T, 1, 0 against the
reference; the BN-LSTM's dc_n refusal word for word; a plain LSTM's dc_n against central differences of the
reference's c_n).

Left out as equivalent: unit_gains' zero biases of width G made ones (a row without LayerNorm parameters hands them
to its kernels with norm 'none', under which they are never read); Run.describe reading the cell spelling from
elsewhere than the train config (the --cell spelling recorded always equals the one the model config gives: the
cells have no aliases); _count returning value in place of int(value) (a NumPy integer slices and compares the
same); predict's 'if every' read as 'if head.per_step' (a CTC head is always per-step, and every other head's
'every' is its per_step); the mixture head's T, B unpacked swapped (forward reshapes to T * B rows only); the base
head's per_step kept without bool() (every caller passes a bool). Left out as unreachable on a CPU-only run: the
device objectives (_device_loss, _device_objective, loss_and_grad_on_device), final_state's and backward's CUDA
branches.

    python tests/mutants/run.py --only 'v364-*'
"""
API = "lnrnn/api.py"
HEADS = "lnrnn/model/heads.py"
FUNC = "lnrnn/model/functional.py"

T_API = "tests/test_values364_api.py::"
T_HEADS = "tests/model/test_values364_heads.py::"
T_FUNC = "tests/model/test_values364_functional.py::"
OLD_API = ["tests/test_values315_api.py", "tests/test_values214_api.py", "tests/test_values343_api.py"]
OLD_HEADS = ["tests/model/test_values235_heads.py", "tests/model/test_values223_heads.py",
             "tests/model/test_values343_heads.py"]
OLD_FUNC = ["tests/model/test_values169_functional.py", "tests/model/test_values234_functional.py",
            "tests/model/test_values343_functional.py"]

MUTANTS = [
    # ---- the public API: lnrnn/api.py ----
    dict(name="v364-api-head-words-inverted", file=API,
         old='    if "outputs" in head:',
         new='    if "outputs" not in head:',
         tests=[T_API + "test_head_words_of_each_kind_of_head"] + OLD_API,
         why="evaluate_run's mismatch sentence calls a classifier a head with ? components (and fails on a mixture)"),
    dict(name="v364-api-read-line-counted-from-zero", file=API,
         old='f"line {i + 1} of strokes"',
         new='f"line {i} of strokes"',
         tests=[T_API + "test_read_names_a_bad_line_of_a_list_counting_from_one"] + OLD_API,
         why="read names the second line of a list 'line 1' (and the first 'line 0')"),
    dict(name="v364-api-read-batches-by-training-batch", file=API,
         old='    batch_size = int(batch_size or run.train_config.get("eval_batch_size")',
         new='    batch_size = int(batch_size or run.train_config.get("batch_size")',
         tests=[T_API + "test_read_batches_lines_by_the_runs_evaluation_batch"] + OLD_API,
         why="read batches lines by the training batch, not the evaluation batch its cer was measured with"),
    dict(name="v364-api-fit-lists-fixed-options", file=API,
         old='            known = ", ".join(sorted(fields - set(FIT_FIXED)))',
         new='            known = ", ".join(sorted(fields))',
         tests=[T_API + "test_fit_refuses_an_unknown_option_listing_what_it_takes"] + OLD_API,
         why="fit's refusal offers task, out, cell and the other options it refuses"),
    dict(name="v364-api-predict-regression-kind-swapped", file=API,
         old='    if head.kind == "regression":',
         new='    if head.kind == "classifier":',
         tests=[T_API + "test_predict_of_a_per_step_regression_run_against_the_reference"] + OLD_API,
         why="predict returns a classifier's raw outputs as Values and softmaxes a regression run's values"),
    # ---- the heads: lnrnn/model/heads.py ----
    dict(name="v364-heads-acc-not-a-percentage", file=HEADS,
         old='"acc": ("accuracy (%)", True)',
         new='"acc": ("accuracy (%)", False)',
         tests=[T_HEADS + "test_metric_info_flags_exactly_the_percentages"] + OLD_HEADS,
         why="accuracy is shown as a fraction under an axis labelled in percent"),
    dict(name="v364-heads-zero-grad-zeroes-params", file=HEADS,
         old="        for g in self.grads.values():",
         new="        for g in self.params.values():",
         tests=[T_HEADS + "test_zero_grad_zeroes_the_gradients_and_leaves_the_parameters"] + OLD_HEADS,
         why="zero_grad wipes the head's weights and lets its gradients pile up"),
    dict(name="v364-heads-classifier-picks-logits", file=HEADS,
         old="picked = np.take_along_axis(logp, safe[..., None], axis=-1)[..., 0]",
         new="picked = np.take_along_axis(logits, safe[..., None], axis=-1)[..., 0]",
         tests=[T_HEADS + "test_per_step_classifier_loss_acc_and_gradient_by_hand"] + OLD_HEADS,
         why="the cross-entropy sums minus the raw logit of each label, without the log-sum-exp"),
    dict(name="v364-heads-ctc-config-scale-inverted", file=HEADS,
         old="if self.scale is not None else {})}",
         new="if self.scale is None else {})}",
         tests=[T_HEADS + "test_ctc_config_holds_a_readers_scale_and_nothing_else"] + OLD_HEADS,
         why="a reader is saved without its scale (no longer a reader) and a plain CTC head with scale None"),
    dict(name="v364-heads-ctc-padding-message-left", file=HEADS,
         old="(right padding only)",
         new="(left padding only)",
         tests=[T_HEADS + "test_ctc_refuses_valid_steps_after_a_padded_one_word_for_word"] + OLD_HEADS,
         why="the refusal of left-padded rows asks for left padding"),
    dict(name="v364-heads-log-probs-wrong-saved", file=HEADS,
         old="        return saved[0]",
         new="        return saved[1]",
         tests=[T_HEADS + "test_ctc_log_probs_are_the_log_softmax_over_each_rows_steps"] + OLD_HEADS,
         why="read and predict decode the kernel's gradient of an empty label instead of the log-probabilities"),
    dict(name="v364-heads-ctc-sum-keys-drop-chars", file=HEADS,
         old='        return ("loss", "cer", "chars", "seqs")',
         new='        return ("loss", "cer", "seqs")',
         tests=[T_HEADS + "test_ctc_sum_keys_hold_every_sum_of_forward_and_the_sequences"] + OLD_HEADS,
         why="a batch's label count is not added up: the reported cer is edits per batch, not per character"),
    # ---- the functional layer: lnrnn/model/functional.py ----
    dict(name="v364-func-final-state-from-initial", file=FUNC,
         old="        out = np.array(s_T, copy=True)",
         new="        out = np.array(s0, copy=True)",
         tests=[T_FUNC + "test_final_state_of_rows_of_length_zero_inside_and_t",
                T_FUNC + "test_lstm_forward_with_lengths_t_one_and_zero_row_by_row"] + OLD_FUNC,
         why="under lengths, a row that runs all T steps reports its initial state as its final one"),
    dict(name="v364-func-dc-n-check-inverted", file=FUNC,
         old="        if not takes_dc_n(spec):",
         new="        if takes_dc_n(spec):",
         tests=[T_FUNC + "test_dc_n_of_a_bn_lstm_is_refused_word_for_word"] + OLD_FUNC,
         why="dL/dc_n of a plain LSTM is refused and a BN-LSTM's is passed to kernels that take none"),
]
