"""Planted bugs, round 229 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in the output checks' path shapes and the shared options. lnrnn/files.py: the refusal of a trailing separator
printing the name unquoted; the refusal of a '..' out of a missing folder naming the whole path, and a path ending
in '..' left unchecked (the last part skipped); a file where a folder should be tested with exists() instead of
isdir(), and its refusal telling the user to choose another --out whatever option was given; a read-only folder's
refusal naming the file instead of the folder; a suffix alone's refusal naming the whole path; named_suffix
returning any suffix, not only the format's; a folder that cannot be made reported with the OSError's repr.
lnrnn/predict_io.py: the refusal of another suffix printing the name unquoted; write_predictions not calling
check_out (out.txt written as CSV). lnrnn/commands/options.py: a stack of shared options applied backwards (--help
lists it reversed); --optimizer case-blind (ADAM taken for adam); --checkpoint not required.

14 mutants. Against the existing targeted tests alone (test_values_output_paths, test_values9_output_files,
test_values46_suffixes, test_values222_files for files.py; test_values_output_paths, test_values219_predict_io,
test_values_predict_io for predict_io.py; test_values32_options_errors, test_values_options for options.py) 8 were
caught and 6 missed: both '..' mutants (no old test gives a '..' out of a missing folder whose refusal is read word
for word, nor one ending in '..'), the file-in-the-way refusal saying --out (the old files meet a file in the way
under --out only), a folder that cannot be made (never met: every old path can be made), the unquoted suffix
refusal of predictions (only that it is refused was checked), and --optimizer in capitals (never tried).
The new value tests catch every mutant on their own (checked with the old files taken off the lists):
test_values229_files_predict_io_paths (each refusal compared with the sentence written out in the test and the folder
listed before and after: a trailing separator under three options, '..' out of a missing folder in the middle,
at the end, after a good step and absolute, a file in the way under --npz one and two levels down, sysfs as a
folder no one may write, alone and with missing folders between, a suffix alone and six names of other suffixes
through check_out and write_predictions, predictions written by hand as CSV into folders made only when written,
predict refusing a bad --out before it reads the run, a name too long and a link to nowhere refused in words when
written) and test_values229_options (--optimizer in capitals refused with OPTIMIZERS' list written out here,
nothing made; --checkpoint missing said first by predict, eval and export; train --help's two stacks in the order
options.py writes them, --split's TRAIN/VAL and --checkpoint's RUN_FOLDER). Left out as equivalent: atomic_write's
folder as os.path.dirname(path) without abspath (a bare name gives '' and mkstemp then makes the temporary file in
the current folder, the same one); missing_before_up splitting on '/' instead of os.sep (the same on POSIX);
prepare_output_file's return value (no caller reads it; check_output_file's is read by test_values_output_paths
already). Found on the way: check_output_file let through a folder that cannot be made (a name longer than the file
system allows, a link to nowhere), so such an --out was refused only by the write, after the work it was meant to
spare; fixed (files.unmade_names, its own mutants in mutants_output_names), and the refusal when writing is now
reached by a folder that cannot be made at the time of the write (makedirs failing).

    python tests/mutants/run.py --only 'v229-*'
"""
FILES = "lnrnn/files.py"
PIO = "lnrnn/predict_io.py"
OPTS = "lnrnn/commands/options.py"

P = "tests/commands/test_values229_files_predict_io_paths.py::"
O = "tests/commands/test_values229_options.py::"

OLD_FILES = ["tests/commands/test_values_output_paths.py", "tests/commands/test_values9_output_files.py",
             "tests/commands/test_values46_suffixes.py", "tests/test_values222_files.py"]
OLD_PIO = ["tests/commands/test_values_output_paths.py", "tests/test_values219_predict_io.py",
           "tests/test_values_predict_io.py"]
OLD_OPTS = ["tests/commands/test_values32_options_errors.py", "tests/commands/test_values_options.py"]

