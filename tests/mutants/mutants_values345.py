"""Planted bugs, round 345 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the training loop (lnrnn/training/train.py), the data-parallel group (lnrnn/training/distributed.py)
and one update (lnrnn/training/update.py): the epoch's batches counted over the held-out split's size; every batch
read from the held-out split; an epoch's running count starting at 1; a mid-epoch evaluation's epoch fraction
taken over the sequences instead of the batches; a mid-epoch evaluation left out of the history (metrics.jsonl);
a finished run resumed going on to write again; the run's initial loss taken as the first update's sum, not its
mean; a NaN batch checked on its labels, so bad data reads as a diverged run; a --reproducible update's stop
votes never cast; BatchNorm blocks bound late, every greenlet running the last block; MPI seeing more processes
than the launcher started let through; a failing rank's line printed on stdout; the split's sentence naming
rank 1 as the writer.

13 mutants. Against the old targeted files alone: not measured yet. (Old files: test_values301_train_loop,
test_values312_loop, test_values316_distributed_group, test_values_distributed_options, test_values289_update.) The
new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values345_train_loop (TINY with --split 7/5 and --batch-size 3: three updates an epoch reading rows perm[0:3],
perm[3:6], perm[6:7] of each permutation drawn here from default_rng(5), of the training split only; --eval-every 2
rows at updates 2, 3, 4 and 6 with epochs 2/3, 1, 1 + 1/3, 2 and samples 6, 7, 10, 14 counted by hand; an epoch's
train_loss the sum of its updates' loss sums over their counts, and the initial loss the first update's sum over its
count; a finished run resumed saying so word for word with every file's bytes and mtime unchanged; a run cut at
update 4 and resumed equal to the uncut run), test_values345_distributed_group (a NaN in x refused as the data's
fault word for word, batch 2 of epoch 3; a requested SIGINT's votes [1, 1, 0] under --reproducible; bn-lstm in 4
blocks with truncated BPTT 3, ragged rows and state noise against one call's gradient and running statistics in
float64; two thread ranks over halves of a text batch against one process; the launcher's 2 against MPI's 4 and 1
refused word for word; rank 0's UserError on stderr with its exit code; describe_split(2, 7) word for word). Left
out as equivalent: init()'s 'Group(comm) if comm.Get_size() > 1' made >= 1 (reached only when MPI's size equals the
launcher's, above 1); block_models returning all its twins instead of made[:n] (the extra twins only get parameters
copied, BlockRing runs counts' blocks); the stand-in zero-length block's total (a row of no steps adds nothing).
Left out as not cheaply reachable: the 'already holds a run' refusal inside _run (a folder must appear between the
Trainer's construction and run()), and the device update's lines (a CUDA device).

    python tests/mutants/run.py --only 'v345-*'
"""
TRAIN = "lnrnn/training/train.py"
DIST = "lnrnn/training/distributed.py"
UPDATE = "lnrnn/training/update.py"

T_LOOP = "tests/training/test_values345_train_loop.py::"
T_GROUP = "tests/training/test_values345_distributed_group.py::"
OLD_LOOP = ["tests/training/test_values301_train_loop.py", "tests/training/test_values312_loop.py"]
OLD_GROUP = ["tests/training/test_values316_distributed_group.py", "tests/training/test_values_distributed_options.py"]
OLD_UPDATE = ["tests/training/test_values289_update.py"]

