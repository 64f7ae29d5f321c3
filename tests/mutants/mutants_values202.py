"""Planted bugs, round 202 (format: tests/mutants/mutants.py): single-line slips on lines of the training
driver, its recorder and the distributed group that no earlier round mutates. train.py: the progress line of an
evaluation inside an epoch naming the epoch's batch instead of the update. recorder.py: learning_curve.svg's label
giving the layer count as H, "Done: 1 epochs", a stopped run's hint pointing to the epoch it stopped in instead of
--epochs, the summary looking for checkpoint.npz (so never listing the checkpoint), an lnrnn 0.1 checkpoint's list
of epoch sums restored with count and samples exchanged, the compile seconds read back under the metrics rows' key.
distributed.py: PMIX_SIZE dropped from the launchers' size variables, Ctrl-C on a rank aborting with 1 instead of
130, every error of a rank past 0 rewritten with the rank's prefix (an interruption printing "Error (rank 1 of 2): "),
resume_note's plural following the new process count, describe_split naming B // size as the shards of an uneven
split, a BN rank without blocks given no model for its stand-in, a rank's plain blocks run under their global
numbers.

14 mutants. Against the existing targeted tests alone (measured with --no-baseline on the most direct files:
test_values165_train_run and test_values134_recorder_resume for train.py; test_values165_train_run and
test_values122_recorder for recorder.py; test_values165_distributed_group, test_values20_distributed and test_mpi
for distributed.py) 0 of the 8 measured were caught and 8 missed: the seven of train.py and recorder.py (no old file
reads the progress stream's evaluation lines, the curve's label, the one-epoch summary, the stop hint's --epochs
word for word, the summary's file list, or restores an lnrnn 0.1 list of sums or the compile seconds) and PMIX_SIZE
(the old files set only PMI_SIZE). The measurement was cut short after those 8 for time (the distributed files take
about 4 minutes a mutant on a shared core); the six distributed mutants left were not measured against the old files
(test_values20_distributed runs a BN rank without blocks and two ranks of one block each, so the last two are likely
caught there too). The new value tests catch all 14 on their own (checked with the old files taken off the lists):
test_values202_train_run (a run of digits, NB = 3 updates an epoch, stopped by --max-steps 5 in epoch 2: the
progress lines of the evaluations at updates 2 and 4, the curve's label from the settings, the summary's file list
and its last sentence word for word; a one-epoch run's "Done: 1 epoch, "; the stopped checkpoint rewritten with a
list of sums and compile seconds, resumed into a Trainer that is not run: the sums under their names, the seconds,
and nothing written), test_values202_distributed_group (each launcher's size variable alone; Group.fail's line and
exit code for Ctrl-C and a user's error on ranks 0 and 1 with a stand-in communicator; resume_note and
describe_split word for word with the shards counted by np.array_split; --reproducible's blocks on two thread ranks,
an LN-LSTM of 5 rows in 2 blocks and a BN-LSTM of 3 rows in 1 block, float64 with masks, an unscored step, truncated
BPTT and state noise, against one plain call over the whole batch). Left out as equivalent or near it: the mid-epoch
save's "batch_in_epoch < nb" as "<=" (the epoch's end saves the same state right after), block_models' "while
len(made) < n" as "<=" (one spare twin, never returned), the step-0 checkpoint and curve timing lines (seconds, not
values).

    python tests/mutants/run.py --only 'v202-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
DIST = "lnrnn/training/distributed.py"

# existing tests of these modules (the most direct files)
TRAIN_OLD = ["tests/training/test_values165_train_run.py", "tests/training/test_values134_recorder_resume.py"]
REC_OLD = ["tests/training/test_values165_train_run.py", "tests/training/test_values122_recorder.py"]
DIST_OLD = ["tests/training/test_values165_distributed_group.py", "tests/training/test_values20_distributed.py",
            "tests/training/test_mpi.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RUN_NEW = ["tests/training/test_values202_train_run.py"]
GROUP_NEW = ["tests/training/test_values202_distributed_group.py"]

TR = RUN_NEW + TRAIN_OLD
RE = RUN_NEW + REC_OLD
DI = GROUP_NEW + DIST_OLD

MUTANTS = [
    # ---- train.py ----
    dict(name="v202-mid-epoch-note-names-the-batch", file=TRAIN,
         old='bar.note(f"update {self.step}: val "',
         new='bar.note(f"update {self.batch_in_epoch}: val "',
         tests=TR, why="the progress line of an evaluation inside an epoch names the batch of the epoch, not the "
                       "update: from the second epoch on it says 'update 1' for update 4"),
    # ---- recorder.py ----
    dict(name="v202-curve-label-hidden-is-layers", file=REC,
         old='label = f"{c.cell} H={c.hidden} on {c.task}"',
         new='label = f"{c.cell} H={c.layers} on {c.task}"',
         tests=RE, why="learning_curve.svg labels the run with its layer count as H"),
    dict(name="v202-done-epochs-plural-for-one", file=REC,
         old="epoch{'s' * (c.epochs != 1)}, {done}",
         new="epoch{'s' * (c.epochs > 0)}, {done}",
         tests=RE, why="the summary of a one-epoch run says 'Done: 1 epochs'"),
    dict(name="v202-continue-hint-names-the-epoch-reached", file=REC,
         old='f"{c.epochs}; give {flag} again for a new limit).")',
         new='f"{t.epoch}; give {flag} again for a new limit).")',
         tests=RE, why="a stopped run's hint says it trains on to --epochs <the epoch it stopped in> instead of the "
                       "run's --epochs"),
    dict(name="v202-summary-lists-checkpoint-npz", file=REC,
         old='("checkpoint", "checkpoint.json")',
         new='("checkpoint", "checkpoint.npz")',
         tests=RE, why="the summary looks for checkpoint.npz (a file a run never writes), so it never lists the "
                       "checkpoint"),
    dict(name="v202-restore-v01-sums-count-and-samples-swapped", file=REC,
         old='"count": sums[2], "samples": sums[3]}',
         new='"count": sums[3], "samples": sums[2]}',
         tests=RE, why="a checkpoint of lnrnn 0.1 (epoch sums as a list) is restored with its scored count and its "
                       "samples exchanged"),
    dict(name="v202-restore-compile-seconds-wrong-key", file=REC,
         old='t.compile_s = float(meta.get("compile_time_s", 0.0))',
         new='t.compile_s = float(meta.get("compile_s", 0.0))',
         tests=RE, why="a resume reads the compile seconds under the metrics rows' key, absent from the checkpoint: "
                       "the seconds compiled before the stop are forgotten"),
    # ---- distributed.py ----
    dict(name="v202-size-vars-without-pmix", file=DIST,
         old='"PMIX_SIZE", "SLURM_STEP_NUM_TASKS")',
         new='"SLURM_STEP_NUM_TASKS")',
         tests=DI, why="a launch by a PMIx launcher (PMIX_SIZE alone) is taken for one process"),
    dict(name="v202-fail-interrupt-exit-code-one", file=DIST,
         old='line, code = "Error: interrupted.", 130',
         new='line, code = "Error: interrupted.", 1',
         tests=DI, why="Ctrl-C on a rank aborts the group with exit status 1 instead of 130"),
    dict(name="v202-fail-rank-prefix-on-every-error", file=DIST,
         old="if line is not None and isinstance(exc, UserError):",
         new="if line is not None:",
         tests=DI, why="a rank other than 0 rewrites every line as 'Error (rank r of n): <exc>': an interruption "
                       "prints 'Error (rank 1 of 2): ' with nothing after it"),
    dict(name="v202-resume-note-plural-of-the-new-count", file=DIST,
         old="{saved_ranks} process{'es' * (saved_ranks != 1)} and resumes as {size}: each",
         new="{saved_ranks} process{'es' * (size != 1)} and resumes as {size}: each",
         tests=DI, why="'trained as 1 processes and resumes as 2'"),
    dict(name="v202-describe-split-even-shards", file=DIST,
         old="is split into shards of {each} ",
         new="is split into shards of {B // size} ",
         tests=DI, why="the split's note names the smaller shard alone when the batch does not divide evenly"),
    dict(name="v202-bn-rank-without-blocks-has-no-runner", file=DIST,
         old="runners = block_models(model, max(k1 - k0, 1)) if bn else [model] * (k1 - k0)",
         new="runners = block_models(model, k1 - k0) if bn else [model] * (k1 - k0)",
         tests=DI, why="a BN rank that owns no block of the batch (the last, short batch) has no model to run its "
                       "stand-in of length 0 on"),
    dict(name="v202-plain-blocks-indexed-by-global-block", file=DIST,
         old="for j in range(k1 - k0):",
         new="for j in range(k0, k1):",
         tests=DI, why="the blocks of a rank past rank 0 are run under their global numbers: past the end of the "
                       "rank's own rows of gradients"),
]
