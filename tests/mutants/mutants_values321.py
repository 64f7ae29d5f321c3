"""Planted bugs, round 321 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the run folders (lnrnn/training/rundir.py), the run set-up (lnrnn/training/setup.py), the run
configs (lnrnn/training/runconfig.py) and the checkpoints (lnrnn/training/checkpoint.py), seventeenth pass: the
default run folder renamed; the update log's sync and close crashing before the log is opened; a lock file's
holder read from its host field, so a held folder's refusal says a process wrote no pid; the checkpoint format
version moved to 2, so every existing checkpoint is refused; a failed save over a file in the way saying
nothing was kept instead of nothing written; a description lacking its hash or its array listing read as
a hash mismatch or an arrays mismatch instead of a corrupt description; arrays that need pickle loaded; a
file that is no description refused naming itself where the description's name belongs; a checkpoint
lacking 'metrics' resumable; a checkpoint from before budgets were kept resumed with the train settings'
stop conditions; every run folder refused as a best/ folder; a TOML config decoded as Latin-1.

14 mutants. Against the old targeted files alone: 2 of 14 (caught: the lock holder's pid from the host field, pickle
allowed; missed: the default run folder renamed, the update log's sync and close inverted, the format version 2, the
save error's 'kept', the hash and listing fields made optional, the non-description refusal naming itself, metrics
not required for a resume, a resume without budgets taking the old ones, the best/ check inverted, TOML read as
Latin-1). The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values321_rundir (runs/default then runs/default-2 and the newest-default refusal word for word; updates.jsonl
cut at update 99 over rows 9, 10, 99, 100 and a torn tail, sync and close harmless before start and twice; a folder
flocked by another open file refused naming pid 4242 on host node7 and its start, the lock file left as written),
test_values321_checkpoint (checkpoints written by hand with np.savez, hashlib and json from the documented format:
version 1 loads with its dtypes; a missing arrays_sha256 or arrays field, a non-JSON notes.txt and an object array
refused word for word, the latter with NumPy's own allow_pickle=False sentence; a save over a file: 2048 float64 =
16 KB, EEXIST, nothing written), test_values321_setup (the missing resume keys named in order; no budget ->
max_steps and time_budget None, a budget of 90 updates kept; RUN/best/ with a trailing separator refused naming RUN,
RUN itself resumed), test_values321_runconfig (a UTF-8 TOML file with a non-ASCII folder name; config.json read back
equal to the documented rule applied by hand over an every-option config). Left out as equivalent: the read chunk
size of _sha256 (any size hashes the same bytes); json.dumps(indent=1) of the description (read back as JSON);
read_jsonl's torn-tail break made continue (it is the last line); npz_path taken from dirname(desc) instead of
dirname(abspath(desc)) (os.path.join('', name) is the same relative file). Left out as not cheaply testable as root:
check_writable's strerror in the read-only refusal (root writes everywhere, so no probe fails).

    python tests/mutants/run.py --only 'v321-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
SETUP = "lnrnn/training/setup.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
CKPT = "lnrnn/training/checkpoint.py"

T_RUNDIR = "tests/training/test_values321_rundir.py::"
T_CKPT = "tests/training/test_values321_checkpoint.py::"
T_SETUP = "tests/training/test_values321_setup.py::"
T_CONFIG = "tests/training/test_values321_runconfig.py::"
OLD_RUNDIR = ["tests/training/test_values_rundir.py", "tests/training/test_values251_rundir.py"]
OLD_CKPT = ["tests/training/test_checkpoint.py", "tests/training/test_values259_checkpoint.py"]
OLD_SETUP = ["tests/training/test_values63_setup.py"]
OLD_CONFIG = ["tests/training/test_values_runconfig.py"]

MUTANTS = [
    # ---- run folders: lnrnn/training/rundir.py ----
    dict(name="v321-rundir-default-out-renamed", file=RUNDIR,
         old='DEFAULT_OUT = os.path.join("runs", "default")',
         new='DEFAULT_OUT = os.path.join("run", "default")',
         tests=[T_RUNDIR + "test_default_folder_is_runs_default_then_default_2"] + OLD_RUNDIR,
         why="lnrnn train without --out writes to run/default, not the documented runs/default"),
    dict(name="v321-rundir-sync-before-start-crashes", file=RUNDIR,
         old="        if self.f is not None:\n            os.fsync(self.f.fileno())",
         new="        if self.f is None:\n            os.fsync(self.f.fileno())",
         tests=[T_RUNDIR + "test_update_log_sync_and_close_before_start_do_nothing"] + OLD_RUNDIR,
         why="the update log's sync fsyncs nothing when open and crashes when not opened yet"),
    dict(name="v321-rundir-close-inverted", file=RUNDIR,
         old="        if self.f is not None:\n            self.f.close()",
         new="        if self.f is None:\n            self.f.close()",
         tests=[T_RUNDIR + "test_update_log_sync_and_close_before_start_do_nothing",
                T_RUNDIR + "test_update_log_keeps_rows_up_to_the_checkpoint_step_past_powers_of_ten"] + OLD_RUNDIR,
         why="closing the update log leaves it open, and closing one never opened crashes"),
    dict(name="v321-rundir-holder-pid-from-host-field", file=RUNDIR,
         old="        pid = int(parts[0])",
         new="        pid = int(parts[1])",
         tests=[T_RUNDIR + "test_a_folder_held_by_another_run_is_refused_naming_its_holder"] + OLD_RUNDIR,
         why="a held folder's refusal says 'a process that wrote no pid' instead of naming the holder"),
    # ---- checkpoints: lnrnn/training/checkpoint.py ----
    dict(name="v321-ckpt-version-2", file=CKPT,
         old="VERSION = 1\n",
         new="VERSION = 2\n",
         tests=[T_CKPT + "test_a_hand_written_version_1_checkpoint_loads",
                T_CKPT + "test_a_saved_description_says_version_1"] + OLD_CKPT,
         why="the format version moves to 2: every version-1 checkpoint already written is refused"),
    dict(name="v321-ckpt-save-error-says-kept", file=CKPT,
         old='        kept = "nothing was written there"',
         new='        kept = "nothing was kept there"',
         tests=[T_CKPT + "test_a_save_where_a_file_is_in_the_way_writes_nothing"] + OLD_CKPT,
         why="a save that wrote nothing says nothing was kept, as if an earlier checkpoint were lost"),
    dict(name="v321-ckpt-hash-field-optional", file=CKPT,
         old='        name, listing, digest, model = (meta[k] for k',
         new='        name, listing, digest, model = (meta.get(k, "") for k',
         tests=[T_CKPT + "test_a_description_lacking_a_field_is_refused_naming_it"] + OLD_CKPT,
         why="a description without its hash is refused as a corrupt arrays file, not a corrupt description"),
    dict(name="v321-ckpt-listing-field-optional", file=CKPT,
         old='        name, listing, digest, model = (meta[k] for k',
         new='        name, listing, digest, model = (meta.get(k, {}) for k',
         tests=[T_CKPT + "test_a_description_lacking_a_field_is_refused_naming_it"] + OLD_CKPT,
         why="a description without its array listing is refused as an arrays mismatch, not a missing field"),
    dict(name="v321-ckpt-pickle-allowed", file=CKPT,
         old="        with np.load(npz_path, allow_pickle=False) as z:",
         new="        with np.load(npz_path, allow_pickle=True) as z:",
         tests=[T_CKPT + "test_arrays_that_need_pickle_are_refused"] + OLD_CKPT,
         why="an arrays file holding object arrays is unpickled (runs code) instead of refused"),
    dict(name="v321-ckpt-not-a-description-names-itself", file=CKPT,
         old='raise CheckpointError(f"{desc} is not a run folder or its {DESCRIPTION}; give',
         new='raise CheckpointError(f"{desc} is not a run folder or its {desc}; give',
         tests=[T_CKPT + "test_a_file_that_is_no_description_is_refused"] + OLD_CKPT,
         why="the refusal of a file that is no description names the file where checkpoint.json belongs"),
    # ---- run set-up: lnrnn/training/setup.py ----
    dict(name="v321-setup-metrics-not-required", file=SETUP,
         old='RESUMABLE_KEYS = ("train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums", '
             '"train_time_s",\n                  "metrics")',
         new='RESUMABLE_KEYS = ("train", "optimizer", "epoch", "batch_in_epoch", "step", "rng", "epoch_sums", '
             '"train_time_s",\n                  )',
         tests=[T_SETUP + "test_a_checkpoint_lacking_resume_keys_is_refused_naming_them"] + OLD_SETUP,
         why="a checkpoint without its metrics history is taken for resumable (and fails later)"),
    dict(name="v321-setup-no-budget-takes-train-settings", file=SETUP,
         old="    budget = budget or {}",
         new="    budget = budget or saved",
         tests=[T_SETUP + "test_a_checkpoint_without_a_budget_resumes_with_none"] + OLD_SETUP,
         why="a checkpoint from before budgets were kept resumes with its old --max-steps/--time-budget"),
    dict(name="v321-setup-best-check-inverted", file=SETUP,
         old='    if meta.get("best"):',
         new='    if not meta.get("best"):',
         tests=[T_SETUP + "test_a_best_folder_with_a_trailing_separator_is_refused_naming_the_run"] + OLD_SETUP,
         why="every run folder is refused as a best/ folder, and a best/ folder is resumed"),
    # ---- run configs: lnrnn/training/runconfig.py ----
    dict(name="v321-runconfig-toml-latin1", file=RUNCONFIG,
         old='            table = tomllib.loads(raw.decode("utf-8"))',
         new='            table = tomllib.loads(raw.decode("latin-1"))',
         tests=[T_CONFIG + "test_a_toml_file_is_read_as_utf8"] + OLD_CONFIG,
         why="a TOML config's non-ASCII values come back mangled (UTF-8 read as Latin-1)"),
]
