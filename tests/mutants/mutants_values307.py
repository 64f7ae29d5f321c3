"""Planted bugs, round 307 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the stroke and image readers (lnrnn/data/iamondb.py, lnrnn/data/kanjivg.py, lnrnn/data/hershey.py,
lnrnn/data/idx.py), sixteenth pass: an empty IAM-OnDB stroke numbered one past its place (stroke 2 for the first); a
form's line files given the plural of its transcription's line count ('1 line files'); a folder holding only one
of the two task lists taken as the lists' folder; the 'name/names' of entries naming no line file inverted ('1 of
the 2 entries ... name', '2 ... names'); the official split's files returned training first, not in name order;
the lines skipped for want of a transcription counted among every file found, not the lines the split reads;
relative KanjiVG commands (m, l, ...) refused as unsupported; relative commands drawn as absolute ones; path
coordinates truncated to whole numbers; write_idx's refusal naming the dtype's short code (i8) instead of its name;
the t10k split reading the training files; a label past 9 named by its position instead of its value; the last of
Hershey's inner marks (':') never drawn.

13 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values307_iamondb_forms (line files written in
IAM-OnDB's XML: an empty stroke at places 1 and 2 and a Point without y or x refused word for word naming their
place counted from 1; transcriptions of 2 lines against a form of 1 line file and of 1 line against 2 line files
refused with both counts and plurals written out; forms of 1 and 2 lines reading their texts; trainset.txt alone
in DIR and testset_v.txt alone in DIR/tasks refused word for word with nothing written; 1 and 2 entries of 2, and
1 of 1, naming no line file counted word for word; the official split with its validation form named first
returning the files in name order and the mask by hand; a task with 1 and with 2 listed lines lacking text among
4 and 5 files found, skipped_no_text and the description's count by hand), test_values307_kanjivg_relative
(m/l after M/L worked out from the current point by hand; halves, quarters and eighths kept as written; a file of
2 paths and 3 subpaths read to 3 strokes whose ends and point counts, 12 / 3 + 1 and 6 / 3 + 1, are written out,
y turned up), test_values307_idx_hershey (t10k and train files packed byte by byte in one folder, each split its
own; labels 3, 12, 5 refused naming 12; int64, float16 and uint16 refused word for word with nothing written;
2000 line texts of one stream holding each of INNER_MARKS followed by a space). Left out as equivalent:
_stroke_points' except (TypeError, ValueError) made except ValueError (NumPy turns a missing attribute's None into
NaN, so no TypeError is raised and the slow path names the point either way); read_limited's
f.read(limit + 1) made f.read(limit) (the size is checked against the limit first);
build's 'no transcription of the N line(s) read' plural taken over the kept lines (a built task needs two forms,
so N >= 2 and the plural is 's' either way); the description's form plural made n_forms > 1 or taken over the
lines (a task whose two splits are not empty has at least two forms left); _stroke_points' `if not ok` made
`if ok is False` (ok is always a bool); read_split_list's _ENTRY.match made search (the pattern is anchored at
both ends and entries are stripped); path_polylines' first point cur[None] made start[None] (both are the moveto's
point there); Hershey's WRAP draw with <= for < (a continuous draw equals WRAP with probability 0).

    python tests/mutants/run.py --only 'v307-*'
"""
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
HER = "lnrnn/data/hershey.py"
IDX = "lnrnn/data/idx.py"

T_IAM = "tests/data/test_values307_iamondb_forms.py::"
T_KVG = "tests/data/test_values307_kanjivg_relative.py::"
T_IH = "tests/data/test_values307_idx_hershey.py::"
OLD_IAM = ["tests/data/test_values280_iamondb_xml.py", "tests/data/test_values265_iamondb_points.py",
           "tests/data/test_values249_iamondb_files.py", "tests/data/test_values232_iamondb.py"]
OLD_KVG = ["tests/data/test_values280_kanjivg_commands.py", "tests/data/test_values233_kanjivg_paths.py",
           "tests/data/test_values206_kanjivg.py"]
OLD_IDX = ["tests/data/test_values280_idx_headers.py", "tests/data/test_values186_idx.py",
           "tests/data/test_values144_idx.py"]
OLD_HER = ["tests/data/test_values265_hershey_lines.py", "tests/data/test_values246_hershey_words.py",
           "tests/data/test_values233_hershey_lines.py"]

