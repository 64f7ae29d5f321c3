"""Planted bugs, round 114 (format: tests/mutants/mutants.py): single-line slips in data parallelism, the
update, stopping and the training setup, on lines no earlier round mutates: launched_size ending its search at a
variable that says 1 and launched_rank reading the size variables; init sending a process without a launcher to
mpi4py; failing_together's test inverted (a group of one takes the abort path); check_config's MPI rules applied
to one process; resume_note silent for fewer processes and its reproducible plural following the new count;
StopFlag.saving leaving the flag in its saving state; the interruption's exit status always Ctrl-C's; a group's
time budget read from the SIGINT vote; the "nothing to do" line of an early stop naming the best update; the
divergence message's update counted from 0; resume_config's given and saved values swapped; make_update's host
and device updates swapped.

14 mutants. Against the existing targeted tests alone (measured on the direct subset: the stopping and setup
files listed below, test_values16_distributed, _21_distributed and _58_ranks, test_values_update, _64_update and
_95_update; the full lists' baseline ran past 4 minutes) 2 were caught and 12 missed: only the flag left saving
(test_values54_stopping) and the swapped resume values (test_values63_setup) were seen; no old test reads the
launcher variables with more than one of them set, calls init or failing_together in one process, checks
check_config or resume_note of one process or fewer processes, an exit status of SIGTERM, a group's budget
vote, the early stop's "nothing to do" line, a divergence message's update or make_update. The new value tests
catch every mutant on their own (checked with the old tests taken off the lists):
test_values114_distributed (--reproducible blocks in one process against one plain call with truncated BPTT,
masks, state noise, LN and BN, float64; launched_size and launched_rank over sets of launcher variables, by
their definition; init with mpi4py blocked, so that a process sent to MPI fails at once; failing_together in
groups of one and two; check_config and resume_note's sentences written out for every pair of counts),
test_values114_stopping (the flag after a save, 128 + the signal, the budget vote among cast_votes' three, the
early stop's and the divergence's lines written out), test_values114_setup (resume_config's settings and
refusal field by field, describe's line assembled by hand), test_values114_update (make_update's choice; two
host updates against the twin model's gradient clipped by clip / (||g|| + CLIP_EPS) and SGD with momentum or
bias-corrected Adam written in NumPy).

Why a launched_size bug can hang a launched test instead of failing it: MPI_Init is collective over the
launched job, so when some ranks of an mpiexec run take the one-process path (never calling MPI_Init) and
others reach mpi4py, those wait at the init fence for good. The new tests read launched_size in process with
the environment patched and call init only with mpi4py blocked, so such a mutant fails in a second, before
any launcher test runs.
Dropped as equivalent: the saving flag's ``if self.deferred is not None`` as ``if self.deferred`` (a signal's
number is never 0); the epochs plural as ``c.epochs > 1`` (epochs are positive). Left out: DeviceUpdate's lines
(they need a CUDA device or the simulator) and HostUpdate dropping cast_votes in one process (signalled and
over_budget read the flag and the clock there, not the votes).

    python tests/mutants/run.py --only 'v114-*'
"""
DIST = "lnrnn/training/distributed.py"
STOP = "lnrnn/training/stopping.py"
SETUP = "lnrnn/training/setup.py"
UPDATE = "lnrnn/training/update.py"

# existing tests of these modules (tests/training/test_mpi.py and test_reproducible_ranks.py, which start
# MPI launchers, are left off: slow, and they skip where no launcher is installed)
DIST_OLD = ["tests/training/test_values16_distributed.py", "tests/training/test_values20_distributed.py",
            "tests/training/test_values21_distributed.py", "tests/training/test_values33_distributed.py",
            "tests/training/test_values43_distributed_one_rank.py", "tests/training/test_values58_distributed_ranks.py",
            "tests/training/test_values70_distributed_group.py", "tests/training/test_values90_distributed_group.py",
            "tests/training/test_values_distributed_options.py",
            "tests/training/test_values_distributed_options2.py"]
STOP_OLD = ["tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_values21_stopping.py", "tests/training/test_values36_stopping.py",
            "tests/training/test_values54_stopping.py", "tests/training/test_values80_stopping.py",
            "tests/training/test_values56_stop_place.py", "tests/training/test_values47_stopping_judge.py",
            "tests/training/test_values_train_policies.py", "tests/training/test_values90_policies.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values63_setup.py"]
