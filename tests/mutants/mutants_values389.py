"""Planted bugs, round 389 (format: tests/mutants/mutants.py): single-line slips in a run's plan
(lnrnn/training/plan.py), twentieth pass, planted before any test was written for them: --head ctc and --window 0
refused together; --bidirectional and --window 0 refused together; --state-noise 0 (off) refused; every task option
handed to the task spec, those the task does not read included; --head mdn handed to a stroke task's spec as a
reader's head; a reader given the default attention window on a task with text; --clip-output asking the model
instead of its head; the CUDA refusal naming the flag instead of the reason; BN state noise by default on tasks that
do not say their sequences begin alike; the window's norm written into the model config where it is the stack's own;
an unknown device's refusal without its period; a stroke task too large for memory not told that --steps set its
length. 12 mutants. Against the old targeted files alone (the 19 plan files of tests/training and tests/commands
listed in OLD): 7 of 12 caught; missed: --bidirectional with --window 0, --head mdn in the spec, the CUDA refusal's
reason, the default state noise, the device refusal's period. test_values389_plan catches those 5 (measured with
every list cut to it; it catches 5 of 12 alone): --window 0 with --bidirectional accepted and --window 1 refused;
--head mdn leaving the spec's head at the task's default while --head ctc reaches it; the default state noise per
task for BN and LN cells, and a given one kept; the unknown device's sentence as the backend's with one period; the
CUDA refusal word for word with the backend's reason.

    python tests/mutants/run.py --only 'v389-*'
"""
PLAN = "lnrnn/training/plan.py"
NEW = ["tests/training/test_values389_plan.py"]
OLD = [
    "tests/commands/test_values173_gradcheck_plan.py",
    "tests/commands/test_values96_gradcheck_plan.py",
    "tests/training/test_plan.py",
    "tests/training/test_values112_plan_eval.py",
    "tests/training/test_values130_plan.py",
    "tests/training/test_values142_plan.py",
    "tests/training/test_values205_plan.py",
    "tests/training/test_values218_plan.py",
    "tests/training/test_values21_plan.py",
    "tests/training/test_values230_plan.py",
    "tests/training/test_values239_plan.py",
    "tests/training/test_values279_plan_setup_evaluation.py",
    "tests/training/test_values301_plan_group.py",
    "tests/training/test_values312_plan.py",
    "tests/training/test_values362_plan.py",
    "tests/training/test_values36_plan.py",
    "tests/training/test_values54_plan.py",
    "tests/training/test_values80_plan.py",
    "tests/training/test_values_plan.py",
]

MUTANTS = [
    dict(name="v389-plan-ctc-window-zero-refused", file=PLAN,
         old='    checks.append((not (cfg.head == "ctc" and cfg.window),',
         new='    checks.append((not (cfg.head == "ctc" and cfg.window is not None),',
         tests=NEW + OLD,
         why='--head ctc with --window 0 (no window) refused'),
    dict(name="v389-plan-bidirectional-window-zero-refused", file=PLAN,
         old='    checks.append((not (cfg.bidirectional and cfg.window),',
         new='    checks.append((not (cfg.bidirectional and cfg.window is not None),',
         tests=NEW + OLD,
         why='--bidirectional with --window 0 (no window) refused'),
    dict(name="v389-plan-state-noise-zero-refused", file=PLAN,
         old='(cfg.state_noise is None or (cfg.state_noise >= 0 and',
         new='(cfg.state_noise is None or (cfg.state_noise > 0 and',
         tests=NEW + OLD,
         why='--state-noise 0 (off, as the message says) refused'),
    dict(name="v389-plan-task-options-all-passed", file=PLAN,
         old='    return {k: v for k, v in opts.items() if k in reads}',
         new='    return opts',
         tests=NEW + OLD,
         why='every task option handed to task_spec, those the task does not read included'),
    dict(name="v389-plan-task-options-head-any", file=PLAN,
         old='"head": "ctc" if cfg.head == "ctc" else None}',
         new='"head": cfg.head}',
         tests=NEW + OLD,
         why="--head mdn handed to the stroke task's spec as if it were a reader's head"),
    dict(name="v389-plan-default-window-for-a-reader", file=PLAN,
         old='K = (WINDOW_DEFAULT if has_text and cfg.head != "ctc" else 0)',
         new='K = (WINDOW_DEFAULT if has_text else 0)',
         tests=NEW + OLD,
         why='a reader (--head ctc) on a task with text given the default attention window'),
    dict(name="v389-plan-clip-output-asks-the-model", file=PLAN,
         old='        if not hasattr(model.head, "clip_output"):',
         new='        if not hasattr(model, "clip_output"):',
         tests=NEW + OLD,
         why='--clip-output refused for every head (the model asked, not its head)'),
    dict(name="v389-plan-cuda-message-flag", file=PLAN,
         old='CUDA is not usable here ({backend.cuda_usable()[1]})',
         new='CUDA is not usable here ({backend.cuda_usable()[0]})',
         tests=NEW + OLD,
         why='the CUDA refusal names the flag (False) instead of the reason'),
    dict(name="v389-plan-state-noise-default-for-every-task", file=PLAN,
         old='task.extra.get("constant_prefix", False)',
         new='task.extra.get("constant_prefix", True)',
         tests=NEW + OLD,
         why='BN cells given state noise by default on tasks that do not say their sequences begin alike'),
    dict(name="v389-plan-window-norm-always-stored", file=PLAN,
         old='        if window_norm != spec.norm:',
         new='        if window_norm:',
         tests=NEW + OLD,
         why="the window's norm written into the model config even where it is the stack's own"),
    dict(name="v389-plan-device-error-without-period", file=PLAN,
         old='        raise UserError(f"{e}.") from None',
         new='        raise UserError(str(e)) from None',
         tests=NEW + OLD,
         why="an unknown device's refusal without its closing period"),
    dict(name="v389-plan-stroke-memory-steps-option", file=PLAN,
         old='               steps_option=plan.cfg.steps is not None)',
         new='               steps_option=False)',
         tests=NEW + OLD,
         why='a stroke task too large for memory not told that --steps set its length'),
]
