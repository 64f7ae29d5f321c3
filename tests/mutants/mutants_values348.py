"""Planted bugs, round 348 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the run folders (lnrnn/training/rundir.py), the run set-up (lnrnn/training/setup.py), the run
configs (lnrnn/training/runconfig.py) and the checkpoints (lnrnn/training/checkpoint.py), eighteenth pass: the
lock file renamed; a lock file whose first field is no number crashing the refusal with a ValueError; a file
system without flock read as if the flock were taken, so another host's run is taken over; the checkpoint
format renamed, so every checkpoint written by the documented format is refused; a save into an existing
folder refused; --keep copies kept in DIR/checkpoint/ instead of DIR/checkpoints/; a corrupt description's
refusal naming the folder instead of the description; a resume taking the options it must refuse and refusing
those it may take; the refusal of a changed option telling the user to drop --batch_size; --init-from on a
resume refused naming the --init-from folder as the one holding a run; build passing no explicit options on
to read_resume, so a changed --hidden is not refused; config.json renamed; a config file without a suffix read
as TOML; a missing config file reported as unreadable instead of missing.

14 mutants. Against the old targeted files alone (each mutant's v348 files taken off its list): 2 of 14 caught;
missed: the lock file renamed, a holder without a pid crashing, no flock read as flocked, the checkpoint format
renamed, the --keep folder renamed, a corrupt description's refusal naming the folder, the changed-option refusal
without the option's name, the --init-from refusal naming the source, build dropping the explicit options,
config.json renamed, a file without a suffix read as TOML, a missing config called unreadable. The new value tests
catch every mutant on their own (checked with the old files taken off the lists): test_values348_rundir
(DIR/lnrnn.lock holding this process's pid and host name, the folder then held and fresh_default moving to DIR-2,
nothing left after release; 'node7 4242' flocked by another open file refused as 'a process that wrote no pid' word
for word; flock failing with ENOLCK, EINVAL, EOPNOTSUPP and ENOSYS and a lock of pid 4242 on host node7 refused word
for word, the lock file left as written), test_values348_checkpoint (a checkpoint written by hand with np.savez,
hashlib and json from the documented format loads, and a saved description says lnrnn-checkpoint version 1; saves of
update 9 then 10 into an existing folder leave one arrays file named checkpoint-000000010-*; --keep 2 over updates
9, 10, 99, 100 leaves checkpoints/update-000000099 and update-000000100, each with its own arrays; a description cut
short refused word for word with Python's own JSON error, nothing written), test_values348_setup (--epochs 30 taken
on resume, --batch-size 32 refused word for word with 16 and the flag as typed; --init-from on a resume refused
naming the run folder; build refusing --hidden 8 against a run of hidden 4 before any task is loaded, the folder
unchanged), test_values348_runconfig (config.json read back equal to the documented rule applied by hand over a
config with a 0 window, 99 epochs and 10 kept; 'settings' holding valid TOML refused word for word; a missing file
said not to exist, nothing written). Left out as equivalent: _sha256's hexdigest() made digest().hex() (the same
string); the lock's 'except PermissionError: return True' in _alive made 'return False' only changes the no-flock
path on this host for a pid of another user, which a test cannot set up without a second user. Left out as not
cheaply testable: check_writable's read-only refusal (tests run as root, and root writes everywhere); the TOML
ImportError branch (Python 3.10 only); on_device (needs --device cuda and a GPU). The FOCUS's old config version has
no line to mutate here: config.json carries no version, and the checkpoint's VERSION check is mutated by round 321.

    python tests/mutants/run.py --only 'v348-*'
"""
RUNDIR = "lnrnn/training/rundir.py"
SETUP = "lnrnn/training/setup.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
CKPT = "lnrnn/training/checkpoint.py"

T_RUNDIR = "tests/training/test_values348_rundir.py::"
T_CKPT = "tests/training/test_values348_checkpoint.py::"
T_SETUP = "tests/training/test_values348_setup.py::"
T_CONFIG = "tests/training/test_values348_runconfig.py::"
OLD_RUNDIR = ["tests/training/test_values_rundir.py", "tests/training/test_values251_rundir.py"]
OLD_CKPT = ["tests/training/test_checkpoint.py", "tests/training/test_values259_checkpoint.py"]
OLD_SETUP = ["tests/training/test_values63_setup.py"]
OLD_CONFIG = ["tests/training/test_values_runconfig.py"]

