"""Planted bugs, round 90 (format: tests/mutants/mutants.py): single-line slips in the training loop, its policies and
the distributed path, on lines no earlier round mutates: --reproducible's metric sums keeping the last block's, an
evaluation over several batches keeping the last batch's sums and count, a rank's shard of x (T,B,I) sliced on the
steps axis, and the update's initial-state noise drawn for key 0 whatever the update (distributed.py); updates.jsonl's
window assigning each update's sums instead of adding them, dividing by the updates in the window instead of their
scored units, and writing --lr instead of the epoch's scheduled rate; a run stopped early and resumed with a larger
--patience keeping its early stop (recorder.py); the epoch's training sums assigned instead of added and the
evaluation at a budget's stop recorded as an --eval-every one (train.py); a second signal during a save aborting with
the first one's number and --best-metric none judging every evaluation better (stopping.py); --tbptt 0 let through,
--eval-batch-size 1 and --save-every 1 refused at their edge, and the BN cells' default state noise given to any
normalized cell (plan.py).

16 mutants. Against the existing targeted tests alone all 16 were caught; against the two or three files that call
each module's functions directly (the first ones of each *_OLD list) 6 were caught and 10 missed: the evaluation
over batches, the three updates.jsonl slips, the epoch's sums, the early stop kept on resume, the signal of an Abort
during a save and the three edges of plan.validate; the other files of the lists catch them. The new value tests
catch every mutant on their own (checked with the old tests taken off the lists): test_values90_distributed_group
(the group of one against SequenceModel.loss_and_grad given noise_state's draw for (1, update) as its initial
states, with truncated BPTT, masks with a padded and an empty row, the synthesis window's text and BN cells,
float64; --reproducible's two blocks against the whole batch's sums; evaluate against every batch's loss_sums added
here; shard_batch of ranks 0, 1 and 2 of 3 against each array's rows [lo, hi) and the global noise's),
test_values90_loop (a tiny run with --log-every 2 and --lr-decay 0.5: updates.jsonl's and metrics.jsonl's training
metrics against the sums and counts a hook saw at every update, their rates against lr * 0.5**epoch across the epoch
boundary; the evaluation at a --max-steps stop inside an epoch; --patience over a scripted worse/better/tie/worse
validation history against the rule written out, resumed with a larger --patience and stopping where one run with
that patience stops) and test_values90_policies (stopping.judge over non-monotonic histories with ties and a NaN for
loss, cer and acc against the rule by hand; --best-metric none; StopFlag's deferred second signal; plan.validate at
0, 1 and 2 of --tbptt, --save-every and --eval-batch-size; plan.state_noise for every cell and both kinds of task).
Dropped as equivalent: the summary's check that the stop's evaluation is of the trainer's update (restore never
reads stop_eval, so within an invocation its step is the trainer's), the evaluation's count rounded by int() alone
(whole counts, exact in float64), the block sums taken without a copy (the gathered rows are not read again),
shard_batch's rows taken on the steps axis in a group of one (rows [0, B) leave x whole there: the test uses ranks 1
and 2 of 3). Not planted: the evaluation's Allreduce dropped (the identity in one process).

    python tests/mutants/run.py --only 'v90-*'
"""
DIST = "lnrnn/training/distributed.py"
REC = "lnrnn/training/recorder.py"
TRAIN = "lnrnn/training/train.py"
STOP = "lnrnn/training/stopping.py"
PLAN = "lnrnn/training/plan.py"

# existing tests of these modules: first the ones that call each module's functions directly, then the rest
DIST_OLD = ["tests/training/test_values43_distributed_one_rank.py","tests/training/test_values43_distributed_shards.py",
            "tests/training/test_values16_distributed.py", "tests/training/test_values20_distributed.py",
            "tests/training/test_values21_distributed.py", "tests/training/test_values33_distributed.py",
            "tests/training/test_values70_distributed_group.py", "tests/training/test_values_distributed_options.py",
            "tests/training/test_values_distributed_options2.py", "tests/training/test_values10_evaluation.py",
            "tests/training/test_values_evaluation.py"]
REC_OLD = ["tests/training/test_values80_loop.py", "tests/training/test_values36_recorder.py",
           "tests/training/test_values10_recorder.py", "tests/training/test_values12_recorder.py",
           "tests/training/test_values20_recorder.py", "tests/training/test_values21_recorder.py",
           "tests/training/test_values47_resume.py", "tests/training/test_values54_resume.py",
           "tests/training/test_values_logs.py", "tests/training/test_values47_schedule.py",
           "tests/training/test_values_train_schedule.py"]
TRAIN_OLD = ["tests/training/test_values80_loop.py", "tests/training/test_values47_epoch_end.py",
             "tests/training/test_values17_train.py", "tests/training/test_values33_train.py",
             "tests/training/test_values_train.py", "tests/training/test_values47_resume.py"]
STOP_OLD = ["tests/training/test_values47_stopping_judge.py", "tests/training/test_values80_stopping.py",
            "tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_values21_stopping.py", "tests/training/test_values36_stopping.py",
            "tests/training/test_values54_stopping.py", "tests/training/test_values_train_policies.py"]
