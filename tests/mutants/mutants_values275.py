"""Planted bugs, round 275 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the data preparation's counts, sizes and refusals (thirteenth pass): lnrnn/data/splits.py,
lnrnn/data/arrays.py, lnrnn/data/strokes.py and lnrnn/data/stroke_files.py. --split A/B parsed as (B, A); the
npz task's keys without lengths_val (a file's own validation lengths refused as an unknown array); a held-out
fifth instead of a tenth; a file lacking x and y refused as 'lacks x, y'; a file of one sequence refused as
'holds 1 sequences'; the description's steps and inputs swapped; a text file refused as beginning with bytes
and a binary one as text; a CTC-read batch one padded step longer than its longest line; the glitch threshold
defaulting to 100 source units; a folder's .npy files not counted (a folder of a.npy and b.npz reads b.npz); an
.npz of a lone train array taken for sketch-rnn's train + valid (refused for the array's dtype, or a KeyError,
instead of naming its arrays); a negative length's entry counted from 1; lengths adding past the rows refused
naming their count for their sum.

13 mutants. Against the old targeted files alone: 7 of 13 caught (missed: 'lacks x, y' for 'lacks x and y', '1
sequences', text and binary files named the wrong way round, a CTC batch padded one step too long, a train array
without valid taken for sketch-rnn's layout, the sum refusal naming the count). The new value tests catch every
mutant on their own (checked with the old files taken off the lists): test_values275_arrays (--split 5/2 of 11
against the first 5 and next 2 of the seed-0 permutation drawn in the test; held-out sizes at N = 14 and 36, the
nearest whole number to a tenth: 1 and 4, where a fifth gives 3 and 7; lengths_val read and each set's batches
carrying their own lengths; the description's '4 steps of 3 inputs' / '1 input' written out; the refusals of a file
lacking x and y, of one sequence and of a text file word for word, with nothing written beside the file),
test_values275_stroke_files (a CTC batch of lines of 3 and 2 points of shape (3, 2, 3) with zero padding and the
labels of alphabet codes + 1; an offset exactly 1000 long kept and one of hypot(600, 800.5) dropped with its pen
lift moved back; the strokes-npz refusals of two files in a folder, a lone train array, a negative length at entry 2
and lengths summing to 5 over 4 rows, word for word). Left out as equivalent: ctc_steps_needed's labels >= 0 made >
0 (a CTC label is a code + 1, never 0); drop_long_steps's seq[kept].copy() without .copy() (fancy indexing copies);
the npz sets' list keyed on y_val instead of x_val (the two are refused unless both or neither are given); the
plural 's' * (I != 1) made I > 1 (x of 0 inputs is refused before). Left out as a crash rather than a value: the
copy task's one-hot of COPY_ALPHABET + 1 codes. Left out as too costly to test cheaply: the synthetic spike's angle
drawn over half a turn (only a full rebuild of the seeded generator tells the two apart) and the adding task's
float32 draws made float64 (the test would restate the builder line for line).

    python tests/mutants/run.py --only 'v275-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
SPLITS = "lnrnn/data/splits.py"
STROKES = "lnrnn/data/strokes.py"
FILES = "lnrnn/data/stroke_files.py"

T_ARRAYS = "tests/data/test_values275_arrays.py::"
T_FILES = "tests/data/test_values275_stroke_files.py::"
OLD_ARRAYS = ["tests/data/test_own_data.py", "tests/data/test_values240_arrays.py",
              "tests/data/test_values258_arrays.py", "tests/data/test_values_splits.py"]
OLD_FILES = ["tests/data/test_strokes_data.py", "tests/data/test_values_stroke_files.py",
             "tests/data/test_values244_stroke_files.py", "tests/data/test_values258_strokes.py"]

MUTANTS = [
    # ---- --split and the npz task: lnrnn/data/splits.py, lnrnn/data/arrays.py ----
    dict(name="v275-splits-counts-swapped", file=SPLITS,
         old="    return a, b\n",
         new="    return b, a\n",
         tests=[T_ARRAYS + "test_split_counts_taken_in_their_order",
                T_ARRAYS + "test_split_five_two_of_eleven_is_the_permutations_first_five_then_two"] + OLD_ARRAYS,
         why="--split A/B is read as B training and A validation sequences"),
    dict(name="v275-arrays-keys-without-lengths-val", file=ARRAYS,
         old='KEYS = ("x", "y", "lengths", "x_val", "y_val", "lengths_val")',
         new='KEYS = ("x", "y", "lengths", "x_val", "y_val")',
         tests=[T_ARRAYS + "test_own_lengths_val_read_and_carried_by_validation_batches"] + OLD_ARRAYS,
         why="a file's own lengths_val is refused as an array the npz task does not read"),
    dict(name="v275-arrays-held-out-a-fifth", file=ARRAYS,
         old="VAL_FRACTION = 0.1 ",
         new="VAL_FRACTION = 0.2 ",
         tests=[T_ARRAYS + "test_held_out_a_tenth_at_awkward_sizes"] + OLD_ARRAYS,
         why="without x_val or --split a fifth of the sequences is held out, not a tenth"),
    dict(name="v275-arrays-lacks-joined-by-comma", file=ARRAYS,
         old="""raise DataError(f"{where} lacks {' and '.join(missing)}: the npz task""",
         new="""raise DataError(f"{where} lacks {', '.join(missing)}: the npz task""",
         tests=[T_ARRAYS + "test_file_lacking_x_and_y_refused_naming_both"] + OLD_ARRAYS,
         why="a file lacking both arrays is refused as 'lacks x, y' instead of 'lacks x and y'"),
    dict(name="v275-arrays-one-sequence-plural", file=ARRAYS,
         old='raise DataError(f"{path} holds {N} sequence; holding some out',
         new='raise DataError(f"{path} holds {N} sequences; holding some out',
         tests=[T_ARRAYS + "test_one_sequence_refused_in_the_singular"] + OLD_ARRAYS,
         why="a file of one sequence is refused as holding '1 sequences'"),
    dict(name="v275-arrays-description-steps-inputs-swapped", file=ARRAYS,
         old='f"your sequences from {path}: {T} steps of {I} input{',
         new='f"your sequences from {path}: {I} steps of {T} input{',
         tests=[T_ARRAYS + "test_description_says_steps_then_inputs"] + OLD_ARRAYS,
         why="the description names the inputs per step as the steps and the steps as the inputs"),
    dict(name="v275-arrays-text-file-said-binary", file=ARRAYS,
         old="""({'text' if text else 'it begins with bytes'} \"""",
         new="""({'text' if not text else 'it begins with bytes'} \"""",
         tests=[T_ARRAYS + "test_text_and_binary_files_refused_saying_which"] + OLD_ARRAYS,
         why="a text file is refused as beginning with bytes and a binary one as text"),
    # ---- stroke tasks and stroke files: lnrnn/data/strokes.py, lnrnn/data/stroke_files.py ----
    dict(name="v275-strokes-ctc-batch-one-step-long", file=STROKES,
         old="        lengths = s.starts[idx + 1] - first                               # (B,) steps = points\n"
             "        T, B = int(lengths.max()) if len(idx) else 0, len(idx)\n",
         new="        lengths = s.starts[idx + 1] - first                               # (B,) steps = points\n"
             "        T, B = int(lengths.max()) + 1 if len(idx) else 0, len(idx)\n",
         tests=[T_FILES + "test_ctc_batch_padded_to_its_longest_line"] + OLD_FILES,
         why="a CTC-read batch is padded one step past its longest line"),
    dict(name="v275-strokes-glitch-threshold-hundred", file=STROKES,
         old="GLITCH_STEP = 1000.0 ",
         new="GLITCH_STEP = 100.0 ",
         tests=[T_FILES + "test_glitch_threshold_default_is_a_thousand"] + OLD_FILES,
         why="offsets longer than 100 source units are dropped as glitches: real pen-up moves are cut"),
    dict(name="v275-files-folder-counts-npz-only", file=FILES,
         old='if f.endswith((".npz", ".npy")) and os.path.isfile',
         new='if f.endswith((".npz",)) and os.path.isfile',
         tests=[T_FILES + "test_folder_of_an_npy_and_an_npz_refused_naming_both"] + OLD_FILES,
         why="a folder's .npy files are not counted: a folder of a.npy and b.npz silently reads b.npz"),
    dict(name="v275-files-train-without-val-taken", file=FILES,
         old='    if "train" in keys and val:\n',
         new='    if "train" in keys:\n',
         tests=[T_FILES + "test_lone_train_array_refused_listing_the_arrays"] + OLD_FILES,
         why="an .npz of a train array without valid is taken for sketch-rnn's train + valid: refused for the array's "
             "dtype (a KeyError for an object array) instead of naming the arrays it has"),
    dict(name="v275-files-negative-length-entry-from-one", file=FILES,
         old="include {int(lengths[i])} (entry {i}); a sequence's",
         new="include {int(lengths[i])} (entry {i + 1}); a sequence's",
         tests=[T_FILES + "test_negative_length_refused_at_its_entry_counted_from_zero"] + OLD_FILES,
         why="a negative length's entry is counted from 1 where arrays are indexed from 0"),
    dict(name="v275-files-sum-names-the-count", file=FILES,
         old='add up to {int(lengths.sum())} but it has "',
         new='add up to {len(lengths)} but it has "',
         tests=[T_FILES + "test_lengths_adding_past_the_rows_refused_with_their_sum"] + OLD_FILES,
         why="lengths that do not add up to the rows are refused naming how many there are, not their sum"),
]
