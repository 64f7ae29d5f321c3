"""Planted bugs, round 249 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the IAM-OnDB reader (lnrnn/data/iamondb.py), the IDX reader (lnrnn/data/idx.py) and the built task
(lnrnn/data/taskdata.py), second pass over file formats: a file over its cap refused naming the cap as its size and
its size as the cap; a wrong root element refused with the expected and found names swapped; a StrokeSet without a
Stroke let through to a ValueError; a NaN coordinate let through by a fast path that asks for any finite value
instead of all; a point lacking y read as its x; a transcription with more CSR lines than line files refused
counting the line files as CSR lines; a task list's bad entry shown whole instead of cut at 40 characters; a task
list of blank lines accepted as listing nothing; entries naming no line file counted against the names found
instead of the list's entries; the description counting lines as forms; IDX dims read little-endian; the IDX header
taken as 4 * ndim bytes (the magic forgotten); the type code and ndim bytes swapped; a batch's default dtype
float64.

14 mutants. Against the old targeted files alone (the OLD_* lists): 7 caught (the size refusal's numbers, NaN's fast
path, y read as x, the missing entries' count, and the three IDX header slips); missed were the root refusal's names
swapped, a line with no strokes let through, the transcription count, a bad entry shown whole, a blank task list
accepted, lines counted as forms and a float64 batch by default. The new value tests catch every mutant on their own
(checked with the old files taken off the lists): test_values249_iamondb_files (files in IAM-OnDB's true format
written here: a transcription of 1,234 bytes over a cap of 1,000 word for word and at its cap read whole; an <InkML>
root; an empty StrokeSet; x='NaN' at point 2 of stroke 2; a point 3 without y; three CSR lines for two line files; a
48-character note on line 3 of a list, after a blank line, shown to its first 40; a list of blank lines only; 5 of 6
entries naming no file where the files give 5 names; 5 forms of 11 lines split by form, the held-out count against
VAL_FRACTION; time stamps running backwards leaving the rows by hand), test_values249_idx_taskdata (an int16 (2, 3)
IDX packed by struct with -1, 256, 300 and -32768; a uint8 label file under magic 2049; one byte short, a header cut
at 11 of its 12 bytes and one byte past refused word for word; a uint8 batch float32 by default, scaled by 1/255 in
float32 by hand). Left out as equivalent: read_limited's f.read(limit + 1) made f.read(limit) (the size was checked
against the cap just before); load_mnist_split's ndim != 3 and dtype != uint8 checks made weaker (the magics 2051
and 2049 already fix code 0x08 and ndim 3 or 1); official_split's order left unsorted (the split's two sides keep
the files' order and the mask follows each file); write_idx's key without newbyteorder('=') (lstrip drops the
byte-order mark either way). Left out as nothing to mutate: the reader never reads a point's time, so a time stamp
going backwards has no decision to slip (the new test shows the rows are the points as written); taskdata.py's other
code lines are all mutated by earlier rounds.

    python tests/mutants/run.py --only 'v249-*'
"""
IAM = "lnrnn/data/iamondb.py"
IDX = "lnrnn/data/idx.py"
TD = "lnrnn/data/taskdata.py"

T_IAM = "tests/data/test_values249_iamondb_files.py::"
T_IDX = "tests/data/test_values249_idx_taskdata.py::"
OLD_IAM = ["tests/data/test_values232_iamondb.py", "tests/data/test_values206_iamondb.py",
           "tests/data/test_values170_iamondb.py", "tests/data/test_values135_iamondb.py"]
OLD_IDX = ["tests/data/test_values_idx.py", "tests/data/test_values186_idx.py",
           "tests/data/test_values233_idx_gzip.py"]
OLD_TD = ["tests/data/test_values_taskdata.py"]

