"""Planted bugs, round 56 (format: tests/mutants/mutants.py): where a stopped run says the stop came
(stopping.stop_place). A stop that came as epoch N ended was reported "at epoch N + 1", an epoch that never
started: the loop had already moved its counter on. The run's summary and a signal's messages now say "after
epoch N" there and "at epoch N" for a stop inside epoch N. Mutants: the old wording back in the early stop's
summary and in the first signal's message, the epoch-end test without the batch counter, and each branch's
epoch one off.

5 mutants, each caught by tests/training/test_values56_stop_place.py (--max-steps 2, 3 and 4 of a run of 3
updates an epoch, --patience 1 over validation losses that rise after epoch 1, and a signal's messages of a
trainer stopped at an epoch's end and inside one).

    python tests/mutants/run.py --only 'v56-*'
"""
REC = "lnrnn/training/recorder.py"
STOP = "lnrnn/training/stopping.py"
NEW = ["tests/training/test_values56_stop_place.py"]

MUTANTS = [
    dict(name="v56-early-stop-epoch-after-the-end", file=REC,
         old="""since update {e['best_step']}) "
                    f"{stop_place(t)}, {done}""",
         new="""since update {e['best_step']}) at epoch "
                    f"{t.epoch + 1}, {done}""",
         tests=NEW,
         why="an early stop at epoch 2's end says it came at epoch 3"),
    dict(name="v56-signal-epoch-after-the-end", file=STOP,
         old='''interrupted ({signal_name(signum)}) {stop_place(t)}, update''',
         new='''interrupted ({signal_name(signum)}) at epoch {t.epoch + 1}, update''',
         tests=NEW,
         why="a signal handled as epoch 1 ended says the run was interrupted at epoch 2"),
    dict(name="v56-stop-place-ignores-the-batch", file=STOP,
         old="    if t.batch_in_epoch == 0 and t.epoch > 0:\n",
         new="    if t.epoch > 0:\n",
         tests=NEW,
         why="a stop inside epoch 2 is reported as after epoch 1"),
    dict(name="v56-stop-place-after-one-on", file=STOP,
         old='        return f"after epoch {t.epoch}"\n',
         new='        return f"after epoch {t.epoch + 1}"\n',
         tests=NEW,
         why="a stop as epoch 1 ends is reported after epoch 2"),
    dict(name="v56-stop-place-at-zero-based", file=STOP,
         old='    return f"at epoch {t.epoch + 1}"\n',
         new='    return f"at epoch {t.epoch}"\n',
         tests=NEW,
         why="a stop inside the first epoch is reported at epoch 0"),
]