MUTANTS = [
    dict(name="v229-files-trailing-separator-unquoted", file=FILES,
         old='raise UserError(f"{option} {text!r} names a folder; give a file name.")',
         new='raise UserError(f"{option} {text} names a folder; give a file name.")',
         tests=[P + "test_a_trailing_separator_is_a_folder_named_in_quotes"] + OLD_FILES,
         why="the refusal of a name ending in a separator prints it unquoted: a trailing space or an empty part "
             "can no longer be seen"),
    dict(name="v229-files-up-names-the-whole-path", file=FILES,
         old="goes up ('..') from {up}, which does not exist",
         new="goes up ('..') from {text}, which does not exist",
         tests=[P + "test_a_step_up_out_of_a_missing_folder_names_that_folder",
                P + "test_a_step_up_absolute_and_one_out_of_a_folder_that_exists"] + OLD_FILES,
         why="the refusal of a '..' out of a missing folder names the whole path instead of that folder"),
    dict(name="v229-files-up-last-part-skipped", file=FILES,
         old="    parts = text.split(os.sep)\n",
         new="    parts = text.split(os.sep)[:-1]\n",
         tests=[P + "test_a_step_up_out_of_a_missing_folder_names_that_folder"] + OLD_FILES,
         why="a path ending in '..' out of a missing folder is taken for a folder instead of refused for the step"),
    dict(name="v229-files-file-ancestor-exists-not-isdir", file=FILES,
         old="    if not os.path.isdir(probe):\n",
         new="    if not os.path.exists(probe):\n",
         tests=[P + "test_a_file_where_a_folder_should_be_is_named_with_the_option_given"] + OLD_FILES,
         why="a file where a folder should be is not named as a file: the probe's 'Not a directory' is reported as "
             "an unwritable folder"),
    dict(name="v229-files-file-ancestor-says-out", file=FILES,
         old='                        f"another {option}.")\n    unmade_names(probe',
         new='                        "another --out.")\n    unmade_names(probe',
         tests=[P + "test_a_file_where_a_folder_should_be_is_named_with_the_option_given"] + OLD_FILES,
         why="the refusal of a file in the way tells the user to choose another --out whatever option was given"),
    dict(name="v229-files-unwritable-names-the-target", file=FILES,
         old='raise UserError(f"cannot write to {probe}{where}',
         new='raise UserError(f"cannot write to {target}{where}',
         tests=[P + "test_a_read_only_folder_is_named_with_where_the_file_would_be_made"] + OLD_FILES,
         why="the refusal of a read-only folder names the file that would be written, not the folder"),
    dict(name="v229-files-suffix-alone-names-the-path", file=FILES,
         old="give the file a name before {base}.",
         new="give the file a name before {path}.",
         tests=[P + "test_a_suffix_alone_is_refused_naming_the_suffix_to_put_a_name_before"] + OLD_FILES,
         why="the refusal of a suffix alone under a folder says to put a name before the whole path"),
    dict(name="v229-files-any-suffix-returned", file=FILES,
         old="    return ext if ext in suffixes else None\n",
         new="    return ext if ext else None\n",
         tests=[P + "test_a_suffix_that_disagrees_with_the_format_is_refused_word_for_word"] + OLD_FILES,
         why="a suffix that disagrees with the format (out.txt for predictions) is taken as one of the suffixes"),
    dict(name="v229-files-makedirs-error-unworded", file=FILES,
         old="for {option} {path} ({e.strerror or e}); choose",
         new="for {option} {path} ({e}); choose",
         tests=[P + "test_a_folder_that_cannot_be_made_is_refused_in_words_when_written"] + OLD_FILES,
         why="a folder that cannot be created is reported with the OSError's repr ([Errno 36] ... and the path "
             "again) instead of its words"),
    dict(name="v229-predict-io-out-suffix-unquoted", file=PIO,
         old="not {path!r}.\")",
         new="not {path}.\")",
         tests=[P + "test_a_suffix_that_disagrees_with_the_format_is_refused_word_for_word",
                P + "test_predict_refuses_a_bad_out_before_it_reads_the_run"] + OLD_PIO,
         why="the refusal of an --out of another suffix prints the name unquoted"),
    dict(name="v229-predict-io-write-skips-check-out", file=PIO,
         old="    check_out(path)\n    cols = prediction_columns(predictions)",
         new="    cols = prediction_columns(predictions)",
         tests=[P + "test_a_suffix_that_disagrees_with_the_format_is_refused_word_for_word"] + OLD_PIO,
         why="write_predictions writes a file of another suffix (out.txt) as CSV instead of refusing it"),
    dict(name="v229-options-stack-reversed", file=OPTS,
         old="        for d in reversed(decorators):\n",
         new="        for d in decorators:\n",
         tests=[O + "test_train_help_lists_the_shared_stacks_in_their_written_order"] + OLD_OPTS,
         why="a stack of shared options is listed in --help backwards"),
    dict(name="v229-options-optimizer-case-blind", file=OPTS,
         old="optimizer_choice = click.Choice(list(OPTIMIZERS))",
         new="optimizer_choice = click.Choice(list(OPTIMIZERS), case_sensitive=False)",
         tests=[O + "test_an_optimizer_in_capitals_is_refused_with_the_list"] + OLD_OPTS,
         why="--optimizer ADAM is taken for adam instead of refused with the list of optimizers"),
    dict(name="v229-options-checkpoint-not-required", file=OPTS,
         old='"--checkpoint", "path", required=True,',
         new='"--checkpoint", "path", required=False,',
         tests=[O + "test_a_command_without_a_run_says_the_checkpoint_is_missing_first"] + OLD_OPTS,
         why="a command that reads a run runs on without --checkpoint instead of saying it is missing"),
]
