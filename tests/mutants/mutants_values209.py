"""Planted bugs, round 209 (format: tests/mutants/mutants.py): single-line slips in the stopping
rules, run folders, checkpoints and run configuration, an eighth pass on lines no earlier round mutates: StopFlag
installing its handlers off the main thread only, saving() not marking the save, signal_name catching the wrong
exception, the blow-up line naming the loss now as the starting value, the resume hint saying the whole
--time-budget is left, the divergence hint's words; _sha256 hashing the first MiB only, save_checkpoint writing
into the caller's meta, keep_past writing the kept copy's description back into the run folder, the load reading
only the listed arrays and its wrong-shape refusal naming the listed shape twice; a --config file's refused
value shown without its quotes and its line ending in '..'; the lock holder's text split on single spaces and
the update log not flushed after each row.

15 mutants. Against the existing targeted tests alone 10 were caught and 5 missed: the hash of the first MiB
only (no old test saves an arrays file over a MiB), the caller's meta written into (no old test looks at the
dict it passed), and the wrong-shape line naming the listed shape and both --config lines (no old test
compares these lines whole, nor a refusal of click's own that ends in a full stop). The
new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values209_stopping (a SIGTERM raised in the main thread reaching the flag and the handler before it coming
back; a second signal during a save waiting for the save's end; a number past every signal's reading 'signal N';
the blow-up streak over a loss history that rises, dips to exactly BLOWUP_FACTOR times the first loss and rises
again, traced by hand, with its line written out; the resume hint of a run resumed with seconds used; the
divergence line), test_values209_checkpoint (the recorded SHA-256 against hashlib over the whole 1.2 MB file
and a byte flipped past the first MiB refused in its exact line; the meta dict compared with a copy taken
before; --keep 3 over two saves and three resumed ones keeping update 3, 4 and 5, each loaded back array by
array against what was saved; an npz rewritten here with an unlisted array and a consistent hash, a listing
edited to another shape, another model's description and an object array each refused in one exact line),
test_values209_runconfig (the refused values' lines with repr quotes and one full stop, a JSON file's values
arriving as the types the command line gives, the command line winning), test_values209_rundir (a lock held
through another open file naming pid, host and start time in one line; an update log resumed at update 20
keeping rows up to it, dropping the torn tail, and each appended row read back by json while the log is open).
Dropped as equivalent: the ENVIRONMENT source in apply_config_file's command-line check (no train option reads
an environment variable), the temporary name of keep_past's copy put in the run folder instead of the kept one
(os.replace moves it within one file system all the same), and np.savez_compressed for np.savez (the load
reads either the same).

    python tests/mutants/run.py --only 'v209-*'
"""
STOP = "lnrnn/training/stopping.py"
RUNDIR = "lnrnn/training/rundir.py"
CKPT = "lnrnn/training/checkpoint.py"
RUNCONFIG = "lnrnn/training/runconfig.py"

# existing tests of these modules
STOP_OLD = ["tests/training/test_values9_stopping.py", "tests/training/test_values12_stopping.py",
            "tests/training/test_values21_stopping.py", "tests/training/test_values36_stopping.py",
            "tests/training/test_values54_stopping.py", "tests/training/test_values80_stopping.py",
            "tests/training/test_values114_stopping.py", "tests/training/test_values124_stopping.py",
            "tests/training/test_values134_stopping.py", "tests/training/test_values180_stopping.py",
            "tests/training/test_values_train_policies.py", "tests/training/test_values90_policies.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values63_checkpoint.py",
            "tests/training/test_values91_checkpoint.py", "tests/training/test_values102_checkpoint.py",
            "tests/training/test_values122_checkpoint.py", "tests/training/test_values142_checkpoint.py"]
RUNCONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values40_rundir.py", "tests/training/test_values63_rundir.py",
              "tests/training/test_values91_rundir.py", "tests/training/test_values116_rundir.py",
              "tests/training/test_values185_rundir.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
STOP_NEW = ["tests/training/test_values209_stopping.py"]
CKPT_NEW = ["tests/training/test_values209_checkpoint.py"]
RUNCONFIG_NEW = ["tests/training/test_values209_runconfig.py"]
RUNDIR_NEW = ["tests/training/test_values209_rundir.py"]