MUTANTS = [
    # ---- the loop: lnrnn/training/train.py ----
    dict(name="v345-train-batches-counted-over-val", file=TRAIN,
         old='    batches_per_epoch = property(lambda self: -(-self.task.size("train") // self.cfg.batch_size))',
         new='    batches_per_epoch = property(lambda self: -(-self.task.size("val") // self.cfg.batch_size))',
         tests=[T_LOOP + "test_seven_sequences_in_batches_of_three_are_three_updates_an_epoch"] + OLD_LOOP,
         why="the epoch's permutation and batch count come from the held-out split's size (5 of 7: 2 batches)"),
    dict(name="v345-train-batches-read-from-val", file=TRAIN,
         old='task_batch(task, "train", idx, model.dtype, model.conditioned)',
         new='task_batch(task, "val", idx, model.dtype, model.conditioned)',
         tests=[T_LOOP + "test_seven_sequences_in_batches_of_three_are_three_updates_an_epoch"] + OLD_LOOP,
         why="every update trains on rows of the held-out split"),
    dict(name="v345-train-epoch-count-starts-at-one", file=TRAIN,
         old='dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 0,',
         new='dict.fromkeys(self.model.head.sum_keys, 0.0), "count": 1,',
         tests=[T_LOOP + "test_epoch_train_loss_is_the_sums_over_the_counts_and_the_initial_loss_the_first_mean"]
         + OLD_LOOP,
         why="an epoch's training means divide by one unit more than it scored"),
    dict(name="v345-train-mid-eval-fraction-over-sequences", file=TRAIN,
         old="                        self._evaluate_mid_epoch(nb, bar)",
         new="                        self._evaluate_mid_epoch(n, bar)",
         tests=[T_LOOP + "test_eval_every_two_rows_land_at_updates_two_three_four_and_six"] + OLD_LOOP,
         why="a mid-epoch row's epoch is batches done over the sequences (2/7), not over the batches (2/3)"),
    dict(name="v345-train-mid-eval-not-in-history", file=TRAIN,
         old="        better = self._judge(rec)\n        self.history.append(rec)\n        if better:\n"
             "            self.recorder.save_best()\n        self.recorder.write_metrics(draw=False)",
         new="        better = self._judge(rec)\n        pass\n        if better:\n"
             "            self.recorder.save_best()\n        self.recorder.write_metrics(draw=False)",
         tests=[T_LOOP + "test_eval_every_two_rows_land_at_updates_two_three_four_and_six"] + OLD_LOOP,
         why="--eval-every's rows never reach metrics.jsonl (nor the history a stop evaluation checks)"),
    dict(name="v345-train-idle-resume-goes-on", file=TRAIN,
         old="            trainer.log(idle)\n            return trainer",
         new="            trainer.log(idle)\n            pass",
         tests=[T_LOOP + "test_a_finished_run_resumed_says_nothing_is_left_and_writes_nothing"] + OLD_LOOP,
         why="a finished run resumed says there is nothing to do, then opens the run folder again and writes"),
    # ---- one update: lnrnn/training/update.py ----
    dict(name="v345-update-initial-loss-is-the-sum", file=UPDATE,
         old='        loss = means["loss"]',
         new='        loss = t.model.last_sums["loss"]',
         tests=[T_LOOP + "test_epoch_train_loss_is_the_sums_over_the_counts_and_the_initial_loss_the_first_mean"]
         + OLD_UPDATE,
         why="the blow-up checks read the batch's loss sum, not its mean: the initial loss is batch-size times off"),
    dict(name="v345-update-nan-checked-on-labels", file=UPDATE,
         old="        except ValueError as e:\n            nonfinite(t, e, x)\n\n    def sync_host",
         new="        except ValueError as e:\n            nonfinite(t, e, y)\n\n    def sync_host",
         tests=[T_GROUP + "test_a_nan_in_the_batch_is_the_datas_fault_naming_batch_and_epoch"] + OLD_UPDATE,
         why="a NaN in the data is looked for in the labels: bad data reads as a diverged run"),
    dict(name="v345-update-votes-not-cast", file=UPDATE,
         old="                t.stopping.cast_votes()",
         new="                pass",
         tests=[T_GROUP + "test_reproducible_update_casts_the_votes_of_a_requested_sigint"] + OLD_UPDATE,
         why="a group's update sums stale votes: a signal on one rank never stops the group"),
    # ---- the group: lnrnn/training/distributed.py ----
    dict(name="v345-dist-bn-blocks-bound-late", file=DIST,
         old="greenlet(lambda j=j: work(j, self.reducer(j)))",
         new="greenlet(lambda: work(j, self.reducer(j)))",
         tests=[T_GROUP + "test_bn_lstm_blocks_with_tbptt_and_noise_are_one_call"] + OLD_GROUP,
         why="every block's greenlet runs the last block (j bound when the greenlets start)"),
    dict(name="v345-dist-mpi-larger-than-launcher-let-through", file=DIST,
         old="    if comm.Get_size() != size:",
         new="    if comm.Get_size() < size:",
         tests=[T_GROUP + "test_mpi_seeing_another_size_than_the_launcher_is_refused"] + OLD_GROUP,
         why="MPI seeing more processes than the launcher started is not refused"),
    dict(name="v345-dist-fail-line-on-stdout", file=DIST,
         old="            print(line, file=sys.stderr, flush=True)",
         new="            print(line, file=sys.stdout, flush=True)",
         tests=[T_GROUP + "test_rank_zeros_user_error_goes_to_stderr_with_its_code"] + OLD_GROUP,
         why="a failing rank's error line goes to stdout"),
    dict(name="v345-dist-split-names-rank-one", file=DIST,
         old='"sequences (their gradients summed by an Allreduce per update); rank 0 writes the run folder.")',
         new='"sequences (their gradients summed by an Allreduce per update); rank 1 writes the run folder.")',
         tests=[T_GROUP + "test_seven_rows_over_two_ranks_are_shards_of_three_to_four"] + OLD_GROUP,
         why="the split's sentence names rank 1 as the one writing the run folder"),
]