PLAN_OLD = ["tests/training/test_values80_plan.py", "tests/training/test_values_plan.py",
            "tests/training/test_values54_plan.py", "tests/training/test_plan.py",
            "tests/training/test_values21_plan.py",
            "tests/training/test_values36_plan.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
GROUP_NEW = ["tests/training/test_values90_distributed_group.py"]
LOOP_NEW = ["tests/training/test_values90_loop.py"]
POLICY_NEW = ["tests/training/test_values90_policies.py"]

MUTANTS = [
    # ---- the group-of-one path (distributed.py) ----
    dict(name="v90-blocks-metric-sums-last-block", file=DIST,
         old="        sums += sall[k]\n",
         new="        sums = sall[k]\n",
         tests=GROUP_NEW + DIST_OLD,
         why="--reproducible's metric sums are the last block's: the update's loss and accuracy count its rows only"),
    dict(name="v90-evaluate-last-batch-only", file=DIST,
         old="        tot += row\n",
         new="        tot = row\n",
         tests=GROUP_NEW + DIST_OLD,
         why="an evaluation's sums and count are its last batch's: the validation metrics of the last batch alone"),
    dict(name="v90-shard-rows-on-steps-axis", file=DIST,
         old="    xs = np.ascontiguousarray(x[:, rows])\n",
         new="    xs = np.ascontiguousarray(x[rows])\n",
         tests=GROUP_NEW + DIST_OLD,
         why="a rank's shard of x (T,B,I) slices the steps instead of the rows"),
    dict(name="v90-update-noise-key-dropped", file=DIST,
         old="shard_batch(group, model, x, targets, lengths, noise_key, text)",
         new="shard_batch(group, model, x, targets, lengths, 0, text)",
         tests=GROUP_NEW + DIST_OLD,
         why="every update draws the initial-state noise of key 0: the same noise at every update"),
    # ---- what the recorder writes ----
    dict(name="v90-update-log-window-not-summed", file=REC,
         old='            w["sums"][k] += m.last_sums[k]\n',
         new='            w["sums"][k] = m.last_sums[k]\n',
         tests=LOOP_NEW + REC_OLD,
         why="an updates.jsonl row's training metrics are its last update's sums over the window's count"),
    dict(name="v90-update-log-mean-by-updates", file=REC,
         old='means = m.head.mean(w["sums"], w["count"])',
         new='means = m.head.mean(w["sums"], w["samples"])',
         tests=LOOP_NEW + REC_OLD,
         why="an updates.jsonl row divides its sums by the updates in the window, not by their scored units"),
    dict(name="v90-update-log-lr-from-config", file=REC,
         old='"lr": t.opt.lr, **{f"train_{k}": v for k, v in means.items()}',
         new='"lr": t.cfg.lr, **{f"train_{k}": v for k, v in means.items()}',
         tests=LOOP_NEW + REC_OLD,
         why="updates.jsonl writes --lr, not the rate the epoch's schedule (--lr-decay) trains with"),
    dict(name="v90-resume-larger-patience-still-stopped", file=REC,
         old="            t.early_stop = None  # resumed with a larger --patience: it trains on\n",
         new="            pass\n",
         tests=LOOP_NEW + REC_OLD,
         why="a run stopped early and resumed with a larger --patience keeps its early stop: nothing to do"),
    # ---- the loop ----
    dict(name="v90-epoch-sums-last-batch", file=TRAIN,
         old='                        s["sums"][m] += model.last_sums[m]\n',
         new='                        s["sums"][m] = model.last_sums[m]\n',
         tests=LOOP_NEW + TRAIN_OLD,
         why="an epoch's training metrics are its last batch's sums over the whole epoch's count"),
    dict(name="v90-stop-eval-kind-update", file=TRAIN,
         old='nb, "stop")',
         new='nb, "update")',
         tests=LOOP_NEW + TRAIN_OLD,
         why="the evaluation at a budget's stop is recorded as an --eval-every one"),
    # ---- policies ----
    dict(name="v90-abort-names-the-first-signal", file=STOP,
         old="            raise Abort(self.deferred)\n",
         new="            raise Abort(self.signum)\n",
         tests=POLICY_NEW + STOP_OLD,
         why="a second signal during a save aborts naming the first one (SIGTERM then Ctrl-C reads as SIGTERM)"),
    dict(name="v90-judge-no-metric-always-better", file=STOP,
         old='        return False\n    v = rec["val_" + b["metric"]]',
         new='        return True\n    v = rec["val_" + b["metric"]]',
         tests=POLICY_NEW + STOP_OLD,
         why="--best-metric none counts every evaluation as better: RUN/best is rewritten at each one"),
    dict(name="v90-plan-tbptt-zero-accepted", file=PLAN,
         old="(cfg.tbptt is None or cfg.tbptt >= 1,",
         new="(cfg.tbptt is None or cfg.tbptt >= 0,",
         tests=POLICY_NEW + PLAN_OLD,
         why="--tbptt 0 passes the check and silently trains on whole sequences"),
    dict(name="v90-plan-eval-batch-one-refused", file=PLAN,
         old="(cfg.eval_batch_size >= 1,",
         new="(cfg.eval_batch_size > 1,",
         tests=POLICY_NEW + PLAN_OLD,
         why="--eval-batch-size 1 (one sequence a batch) is refused, though the message asks for at least 1"),
    dict(name="v90-plan-save-every-one-refused", file=PLAN,
         old="(cfg.save_every is None or cfg.save_every >= 1,",
         new="(cfg.save_every is None or cfg.save_every > 1,",
         tests=POLICY_NEW + PLAN_OLD,
         why="--save-every 1 (a checkpoint after every update) is refused, though the message asks for at least 1"),
    dict(name="v90-plan-bn-noise-for-any-norm", file=PLAN,
         old='bn = plan.cell.norm == "bn"',
         new='bn = plan.cell.norm != "none"',
         tests=POLICY_NEW + PLAN_OLD,
         why="the default state noise of BN cells on constant-prefix tasks goes to LN cells too"),
]
