"""Planted bugs, round 217 (format: tests/mutants/mutants.py): single-line slips on lines of the training
driver, its recorder and the distributed group that no earlier round mutates. train.py: the progress bar counting
a whole batch for the short last batch of an epoch, a resumed run's "Resuming. " keyed on the wrong variable.
recorder.py: learning_curve.svg's title saying "1 layers" and naming the evaluation batch size, the summary's
epoch of an evaluation inside an epoch with one decimal, the best checkpoint's update given as its epoch, the
stop's own evaluation taken for the summary only when it equals metrics.jsonl's last row. distributed.py: PMIX_RANK
mistyped as PMIX_SIZE among the launchers' rank variables, a bug in lnrnn printed as a user's one-line error, every
user's error aborting with UserError's code 2, init()'s count refusal naming the launcher's count twice,
--reproducible's refusal naming the processes as the blocks, describe_split --reproducible ignoring the
--block-rows given.

13 mutants. Against the existing tests alone only the six of distributed.py were measured, for time, and on the most
direct file alone (--no-baseline, test_values202_distributed_group): 0 of 6 caught, 6 missed (it sets no rank
variable, raises no bug or diverged run in Group.fail, never calls init() or check_config with --reproducible, and
splits without --reproducible). The seven of train.py and recorder.py were not measured against the old files
(test_values202_train_run checks the curve's label but not its title, and the summary's file list and hint but not
its evaluation or best checkpoint; the other old files listed were not run for them). The old files stay on the
lists after the new ones: test_values202_train_run, test_values165_train_run and test_values134_recorder_resume for
train.py; test_values202_train_run, test_values165_train_run and test_values122_recorder for recorder.py;
test_values202_distributed_group, test_values165_distributed_group and test_mpi for distributed.py. The new value
tests catch all 13 on their own (checked with the old files taken off the lists): test_values217_train_run (the run
of test_values202_train_run stopped by --max-steps 5, resumed, and made in one go: each epoch's closing progress
line counts the samples of its updates, 40 and 32 of 40, worked out from the batch sizes; the summary's stop
evaluation at update 5, epoch 1 + 2/3 as "1.67", with the figures checkpoint.json keeps, and the best checkpoint at
the update of the lowest validation loss of metrics.jsonl; the curve's title from the settings; the resumed run's
metrics rows and summary equal to the one-go run's, its first line "Resuming. " and the one-go run's description),
test_values217_distributed_group (each launcher's rank variable alone; Group.fail with a stand-in communicator: a
bug's traceback and exit 1 on ranks 0 and 1, a diverged run's exit 3; init() with a stand-in mpi4py whose world sees
3 of a launcher's 2: the refusal word for word, and a world of 2 wrapped; --reproducible's refusal with the data
blocks counted here; describe_split --reproducible with --block-rows 8, its blocks counted here). Left out as
equivalent or near it: _run's "already holds a run" refusal (unreachable: a folder that exists is locked in
__init__, so the branch runs only for a folder made between the two), Group.root as "rank <= 0" (ranks are never
negative), init()'s "Group(comm) if size > 1" as ">= 1" (a size of 1 returned earlier), allgather_rows' "return
rows" as a copy (the same values).

    python tests/mutants/run.py --only 'v217-*'
"""
TRAIN = "lnrnn/training/train.py"
REC = "lnrnn/training/recorder.py"
DIST = "lnrnn/training/distributed.py"

# existing tests of these modules (the most direct files)
TRAIN_OLD = ["tests/training/test_values202_train_run.py", "tests/training/test_values165_train_run.py",
             "tests/training/test_values134_recorder_resume.py"]
REC_OLD = ["tests/training/test_values202_train_run.py", "tests/training/test_values165_train_run.py",
           "tests/training/test_values122_recorder.py"]
