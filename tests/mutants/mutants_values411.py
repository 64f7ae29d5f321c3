"""Planted bugs, round 411 (format: tests/mutants/mutants.py): single-line slips in fine-tuning and the resumed
learning-rate schedule (lnrnn/training/finetune.py), twentieth pass, planted before any test was written for them.

The planted bugs: the schedule counting its decay from the first change instead of the last (a second --resume --lr
decays from the first change's epoch); a resume that changes --lr-decay alone restarting from the run's first --lr
instead of the rate in effect; a change of --lr-decay alone not taken as a change; the change record's "before" rate
being the run's first --lr instead of the rate in effect; the log line saying "0.003 -> 0.003" when only the decay
changed; a regression run's --tolerance (a metric setting) counted as part of the model's shape, so a source with
another tolerance is refused. 6 mutants. The old targeted files alone (OLD) catch 6 of 6, and test_values_finetune
(CATCHES: two successive schedule changes and a source of another tolerance, by hand) catches each alone: no new
test was needed, and each mutant runs that file only. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v411-*'
"""
FINETUNE = "lnrnn/training/finetune.py"
CATCHES = "tests/training/test_values_finetune.py"  # of OLD, the file that catches each alone
OLD = [
    "tests/training/test_finetune.py",
    "tests/training/test_schedule.py",
    "tests/training/test_values118_finetune.py",
    "tests/training/test_values145_finetune_lock.py",
    "tests/training/test_values14_finetune.py",
    "tests/training/test_values180_setup_finetune.py",
    "tests/training/test_values248_evaluation_finetune.py",
    "tests/training/test_values278_finetune.py",
    "tests/training/test_values312_schedule.py",
    "tests/training/test_values326_evaluation_finetune.py",
    "tests/training/test_values352_evaluation_finetune.py",
    "tests/training/test_values373_progress_finetune.py",
    "tests/training/test_values47_schedule.py",
    "tests/training/test_values63_finetune.py",
    "tests/training/test_values95_finetune.py",
    "tests/training/test_values_finetune.py",
    "tests/training/test_values_train_schedule.py",
]

MUTANTS = [
    dict(name="v411-schedule-from-the-first-change", file=FINETUNE,
         old='    return decayed_lr(lr, lr_decay, epoch - (changes[-1]["epoch"] if changes else 0))',
         new='    return decayed_lr(lr, lr_decay, epoch - (changes[0]["epoch"] if changes else 0))',
         tests=[CATCHES],
         why="after a second schedule change the decay counts from the first change's epoch"),
    dict(name="v411-decay-only-change-restarts-lr", file=FINETUNE,
         old="    new = cfg.lr if cfg.lr != lr else now",
         new="    new = cfg.lr",
         tests=[CATCHES],
         why="--resume --lr-decay alone goes back to the run's first --lr instead of the rate in effect"),
    dict(name="v411-decay-only-change-ignored", file=FINETUNE,
         old="    if cfg.lr == lr and cfg.lr_decay == decay:",
         new="    if cfg.lr == lr:",
         tests=[CATCHES],
         why="a resume that changes --lr-decay alone is not taken as a schedule change"),
    dict(name="v411-change-before-is-the-first-lr", file=FINETUNE,
         old='    return {"step": step, "epoch": epoch, "lr": [now, new], "lr_decay": [decay, cfg.lr_decay]}',
         new='    return {"step": step, "epoch": epoch, "lr": [lr, new], "lr_decay": [decay, cfg.lr_decay]}',
         tests=[CATCHES],
         why="the change record's rate before the change is the run's first --lr, not the rate in effect"),
    dict(name="v411-unchanged-rate-said-as-a-change", file=FINETUNE,
         old="""    text = f"learning rate {a:g}{f' -> {b:g}' if b != a else ''} from update {change['step']}\"""",
         new="""    text = f"learning rate {a:g}{f' -> {b:g}'} from update {change['step']}\"""",
         tests=[CATCHES],
         why="a change of the decay alone is logged as 'learning rate 0.003 -> 0.003'"),
    dict(name="v411-tolerance-counted-as-shape", file=FINETUNE,
         old='HEAD_METRIC_ONLY = ("tolerance",)',
         new="HEAD_METRIC_ONLY = ()",
         tests=[CATCHES],
         why="--init-from a regression run of another --tolerance (a metric setting) is refused as another head"),
]
