"""Planted bugs, round 386 (format: tests/mutants/mutants.py): the output files (lnrnn/files.py), twentieth pass,
planted before any test was written, on lines no earlier round mutates: atomic_write's temp file made inside the
target's own path instead of its folder; tmp not set to None before the try (a temp file that cannot be made raises
UnboundLocalError instead of the OSError naming the target); '.tmp-' given as the temp file's suffix (not hidden);
the flush before the fsync dropped (the fsync syncs an empty file); the fsync dropped; check_output_file,
prepare_output_file and write_output_file each defaulting to '--output'; the '..' refusal saying 'with that step';
check_output_file and prepare_output_file handing back the caller's Path instead of its text; the hint for an error
that is neither space nor permission blaming the folder.

12 mutants. Against the old targeted files alone (the ten tests/test_values*_files.py files and the nine commands
files on output paths and checks listed in OLD): 6 of 12 caught; missed: tmp not set to None, the '.tmp-' suffix, the
dropped flush, the dropped fsync, prepare_output_file's '--output' default, prepare_output_file's Path handed back.
The new file test_values386_files checks a temp file that cannot be made (its folder missing) raising an OSError with
ENOENT and the target's name, the writer never called; the only entry beside the target while the writer runs being a
hidden '.tmp-' file; os.fsync (spied on) called once, before the rename, on a file that already holds all 40 bytes
written and whose inode becomes the target's; prepare_output_file's refusals of '' and 'nope/../x.csv' word for word
with '--out'; check_output_file and prepare_output_file handing back a str equal to the path, the folders made and no
file. It catches all six misses. No planted mutant was left out as equivalent; the lines still unmutated (the umask's
/proc reading and its except, the PC_NAME_MAX fallback, _os_error_within's seen set) change nothing observable on
Linux or would only hang.

    python tests/mutants/run.py --only 'v386-*'
"""
FILES = "lnrnn/files.py"
NEW = ["tests/test_values386_files.py"]

OLD = [
    "tests/test_values12_files.py",
    "tests/test_values23_files.py",
    "tests/test_values63_files.py",
    "tests/test_values91_files.py",
    "tests/test_values116_files.py",
    "tests/test_values131_files.py",
    "tests/test_values171_files.py",
    "tests/test_values214_gradcheck_files.py",
    "tests/test_values222_files.py",
    "tests/test_values362_files.py",
    "tests/commands/test_values9_output_files.py",
    "tests/commands/test_files_unmade_names.py",
    "tests/commands/test_values_output_checks.py",
    "tests/commands/test_values_output_paths.py",
    "tests/commands/test_values229_files_predict_io_paths.py",
    "tests/commands/test_values245_output_checks.py",
    "tests/commands/test_values263_output_checks.py",
    "tests/commands/test_values305_files_predict_io_outputs.py",
    "tests/commands/test_values336_files_predict_io_outputs.py",
]

MUTANTS = [
    dict(name="v386-files-temp-folder-is-the-target", file=FILES,
         old="    folder = os.path.dirname(os.path.abspath(path))\n",
         new="    folder = os.path.abspath(path)\n",
         tests=NEW + OLD,
         why="atomic_write makes its temp file inside the target's own path, not in the target's folder"),
    dict(name="v386-files-tmp-not-reset", file=FILES,
         old="    tmp = None\n",
         new="",
         tests=NEW + OLD,
         why="tmp unset before the try: a temp file that cannot be made raises UnboundLocalError, not the OSError"),
    dict(name="v386-files-temp-suffix-not-prefix", file=FILES,
         old='prefix=".tmp-", dir=folder',
         new='suffix=".tmp-", dir=folder',
         tests=NEW + OLD,
         why="'.tmp-' given as the temp file's suffix: the temp file beside the target is not hidden"),
    dict(name="v386-files-no-flush-before-fsync", file=FILES,
         old="            f.flush()\n",
         new="",
         tests=NEW + OLD,
         why="fsync runs while the bytes are still in the writer's buffer: what it syncs is an empty file"),
    dict(name="v386-files-no-fsync", file=FILES,
         old="            os.fsync(f.fileno())\n",
         new="",
         tests=NEW + OLD,
         why="the temp file renamed over the target without fsync: a crash may leave an empty file"),
    dict(name="v386-files-check-default-option-output", file=FILES,
         old='def check_output_file(path, option="--out"):',
         new='def check_output_file(path, option="--output"):',
         tests=NEW + OLD,
         why="check_output_file's refusals name '--output' when no option is given"),
    dict(name="v386-files-up-refusal-says-with", file=FILES,
         old="give the path without that step.",
         new="give the path with that step.",
         tests=NEW + OLD,
         why="the '..' refusal tells the user to keep the step it refuses"),
    dict(name="v386-files-check-returns-path-object", file=FILES,
         old="    return text\n",
         new="    return path\n",
         tests=NEW + OLD,
         why="check_output_file hands back the caller's object (a Path) instead of its text"),
    dict(name="v386-files-prepare-default-option-output", file=FILES,
         old='def prepare_output_file(path, option="--out"):',
         new='def prepare_output_file(path, option="--output"):',
         tests=NEW + OLD,
         why="prepare_output_file's refusals name '--output' when no option is given"),
    dict(name="v386-files-prepare-returns-path-object", file=FILES,
         old="    return str(path)\n\n\ndef write_output_file",
         new="    return path\n\n\ndef write_output_file",
         tests=NEW + OLD,
         why="prepare_output_file hands back the caller's object (a Path) instead of its text"),
    dict(name="v386-files-write-default-option-output", file=FILES,
         old='def write_output_file(path, write, option="--out"):',
         new='def write_output_file(path, write, option="--output"):',
         tests=NEW + OLD,
         why="write_output_file's refusals name '--output' when no option is given"),
    dict(name="v386-files-other-error-hint-folder", file=FILES,
         old='    return "check that file system"',
         new='    return "check that folder"',
         tests=NEW + OLD,
         why="an I/O error that is neither space nor permission is blamed on the folder, not the file system"),
]
