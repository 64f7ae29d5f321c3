"""Planted bugs, round 245 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the commands' output checks and plumbing: lnrnn.files checking the lengths of the folders to be made but not of the
file's own name, counting a name's characters where the limit is in bytes, letting a folder where nothing may be
created through (its check inverted), and turning only a PermissionError of the write into one line (a full disk
becomes a traceback); lnrnn sample checking --npz's suffix only with --text (a plain sample's .txt is refused after
the run is read, or not at all), writing the .npz of plain samples only with --text, saying '1 samples', and naming
a failed --npz write --out; lnrnn data mnist never making a --dest that does not exist yet, naming --dest instead
of the folder that refused it, and closing on the last file's path instead of --dest; lnrnn train ignoring a
--config file; the --cell and --task defaults changed away from the LN-LSTM on digits-binary that train's docstring
promises.

14 mutants. Against the old targeted files alone (the OLD_* lists): 8 caught; missed were any write error but a
refused permission raised as a traceback, --npz's checks only with --text, 'Wrote 1 samples', a failed --npz write
reported as --out's, data's refusal naming --dest instead of the folder that refused, and the closing hint naming
the last file instead of --dest. (Old files: test_values229_files_predict_io_paths, test_files_unmade_names,
test_values_output_checks for lnrnn.files; test_sample, test_values221_sample_cli, test_values69_sample_errors for
sample; test_values_data, test_values208_data, test_values237_data for data; test_values_train_command,
test_values208_train_options, test_values_options for train and its options.) The new value tests catch every mutant
on their own (checked with the old files taken off the lists): test_values245_output_checks (lnrnn sample with the
run, the sampler and the drawing replaced by recorders: --npz pts.txt, pts.NPY and pts without --text refused word
for word before the run is read, with the name to use; an --out name of NAME_MAX + 1 bytes refused and one of
NAME_MAX bytes passed; a name of two-byte characters counted in bytes, 2n + 4; a folder whose probe answers EACCES
refused naming where the file would be made; the summary for --count 1 and 2; the .npz of three plain samples
against their points concatenated and lengths written out here; a full disk under --npz as one line naming --npz,
nothing left), test_values245_train_data (train's trainer replaced by a recorder: a TOML --config's batch-size and
lr reaching it, --seed on the command line winning over the file's; --cell ln-lstm and --task digits-binary, as the
docstring says, in the help and in the call; data mnist with the download replaced by a recorder: a --dest two
folders deep made before the downloads, each line with the published content MD5 and the last naming --dest; a
--dest under a folder whose probe answers EACCES refused naming that folder, nothing made, nothing downloaded).

Left out as equivalent or not observable: the progress bar's quiet flag inside download (the bar draws only under a
terminal), check_output_file's return of text made path (no caller reads it). Left out as read by earlier rounds'
tests: the link-to-nowhere check (its path one level up would only miss links below the first folder to be made;
test_values229_files_predict_io_paths and test_files_unmade_names read that refusal).

    python tests/mutants/run.py --only 'v245-*'
"""
FILES = "lnrnn/files.py"
SAMPLE = "lnrnn/commands/sample.py"
DATA = "lnrnn/commands/data.py"
TRAIN = "lnrnn/commands/train.py"
OPTS = "lnrnn/commands/options.py"

T_OUT = "tests/commands/test_values245_output_checks.py::"
T_TD = "tests/commands/test_values245_train_data.py::"
OLD_FILES = ["tests/commands/test_values229_files_predict_io_paths.py", "tests/commands/test_files_unmade_names.py",
             "tests/commands/test_values_output_checks.py"]
OLD_SAMPLE = ["tests/commands/test_sample.py", "tests/commands/test_values221_sample_cli.py",
              "tests/commands/test_values69_sample_errors.py"]
OLD_DATA = ["tests/commands/test_values_data.py", "tests/commands/test_values208_data.py",
            "tests/commands/test_values237_data.py"]
OLD_TRAIN = ["tests/commands/test_values_train_command.py", "tests/commands/test_values208_train_options.py",
             "tests/commands/test_values_options.py"]

