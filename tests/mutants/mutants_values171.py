"""Planted bugs, round 171 (format: tests/mutants/mutants.py): single-line slips on lines of the run's file
handling and planning that no earlier round mutates: lnrnn.files looking at the raised exception alone and not
the OSError it wraps, writing text as Latin-1, and letting a relative path that goes up ('..') from a missing
folder through; the checkpoint reader taking a description without its model, calling a checkpoint.json that
is a folder corrupt instead of absent, and the writer listing dtypes by name; a --config .json decoded as
Latin-1; rundir's exited process counted alive, a lock holder without a pid read as pid 0 and updates.jsonl
rows without line ends; --dtype float16 let through; --head refused on the IAM-OnDB task 'strokes'; a resume
refusing a checkpoint whose resumable keys are falsy (epoch 0, no metrics yet).

13 mutants. Against the existing targeted tests alone 7 were caught and 6 missed: the wrapped OSError (no old
test raises from a writer an exception that chains one), the Latin-1 text (old tests write ASCII), the Latin-1
--config (no old config holds a non-ASCII value or bytes that are not UTF-8), the holder without a pid (the
in-use sentence was only seen with a pid), --dtype float16 (only other values were refused) and --head on
'strokes' (only the dashed stroke tasks were given a head). The new value tests catch every mutant on their own
(checked with the old tests taken off the lists): test_values171_files (the errno, strerror and name of the
wrapped OSError, the old file whole and no temporary left; the bytes against str.encode("utf-8"); a relative
'nope/../out.npz' refused with its sentence and nothing created, 'a/../b/out.npz' written; a folder and a
trailing separator refused), test_values171_runfiles (the description's listing against numpy's dtype.str and
the arrays reloaded bit for bit; a description without its model and a checkpoint.json folder refused with
their sentences; another model refused in one line; a UTF-8 --config value read back as written and \xff
refused; a child process waited for here is not alive; a lock held here by flock with no pid in it; three
updates rows read back a line each; the dtype sentence; --head on 'strokes', 'strokes-hershey' and 'digits' by
the tasks' names; a first-epoch checkpoint resumed and ones lacking rng or metrics refused naming the key).
Dropped as equivalent: atomic_write's folder without abspath (mkstemp's dir "" is the working folder, as
abspath's dirname is); the --config source check without ParameterSource.ENVIRONMENT (lnrnn train reads no
option from the environment); keep_past's temporary name in the run folder instead of the copy's (os.replace
moves it across on one file system all the same).

    python tests/mutants/run.py --only 'v171-*'
"""
FILES = "lnrnn/files.py"
CKPT = "lnrnn/training/checkpoint.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
RUNDIR = "lnrnn/training/rundir.py"
PLAN = "lnrnn/training/plan.py"
SETUP = "lnrnn/training/setup.py"

# existing tests of these modules
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py", "tests/test_values63_files.py",
             "tests/test_values91_files.py", "tests/test_values116_files.py", "tests/test_values131_files.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py", "tests/training/test_values63_checkpoint.py",
            "tests/training/test_values91_checkpoint.py", "tests/training/test_values102_checkpoint.py",
            "tests/training/test_values122_checkpoint.py", "tests/training/test_values142_checkpoint.py"]
RUNCONFIG_OLD = ["tests/training/test_values_runconfig.py", "tests/training/test_values13_runconfig.py",
                 "tests/training/test_values102_runconfig.py", "tests/training/test_values122_runconfig.py"]
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values40_rundir.py", "tests/training/test_values63_rundir.py",
              "tests/training/test_values91_rundir.py", "tests/training/test_values116_rundir.py"]
