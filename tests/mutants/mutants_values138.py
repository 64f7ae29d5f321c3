"""Planted bugs, round 138 (format: tests/mutants/mutants.py): single-line slips on the distributed path's lines no
earlier round mutates, checked without mpiexec: launched_size saying 0 processes without a launcher and
launched_rank passing over a variable that says rank 0; shard's divmod with its arguments swapped; Group.root
meaning "alone", allgather_rows sized one row per rank and its Allgatherv counts taking a rank's whole buffer as
a row's width, bcast rooted at the calling rank, describe counting ranks from 1, resume_note's two messages
swapped; in the synchronized BatchNorm, col_sums shifting every column by column 0's running mean, bwd_sums
leaving the dy x_hat half of a reused buffer uncleared, bwd_dx handing padded rows their dy, and _step_totals
stopping one step short.

13 mutants. Against the existing targeted tests alone (three direct files for distributed.py:
test_values114_distributed, test_values70_distributed_group, test_values124_distributed_group; two for bn_sync.py:
test_values93_bn_sync, test_values65_bn_sync; measured with --no-baseline, one core shared with other jobs, and cut
short for time after the first six, each old run taking 1.5 to 3.5 minutes) 3 of those six were caught
(launched_size's 0, shard's swapped divmod, root meaning alone) and 3 missed: launched_rank passing over rank 0 (no
old case sets a rank variable to 0 ahead of another), and both allgather_rows slips (no measured old file gathers
through Group's own allgather_rows over more than one rank); the other seven were not measured that way. The new
value tests catch all 13 on their own (checked with the old files taken off the lists):
test_values138_distributed_group (Group over a stand-in communicator that keeps MPI's rules: ranks are greenlets,
Allreduce adds in rank order, Allgatherv refuses counts that are not what a rank sent or a receive buffer too small,
bcast refuses ranks naming different roots; the launcher's variables unset and a rank variable saying 0; shard
against NumPy's array_split; allgather_rows of ranks with 2, 0, 1 and 3 rows against their concatenation;
loss_and_grad on 3 ranks of 2, 2 and 1 rows with an LN-LSTM on the window task, masks, an empty row, truncated BPTT,
state noise and float64 against one process's update of the whole batch; --reproducible's BN-RNN on 1, 2 and 3 ranks
the same bits, and one plain call's to round-off), test_values138_bn_sync (one step's column sums of four ranks, one
without rows and one holding a row of length 0, against the concatenated active rows' mean, variance and running
rows; backward sums into buffers still holding another step's sums and dx of every rank, dy nonzero on padded rows,
against the definition of the concatenated batch; the x side over three ranks on threads, T past the running rows,
against the concatenated batch's statistics, dx and dgain, dbias). Left out: update.py, whose untouched lines are
the prewarm arming and first-update flag (a cold-start hook: the same numbers either way), the ValueError clause,
and the CUDA DeviceUpdate (no value test without a GPU); block_models returning every twin made (the extra ones are
never run), the shift rows wrapping instead of clamping past Ts and the step chunks' max(1, ...) (the shift only
moves round-off; T is at least 1): equivalent or near it.

    python tests/mutants/run.py --only 'v138-*'
"""
DIST = "lnrnn/training/distributed.py"
SYNC = "lnrnn/kernels/bn_sync.py"

NEW_GROUP = "tests/training/test_values138_distributed_group.py"
NEW_SYNC = "tests/kernels/test_values138_bn_sync.py"
OLD_GROUP = ["tests/training/test_values114_distributed.py", "tests/training/test_values70_distributed_group.py",
             "tests/training/test_values124_distributed_group.py"]
OLD_SYNC = ["tests/kernels/test_values93_bn_sync.py", "tests/kernels/test_values65_bn_sync.py"]