MUTANTS = [
    # ---- lnrnn.training.stopping: the signal flag, signal names, the blow-up and budget lines ----
    dict(name="v209-stop-handlers-off-the-main-thread", file=STOP,
         old="        if threading.current_thread() is threading.main_thread():",
         new="        if threading.current_thread() is not threading.main_thread():",
         tests=STOP_NEW + STOP_OLD,
         why="StopFlag installs its handlers only off the main thread: in the main thread a SIGTERM goes to "
             "whatever handler was there before and the run never sees that it was asked to stop"),
    dict(name="v209-stop-saving-not-marked", file=STOP,
         old="        self.in_save = True",
         new="        self.in_save = False",
         tests=STOP_NEW + STOP_OLD,
         why="saving() does not mark the save: a second signal during a checkpoint's write aborts at once, "
             "in the middle of the save, instead of after it"),
    dict(name="v209-stop-signal-name-wrong-exception", file=STOP,
         old="    except ValueError:\n        return f\"signal {signum}\"",
         new="    except KeyError:\n        return f\"signal {signum}\"",
         tests=STOP_NEW + STOP_OLD,
         why="signal_name catches KeyError, which signal.Signals never raises: a number that is no signal's "
             "escapes as a ValueError instead of reading 'signal N'"),
    dict(name="v209-stop-blowup-starting-value-is-the-loss", file=STOP,
         old="its starting value {t.initial_loss:.4g} for",
         new="its starting value {loss:.4g} for",
         tests=STOP_NEW + STOP_OLD,
         why="the blow-up line names the loss now as the starting value (the wrong variable)"),
    dict(name="v209-stop-budget-note-left-is-the-budget", file=STOP,
         old="({left:.0f} s left)",
         new="({c.time_budget:.0f} s left)",
         tests=STOP_NEW + STOP_OLD,
         why="the resume hint says the whole --time-budget is left, not the budget minus the seconds used"),
    dict(name="v209-stop-diverged-hint-words", file=STOP,
         old='    hint = "try a lower --lr or a --clip"',
         new='    hint = "try a lower --lr or a lower --clip"',
         tests=STOP_NEW + STOP_OLD,
         why="the divergence hint tells a user to lower --clip, where a run that diverges has none or a "
             "large one and needs one (the line no longer says what to do)"),
    # ---- lnrnn.training.checkpoint: the hash, the caller's meta, kept copies, the load's refusals ----
    dict(name="v209-ckpt-hash-first-megabyte-only", file=CKPT,
         old='        for chunk in iter(lambda: f.read(1 << 20), b""):',
         new='        for chunk in [f.read(1 << 20)]:',
         tests=CKPT_NEW + CKPT_OLD,
         why="_sha256 hashes the first MiB only: an arrays file damaged past it passes the hash check"),
    dict(name="v209-ckpt-meta-aliased", file=CKPT,
         old="        record = dict(meta)",
         new="        record = meta",
         tests=CKPT_NEW + CKPT_OLD,
         why="save_checkpoint writes format, arrays file, hash and listing into the caller's meta dict"),
    dict(name="v209-ckpt-kept-description-written-to-the-run", file=CKPT,
         old="        atomic_write_text(os.path.join(dest, DESCRIPTION), text)",
         new="        atomic_write_text(os.path.join(directory, DESCRIPTION), text)",
         tests=CKPT_NEW + CKPT_OLD,
         why="keep_past writes the description back into the run folder, not the kept copy: "
             "RUN/checkpoints/update-N/ holds arrays without a description and cannot be loaded"),
    dict(name="v209-ckpt-arrays-read-by-the-listing", file=CKPT,
         old="            arrays = {k: z[k] for k in z.files}",
         new="            arrays = {k: z[k] for k in z.files if k in listing}",
         tests=CKPT_NEW + CKPT_OLD,
         why="the load reads only the arrays the description lists: an arrays file holding another array "
             "besides them is taken without a word"),
    dict(name="v209-ckpt-shape-message-says-the-listed-shape", file=CKPT,
         old="is {arrays[k].dtype} {arrays[k].shape}, ",
         new="is {arrays[k].dtype} {tuple(shape)}, ",
         tests=CKPT_NEW + CKPT_OLD,
         why="the refusal of an array of the wrong shape names the listed shape twice (the wrong variable)"),
    # ---- lnrnn.training.runconfig: a refused value's line ----
    dict(name="v209-runconfig-bad-value-not-repr", file=RUNCONFIG,
         old='raise click.BadParameter(f"{value!r} is not a valid {kind.name}")',
         new='raise click.BadParameter(f"{value} is not a valid {kind.name}")',
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="a refused value is shown bare: the string \"yes\" given to a flag reads as yes, not 'yes'"),
    dict(name="v209-runconfig-why-keeps-its-stop", file=RUNCONFIG,
         old='            why = e.format_message().rstrip(".")',
         new='            why = e.format_message()',
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="click's reason keeps its full stop and the line ends '..'"),
    # ---- lnrnn.training.rundir: the lock holder's line, the update log's flush ----
    dict(name="v209-rundir-holder-split-on-spaces", file=RUNDIR,
         old="    parts = text.split()",
         new='    parts = text.split(" ")',
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="the lock's text is split on single spaces: its newline stays in the start time and the 'in use' "
             "line breaks in two"),
    dict(name="v209-rundir-update-log-not-flushed", file=RUNDIR,
         old="        self.f.flush()",
         new="        pass",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="UpdateLog.append leaves rows in Python's buffer: updates.jsonl lags behind the run (a plot or a "
             "reader sees no rows until 8 KiB piled up or the log is closed)"),
]
