"""Planted bugs, round 63 (format: tests/mutants/mutants.py): single-line slips on the paths of run folders,
checkpoints, output files, exports and fine-tuning, on lines no earlier round mutates: default_folders numbering
runs/default 0 (a new run handed the first run's folder), read_jsonl counting lines from 1 (a torn last row no
longer forgiven), check_writable not making a relative --out absolute, a stale lock taken over without being
truncated; checkpoint_exists taking a folder named checkpoint.json for one, model_mismatch's two sides swapped,
another model recognised by its config's keys only, a truncated arrays file's BadZipFile escaping, a failed save
naming the kept checkpoint by its epoch; resume_config setting an overridable option back to the run's value;
atomic_write leaving its temporary file after a failed writer, check_output_file naming the output instead of the
file in its way, write_error never reporting; the export leaving out the BatchNorm statistics, safetensors offsets
not accumulated, a 4-to-7-byte file reaching struct.unpack; --init-from's refusal with its sides swapped and a
source naming only some of the shape settings accepted.

18 mutants. Against the existing targeted tests alone 9 were caught and 9 missed: the relative --out (every existing
check_writable test passes an absolute path), the lock's leftover tail (the stale lines written there are about as
long as the new holder's and no test read the file after a takeover), a folder named checkpoint.json, the bad zip
(the corrupt-file tests change the bytes and leave the hash, so the SHA-256 check refuses first), the failed save's
update (no test reads the kept checkpoint's number), write_error (as root no folder refuses a write, and no test
stood in for one), the BN statistics in the export (no exported model had BatchNorm), the short file (no file of 4
to 7 bytes was read), and read_source's settings check (no source lacked only some of the shape settings). The new
value tests catch every mutant on their own (checked with the old tests taken off the lists): test_values63_rundir
(the first free default folder counted by hand past 9 and 99, the log read back row for row, relative, trailing-
separator and nested --out values, a file in the way, a stand-in unwritable folder, the lock file's one line after a
takeover), test_values63_checkpoint (every path that names a checkpoint reads the arrays saved; a mismatch names
both values; damaged arrays files with their hash made to match, and one that needs pickle, refused in one line with
the folder unchanged; a failed save's message), test_values63_setup (resume_config's result against the saved
settings with the one given option changed by hand), test_values63_files (outputs read back byte for byte, refusals
before anything is written, the folder unchanged after a failing writer), test_values63_export (a BN-LSTM's export
parsed by a reader written from the format's definition and by read_safetensors, each tensor against the docstring's
name and layout; every dtype round trip; files too short; paths of another suffix), test_values63_finetune (the
source's parameters and statistics against the model's after load_into, not its optimizer slots and not tied to
them; each path to a source and its record; refusals naming the source's value first). Dropped before the catalogue
as equivalent: atomic_write's folder without abspath (mkstemp with dir='' makes the file in the working folder,
which is the same folder), load_checkpoint's arrays folder without abspath (a relative description's dirname names
the same folder), the safetensors dtype without newbyteorder('<') on a little-endian host, and write_safetensors
walking the tensors unsorted (the offsets follow whatever order it walks; nothing reads the order).

    python tests/mutants/run.py --only 'v63-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
CKPT = "lnrnn/training/checkpoint.py"
SETUP = "lnrnn/training/setup.py"
FILES = "lnrnn/files.py"
EXPORT = "lnrnn/interop/export.py"
FINETUNE = "lnrnn/training/finetune.py"

# existing tests of these modules
RUNDIR_OLD = ["tests/training/test_values_rundir.py", "tests/training/test_values15_rundir.py",
              "tests/training/test_values40_rundir.py"]
CKPT_OLD = ["tests/training/test_checkpoint.py", "tests/training/test_values14_checkpoint.py",
            "tests/training/test_values19_checkpoint.py"]
FILES_OLD = ["tests/test_values12_files.py", "tests/test_values23_files.py",
             "tests/commands/test_values_output_checks.py", "tests/commands/test_values21_paths.py",
             "tests/commands/test_values9_output_files.py", "tests/commands/test_values_output_paths.py"]
EXPORT_OLD = ["tests/interop/test_values_export.py", "tests/interop/test_values10_export.py",
              "tests/interop/test_values13_export.py", "tests/interop/test_values23_export.py",
              "tests/interop/test_values41_export.py"]
FINETUNE_OLD = ["tests/training/test_values_finetune.py", "tests/training/test_values14_finetune.py",
                "tests/training/test_finetune.py"]
SETUP_OLD = ["tests/training/test_values_setup.py", "tests/training/test_values9_setup.py"]

# value tests written for the bugs below (first, so that a caught mutant stops there)
RUNDIR_NEW = ["tests/training/test_values63_rundir.py"]
CKPT_NEW = ["tests/training/test_values63_checkpoint.py"]
SETUP_NEW = ["tests/training/test_values63_setup.py"]
FILES_NEW = ["tests/test_values63_files.py"]
EXPORT_NEW = ["tests/interop/test_values63_export.py"]
FINETUNE_NEW = ["tests/training/test_values63_finetune.py"]

MUTANTS = [
    # ---- run folders: default names, the per-update log, --out's check, the lock file ----
    dict(name="v63-rundir-base-numbered-0", file=RUNDIR,
         old="    found = [(1, base)] if os.path.isdir(base) else []",
         new="    found = [(0, base)] if os.path.isdir(base) else []",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="default_folders numbers runs/default 0: fresh_default never sees number 1 taken and hands a new run "
             "the folder of the first one"),
    dict(name="v63-rundir-jsonl-lines-from-1", file=RUNDIR,
         old="    for i, line in enumerate(lines):",
         new="    for i, line in enumerate(lines, 1):",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="read_jsonl counts lines from 1: a torn last row (a kill during a write) is no longer the last, so "
             "resuming refuses the log, and a bad line is named one past itself"),
    dict(name="v63-rundir-relative-out-not-made-absolute", file=RUNDIR,
         old="    path = os.path.abspath(out)\n    probe = nearest_existing(path)",
         new="    path = out\n    probe = nearest_existing(path)",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="check_writable walks a relative --out's parents up to '': a relative run folder that does not exist "
             "yet (runs/new) is refused as 'a file, not a folder'"),
    dict(name="v63-rundir-lock-not-truncated", file=RUNDIR,
         old="        os.ftruncate(fd, 0)\n",
         new="",
         tests=RUNDIR_NEW + RUNDIR_OLD,
         why="taking over a stale lock writes the new holder over the old text without cutting it: a longer old "
             "line leaves its tail behind the new pid, host and time"),
    # ---- checkpoints: what counts as one, refusals, the error of a failed save ----
    dict(name="v63-ckpt-a-folder-named-checkpoint-json-counts", file=CKPT,
         old="    return os.path.isfile(os.path.join(directory, DESCRIPTION))",
         new="    return os.path.exists(os.path.join(directory, DESCRIPTION))",
         tests=CKPT_NEW + CKPT_OLD,
         why="checkpoint_exists takes a folder named checkpoint.json for a checkpoint: the run folder is said to "
             "hold a run, and a fresh default folder skips it"),
    dict(name="v63-ckpt-mismatch-sides-swapped", file=CKPT,
         old='diffs = [f"{k} {saved.get(k)!r} in the checkpoint vs {expected.get(k)!r} requested"',
         new='diffs = [f"{k} {expected.get(k)!r} in the checkpoint vs {saved.get(k)!r} requested"',
         tests=CKPT_NEW + CKPT_OLD,
         why="model_mismatch names the requested value as the checkpoint's and the other way round"),
    dict(name="v63-ckpt-other-model-by-keys-only", file=CKPT,
         old="    if expected_model is not None and model != expected_model:",
         new="    if expected_model is not None and set(model) != set(expected_model):",
         tests=CKPT_NEW + CKPT_OLD,
         why="load_checkpoint compares the model configs' keys only: a checkpoint of another hidden size or cell "
             "is loaded (and fails later, or not at all)"),
    dict(name="v63-ckpt-bad-zip-escapes", file=CKPT,
         old="    except (ValueError, *DAMAGED_NUMPY_FILE) as e:",
         new="    except (ValueError, OSError, EOFError) as e:",
         tests=CKPT_NEW + CKPT_OLD,
         why="a truncated arrays file whose hash the description matches raises zipfile.BadZipFile with a "
             "traceback instead of one CheckpointError line"),
    dict(name="v63-ckpt-save-error-names-the-epoch", file=CKPT,
         old="kept = f\"the checkpoint of update {json.loads(f.read().decode('utf-8'))['step']} there is kept whole\"",
         new="kept = f\"the checkpoint of update {json.loads(f.read().decode('utf-8'))['epoch']} there is kept whole\"",
         tests=CKPT_NEW + CKPT_OLD,
         why="a failed save says the checkpoint kept whole is the one of update <its epoch>"),
    # ---- resuming: an option the resume may change ----
    dict(name="v63-setup-resume-override-keeps-the-old", file=SETUP,
         old="            setattr(cfg, name, new)",
         new="            setattr(cfg, name, old)",
         tests=SETUP_NEW + SETUP_OLD,
         why="resume_config sets an overridable option (--epochs, --lr, ...) back to the checkpoint's value: "
             "--resume --epochs 5 runs to the old epoch count"),
    # ---- output files: a failed write, a file in the way, a folder that cannot be written ----
    dict(name="v63-files-temp-left-after-a-failed-write", file=FILES,
         old="            os.unlink(tmp)\n",
         new="            pass\n",
         tests=FILES_NEW + FILES_OLD,
         why="atomic_write leaves its .tmp- file behind when the writer fails: 'nothing was written' is not true"),
    dict(name="v63-files-file-in-the-way-names-the-target", file=FILES,
         old='raise UserError(f"{probe} is a file, not a folder, so {option} {text} cannot be written there',
         new='raise UserError(f"{target} is a file, not a folder, so {option} {text} cannot be written there',
         tests=FILES_NEW + FILES_OLD,
         why="check_output_file names the output itself, not the file in the way of its folder"),
    dict(name="v63-files-write-error-swallowed", file=FILES,
         old="        return e\n    return None",
         new="        return None\n    return None",
         tests=FILES_NEW + FILES_OLD,
         why="write_error never reports: a folder that cannot be written passes the output checks and the command "
             "fails after its work"),
    # ---- export: what is exported, the safetensors layout, a short file ----
    dict(name="v63-export-buffers-left-out", file=EXPORT,
         old="    for key, arr in {**model.params, **model.buffers}.items():",
         new="    for key, arr in model.params.items():",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="exported_tensors leaves out the BatchNorm running statistics: a BN model's export cannot run inference"),
    dict(name="v63-export-offset-not-accumulated", file=EXPORT,
         old="        offset += len(data)",
         new="        offset = len(data)",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="write_safetensors starts each tensor's offsets after the previous tensor's length, not their sum: "
             "from the third tensor on the offsets overlap"),
    dict(name="v63-export-short-file-by-4", file=EXPORT,
         old="    if len(raw) < 8:",
         new="    if len(raw) < 4:",
         tests=EXPORT_NEW + EXPORT_OLD,
         why="read_safetensors lets a file of 4 to 7 bytes through to struct.unpack: struct.error, not ValueError"),
    # ---- fine-tuning: the refusal's sides, a source that names too few settings ----
    dict(name="v63-finetune-refusal-sides-swapped", file=FINETUNE,
         old='            _refuse(source, "--" + name, saved.get(name), getattr(cfg, name))',
         new='            _refuse(source, "--" + name, getattr(cfg, name), saved.get(name))',
         tests=FINETUNE_NEW + FINETUNE_OLD,
         why="check_settings says the source has this run's value and this run the source's"),
    dict(name="v63-finetune-any-setting-is-enough", file=FINETUNE,
         old="not all(k in train for k in SHAPE_SETTINGS):",
         new="not any(k in train for k in SHAPE_SETTINGS):",
         tests=FINETUNE_NEW + FINETUNE_OLD,
         why="read_source takes a checkpoint whose training settings name only some of the shape settings: the "
             "missing ones compare as None and are refused as a wrong shape (--hidden None)"),
]
