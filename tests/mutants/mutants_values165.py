"""Planted bugs, round 165 (format: tests/mutants/mutants.py): single-line slips on lines of the training driver,
its recorder and the distributed group that no earlier round mutates: the checkpoint recording the saving rank
for the processes the run trains on, a resume shuffling its epoch from the seed's generator instead of the saved
one, eval_row marking the stop's own evaluation as an update's, the summary's epoch-row test inverted; an epoch's
end writing its metrics without marking the learning curve out of date, and a finished run resumed saying
"Resuming" instead of that it has nothing to do; evaluate's Allreduce summing a flattened copy, BlockRing taking
rank 0's block count on every rank, the blocks' metric sums starting from the rank's own first block, and
check_config's two refusals advising the processes it was started with and the --batch-size it refuses.

11 mutants. Against the existing targeted tests alone (measured with --no-baseline on the most direct files:
test_values134_recorder_resume, test_values17_train, test_values33_train for train.py; test_values134_recorder_resume,
test_values122_recorder, test_values102_recorder, test_values36_recorder for recorder.py; and cut short for time
after the first four, each old run taking 1.5 to 3.5 minutes on a shared core) 2 of those four were caught (the
ranks recorded as the rank, the rng restored from the seed) and 2 missed: eval_row's kind (no old file reads the
stop_eval's "eval") and the summary's inverted test (no old file reads how the summary places its evaluation); the
other seven were not measured that way. The new value tests catch all 11 on their own (checked with the old files
taken off the lists): test_values165_train_run (a 2-epoch run of NB = 3 updates an epoch: metrics.jsonl's rows, steps,
epoch fractions and kinds in order against the schedule worked out by hand; learning_curve.svg drawn at the end of a
run shorter than the redraw interval; the summary's "after epoch 2" and the stop's "at update 5 (epoch 1.67)";
checkpoint.json's stop_eval of kind "stop" with its samples and ranks 1; a run stopped by --max-steps 5 inside its
second epoch and resumed is the run made in one go to the bit with the same rows, and no note of a changed process
count; the finished run resumed says there is nothing to do, in the sentence written here),
test_values165_distributed_group (evaluate over 4 batches on 3 stand-in ranks, an LN-LSTM with masks, an empty row,
state noise and float64, against the metric sums of all four batches added here; --reproducible's BN-RNN over 4
blocks on ranks of 2, 1 and 1 blocks with masks, a row of length 0 and truncated BPTT: every rank's gradient and
sums are rank 0's bits and one plain call's to round-off; check_config's refusals against the blocks counted by the
kernels' rule by hand). Left out as equivalent or near it: the step-0 checkpoint's test without the epoch and batch
terms (step 0 implies both), the mid-epoch save's "elif" as "if" (a stop inside an epoch breaks before it, one at
the end has no batch left), the blocks' sums without .copy() (the gathered rows are not read again), the curve
pending flag left set after a drawing (only a second drawing of the same picture).

    python tests/mutants/run.py --only 'v165-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
DIST = "lnrnn/training/distributed.py"

# existing tests of these modules (the most direct files)
TRAIN_OLD = ["tests/training/test_values134_recorder_resume.py", "tests/training/test_values17_train.py",
             "tests/training/test_values33_train.py"]
REC_OLD = ["tests/training/test_values134_recorder_resume.py", "tests/training/test_values122_recorder.py",
           "tests/training/test_values102_recorder.py", "tests/training/test_values36_recorder.py"]
DIST_OLD = ["tests/training/test_values138_distributed_group.py", "tests/training/test_values124_distributed_group.py",
            "tests/training/test_values114_distributed.py", "tests/training/test_values43_distributed_shards.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RUN_NEW = ["tests/training/test_values165_train_run.py"]
GROUP_NEW = ["tests/training/test_values165_distributed_group.py"]

MUTANTS = [
    dict(name="v165-meta-ranks-is-rank", file=REC,
         old='meta["ranks"] = t.group.size',
         new='meta["ranks"] = t.group.rank',
         tests=RUN_NEW + REC_OLD,
         why="the checkpoint records the saving rank (0) for the processes the run trains on: every resume "
             "is told the run was trained as 0 processes"),
    dict(name="v165-restore-rng-from-seed", file=REC,
         old='t.epoch_rng = meta["rng"]',
         new="t.epoch_rng = t.rng.bit_generator.state",
         tests=RUN_NEW + REC_OLD,
         why="a resume shuffles its epoch from the seed's generator instead of the saved epoch's: a run resumed "
             "after its first epoch visits other batches than the run made in one go"),
    dict(name="v165-eval-row-kind-update", file=REC,
         old='"eval": kind}',
         new='"eval": "update"}',
         tests=RUN_NEW + REC_OLD,
         why="eval_row marks every row as an update's evaluation: the stop's own evaluation is no longer told "
             "apart (checkpoint.json's stop_eval)"),
    dict(name="v165-summary-epoch-row-test-inverted", file=REC,
         old="if \"eval\" not in last",
         new="if \"eval\" in last",
         tests=RUN_NEW + REC_OLD,
         why="the summary's test inverted: an epoch's row is described as an update's evaluation and back"),
    dict(name="v165-end-epoch-metrics-no-draw", file=TRAIN,
         old="            self.save()\n        self.recorder.write_metrics()\n",
         new="            self.save()\n        self.recorder.write_metrics(draw=False)\n",
         tests=RUN_NEW + TRAIN_OLD,
         why="an epoch's end writes its metrics without marking the curve out of date: a run shorter than "
             "CURVE_REDRAW_S ends without learning_curve.svg"),
    dict(name="v165-nothing-left-on-fresh-runs", file=TRAIN,
         old="idle = trainer.stopping.nothing_left() if resume else None",
         new="idle = trainer.stopping.nothing_left() if not resume else None",
         tests=RUN_NEW + TRAIN_OLD,
         why="the test inverted: a resumed run that has finished says 'Resuming' and trains nothing instead of "
             "saying there is nothing to do"),
    dict(name="v165-evaluate-reduces-a-copy", file=DIST,
         old="group.allreduce(acc.reshape(-1))",
         new="group.allreduce(acc.flatten())",
         tests=GROUP_NEW + DIST_OLD,
         why="flatten copies: the Allreduce sums a copy and each rank scores only its own evaluation batches"),
    dict(name="v165-block-ring-own-is-rank-0s", file=DIST,
         old="self.own = counts[group.rank]",
         new="self.own = counts[0]",
         tests=GROUP_NEW + DIST_OLD,
         why="every rank takes rank 0's block count: a rank holding fewer blocks runs blocks it does not own"),
    dict(name="v165-block-sums-start-from-own", file=DIST,
         old="sums = sall[0].copy()",
         new="sums = spart[0].copy()",
         tests=GROUP_NEW + DIST_OLD,
         why="the metric sums start from the rank's own first block instead of the gathered block 0: ranks > 0 "
             "report other means than rank 0"),
    dict(name="v165-check-config-most-processes-size", file=DIST,
         old="or at most {nb} process{'es' * (nb != 1)}.",
         new="or at most {size} process{'es' * (nb != 1)}.",
         tests=GROUP_NEW + DIST_OLD,
         why="the --reproducible refusal advises at most the processes it was started with, not the blocks' count"),
    dict(name="v165-check-config-batch-size-advice", file=DIST,
         old="use --batch-size {size} or more",
         new="use --batch-size {cfg.batch_size} or more",
         tests=GROUP_NEW + DIST_OLD,
         why="the too-small batch refusal advises the --batch-size it refuses"),
]
