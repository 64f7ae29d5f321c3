"""Planted bugs, round 371 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the run's settings (lnrnn/training/runconfig.py), the run folder (lnrnn/training/rundir.py), the
setup of a run (lnrnn/training/setup.py) and the memory check (lnrnn/training/memory.py), nineteenth pass: the
default lr decay 0.99 instead of 0.9; the default --out runs/default-1 instead of runs/default; a config file
opened as text (then decoded as bytes); a live pid reported dead; a fresh lock carrying an empty note instead of
none; the lock file opened read-only (its pid never written); a lock file whose flock was taken counted as
unflocked (a stale lock naming a live pid refused); held reading the other way round; the skip variable's name
misspelt; the activations hint without --tbptt; check_fits skipping unless the variable is set; resume_config
returning the command line's settings; describe's hidden size showing the layer count; '1 epochs'.

14 mutants. Against the old targeted files alone (each mutant's v371 files taken off its list): 9 of 14 caught;
missed: the lr decay default 0.99, the --out default runs/default-1, a live pid reported dead, a taken flock
counted as none, held read the other way round.
The old targeted files are test_values_runconfig and test_values348_runconfig (settings and config files),
test_values_rundir and test_values348_rundir (the run folder and its lock), test_values_setup and
test_values348_setup (setup and resume), test_values_memory and test_values353_memory (the estimate and the
refusal). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values371_runconfig_setup (TrainConfig's defaults against the documented values and rundir.DEFAULT_OUT; a .json
config read back as the table written with the json module; resume_config giving the checkpoint's settings and
the budget passed in; describe's sentence written out by hand for hidden 5, 2 layers, 1 and 3 epochs, from
stand-ins for the model and the task), test_values371_rundir_memory (the lock file's 'pid host start-time', held
then released and removed, no note; a lock file nobody flocks naming pid 1 on this host taken over with the
documented note word for word; the process's own pid alive; check_fits returning parameters + max(activations,
evaluation) + data, nothing with LNRNN_NO_MEMORY_CHECK=1, and its refusal written out by hand from the rules of
its docstring). Left out as equivalent: read_jsonl catching ValueError instead of json.JSONDecodeError (the one is
a subclass of the other, and json.loads of a str raises nothing else); the epochs plural as c.epochs > 1 (epochs
is at least 1). Left out as not a value a user sees: the lock file's
mode 0o666 (the umask decides).

    python tests/mutants/run.py --only 'v371-*'
"""
RUNCONFIG = "lnrnn/training/runconfig.py"
RUNDIR = "lnrnn/training/rundir.py"
SETUP = "lnrnn/training/setup.py"
MEMORY = "lnrnn/training/memory.py"

T_CS = "tests/training/test_values371_runconfig_setup.py::"
T_RM = "tests/training/test_values371_rundir_memory.py::"
OLD_RUNCONFIG = ["tests/training/test_values_runconfig.py", "tests/training/test_values348_runconfig.py"]
OLD_RUNDIR = ["tests/training/test_values_rundir.py", "tests/training/test_values348_rundir.py"]
OLD_SETUP = ["tests/training/test_values_setup.py", "tests/training/test_values348_setup.py"]
OLD_MEMORY = ["tests/training/test_values_memory.py", "tests/training/test_values353_memory.py"]