PLAN_OLD = ["tests/training/test_plan.py", "tests/training/test_values_plan.py", "tests/training/test_values21_plan.py",
            "tests/training/test_values36_plan.py", "tests/training/test_values54_plan.py",
            "tests/training/test_values80_plan.py", "tests/training/test_values130_plan.py",
            "tests/training/test_values142_plan.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values63_setup.py", "tests/training/test_values114_setup.py",
             "tests/training/test_values142_setup.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
FILES_NEW = ["tests/test_values171_files.py"]
RUN_NEW = ["tests/training/test_values171_runfiles.py"]

MUTANTS = [
    # ---- lnrnn.files: the chained OSError, text's encoding, a relative path going up from nothing ----
    dict(name="v171-files-os-error-only-the-outer", file=FILES,
         old="    while e is not None and id(e) not in seen:",
         new="    if e is not None and id(e) not in seen:",
         tests=FILES_NEW + FILES_OLD,
         why="_os_error_within looks at the raised exception alone, not its cause: a writer that wraps an OSError "
             "(raise ... from e) escapes atomic_write as itself, not as the OSError naming the path"),
    dict(name="v171-files-text-written-latin1", file=FILES,
         old='f.write(text.encode("utf-8"))',
         new='f.write(text.encode("latin-1", "replace"))',
         tests=FILES_NEW + FILES_OLD,
         why="atomic_write_text writes Latin-1 with '?' for what it cannot hold: a non-ASCII name or text in "
             "config.json or a description is written wrong and read back as another string"),
    dict(name="v171-files-up-checked-only-when-absolute", file=FILES,
         old="    if up is not None:",
         new="    if up is not None and os.path.isabs(text):",
         tests=FILES_NEW + FILES_OLD,
         why="a relative --out that goes up ('..') from a folder that does not exist is let through: the kernel "
             "cannot resolve it, and the run fails after its work instead of before"),
    # ---- lnrnn.training.checkpoint: a description without its model, a folder named checkpoint.json, dtypes ----
    dict(name="v171-checkpoint-model-field-optional", file=CKPT,
         old='(meta[k] for k in ("arrays_file"',
         new='(meta.get(k) if k == "model" else meta[k] for k in ("arrays_file"',
         tests=RUN_NEW + CKPT_OLD,
         why="a description without its model field is read with model None: refused as a model in another "
             "form, not as lacking its model field"),
    dict(name="v171-checkpoint-description-exists-not-file", file=CKPT,
         old="    if not os.path.isfile(desc):",
         new="    if not os.path.exists(desc):",
         tests=RUN_NEW + CKPT_OLD,
         why="a run folder whose checkpoint.json is a folder is not 'no checkpoint': opening it fails and the "
             "user is told the description is corrupt"),
    dict(name="v171-checkpoint-listing-dtype-name", file=CKPT,
         old="v.dtype.str] for k, v in arrays.items()}",
         new="v.dtype.name] for k, v in arrays.items()}",
         tests=RUN_NEW + CKPT_OLD,
         why="the description lists each array's dtype by name (float32) while the reader compares dtype.str "
             "(<f4): every checkpoint saved is refused on loading"),
    # ---- lnrnn.training.runconfig: the --config JSON's encoding ----
    dict(name="v171-runconfig-json-read-latin1", file=RUNCONFIG,
         old='table = json.loads(raw.decode("utf-8"))',
         new='table = json.loads(raw.decode("latin-1"))',
         tests=RUN_NEW + RUNCONFIG_OLD,
         why="a --config .json is decoded as Latin-1: a non-ASCII value comes back as other characters, and bytes "
             "that are not UTF-8 pass instead of being refused"),
    # ---- lnrnn.training.rundir: the lock's holder and liveness, the updates log's lines ----
    dict(name="v171-rundir-dead-pid-alive", file=RUNDIR,
         old="    except ProcessLookupError:\n        return False",
         new="    except ProcessLookupError:\n        return True",
         tests=RUN_NEW + RUNDIR_OLD,
         why="_alive says a process that no longer exists is running: a stale lock left on this host by a "
             "killed run is never taken over where flock is unavailable"),
    dict(name="v171-rundir-holder-without-pid-is-pid-0", file=RUNDIR,
         old='        return None, "?", "?"',
         new='        return 0, "?", "?"',
         tests=RUN_NEW + RUNDIR_OLD,
         why="a lock file without a pid reads as pid 0: the in-use sentence names 'pid 0 on host ?' instead of "
             "a process that wrote no pid"),
    dict(name="v171-rundir-update-row-without-newline", file=RUNDIR,
         old='        self.f.write(json.dumps(row) + "\\n")',
         new='        self.f.write(json.dumps(row))',
         tests=RUN_NEW + RUNDIR_OLD,
         why="updates.jsonl's rows are appended without their line ends: two rows make one line that is not JSON"),
    # ---- lnrnn.training.plan: --dtype's check, --head on the IAM-OnDB task ----
    dict(name="v171-plan-dtype-float16-let-through", file=PLAN,
         old='(cfg.dtype in ("float32", "float64")',
         new='(cfg.dtype in ("float16", "float32", "float64")',
         tests=RUN_NEW + PLAN_OLD,
         why="--dtype float16 passes validate: the kernels have no half-precision twin and the run fails later"),
    dict(name="v171-plan-head-only-on-strokes-dash-tasks", file=PLAN,
         old='startswith("strokes")',
         new='startswith("strokes-")',
         tests=RUN_NEW + PLAN_OLD,
         why="--head is refused on the IAM-OnDB task 'strokes' (its name has no dash): lnrnn train --task strokes "
             "--head ctc cannot train a reader"),
    # ---- lnrnn.training.setup: a resume's required keys ----
    dict(name="v171-setup-resume-keys-by-truth", file=SETUP,
         old="if k not in meta]",
         new="if not meta.get(k)]",
         tests=RUN_NEW + SETUP_OLD,
         why="read_resume counts a resumable key whose value is falsy (epoch 0, batch_in_epoch 0, no metrics yet) "
             "as missing: a run saved in its first epoch cannot be resumed"),
]
