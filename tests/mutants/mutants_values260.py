"""Planted bugs, round 260 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
on the distributed path's option combinations with a group of one process (no mpiexec), in
lnrnn/training/distributed.py, lnrnn/training/plan.py and lnrnn/training/setup.py.
distributed.py: BlockRing keeping every block's reduction buffer in block 0's slot, and adding row k - 1 for row k
(block 0's statistics twice, the last block's never); loss_and_grad_blocks reading (T, B) from x as (B, T); every
block of a BN model run on the first block's model; evaluate calling batch 0 for every batch, and dividing by the
number of batches instead of the scored units; check_config refusing the CPU (and letting CUDA through) across
processes, and counting the data blocks of the process count instead of the batch size; a Group reading its size
from the communicator's rank. plan.py: --reproducible refused on the CPU (and let through with --device cuda); the
model config's state noise taken from --state-noise alone (a BN cell's default on a task whose sequences begin
alike dropped). setup.py: check_config called for one process whatever the group; the BN synthesis network
refused only under --reproducible and a launcher together.

13 mutants. Against the old targeted files alone: cut short on a loaded host (3 to 7 minutes a mutant): the first 3
were caught, the other 10 were not run. The new value tests catch all 13 on their own (checked with the old files
taken off the lists): test_values260_distributed_group (--reproducible's four blocks of a BN model at B = 11 under
block rows 1, counted here from the definition, with truncated BPTT chunks of 2 and 3, a ragged batch with an empty
row and the global batch's state noise, in float64, against one plain SequenceModel.loss_and_grad of the whole
batch: loss, sums, gradient and running statistics to 1e-12; evaluate of three batches of 3, 5 and 2 rows against
each batch's own sums added by hand and 30 scored steps counted by hand; a Group over a stand-in communicator of 3;
check_config's refusals word for word for CUDA and for 1 and 2 data blocks counted by hand at batch sizes 12 and 24
under --block-rows 4, and 4 blocks of a batch of 40 let through for 2-4 processes), test_values260_setup
(--reproducible resolved on the CPU and refused word for word with --device cuda; the state noise by cell and task
against BN_STATE_NOISE and the built task's first inputs; a group of two built with a batch of 1 refused word for
word, with 2 let through; the BN synthesis network refused word for word under --reproducible in one process and
under a group of two, an LN one built; nothing written on a refusal).

Left out as equivalent: update.py's t.stopping.cast_votes() dropped (the votes are read only when the group has
more than one process, and then every update casts them) and prewarm.armed(first and size == 1) made armed(first)
(a second process compiling the backward loops changes timing only); update.py's DeviceUpdate lines need CUDA;
loss_and_grad's keys taken from model.head.sum_keys instead of model.last_sums (the model's sums carry exactly the
head's sum keys); loss_and_grad_blocks' group.allreduce(votes) and Group.allreduce's body (the identity in one
process); block_models returning made instead of made[:n] (only the first n runners are used); setup's
set_batch_reduce(group.allreduce) under "group.size >= 1" (one process's allreduce is the identity on the same
numbers). Left out as a crash on every input rather than a value: shard_batch's "if state is not None" and "if text
is not None" inverted (iterating None fails at once).

    python tests/mutants/run.py --only 'v260-*'
"""
DIST = "lnrnn/training/distributed.py"
PLAN = "lnrnn/training/plan.py"
SETUP = "lnrnn/training/setup.py"

G = "tests/training/test_values260_distributed_group.py::"
S = "tests/training/test_values260_setup.py::"
OLD_DIST = ["tests/training/test_values239_distributed_group.py",
            "tests/training/test_values230_distributed_one_group.py",
            "tests/training/test_values202_distributed_group.py", "tests/training/test_values_distributed_options.py"]
OLD_PLAN = ["tests/training/test_values230_plan.py", "tests/training/test_values_plan.py"]
OLD_SETUP = ["tests/training/test_values142_setup.py", "tests/training/test_values114_setup.py"]

BN = [G + "test_reproducible_bn_blocks_are_one_call_to_1e_12[bn-lstm-step-tbptt2]",
      G + "test_reproducible_bn_blocks_are_one_call_to_1e_12[bn-rnn-last-tbpttNone]",
      G + "test_reproducible_bn_blocks_are_one_call_to_1e_12[bn-lstm-last-tbptt3]"]
EVAL = [G + "test_evaluate_adds_each_batch_once_and_counts_units"]
CUDA = [G + "test_check_config_refuses_cuda_and_lets_the_cpu_through"]
BLOCKS = [G + "test_check_config_lets_enough_blocks_through",
          G + "test_check_config_counts_the_batchs_blocks_not_the_processes[24-3-2]"]
SIZE = [G + "test_a_group_of_three_reads_its_size_from_the_communicator"]
REPRO = [S + "test_reproducible_is_a_cpu_option"]
NOISE = [S + "test_state_noise_default_follows_the_cell_and_the_tasks_first_input[bn-lstm-digits-None-0.1]",
         S + "test_state_noise_default_follows_the_cell_and_the_tasks_first_input[bn-rnn-digits-None-0.1]"]
