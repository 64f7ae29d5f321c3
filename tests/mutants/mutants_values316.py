"""Planted bugs, round 316 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the data-parallel path (lnrnn/training/distributed.py) and the stop policies
(lnrnn/training/stopping.py): launched_size reading Open MPI's variable alone; launched_rank taking an unset
variable as rank 0; the gradient Allreduce taking a maximum instead of a sum; allgather_rows returning this rank's
rows alone; --reproducible's blocks summing a copy of the votes; block twins losing the output clip; BN blocks
never given the group's reduction; failing_together letting Ctrl-C and SystemExit past the group; Group.fail
aborting with 1 whatever the exit code; StopFlag starting inside a save; a second signal overwriting the first
instead of aborting; a save ending in Abort after a first signal alone; a group's reason read from this rank's own
flag instead of the votes; the blow-up factor 10.5 instead of 10.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values316_distributed_group (the launcher's variables one
at a time; rank 0 of 2 over a stand-in communicator whose other rank's gradient and metric sums are worked out in
the test from rows [6, 11) of the global batch, its noise rows and the 31 units counted by hand, against one
process's call on the whole batch to 1e-12 and the votes added by hand; an allgather of 2, 1 and 1 rows in rank
order; --reproducible blocks adding another rank's votes; a bn-rnn's 4 blocks under truncated BPTT, ragged lengths
and state noise against one call, gradient and running statistics; twins' output clip; Ctrl-C and SystemExit ending
the group with codes 130 and 3, the line word for word), test_values316_stopping (StopFlag's handler called as the
signals call it, inside and outside a save; a group's reason and voted signal from the votes; --patience 2 over
worse, better, equal, worse histories of loss and acc, stopping at the fifth evaluation and not before, and not at
all under --patience 3; the blow-up at 10.3 times the first loss firing at the 20th update in a row, its refusal
word for word, and never at exactly 10 times). Left out as equivalent: BlockRing.run's len(set(self.calls)) != 1
weakened (the blocks switch in lockstep, each either reduces once or ends, so unequal counts imply a finished block
and any(done) already fires); block_models returning every twin made instead of made[:n] (the runners past n only
receive copies of the parameters); the elif t.early_stop is not None made truthy (an early stop record is a
non-empty dict); resume_note's and NullLog's bodies (no value a user sees changes with a slip there short of the
message text, mutated by earlier rounds). Left out as a crash rather than a value: shard_batch's state and text
checks inverted (None is sliced).

    python tests/mutants/run.py --only 'v316-*'
"""
DIST = "lnrnn/training/distributed.py"
STOP = "lnrnn/training/stopping.py"

T_GROUP = "tests/training/test_values316_distributed_group.py::"
T_STOP = "tests/training/test_values316_stopping.py::"
OLD_DIST = ["tests/training/test_values279_distributed_group.py", "tests/training/test_values260_distributed_group.py",
            "tests/training/test_values230_distributed_one_group.py", "tests/training/test_values114_distributed.py"]
OLD_STOP = ["tests/training/test_values114_stopping.py", "tests/training/test_values124_stopping.py",
            "tests/training/test_values209_stopping.py", "tests/training/test_values295_train_stopping.py"]