MUTANTS = [
    dict(name="v138-launched-size-default-zero", file=DIST,
         old="            return int(s)\n    return 1\n",
         new="            return int(s)\n    return 0\n",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="launched_size without a launcher says 0 processes: init no longer takes the one-process group"),
    dict(name="v138-launched-rank-skips-rank-zero", file=DIST,
         old="        if s.isdigit():\n            return int(s)\n    return 0",
         new="        if s.isdigit() and int(s) > 0:\n            return int(s)\n    return 0",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="launched_rank copies launched_size's test: a variable saying rank 0 is passed over for the next one"),
    dict(name="v138-shard-divmod-swapped", file=DIST,
         old="base, extra = divmod(B, size)",
         new="base, extra = divmod(size, B)",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="shard's divmod with its arguments swapped: the shards no longer cover the batch"),
    dict(name="v138-root-when-alone", file=DIST,
         old="        return self.rank == 0\n",
         new="        return self.size == 1\n",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="root means 'alone' instead of rank 0: in a group no rank writes the run folder"),
    dict(name="v138-allgather-one-row-per-rank", file=DIST,
         old="out = np.empty((int(sum(counts)),) + rows.shape[1:], rows.dtype)",
         new="out = np.empty((len(counts),) + rows.shape[1:], rows.dtype)",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="allgather_rows sizes its result one row per rank: ranks holding several blocks overflow it"),
    dict(name="v138-allgather-width-counts-rows", file=DIST,
         old="width = int(np.prod(rows.shape[1:], dtype=np.int64))",
         new="width = int(np.prod(rows.shape, dtype=np.int64))",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="the Allgatherv counts take the rank's whole buffer as one row's width"),
    dict(name="v138-bcast-from-own-rank", file=DIST,
         old="self.comm.bcast(obj, root=0)",
         new="self.comm.bcast(obj, root=self.rank)",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="bcast roots at the calling rank: every rank keeps its own object instead of rank 0's"),
    dict(name="v138-describe-one-based", file=DIST,
         old='return f"rank {self.rank} of {self.size}"',
         new='return f"rank {self.rank + 1} of {self.size}"',
         tests=[NEW_GROUP] + OLD_GROUP,
         why="describe counts ranks from 1: an error line names the wrong process (MPI ranks count from 0)"),
    dict(name="v138-resume-note-messages-swapped", file=DIST,
         old="    if reproducible:\n        return (f\"The run was trained",
         new="    if not reproducible:\n        return (f\"The run was trained",
         tests=[NEW_GROUP] + OLD_GROUP,
         why="resume_note's test inverted: a --reproducible run is told its updates change, a plain one the same bits"),
    dict(name="v138-col-sums-first-shift", file=SYNC,
         old="                d = xr[k] - shift[k]\n",
         new="                d = xr[k] - shift[0]\n",
         tests=[NEW_SYNC] + OLD_SYNC,
         why="col_sums shifts every column by column 0's running mean, stats_from_sums adds back column k's"),
    dict(name="v138-bwd-sums-second-half-not-zeroed", file=SYNC,
         old="        s2[k] = 0.0\n    for b in range(B):\n        if t < lengths[b]:\n            xr, dr",
         new="        pass\n    for b in range(B):\n        if t < lengths[b]:\n            xr, dr",
         tests=[NEW_SYNC] + OLD_SYNC,
         why="bwd_sums clears only the dy sums: the dy * xhat sums add onto the buffer's last step's"),
    dict(name="v138-bwd-dx-padded-rows-pass-dy", file=SYNC,
         old="                out[k] = dt(0)\n",
         new="                out[k] = dy2[b, k]\n",
         tests=[NEW_SYNC] + OLD_SYNC,
         why="bwd_dx hands a padded row its dy unchanged instead of 0: the padding reaches dW and dx"),
    dict(name="v138-step-totals-skip-last-step", file=SYNC,
         old="    for t in range(sums.shape[0]):\n        for k in range(G):",
         new="    for t in range(sums.shape[0] - 1):\n        for k in range(G):",
         tests=[NEW_SYNC] + OLD_SYNC,
         why="_step_totals stops one step short: the x side's dgain and dbias miss the last step"),
]