TWO = [S + "test_a_group_of_two_is_held_to_its_size"]
SYNTH = [S + "test_a_bn_synthesis_network_is_refused_under_blocks_or_ranks[reproducible-one-process]",
         S + "test_a_bn_synthesis_network_is_refused_under_blocks_or_ranks[two-processes]"]

MUTANTS = [
    # ---- lnrnn/training/distributed.py ----
    dict(name="v260-ring-every-buffer-in-slot-zero", file=DIST,
         old="            self.slots[j] = buf",
         new="            self.slots[0] = buf",
         tests=BN + OLD_DIST,
         why="every block of a BN update leaves its reduction buffer in block 0's slot: the others' slots stay empty "
             "and block 0's statistics are replaced by the last block's"),
    dict(name="v260-ring-adds-the-previous-row", file=DIST,
         old="            out += rows[k]",
         new="            out += rows[k - 1]",
         tests=BN + OLD_DIST,
         why="BlockRing adds row k - 1 for row k: block 0's statistics twice, the last block's never"),
    dict(name="v260-blocks-time-and-batch-swapped", file=DIST,
         old="    T, B = x.shape[0], x.shape[1]\n    total = model.scored_count(targets, lengths, T, B)\n"
             "    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None\n    nb, k0",
         new="    T, B = x.shape[1], x.shape[0]\n    total = model.scored_count(targets, lengths, T, B)\n"
             "    state = model.noise_state(B, (1, int(noise_key))) if model.state_noise else None\n    nb, k0",
         tests=BN + OLD_DIST,
         why="loss_and_grad_blocks reads x (T, B, I) as (B, T): blocks, noise rows and the normalizer of the steps"),
    dict(name="v260-blocks-one-model-for-every-bn-block", file=DIST,
         old="        m = runners[j]",
         new="        m = runners[0]",
         tests=BN + OLD_DIST,
         why="every block of a BN model runs on the first block's model: their activations overwrite each other"),
    dict(name="v260-evaluate-calls-batch-zero", file=DIST,
         old="        x, t, lengths, *text = batches[i]()",
         new="        x, t, lengths, *text = batches[0]()",
         tests=EVAL + OLD_DIST,
         why="evaluate scores the first batch once for every batch (with noise key i)"),
    dict(name="v260-evaluate-divides-by-batches", file=DIST,
         old="int(round(tot[-1])))",
         new="len(batches))",
         tests=EVAL + OLD_DIST,
         why="an evaluation's means divide by the number of batches instead of the scored units"),
    dict(name="v260-check-refuses-cpu-not-cuda", file=DIST,
         old='    if cfg.device != "cpu":',
         new='    if cfg.device == "cpu":',
         tests=CUDA + OLD_DIST,
         why="across processes the CPU is refused as if it were CUDA, and --device cuda goes through"),
    dict(name="v260-check-blocks-of-the-process-count", file=DIST,
         old="            nb = data_blocks(cfg.batch_size)",
         new="            nb = data_blocks(size)",
         tests=BLOCKS + OLD_DIST,
         why="--reproducible's check counts the data blocks of a batch as large as the process count"),
    dict(name="v260-group-size-from-rank", file=DIST,
         old="        self.size = 1 if comm is None else comm.Get_size()",
         new="        self.size = 1 if comm is None else comm.Get_rank()",
         tests=SIZE + OLD_DIST,
         why="a Group's size is its rank: rank 0 thinks it runs alone"),
    # ---- lnrnn/training/plan.py ----
    dict(name="v260-plan-reproducible-refused-on-cpu", file=PLAN,
         old='(not (cfg.reproducible and cfg.device != "cpu"),',
         new='(not (cfg.reproducible and cfg.device == "cpu"),',
         tests=REPRO + OLD_PLAN,
         why="--reproducible is refused on the CPU, its only device, and let through with --device cuda"),
    dict(name="v260-plan-state-noise-default-dropped", file=PLAN,
         old="state_noise=state_noise(plan, task))",
         new="state_noise=float(cfg.state_noise or 0.0))",
         tests=NOISE + OLD_PLAN,
         why="the model's state noise is --state-noise alone: a BN cell on a task whose sequences begin alike gets 0 "
             "instead of BN_STATE_NOISE"),
    # ---- lnrnn/training/setup.py ----
    dict(name="v260-setup-check-config-for-one", file=SETUP,
         old="    distributed.check_config(cfg, group.size)",
         new="    distributed.check_config(cfg, 1)",
         tests=TWO + OLD_SETUP,
         why="build checks the config for one process whatever the group: a batch smaller than the group goes on"),
    dict(name="v260-setup-bn-synthesis-needs-both", file=SETUP,
         old="(group.size > 1 or cfg.reproducible)",
         new="(group.size > 1 and cfg.reproducible)",
         tests=SYNTH + OLD_SETUP,
         why="a BN synthesis network is refused only under a launcher and --reproducible together"),
]