MUTANTS = [
    # ---- the data-parallel path: lnrnn/training/distributed.py ----
    dict(name="v316-launched-size-open-mpi-only", file=DIST,
         old='        s = os.environ.get(v, "")\n        if s.isdigit() and int(s) > 1:',
         new='        s = os.environ.get(SIZE_VARS[0], "")\n        if s.isdigit() and int(s) > 1:',
         tests=[T_GROUP + "test_a_size_announced_by_any_one_launcher_variable_alone"] + OLD_DIST,
         why="only OMPI_COMM_WORLD_SIZE is read: under Hydra, PMIx or srun the job is taken for one process"),
    dict(name="v316-launched-rank-unset-is-zero", file=DIST,
         old='        s = os.environ.get(v, "")\n        if s.isdigit():',
         new='        s = os.environ.get(v, "0")\n        if s.isdigit():',
         tests=[T_GROUP + "test_a_rank_announced_by_any_one_launcher_variable_alone"] + OLD_DIST,
         why="an unset Open MPI variable reads as rank 0: every rank of a Hydra, PMIx or srun job says it is rank 0"),
    dict(name="v316-allreduce-takes-max", file=DIST,
         old="            self.comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.SUM)",
         new="            self.comm.Allreduce(MPI.IN_PLACE, buf, op=MPI.MAX)",
         tests=[T_GROUP + "test_update_of_rank_0_of_2_adds_the_other_ranks_gradient_sums_and_votes"] + OLD_DIST,
         why="the ranks' gradients, metric sums and votes are combined by their maximum, not added"),
    dict(name="v316-allgather-returns-own-rows", file=DIST,
         old="        self.comm.Allgatherv(np.ascontiguousarray(rows), [out, [int(c) * width for c in counts]])\n"
             "        return out",
         new="        self.comm.Allgatherv(np.ascontiguousarray(rows), [out, [int(c) * width for c in counts]])\n"
             "        return rows",
         tests=[T_GROUP + "test_allgather_stacks_every_ranks_rows_in_rank_order"] + OLD_DIST,
         why="the gathered rows are dropped: each rank goes on with its own blocks alone"),
    dict(name="v316-blocks-votes-summed-in-a-copy", file=DIST,
         old="    group.allreduce(votes)                       # 0/1 votes",
         new="    group.allreduce(votes.copy())                # 0/1 votes",
         tests=[T_GROUP + "test_reproducible_blocks_sum_the_groups_votes"] + OLD_DIST,
         why="under --reproducible the stop votes are summed into a copy: a rank never learns of another's signal"),
    dict(name="v316-block-twins-lose-output-clip", file=DIST,
         old='        if hasattr(model.head, "clip_output"):',
         new='        if hasattr(model, "clip_output"):',
         tests=[T_GROUP + "test_block_twins_keep_the_output_clip"] + OLD_DIST,
         why="the BN block twins of an MDN model never get --clip-output: their gradients are unclipped"),
    dict(name="v316-bn-blocks-reduce-inverted", file=DIST,
         old="        if reduce is not None:\n            m.stack.set_batch_reduce(reduce)",
         new="        if reduce is None:\n            m.stack.set_batch_reduce(reduce)",
         tests=[T_GROUP + "test_bn_blocks_of_one_process_share_the_batchs_statistics"] + OLD_DIST,
         why="a BN model's blocks never get the group's reduction: each normalizes by its own rows' statistics"),
    dict(name="v316-failing-together-exception-only", file=DIST,
         old="    except BaseException as e:  # noqa: B036",
         new="    except Exception as e:  # noqa: B036",
         tests=[T_GROUP + "test_ctrl_c_and_exit_end_the_group_with_their_codes"] + OLD_DIST,
         why="Ctrl-C and SystemExit on one rank pass the group by: the other ranks hang in their next collective"),
    dict(name="v316-fail-aborts-with-one", file=DIST,
         old="        self.comm.Abort(code)",
         new="        self.comm.Abort(1)",
         tests=[T_GROUP + "test_ctrl_c_and_exit_end_the_group_with_their_codes"] + OLD_DIST,
         why="the group ends with exit code 1 whatever the error: Ctrl-C is not 130, a usage error not 2"),
    # ---- the stop policies: lnrnn/training/stopping.py ----
    dict(name="v316-stopflag-starts-in-save", file=STOP,
         old="        self.in_save = False\n        self.old = {}",
         new="        self.in_save = True\n        self.old = {}",
         tests=[T_STOP + "test_first_signal_sets_the_flag_a_second_aborts_at_once"] + OLD_STOP,
         why="a second signal outside any save is deferred: Ctrl-C twice does not stop the run at once"),
    dict(name="v316-stopflag-second-overwrites-first", file=STOP,
         old="        if self.signum is None:\n            self.signum = signum",
         new="        if self.deferred is None:\n            self.signum = signum",
         tests=[T_STOP + "test_first_signal_sets_the_flag_a_second_aborts_at_once"] + OLD_STOP,
         why="a second signal replaces the first instead of aborting: the run only stops at the third"),
    dict(name="v316-saving-aborts-on-first-signal", file=STOP,
         old="        if self.deferred is not None:\n            raise Abort(self.deferred)",
         new="        if self.signum is not None:\n            raise Abort(self.deferred)",
         tests=[T_STOP + "test_a_first_signal_during_a_save_only_sets_the_flag"] + OLD_STOP,
         why="a save after a single signal ends in Abort: the first Ctrl-C no longer saves and stops cleanly"),
    dict(name="v316-reason-reads-own-flag-in-group", file=STOP,
         old='        if self.signalled(flag):\n            return "interrupted"',
         new='        if flag.requested:\n            return "interrupted"',
         tests=[T_STOP + "test_a_group_stops_on_the_votes_not_on_this_ranks_own_flag"] + OLD_STOP,
         why="in a group each rank stops on its own flag, not the votes: ranks stop at different updates"),
    dict(name="v316-blowup-factor-ten-and-a-half", file=STOP,
         old="BLOWUP_FACTOR = 10.0 ",
         new="BLOWUP_FACTOR = 10.5 ",
         tests=[T_STOP + "test_a_loss_above_ten_times_the_first_stops_at_the_twentieth_update_in_a_row"] + OLD_STOP,
         why="a loss 10.3 times the first is not out of range: the blow-up stop fires later or never"),
]