MUTANTS = [
    # ---- IAM-OnDB: XML read defensively, one line file ----
    dict(name="v249-iam-cap-message-size-and-limit-swapped", file=IAM,
         old='raise DataError(f"{what} {path} is {size:,} bytes, more than the {limit:,} allowed; "',
         new='raise DataError(f"{what} {path} is {limit:,} bytes, more than the {size:,} allowed; "',
         tests=[T_IAM + "test_a_file_past_its_cap_is_refused_naming_its_size_then_the_cap"] + OLD_IAM,
         why="a file over its cap is refused naming the cap as its size and its size as the cap"),
    dict(name="v249-iam-root-message-swapped", file=IAM,
         old='raise DataError(f"{path} has root element <{root.tag}>, not <{ROOT}>;',
         new='raise DataError(f"{path} has root element <{ROOT}>, not <{root.tag}>;',
         tests=[T_IAM + "test_a_root_other_than_iam_ondbs_own_is_refused"] + OLD_IAM,
         why="a file with another root element is refused as having IAM-OnDB's own root element, not the other"),
    dict(name="v249-iam-empty-stroke-set-not-refused", file=IAM,
         old="    if not elems:\n",
         new="    if elems is None:\n",
         tests=[T_IAM + "test_a_line_with_no_strokes_is_refused_as_empty"] + OLD_IAM,
         why="a line with no strokes is let through: a ValueError from to_stroke3 instead of a DataError naming it"),
    dict(name="v249-iam-fast-path-any-finite", file=IAM,
         old="        ok = bool(np.isfinite(xy).all())",
         new="        ok = bool(np.isfinite(xy).any())",
         tests=[T_IAM + "test_a_nan_coordinate_is_refused_naming_its_point_and_stroke"] + OLD_IAM,
         why="a NaN coordinate passes the fast path when any other value is finite: NaN rows reach training"),
    dict(name="v249-iam-number-reads-x", file=IAM,
         old="    text = elem.get(name)",
         new='    text = elem.get("x")',
         tests=[T_IAM + "test_a_point_without_y_is_refused_naming_y"] + OLD_IAM,
         why="the careful path reads x for every coordinate: a point lacking y is read with y = x, not refused"),
    # ---- IAM-OnDB: transcriptions, task lists, the description ----
    dict(name="v249-iam-csr-count-is-line-files", file=IAM,
         old="has {len(csr[key])} line{'s' * (len(csr[key]) != 1)} after",
         new="has {len(numbers)} line{'s' * (len(csr[key]) != 1)} after",
         tests=[T_IAM + "test_a_transcription_with_more_lines_than_line_files_is_refused"] + OLD_IAM,
         why="a transcription that does not pair with its line files is refused counting the files as CSR lines"),
    dict(name="v249-iam-bad-entry-shown-whole", file=IAM,
         old="line {n}: {entry[:40]!r} is not",
         new="line {n}: {entry!r} is not",
         tests=[T_IAM + "test_a_bad_list_entry_is_shown_to_forty_characters_on_its_line"] + OLD_IAM,
         why="a task list's bad entry is shown whole (a binary file's whole line), not its first 40 characters"),
    dict(name="v249-iam-blank-list-accepted", file=IAM,
         old="    if not entries:\n",
         new="    if entries is None:\n",
         tests=[T_IAM + "test_a_list_of_blank_lines_lists_no_forms"] + OLD_IAM,
         why="a task list of blank lines is accepted as listing no forms: an empty split instead of a refusal"),
    dict(name="v249-iam-missing-counted-of-names-found", file=IAM,
         old="{len(missing)} of the {len(entries)} {'entry'",
         new="{len(missing)} of the {len(by_name)} {'entry'",
         tests=[T_IAM + "test_entries_naming_no_line_file_are_counted_of_the_lists_entries"] + OLD_IAM,
         why="entries naming no line file are counted against the names the files give, not the list's entries"),
    dict(name="v249-iam-description-counts-lines-as-forms", file=IAM,
         old='    forms = f"{n_forms} form{\'s\' * (n_forms != 1)}"',
         new='    forms = f"{len(files)} form{\'s\' * (n_forms != 1)}"',
         tests=[T_IAM + "test_the_description_counts_forms_not_lines"] + OLD_IAM,
         why="the description gives the count of lines read as the count of forms"),
    # ---- IDX ----
    dict(name="v249-idx-dims-little-endian", file=IDX,
         old='raw[4 + 4 * k: 8 + 4 * k], "big")',
         new='raw[4 + 4 * k: 8 + 4 * k], "little")',
         tests=[T_IDX + "test_an_int16_array_reads_as_written",
                T_IDX + "test_one_byte_short_of_the_data_is_refused_with_its_counts"] + OLD_IDX,
         why="the dims are read little-endian: every real IDX file looks truncated by gigabytes"),
    dict(name="v249-idx-header-without-magic", file=IDX,
         old="    header = 4 + 4 * ndim\n",
         new="    header = 4 * ndim\n",
         tests=[T_IDX + "test_an_int16_array_reads_as_written",
                T_IDX + "test_one_byte_short_of_the_data_is_refused_with_its_counts",
                T_IDX + "test_a_header_cut_inside_its_dims_is_refused"] + OLD_IDX,
         why="the header's length forgets the 4-byte magic: whole files refused as 4 bytes too long"),
    dict(name="v249-idx-code-and-ndim-swapped", file=IDX,
         old="    zero, code, ndim = raw[:2], raw[2], raw[3]",
         new="    zero, code, ndim = raw[:2], raw[3], raw[2]",
         tests=[T_IDX + "test_an_int16_array_reads_as_written",
                T_IDX + "test_a_label_file_under_its_magic"] + OLD_IDX,
         why="the type code is read from the ndim byte and the other way round: valid files refused as not IDX"),
    # ---- the built task ----
    dict(name="v249-taskdata-batch-default-float64", file=TD,
         old="    def batch(self, which, idx, dtype=np.float32):",
         new="    def batch(self, which, idx, dtype=np.float64):",
         tests=[T_IDX + "test_a_batch_is_float32_by_default_and_scaled_in_float32"] + OLD_TD,
         why="a batch asked for without a dtype is float64: twice the memory and the float64 kernels"),
]