DIST_OLD = ["tests/training/test_values202_distributed_group.py", "tests/training/test_values165_distributed_group.py",
            "tests/training/test_mpi.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RUN_NEW = ["tests/training/test_values217_train_run.py"]
GROUP_NEW = ["tests/training/test_values217_distributed_group.py"]

TR = RUN_NEW + TRAIN_OLD
RE = RUN_NEW + REC_OLD
DI = GROUP_NEW + DIST_OLD

MUTANTS = [
    # ---- train.py ----
    dict(name="v217-bar-counts-whole-batches", file=TRAIN,
         old='bar.update(len(idx), **model.head.mean(s["sums"], s["count"]))',
         new='bar.update(B, **model.head.mean(s["sums"], s["count"]))',
         tests=TR, why="the progress bar counts a whole batch for the short last batch of an epoch (48/40)"),
    dict(name="v217-resuming-keyed-on-idle", file=TRAIN,
         old='trainer.log(("Resuming. " if resume else "") + setup.describe(trainer.setup))',
         new='trainer.log(("Resuming. " if idle else "") + setup.describe(trainer.setup))',
         tests=TR, why="a resumed run that goes on never says 'Resuming.' (idle is empty there)"),
    # ---- recorder.py ----
    dict(name="v217-curve-title-layers-plural", file=REC,
         old="title=f\"{label} ({c.layers} layer{'s' * (c.layers > 1)}",
         new="title=f\"{label} ({c.layers} layer{'s' * (c.layers >= 1)}",
         tests=RE, why="learning_curve.svg's title says '1 layers'"),
    dict(name="v217-curve-title-eval-batch", file=REC,
         old='f"batch {c.batch_size}, seed {c.seed})"',
         new='f"batch {c.eval_batch_size}, seed {c.seed})"',
         tests=RE, why="learning_curve.svg's title names the evaluation batch size (None by default)"),
    dict(name="v217-summary-epoch-one-decimal", file=REC,
         old="else f\"at update {last['step']} (epoch {last['epoch']:.2f})\")",
         new="else f\"at update {last['step']} (epoch {last['epoch']:.1f})\")",
         tests=RE, why="the summary gives an evaluation inside an epoch's epoch with one decimal (1.7, not 1.67)"),
    dict(name="v217-summary-best-update-is-epoch", file=REC,
         old="f\"{format_metrics({b['metric']: b['value']}, long=True)} at update {b['step']})\")",
         new="f\"{format_metrics({b['metric']: b['value']}, long=True)} at update {b['epoch']})\")",
         tests=RE, why="the summary names the best checkpoint's epoch (1.333333) as its update"),
    dict(name="v217-summary-stop-eval-vs-history", file=REC,
         old='if t.stop_eval is not None and t.stop_eval["step"] == t.step:',
         new='if t.stop_eval is not None and t.stop_eval["step"] == t.history_step():',
         tests=RE, why="the summary of a stopped run reports metrics.jsonl's last row, not the stop's own evaluation"),
    # ---- distributed.py ----
    dict(name="v217-rank-vars-pmix-size", file=DIST,
         old='RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK", "SLURM_PROCID")',
         new='RANK_VARS = ("OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_SIZE", "SLURM_PROCID")',
         tests=DI, why="a PMIx launcher's rank is never read (its size variable is read as the rank)"),
    dict(name="v217-fail-bug-one-line", file=DIST,
         old='line, code = "".join(traceback.format_exception(exc)).rstrip(), 1',
         new='line, code = f"Error: {exc}", 1',
         tests=DI, why="a bug in lnrnn on a rank loses its traceback"),
    dict(name="v217-fail-user-code-2", file=DIST,
         old='line, code = f"Error: {exc}", exc.exit_code',
         new='line, code = f"Error: {exc}", UserError.exit_code',
         tests=DI, why="a diverged run on a rank aborts with 2, not its exit code 3"),
    dict(name="v217-init-refusal-names-launch-twice", file=DIST,
         old='f"the launcher started {size} processes but MPI sees {comm.Get_size()}: use the mpiexec "',
         new='f"the launcher started {size} processes but MPI sees {size}: use the mpiexec "',
         tests=DI, why="init()'s refusal says MPI sees the launcher's count"),
    dict(name="v217-reproducible-refusal-names-size", file=DIST,
         old='f"--batch-size {cfg.batch_size} with --block-rows {cfg.block_rows} makes {nb} "',
         new='f"--batch-size {cfg.batch_size} with --block-rows {cfg.block_rows} makes {size} "',
         tests=DI, why="--reproducible's refusal gives the process count as the number of blocks"),
    dict(name="v217-describe-split-default-rows", file=DIST,
         old="    if reproducible:\n        with block_rows(rows):",
         new="    if reproducible:\n        with block_rows(BLOCK_ROWS):",
         tests=DI, why="describe_split --reproducible counts the blocks of the default --block-rows, not the "
                              "one given"),
]
