"""Planted bugs, round 343 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the heads (lnrnn/model/heads.py), the functional layer API (lnrnn/model/functional.py) and the
public API (lnrnn/api.py), eighteenth pass: the base head's per_step default made True (a classifier built
without per_step reads every step); the regression head swapping batch and step for last-step targets and not
for per-step ones; the mixture density head's default of 20 components made 10; make_head popping 'kind' out of
the caller's own dict (the same config cannot build a second head); make_head requiring 'kind' (a KeyError in
place of its 'unknown head None' refusal); the CTC head's gap refusal saying labels are padded at their start;
gate_clip rounding the bound to a whole number (0.5 is off, 2.5 is 2); gate_clip returning the bound as given
(inf, meaning off, passed on as inf); layer_backward handing dL/dh_n and dL/dc_n to the backward in swapped
places; layer_backward's missing dy made ones instead of zeros; predict's refusal of a mixture density run
reading the task spec's 'kind' (always '?'); read's refusal of a run that is not a reader printing None for a
spec without a task; read's refusal of a mismatched alphabet counting the blank among its characters.

13 mutants. Against the old targeted files alone: 5 of 13 (missed: a head built without per_step being per-step, the
mixture head's default 10 components, make_head requiring kind, the CTC gap refusal saying pad at the start,
gate_clip passing inf on, predict's mixture-density refusal reading the wrong key, read's refusal without its '?'
default, the alphabet refusal counting the blank). The new value tests catch every mutant on their own (checked with
the old files taken off the lists): test_values343_heads (the classifier's default steps and config, its last-step
loss, accuracy and gradient over a -1 label and an invalid row against log-softmax written out in float64 and
central differences; two-output regression at the last step against squared errors added by hand and at every step
with (B,T,O) targets, T != B, lengths 0, 1 and T, against the masked sum by hand and central differences; the
mixture head's K = 6M + 1 = 121 at its default; make_head's config left as given and reused, its refusal of a config
without a kind and the CTC gap refusal word for word), test_values343_functional (gate_clip at 0.5, 2.5, 1e-3, 0 and
inf against Graves's rule, the RNN refusal word for word; an LSTM's layer_backward with dy, dh_n and dc_n together,
and LSTM and RNN ones with no dy and only dh_n over lengths 0, 1 and T, against central differences of
lnrnn.reference's forward), test_values343_api (predict's and read's refusals word for word on a Run built in the
test around a bare head, nothing written).

Left out as equivalent: CTCHead.log_probs with B read as h.shape[0] (the labels and label lengths it builds
are not read for the log-softmax it returns; rows past B are never visited); the classifier's safe labels with
-1 in place of 0 at masked units (their loss and gradient are multiplied by the mask); _buffer_rows's T <= Ts
made T < Ts (at T == Ts the rows stat_rows gives are 0..T-1, the buffers themselves); the mixture head's
backward testing clip_output is not None instead of its truth (training sets it only when positive, and
validate refuses 0). Left out as unreachable on a CPU-only run: every line of the device objectives
(_device_loss, _device_objective, loss_and_grad_on_device) and final_state's CUDA branch.

    python tests/mutants/run.py --only 'v343-*'
"""
HEADS = "lnrnn/model/heads.py"
FUNC = "lnrnn/model/functional.py"
API = "lnrnn/api.py"

T_HEADS = "tests/model/test_values343_heads.py::"
T_FUNC = "tests/model/test_values343_functional.py::"
T_API = "tests/test_values343_api.py::"
OLD_HEADS = ["tests/model/test_values235_heads.py", "tests/model/test_values223_heads.py"]
OLD_FUNC = ["tests/model/test_values169_functional.py", "tests/model/test_values234_functional.py"]
OLD_API = ["tests/test_values315_api.py", "tests/test_values214_api.py"]