MUTANTS = [
    # ---- IAM-OnDB: lnrnn/data/iamondb.py ----
    dict(name="v307-iamondb-empty-stroke-numbered-one-past", file=IAM,
         old='raise DataError(f"{path}: stroke {k} has no <Point>; an empty stroke is not valid.")',
         new='raise DataError(f"{path}: stroke {k + 1} has no <Point>; an empty stroke is not valid.")',
         tests=[T_IAM + "test_an_empty_stroke_is_named_by_its_place_counted_from_1"] + OLD_IAM,
         why="an empty stroke is named one past its place (k is already counted from 1): stroke 2 for the first"),
    dict(name="v307-iamondb-line-files-plural-of-csr-count", file=IAM,
         old="has {len(numbers)} line file{'s' * (len(numbers) != 1)} in",
         new="has {len(numbers)} line file{'s' * (len(csr[key]) != 1)} in",
         tests=[T_IAM + "test_a_transcription_not_matching_its_line_files_counts_both"] + OLD_IAM,
         why="the form's line files take the plural of the transcription's count: '1 line files', '2 line file'"),
    dict(name="v307-iamondb-one-task-list-taken", file=IAM,
         old="        if all(have):\n            return folder",
         new="        if any(have):\n            return folder",
         tests=[T_IAM + "test_one_task_list_alone_is_refused_with_nothing_written"] + OLD_IAM,
         why="a folder holding only one of trainset.txt and testset_v.txt is taken as the lists' folder instead "
             "of refused naming the absent one"),
    dict(name="v307-iamondb-missing-entries-verb-inverted", file=IAM,
         old="name{'s' * (len(missing) == 1)} no line file",
         new="name{'s' * (len(missing) != 1)} no line file",
         tests=[T_IAM + "test_entries_naming_no_line_file_are_counted_at_1_and_2"] + OLD_IAM,
         why="'1 of the 2 entries ... name no line file' and '2 ... names': the verb disagrees with the count"),
    dict(name="v307-iamondb-official-order-unsorted", file=IAM,
         old='    order = sorted(chosen["train"] + chosen["val"])',
         new='    order = chosen["train"] + chosen["val"]',
         tests=[T_IAM + "test_the_official_split_keeps_name_order_with_validation_first"] + OLD_IAM,
         why="the official split's files come training first, not in the name order of every other split"),
    dict(name="v307-iamondb-skipped-counted-over-all-files", file=IAM,
         old='"skipped_no_text": skipped})',
         new='"skipped_no_text": len(all_files) - len(files)})',
         tests=[T_IAM + "test_lines_without_text_are_counted_among_the_lines_read"] + OLD_IAM,
         why="the lines skipped for want of text are counted among every file found, so files in no task list "
             "count as skipped"),
    # ---- KanjiVG: lnrnn/data/kanjivg.py ----
    dict(name="v307-kanjivg-relative-commands-refused", file=KVG,
         old="            if m[1].upper() not in _ARITY:",
         new="            if m[1] not in _ARITY:",
         tests=[T_KVG + "test_relative_moves_and_lines_start_from_the_current_point",
                T_KVG + "test_a_file_counts_one_stroke_per_subpath_with_its_ends"] + OLD_KVG,
         why="every relative command (m, l, c, s, ...) is refused as unsupported"),
    dict(name="v307-kanjivg-relative-drawn-absolute", file=KVG,
         old="            out.append((m[1], []))",
         new="            out.append((m[1].upper(), []))",
         tests=[T_KVG + "test_relative_moves_and_lines_start_from_the_current_point",
                T_KVG + "test_a_file_counts_one_stroke_per_subpath_with_its_ends"] + OLD_KVG,
         why="relative commands are drawn as absolute ones: l5,0 goes to (5, 0), not 5 units on"),
    dict(name="v307-kanjivg-coordinates-truncated", file=KVG,
         old="            out[-1][1].append(float(m[2]))",
         new="            out[-1][1].append(int(float(m[2])))",
         tests=[T_KVG + "test_fractional_coordinates_are_kept_as_written",
                T_KVG + "test_a_file_counts_one_stroke_per_subpath_with_its_ends"] + OLD_KVG,
         why="path coordinates lose their fractions (10.5 read as 10)"),
    # ---- IDX: lnrnn/data/idx.py ----
    dict(name="v307-idx-dtype-refusal-names-its-code", file=IDX,
         old='raise ValueError(f"IDX cannot store dtype {arr.dtype}")',
         new='raise ValueError(f"IDX cannot store dtype {key}")',
         tests=[T_IH + "test_a_dtype_idx_cannot_store_is_refused_with_nothing_written"] + OLD_IDX,
         why="write_idx's refusal names the dtype's short code (i8, f2) instead of its name"),
    dict(name="v307-idx-t10k-reads-train-files", file=IDX,
         old="    img_stem, lab_stem = MNIST_FILES[split]",
         new='    img_stem, lab_stem = MNIST_FILES["train"]',
         tests=[T_IH + "test_the_t10k_split_reads_its_own_files"] + OLD_IDX,
         why="the split asked for is not passed on: t10k reads the training files"),
    dict(name="v307-idx-label-named-by-position", file=IDX,
         old="holds label {int(labels.max())};",
         new="holds label {int(labels.argmax())};",
         tests=[T_IH + "test_a_label_past_9_is_named_by_its_value"] + OLD_IDX,
         why="a label past 9 is named by its position in the file instead of its value"),
    # ---- Hershey: lnrnn/data/hershey.py ----
    dict(name="v307-hershey-last-inner-mark-never-drawn", file=HER,
         old='sep = INNER_MARKS[int(rng.integers(len(INNER_MARKS)))] + " "',
         new='sep = INNER_MARKS[int(rng.integers(len(INNER_MARKS) - 1))] + " "',
         tests=[T_IH + "test_every_inner_mark_turns_up_followed_by_a_space"] + OLD_HER,
         why="off by one: the last inner mark (':') never follows a word, so no training text holds it"),
]