MUTANTS = [
    # ---- output checks: lnrnn/files.py ----
    dict(name="v245-files-own-name-length-unchecked", file=FILES,
         old="    for k, name in enumerate(names):\n",
         new="    for k, name in enumerate(names[:-1]):\n",
         tests=[T_OUT + "test_a_name_one_byte_past_the_limit_is_refused_and_one_at_it_passes"] + OLD_FILES,
         why="only the folders to be made are held to NAME_MAX: a file name too long passes the early check and "
             "fails at the write, after the compute"),
    dict(name="v245-files-name-length-counts-characters", file=FILES,
         old="has a name of {size} bytes",
         new="has a name of {len(name)} bytes",
         tests=[T_OUT + "test_a_name_of_two_byte_characters_is_counted_in_bytes"] + OLD_FILES,
         why="the refusal of a long name counts its characters, not the bytes the limit is in (fewer than the limit "
             "for a name of two-byte characters)"),
    dict(name="v245-files-unwritable-check-inverted", file=FILES,
         old='    if e is not None:\n        where = "" if probe == os.path.dirname(target)',
         new='    if e is None:\n        where = "" if probe == os.path.dirname(target)',
         tests=[T_OUT + "test_a_folder_where_nothing_may_be_created_is_refused_naming_where"] + OLD_FILES,
         why="a folder where nothing may be created passes the early check (the work runs and the write fails); a "
             "writable one is refused with a crash"),
    dict(name="v245-files-write-error-only-permission", file=FILES,
         old='    except OSError as e:\n        raise UserError(f"cannot write {option} {path}',
         new='    except PermissionError as e:\n        raise UserError(f"cannot write {option} {path}',
         tests=[T_OUT + "test_a_full_disk_under_npz_is_one_line_naming_npz"] + OLD_FILES,
         why="only a refused permission becomes one line: a full disk while writing an output is a traceback"),
    # ---- lnrnn sample ----
    dict(name="v245-sample-npz-check-only-with-text", file=SAMPLE,
         old='    if npz:\n        check_output_file(npz, "--npz")',
         new='    if npz and texts:\n        check_output_file(npz, "--npz")',
         tests=[T_OUT + "test_npz_under_another_suffix_is_refused_before_the_run_without_text"] + OLD_SAMPLE,
         why="--npz's checks run only with --text: a plain sample's --npz pts.txt is not refused before the run is "
             "read and sampled"),
    dict(name="v245-sample-npz-written-only-with-text", file=SAMPLE,
         old="    if npz:\n        flat = ",
         new="    if npz and texts:\n        flat = ",
         tests=[T_OUT + "test_plain_samples_npz_holds_their_points_and_lengths"] + OLD_SAMPLE,
         why="the points of plain samples are never saved to --npz, though the summary says they were"),
    dict(name="v245-sample-one-sample-plural", file=SAMPLE,
         old="sample{'s' * (count != 1)} of",
         new="sample{'s' * (count != 0)} of",
         tests=[T_OUT + "test_one_sample_and_two_are_counted_in_the_summary"] + OLD_SAMPLE,
         why="the summary of --count 1 says 'Wrote 1 samples'"),
    dict(name="v245-sample-npz-write-named-out", file=SAMPLE,
         old='**extra), "--npz")',
         new='**extra), "--out")',
         tests=[T_OUT + "test_a_full_disk_under_npz_is_one_line_naming_npz"] + OLD_SAMPLE,
         why="a failed --npz write is reported as --out's (the picture's) and tells the user to choose another --out"),
    # ---- lnrnn data mnist ----
    dict(name="v245-data-dest-not-made", file=DATA,
         old="    if e is None:\n        try:\n            os.makedirs(dest, exist_ok=True)",
         new="    if e is not None:\n        try:\n            os.makedirs(dest, exist_ok=True)",
         tests=[T_TD + "test_a_nested_dest_is_made_before_the_downloads_and_named_at_the_end"] + OLD_DATA,
         why="a --dest that does not exist yet is never made: the first download has no folder to write into"),
    dict(name="v245-data-unwritable-names-dest", file=DATA,
         old='raise UserError(f"cannot write to {probe}{where} ({e.strerror or e}); choose another --dest',
         new='raise UserError(f"cannot write to {dest}{where} ({e.strerror or e}); choose another --dest',
         tests=[T_TD + "test_a_dest_under_a_folder_where_nothing_may_be_created_names_that_folder"] + OLD_DATA,
         why="the refusal names --dest, which does not exist, as the folder that cannot be written, not the folder "
             "that refused"),
    dict(name="v245-data-use-it-names-last-file", file=DATA,
         old='--data-dir {dest}")',
         new='--data-dir {path}")',
         tests=[T_TD + "test_a_nested_dest_is_made_before_the_downloads_and_named_at_the_end"] + OLD_DATA,
         why="the closing hint passes the last downloaded file, not the folder, to --data-dir"),
    # ---- lnrnn train and its options ----
    dict(name="v245-train-config-file-ignored", file=TRAIN,
         old="    if config_file is not None:\n",
         new="    if config_file is None:\n",
         tests=[T_TD + "test_a_config_files_values_reach_the_trainer_and_the_command_line_wins"] + OLD_TRAIN,
         why="a --config file's values never reach the run: its batch-size and lr are the defaults"),
    dict(name="v245-options-cell-default-lstm", file=OPTS,
         old='click.option("--cell", type=click.Choice(list(CELLS)), default=D.cell,',
         new='click.option("--cell", type=click.Choice(list(CELLS)), default="lstm",',
         tests=[T_TD + "test_the_docstrings_cell_and_task_are_the_defaults_in_help_and_call"] + OLD_TRAIN,
         why="train with no options trains a plain LSTM, not the LN-LSTM its docstring and the config promise"),
    dict(name="v245-options-task-default-digits", file=OPTS,
         old='click.option("--task", type=click.Choice(list(TASKS)), default=D.task,',
         new='click.option("--task", type=click.Choice(list(TASKS)), default="digits",',
         tests=[T_TD + "test_the_docstrings_cell_and_task_are_the_defaults_in_help_and_call"] + OLD_TRAIN,
         why="train with no options trains on grey-level digits, not digits-binary as its docstring says"),
]