UPDATE_OLD = ["tests/training/test_values_update.py", "tests/training/test_values33_update.py",
              "tests/training/test_values43_update.py", "tests/training/test_values58_host_update.py",
              "tests/training/test_values64_update.py", "tests/training/test_values95_update.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
DIST_NEW = ["tests/training/test_values114_distributed.py"]
STOP_NEW = ["tests/training/test_values114_stopping.py"]
SETUP_NEW = ["tests/training/test_values114_setup.py"]
UPDATE_NEW = ["tests/training/test_values114_update.py"]

MUTANTS = [
    dict(name="v114-launched-size-one-ends-search", file=DIST,
         old="        if s.isdigit() and int(s) > 1:\n",
         new="        if s.isdigit() and int(s) >= 1:\n",
         tests=DIST_NEW + DIST_OLD,
         why="a launcher variable saying 1 ends the search: OMPI_COMM_WORLD_SIZE=1 hides PMI_SIZE=3"),
    dict(name="v114-launched-rank-reads-size-vars", file=DIST,
         old="    for v in RANK_VARS:\n",
         new="    for v in SIZE_VARS:\n",
         tests=DIST_NEW + DIST_OLD,
         why="launched_rank reads the launcher's process count as this process's rank"),
    dict(name="v114-init-without-launcher-starts-mpi", file=DIST,
         old="    size = launched_size()\n    if size == 1:\n",
         new="    size = launched_size()\n    if size == 0:\n",
         tests=DIST_NEW + DIST_OLD,
         why="init goes to mpi4py even when no launcher started the process (MPI_Init of a singleton can wait "
             "for a process manager)"),
    dict(name="v114-failing-together-one-process-aborts", file=DIST,
         old="    if group.size == 1:\n        yield\n",
         new="    if group.size > 1:\n        yield\n",
         tests=DIST_NEW + DIST_OLD,
         why="the test inverted: a group of one takes the abort path (no communicator: its error is lost to an "
             "AttributeError) and a real group's errors are not shared"),
    dict(name="v114-check-config-one-process-checked", file=DIST,
         old="    if size == 1:\n        return\n",
         new="    if size == 0:\n        return\n",
         tests=DIST_NEW + DIST_OLD,
         why="check_config's MPI rules apply to one process: --device cuda without a launcher is refused"),
    dict(name="v114-resume-note-fewer-ranks-silent", file=DIST,
         old="    if saved_ranks == size:\n",
         new="    if saved_ranks >= size:\n",
         tests=DIST_NEW + DIST_OLD,
         why="a run resumed on fewer processes than it was trained on gets no note"),
    dict(name="v114-resume-note-plural-of-size", file=DIST,
         old="process{'es' * (saved_ranks != 1)} and resumes as {size}: \"\n                \"with",
         new="process{'es' * (size != 1)} and resumes as {size}: \"\n                \"with",
         tests=DIST_NEW + DIST_OLD,
         why="the reproducible note's plural follows the new count: 'trained as 1 processes'"),
    dict(name="v114-saving-leaves-in-save-set", file=STOP,
         old="        finally:\n            self.in_save = False\n",
         new="        finally:\n            pass\n",
         tests=STOP_NEW + STOP_OLD,
         why="after a save the flag still thinks it is saving: a later second Ctrl-C is deferred, not an abort"),
    dict(name="v114-exit-code-always-130", file=STOP,
         old="    err.exit_code = 128 + signum",
         new="    err.exit_code = 128 + signal.SIGINT",
         tests=STOP_NEW + STOP_OLD,
         why="the interruption's exit status is Ctrl-C's whatever the signal: SIGTERM exits 130, not 143"),
    dict(name="v114-over-budget-reads-signal-vote", file=STOP,
         old="            return t.votes[2] > 0\n",
         new="            return t.votes[1] > 0\n",
         tests=STOP_NEW + STOP_OLD,
         why="a group's time budget is read from the SIGINT vote, not the budget vote"),
    dict(name="v114-nothing-left-names-best-step", file=STOP,
         old="stopped early at update {e['step']}",
         new="stopped early at update {e['best_step']}",
         tests=STOP_NEW + STOP_OLD,
         why="the 'nothing to do' line says the run stopped at its best update, not the one it stopped at"),
    dict(name="v114-diverged-update-unshifted", file=STOP,
         old='where = f"after update {t.step}" if evaluated else f"update {t.step + 1}"',
         new='where = f"after update {t.step}" if evaluated else f"update {t.step}"',
         tests=STOP_NEW + STOP_OLD,
         why="the divergence message counts updates from 0 while the epoch counts from 1"),
    dict(name="v114-resume-config-old-new-swapped", file=SETUP,
         old="        new, old = getattr(given, name), saved.get(name)\n",
         new="        old, new = getattr(given, name), saved.get(name)\n",
         tests=SETUP_NEW + SETUP_OLD,
         why="an overridable option given again keeps the checkpoint's value; a refused one names the values "
             "the wrong way round"),
    dict(name="v114-make-update-swapped", file=UPDATE,
         old="    return DeviceUpdate(trainer) if trainer.setup.on_device else HostUpdate(trainer)\n",
         new="    return HostUpdate(trainer) if trainer.setup.on_device else DeviceUpdate(trainer)\n",
         tests=UPDATE_NEW + UPDATE_OLD,
         why="the host update and the device update swapped: a CPU run takes the CUDA path"),
]
