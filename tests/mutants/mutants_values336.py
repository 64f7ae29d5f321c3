"""Planted bugs, round 336 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the npz task's arrays (lnrnn/data/arrays.py) and the output checks (lnrnn/predict_io.py,
lnrnn/files.py): a file of 1 to 5 bytes called empty; one array of an unknown name read without a word (two
still refused); NaN in y_val refused naming y; a y_val of the other layout refused showing y's shape twice; an
empty x_val refused naming x; a y of the wrong shape refused showing the shape it should have; a text y refused
with its dtype's kind letter; lengths of the wrong shape refused with their size; the held-out split training
one sequence fewer than it holds out from; --split A/B taking B to train and A to validate; the description
giving x_val's steps as the task's; .npz taken as a table format of predict's --out (written as CSV); a folder
that cannot be made refused as 'choose another --out' whatever the option.

13 mutants. Against the old targeted files alone: 5 of 13 (missed: a short file called empty, NaN in y_val named y,
the layouts' refusal showing y's shape twice, an empty x_val named x, a text y refused with its kind letter,
lengths' shape said as their size, the description giving x_val's steps, a folder that cannot be made refused as
--out whatever the option). The new value tests catch every mutant on their own (checked with the old files taken
off the lists): test_values336_arrays (.npz files written in the test and read back: files of 0, 3 and 8 bytes named
for what they are, an unknown array alone and beside another, an object array refused word for word with nothing
written beside it; NaN and inf in y and y_val, a y_val of the other layout both ways, x and x_val of 0 sequences or
0 steps, a y of shape (3,) and (4, 6) for x (4, 5), a text y, lengths (3, 1) and (4,) for N = 3, each refusal word
for word; held-out sizes at N = 7, 10 and 101 against the nearest whole number to a tenth, at least 1, with the
seed-0 permutation drawn here and lengths 1 and T following their sequences; --split 5/2, 7/3 and 1/9 of 10; a
description with x of 5 steps of 2 inputs and x_val of 3, classes counted over y and y_val with the label C - 1 only
in y_val), test_values336_files_predict_io_outputs (predict's --out ending in .npz, .txt or nothing refused word for
word and nothing written, not even the missing folder; P.CSV written as CSV into two folders made for it, its text
written out by hand; a trailing separator and a name that is a folder refused word for word; a read-only file system
met while making the folder refused naming --npz and --judge-out). Left out as equivalent: read_file's isfile check
made exists (a folder is refused before it; a missing path fails both); 'if "x_val" in d' made "y_val" or
"lengths_val", and 'if "y_val" in out' made "x_val" (each pair is present together); objective == "ce" made != "mse"
(check_objective refused every other value); the description's classes chosen by num_classes > 1 instead of the
objective (ce has at least 2 classes, mse 1); held_out's refusal of N < 2 naming 1 (x of 0 sequences is refused
before); atomic_write without f.flush() (closing flushes), with os.rename for os.replace (POSIX renames replace),
with another temp prefix (the temp is renamed or removed); prepare_output_file, write_output_file and
check_output_file returning anything else (no caller reads what they return). Left out as uncatchable cheaply here:
a read-only folder's refusal through file permissions (the tests may run as root, whom permissions do not stop; the
refusal's line is mutated by an earlier round), umask()'s fallback (only where /proc is missing), nearest_existing's
stop at the root (a root that does not exist).

    python tests/mutants/run.py --only 'v336-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
PRED = "lnrnn/predict_io.py"
FILES = "lnrnn/files.py"

T_ARRAYS = "tests/data/test_values336_arrays.py::"
T_OUT = "tests/commands/test_values336_files_predict_io_outputs.py::"
OLD_ARRAYS = ["tests/data/test_own_data.py", "tests/data/test_values228_arrays.py",
              "tests/data/test_values220_arrays.py", "tests/data/test_values240_arrays.py"]
OLD_OUT = ["tests/commands/test_values229_files_predict_io_paths.py", "tests/commands/test_values_output_paths.py",
           "tests/commands/test_values9_output_files.py", "tests/commands/test_values240_predict_io.py"]

MUTANTS = [
    # ---- the npz task: lnrnn/data/arrays.py ----
    dict(name="v336-arrays-short-file-called-empty", file=ARRAYS,
         old="    if not head:\n",
         new="    if len(head) < 6:\n",
         tests=[T_ARRAYS + "test_short_and_text_files_named_for_what_they_are"] + OLD_ARRAYS,
         why="a file of 1 to 5 bytes is refused as 'is empty (0 bytes)' instead of naming the text it holds"),
    dict(name="v336-arrays-one-unknown-array-read", file=ARRAYS,
         old="        if unknown:\n",
         new="        if len(unknown) > 1:\n",
         tests=[T_ARRAYS + "test_one_unknown_array_refused_like_two"] + OLD_ARRAYS,
         why="a file with one array of a name the task does not read (a misspelt x_val) is read without a word"),
    dict(name="v336-arrays-nan-in-y-val-named-y", file=ARRAYS,
         old='raise DataError(f"{where}: {name} holds NaN or infinite values.")',
         new='raise DataError(f"{where}: y holds NaN or infinite values.")',
         tests=[T_ARRAYS + "test_nan_and_inf_refused_naming_y_or_y_val"] + OLD_ARRAYS,
         why="NaN or inf in y_val is refused naming y, the training targets"),
    dict(name="v336-arrays-layouts-refusal-shows-y-twice", file=ARRAYS,
         old="""f"{out['y'].shape} and {out['y_val'].shape}.")""",
         new="""f"{out['y'].shape} and {out['y'].shape}.")""",
         tests=[T_ARRAYS + "test_y_val_of_the_other_layout_refused_with_both_shapes"] + OLD_ARRAYS,
         why="a y_val of the other layout is refused showing y's shape twice: the two shapes seem to agree"),
    dict(name="v336-arrays-empty-x-val-named-x", file=ARRAYS,
         old='raise DataError(f"{where}: {name} is empty (shape {x.shape}).")',
         new='raise DataError(f"{where}: x is empty (shape {x.shape}).")',
         tests=[T_ARRAYS + "test_arrays_of_zero_length_refused_naming_them"] + OLD_ARRAYS,
         why="an x_val of 0 sequences or 0 steps is refused naming x"),
    dict(name="v336-arrays-y-shape-refusal-shows-expected", file=ARRAYS,
         old='f"to match x, not shape {y.shape}.")',
         new='f"to match x, not shape {(N, T)}.")',
         tests=[T_ARRAYS + "test_targets_of_wrong_shape_or_text_refused_with_what_they_are"] + OLD_ARRAYS,
         why="a y of the wrong shape is refused showing (N, T), the shape it may have, as the shape it has"),
    dict(name="v336-arrays-text-y-refused-with-kind", file=ARRAYS,
         old='raise DataError(f"{where}: {name} must hold numbers, not {y.dtype}.")',
         new='raise DataError(f"{where}: {name} must hold numbers, not {y.dtype.kind}.")',
         tests=[T_ARRAYS + "test_targets_of_wrong_shape_or_text_refused_with_what_they_are"] + OLD_ARRAYS,
         why="a y of text is refused with its dtype's kind letter ('U') instead of its dtype (<U1)"),
    dict(name="v336-arrays-lengths-refusal-shows-size", file=ARRAYS,
         old='f"of shape {lengths.shape}.")',
         new='f"of shape {lengths.size}.")',
         tests=[T_ARRAYS + "test_lengths_of_wrong_shape_refused_with_their_shape"] + OLD_ARRAYS,
         why="lengths of the wrong shape are refused with their element count as their shape ((3, 1) said as 3)"),
    dict(name="v336-arrays-held-out-trains-one-fewer", file=ARRAYS,
         old="        a = N - b\n",
         new="        a = N - b - 1\n",
         tests=[T_ARRAYS + "test_held_out_sizes_at_n_7_10_101"] + OLD_ARRAYS,
         why="the held-out split leaves one sequence out of both sets: 5 train / 1 validation of 7"),
    dict(name="v336-arrays-split-counts-swapped", file=ARRAYS,
         old="        a, b = split\n",
         new="        b, a = split\n",
         tests=[T_ARRAYS + "test_split_takes_a_to_train_and_b_to_validate"] + OLD_ARRAYS,
         why="--split A/B trains on B sequences and validates on A"),
    dict(name="v336-arrays-description-steps-of-x-val", file=ARRAYS,
         old="    T, I = xt.shape[1], xt.shape[2]\n",
         new="    T, I = xv.shape[1], xt.shape[2]\n",
         tests=[T_ARRAYS + "test_description_names_x_steps_and_classes_over_every_split"] + OLD_ARRAYS,
         why="the task's description gives x_val's steps as the training sequences' when the two differ"),
    # ---- the output checks: lnrnn/predict_io.py, lnrnn/files.py ----
    dict(name="v336-pred-npz-taken-as-table", file=PRED,
         old='OUT_FORMATS = (".csv", ".npy")',
         new='OUT_FORMATS = (".csv", ".npy", ".npz")',
         tests=[T_OUT + "test_suffix_other_than_csv_or_npy_refused_and_nothing_written"] + OLD_OUT,
         why="predict's --out p.npz is taken and written as CSV text under a name numpy.load reads as a zip"),
    dict(name="v336-files-folder-refusal-says-out", file=FILES,
         old='f"another {option}.") from None',
         new='f"another --out.") from None',
         tests=[T_OUT + "test_folder_that_cannot_be_made_refused_naming_the_option"] + OLD_OUT,
         why="a folder that cannot be made for --npz or --judge-out is refused as 'choose another --out'"),
]