MUTANTS = [
    # ---- the run's settings: lnrnn/training/runconfig.py ----
    dict(name="v371-runconfig-lr-decay-default", file=RUNCONFIG,
         old="    lr_decay: float = 0.9 ",
         new="    lr_decay: float = 0.99",
         tests=[T_CS + "test_defaults_are_the_documented_ones"] + OLD_RUNCONFIG,
         why="a run without --lr-decay decays its learning rate by 0.99 per epoch, not the documented 0.9"),
    dict(name="v371-runconfig-out-default", file=RUNCONFIG,
         old='    out: str = "runs/default" ',
         new='    out: str = "runs/default-1"',
         tests=[T_CS + "test_defaults_are_the_documented_ones"] + OLD_RUNCONFIG,
         why="TrainConfig's default run folder is runs/default-1, not runs/default (rundir.DEFAULT_OUT)"),
    dict(name="v371-runconfig-config-opened-as-text", file=RUNCONFIG,
         old='        with open(path, "rb") as f:',
         new='        with open(path, "r") as f:',
         tests=[T_CS + "test_json_config_file_read_back"] + OLD_RUNCONFIG,
         why="a config file is read as str and then decoded as bytes: every --config FILE ends in an AttributeError"),
    # ---- the run folder: lnrnn/training/rundir.py ----
    dict(name="v371-rundir-alive-false", file=RUNDIR,
         old="        return True\n    return True",
         new="        return True\n    return False",
         tests=[T_RM + "test_own_pid_is_alive"] + OLD_RUNDIR,
         why="a pid that answers signal 0 is reported dead: an unflocked lock of a live run on this host is taken over"),
    dict(name="v371-rundir-note-empty", file=RUNDIR,
         old="        self.note = None",
         new='        self.note = ""',
         tests=[T_RM + "test_lock_written_held_and_released"] + OLD_RUNDIR,
         why="a lock that took nothing over carries an empty note instead of none"),
    dict(name="v371-rundir-lock-read-only", file=RUNDIR,
         old="os.open(self.path, os.O_RDWR | os.O_CREAT, 0o666)",
         new="os.open(self.path, os.O_RDONLY | os.O_CREAT, 0o666)",
         tests=[T_RM + "test_lock_written_held_and_released"] + OLD_RUNDIR,
         why="the lock file is opened read-only: truncating it and writing the pid fail, no run can take its folder"),
    dict(name="v371-rundir-flocked-false", file=RUNDIR,
         old="                flocked = True",
         new="                flocked = False",
         tests=[T_RM + "test_unflocked_lock_file_taken_over_with_the_note"] + OLD_RUNDIR,
         why="a taken flock counts as none: a stale lock naming a pid that lives again on this host is refused"),
    dict(name="v371-rundir-held-inverted", file=RUNDIR,
         old="        return self.fd is not None",
         new="        return self.fd is None",
         tests=[T_RM + "test_lock_written_held_and_released"] + OLD_RUNDIR,
         why="held says False while the lock is held and True after release"),
    # ---- the memory check: lnrnn/training/memory.py ----
    dict(name="v371-memory-skip-env-misspelt", file=MEMORY,
         old='SKIP_ENV = "LNRNN_NO_MEMORY_CHECK"',
         new='SKIP_ENV = "LNRNN_NO_MEMORY_CHECKS"',
         tests=[T_RM + "test_documented_variable_skips_the_check",
                T_RM + "test_refusal_word_for_word"] + OLD_MEMORY,
         why="the documented LNRNN_NO_MEMORY_CHECK=1 no longer skips the check (the code reads another name)"),
    dict(name="v371-memory-activations-hint-no-tbptt", file=MEMORY,
         old='"a smaller --batch-size, --hidden or --tbptt"),',
         new='"a smaller --batch-size or --hidden"),',
         tests=[T_RM + "test_refusal_word_for_word"] + OLD_MEMORY,
         why="the refusal for too many activations no longer suggests --tbptt"),
    dict(name="v371-memory-skip-inverted", file=MEMORY,
         old="    if os.environ.get(SKIP_ENV):\n        return None",
         new="    if not os.environ.get(SKIP_ENV):\n        return None",
         tests=[T_RM + "test_check_fits_returns_the_peak",
                T_RM + "test_documented_variable_skips_the_check"] + OLD_MEMORY,
         why="the memory check is skipped unless LNRNN_NO_MEMORY_CHECK is set, and refuses when it is"),
    # ---- the run's setup: lnrnn/training/setup.py ----
    dict(name="v371-setup-resume-returns-given", file=SETUP,
         old="            raise CheckpointError(f\"the run in {given.out} was trained with {flag} {old}, not {new}; \"\n"
             "                                  f\"drop {flag} to resume it, or start a new run with another --out.\")\n"
             "    return cfg",
         new="            raise CheckpointError(f\"the run in {given.out} was trained with {flag} {old}, not {new}; \"\n"
             "                                  f\"drop {flag} to resume it, or start a new run with another --out.\")\n"
             "    return given",
         tests=[T_CS + "test_resume_config_is_the_checkpoints_settings"] + OLD_SETUP,
         why="a resume runs with the command line's settings (task defaults unresolved), not the checkpoint's"),
    dict(name="v371-setup-describe-hidden-shows-layers", file=SETUP,
         old='(hidden {c.hidden}, {c.layers}',
         new='(hidden {c.layers}, {c.layers}',
         tests=[T_CS + "test_describe_written_out_by_hand"] + OLD_SETUP,
         why="the start line shows the layer count as the hidden size"),
    dict(name="v371-setup-describe-one-epochs", file=SETUP,
         old="epoch{'s' * (c.epochs != 1)}",
         new="epoch{'s' * (c.epochs != 0)}",
         tests=[T_CS + "test_describe_written_out_by_hand"] + OLD_SETUP,
         why="a one-epoch run is described as '1 epochs'"),
]