MUTANTS = [
    # ---- the heads: lnrnn/model/heads.py ----
    dict(name="v343-heads-default-per-step", file=HEADS,
         old='    def __init__(self, hidden_size, outputs, per_step=False, dtype="float32", seed=0):',
         new='    def __init__(self, hidden_size, outputs, per_step=True, dtype="float32", seed=0):',
         tests=[T_HEADS + "test_classifier_is_a_last_step_head_by_default"] + OLD_HEADS,
         why="a classifier built without per_step (make_head of a config without it) is a per-step head"),
    dict(name="v343-heads-regression-swap-inverted", file=HEADS,
         old="        if self.per_step:\n            t = np.swapaxes(t, 0, 1)",
         new="        if not self.per_step:\n            t = np.swapaxes(t, 0, 1)",
         tests=[T_HEADS + "test_regression_two_outputs_at_the_last_step_by_hand",
                T_HEADS + "test_regression_two_outputs_at_every_step_by_hand"] + OLD_HEADS,
         why="last-step targets (B,O) are transposed and per-step ones (B,T,O) are left batch-major"),
    dict(name="v343-heads-mdn-default-components", file=HEADS,
         old="    def __init__(self, hidden_size, components=20, per_step=True,",
         new="    def __init__(self, hidden_size, components=10, per_step=True,",
         tests=[T_HEADS + "test_mixture_density_head_has_twenty_components_by_default"] + OLD_HEADS,
         why="the mixture density head's default mixture has 10 components (61 outputs), not Graves's 20"),
    dict(name="v343-heads-make-head-pops-callers-dict", file=HEADS,
         old="    cfg = dict(config)",
         new="    cfg = config",
         tests=[T_HEADS + "test_make_head_leaves_the_callers_config_as_it_was"] + OLD_HEADS,
         why="make_head pops 'kind' out of the caller's dict: the config is changed and cannot build again"),
    dict(name="v343-heads-make-head-kind-required", file=HEADS,
         old='    kind = cfg.pop("kind", None)',
         new='    kind = cfg.pop("kind")',
         tests=[T_HEADS + "test_make_head_refuses_a_config_without_a_kind_word_for_word"] + OLD_HEADS,
         why="a config without a kind raises KeyError('kind') instead of the 'unknown head None' refusal"),
    dict(name="v343-heads-ctc-gap-message-start", file=HEADS,
         old='raise ValueError("CTC labels must be padded at their end with -1, with no -1 inside a label")',
         new='raise ValueError("CTC labels must be padded at their start with -1, with no -1 inside a label")',
         tests=[T_HEADS + "test_ctc_refuses_a_label_with_a_gap_word_for_word"] + OLD_HEADS,
         why="the refusal of a label with a gap tells the user to pad at the start, which it also refuses"),
    # ---- the functional layer API: lnrnn/model/functional.py ----
    dict(name="v343-functional-gate-clip-rounded", file=FUNC,
         old="    clip = float(clip)\n    if not clip >= 0.0:",
         new="    clip = int(clip)\n    if not clip >= 0.0:",
         tests=[T_FUNC + "test_gate_clip_keeps_a_bound_and_reads_zero_and_inf_as_off",
                T_FUNC + "test_gate_clip_of_a_fraction_for_an_rnn_is_refused_word_for_word"] + OLD_FUNC,
         why="the gate clip is rounded down to a whole number: 0.5 turns clipping off, 2.5 clips at 2"),
    dict(name="v343-functional-gate-clip-returns-given", file=FUNC,
         old="    return bound\n",
         new="    return clip\n",
         tests=[T_FUNC + "test_gate_clip_keeps_a_bound_and_reads_zero_and_inf_as_off"] + OLD_FUNC,
         why="gate_clip returns the clip as given: inf (off) reaches the kernels as a bound of inf, not 0.0"),
    dict(name="v343-functional-dh-dc-swapped", file=FUNC,
         old="backward(s, dy, saved, x, state, params, lengths, dh_n, dc_n)",
         new="backward(s, dy, saved, x, state, params, lengths, dc_n, dh_n)",
         tests=[T_FUNC + "test_lstm_backward_with_dy_dh_n_and_dc_n_together"] + OLD_FUNC,
         why="layer_backward hands dL/dc_n to the backward as dL/dh_n and dL/dh_n as dL/dc_n"),
    dict(name="v343-functional-missing-dy-ones", file=FUNC,
         old="        dy = np.zeros((T, B, H), dt)",
         new="        dy = np.ones((T, B, H), dt)",
         tests=[T_FUNC + "test_lstm_backward_with_no_dy_only_dh_n_over_lengths_0_1_and_t",
                T_FUNC + "test_rnn_backward_with_no_dy_only_dh_n"] + OLD_FUNC,
         why="a layer_backward given no dy adds dL/dy = 1 at every step instead of none"),
    # ---- the public API: lnrnn/api.py ----
    dict(name="v343-api-mdn-refusal-wrong-key", file=API,
         old="""f"{run.task_spec.get('task', '?')}): use lnrnn sample to draw it""",
         new="""f"{run.task_spec.get('kind', '?')}): use lnrnn sample to draw it""",
         tests=[T_API + "test_predict_refuses_a_mixture_density_run_naming_its_task"] + OLD_API,
         why="predict's refusal of a mixture density run reads the spec's 'kind' and names the task '?'"),
    dict(name="v343-api-reader-refusal-no-default", file=API,
         old="""f"{run.task_spec.get('task', '?')}); train one with""",
         new="""f"{run.task_spec.get('task')}); train one with""",
         tests=[T_API + "test_read_refuses_a_classifier_run_of_no_named_task"] + OLD_API,
         why="read's refusal of a run that is not a reader says 'head on None' for a spec without a task"),
    dict(name="v343-api-alphabet-counts-blank", file=API,
         old='but an alphabet of {len(alphabet)} "',
         new='but an alphabet of {len(alphabet) + CTC_SHIFT} "',
         tests=[T_API + "test_read_refuses_a_reader_whose_alphabet_misses_its_classes"] + OLD_API,
         why="the mismatched-alphabet refusal counts the blank among the alphabet's characters (4 for 'abc')"),
]