MUTANTS = [
    # ---- run folders: lnrnn/training/rundir.py ----
    dict(name="v348-rundir-lock-file-renamed", file=RUNDIR,
         old='LOCK_FILE = "lnrnn.lock"',
         new='LOCK_FILE = ".lnrnn.lock"',
         tests=[T_RUNDIR + "test_the_lock_is_dir_lnrnn_lock_holding_pid_and_host"] + OLD_RUNDIR,
         why="the lock is DIR/.lnrnn.lock, not the documented DIR/lnrnn.lock"),
    dict(name="v348-rundir-holder-without-pid-crashes", file=RUNDIR,
         old="    except (IndexError, ValueError):",
         new="    except IndexError:",
         tests=[T_RUNDIR + "test_a_lock_file_without_a_pid_is_refused_as_no_pid"] + OLD_RUNDIR,
         why="a lock file whose first field is no number ends in a ValueError instead of the in-use refusal"),
    dict(name="v348-rundir-no-flock-read-as-flocked", file=RUNDIR,
         old="                flocked = False",
         new="                flocked = True",
         tests=[T_RUNDIR + "test_without_flock_another_hosts_lock_is_refused"] + OLD_RUNDIR,
         why="on a file system without flock another host's run is taken over as stale instead of refused"),
    # ---- checkpoints: lnrnn/training/checkpoint.py ----
    dict(name="v348-checkpoint-format-renamed", file=CKPT,
         old='FORMAT = "lnrnn-checkpoint"',
         new='FORMAT = "lnrnn_checkpoint"',
         tests=[T_CKPT + "test_the_documented_format_loads_and_is_written"] + OLD_CKPT,
         why="descriptions say lnrnn_checkpoint, and every checkpoint of the documented format is refused"),
    dict(name="v348-checkpoint-save-into-existing-folder-refused", file=CKPT,
         old="        os.makedirs(directory, exist_ok=True)\n        atomic_write(npz_path",
         new="        os.makedirs(directory, exist_ok=False)\n        atomic_write(npz_path",
         tests=[T_CKPT + "test_a_second_save_into_the_folder_replaces_the_first"] + OLD_CKPT,
         why="a save into a folder that exists (every save after a run's first) fails as a full disk would"),
    dict(name="v348-checkpoint-past-dir-renamed", file=CKPT,
         old='PAST_DIR = "checkpoints"',
         new='PAST_DIR = "checkpoint"',
         tests=[T_CKPT + "test_keep_two_past_powers_of_ten"] + OLD_CKPT,
         why="--keep copies go to DIR/checkpoint/update-N, not the documented DIR/checkpoints/update-N"),
    dict(name="v348-checkpoint-corrupt-description-names-folder", file=CKPT,
         old='raise CheckpointError(f"checkpoint description {desc} is corrupt ({e}).")',
         new='raise CheckpointError(f"checkpoint description {path} is corrupt ({e}).")',
         tests=[T_CKPT + "test_a_description_that_is_no_json_is_refused_naming_it"] + OLD_CKPT,
         why="a description that is no JSON is refused naming the run folder instead of its checkpoint.json"),
    # ---- run set-up: lnrnn/training/setup.py ----
    dict(name="v348-setup-overridable-inverted", file=SETUP,
         old="        if name in RESUME_OVERRIDABLE:",
         new="        if name not in RESUME_OVERRIDABLE:",
         tests=[T_SETUP + "test_an_overridable_option_is_taken_on_resume",
                T_SETUP + "test_a_fixed_option_is_refused_with_its_flag"] + OLD_SETUP,
         why="a resume refuses --epochs and the other options it may change, and takes the fixed ones"),
    dict(name="v348-setup-refusal-drops-field-name", file=SETUP,
         old='f"drop {flag} to resume it, or start a new run with another --out.")',
         new='f"drop --{name} to resume it, or start a new run with another --out.")',
         tests=[T_SETUP + "test_a_fixed_option_is_refused_with_its_flag"] + OLD_SETUP,
         why="the refusal tells the user to drop --batch_size, an option lnrnn train does not have"),
    dict(name="v348-setup-init-from-refusal-names-source", file=SETUP,
         old="""raise UserError(f"--init-from starts a new run from another run's checkpoint; {out} holds a run \"""",
         new="""raise UserError(f"--init-from starts a new run from another run's checkpoint; {cfg.init_from} holds a run \"""",
         tests=[T_SETUP + "test_init_from_on_a_resume_is_refused_naming_the_run"] + OLD_SETUP,
         why="--init-from on a resume is refused naming the --init-from folder as the one holding the run"),
    dict(name="v348-setup-build-drops-explicit", file=SETUP,
         old="        cfg, meta, arrays = read_resume(cfg, explicit)",
         new="        cfg, meta, arrays = read_resume(cfg, set())",
         tests=[T_SETUP + "test_build_refuses_a_changed_hidden_before_anything_else"] + OLD_SETUP,
         why="build does not pass the given options on: a resume with another --hidden runs the old run silently"),
    # ---- run configs: lnrnn/training/runconfig.py ----
    dict(name="v348-runconfig-config-file-renamed", file=RUNCONFIG,
         old='CONFIG_FILE = "config.json"',
         new='CONFIG_FILE = "configs.json"',
         tests=[T_CONFIG + "test_config_json_is_the_run_folders_settings"] + OLD_CONFIG,
         why="a run folder's settings go to DIR/configs.json, not the documented DIR/config.json"),
    dict(name="v348-runconfig-no-suffix-read-as-toml", file=RUNCONFIG,
         old='    if ext not in (".toml", ".json"):',
         new='    if ext not in (".toml", ".json", ""):',
         tests=[T_CONFIG + "test_a_config_without_toml_or_json_suffix_is_refused"] + OLD_CONFIG,
         why="a --config file without a suffix is read as TOML instead of refused"),
    dict(name="v348-runconfig-missing-file-unreadable", file=RUNCONFIG,
         old="    except FileNotFoundError:",
         new="    except IsADirectoryError:",
         tests=[T_CONFIG + "test_a_missing_config_does_not_exist"] + OLD_CONFIG,
         why="a missing --config file is 'cannot be read (No such file or directory)', not 'does not exist'"),
]
