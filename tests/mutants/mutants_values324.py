"""Planted bugs, round 324 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the stroke loaders (lnrnn/data/iamondb.py, lnrnn/data/kanjivg.py, lnrnn/data/stroke_files.py),
seventeenth pass: an entity declaration without a document type let through (only DOCTYPE looked for); a
non-numeric coordinate's point numbered from 2; a line's x negated instead of its y; line files lying straight in
--data-dir not found; a form's line numbers compared with its transcription in file-name order (unpadded -1 ..
-11 sort 1, 10, 11, 2, ...); texts made for every line file found, not the lines the split reads; a kanji/
subfolder looked for as kanjivg/; a moveto not becoming the point Z closes to; a cubic's 1 - t written t - 1;
make_lines drawing one line too few; --split A/B giving B training and A validation lines; sequences limited to
1,000 points; float lengths accepted (cast to integers); .xml missing from the files read_lines reads.

14 mutants. Against the old targeted files alone: 9 of 14 (missed: a form's line numbers in file-name order,
form_texts over every file found, KanjiVG's --split counts swapped, float lengths cast to integers, an IAM-OnDB .xml
refused by read_lines). The new value tests catch every mutant on their own (checked with the old files taken off
the lists): test_values324_iamondb_lines (line files written in IAM-OnDB's XML: a line's rows by hand with y turned
up and x kept; '<!ENTITY' in a comment refused word for word with nothing written; y='1o5' at point 2 of stroke 2
named so; line files straight in DIR found in name order; a form of 11 unpadded line files paired with its 11 CSR
lines, each file's text the line of its number; forms of 2 and 1 lines with only 2 of their 3 files used getting 2
texts), test_values324_kanjivg_svg (kanji/ files keyed by their hex code points, a variant skipped; Z after M, m and
a relative m closing to each subpath's own start; a cubic's 17 points against the Bernstein form written out;
make_lines at 1, 2, 10 and 11 lines; --split 11/10 and 2/1 giving those counts), test_values324_stroke_files (10,000
points read and 10,001 refused word for word; float lengths refused word for word with nothing written; an IAM-OnDB
.xml read by read_lines to hand rows; packed files of 1, 2, 10 and 11 lines read back against the arrays made in the
test). Left out as equivalent: build's default charset "latin" made another (task_spec always writes the charset
into the spec); check_charset's 'not in CHARSETS' made 'not in CHARS_PER_LINE' (the two dicts have the same keys);
save_npz's savez_compressed made savez (the arrays read back the same).

    python tests/mutants/run.py --only 'v324-*'
"""
IAM = "lnrnn/data/iamondb.py"
KVG = "lnrnn/data/kanjivg.py"
SF = "lnrnn/data/stroke_files.py"

T_IAM = "tests/data/test_values324_iamondb_lines.py::"
T_KVG = "tests/data/test_values324_kanjivg_svg.py::"
T_SF = "tests/data/test_values324_stroke_files.py::"
OLD_IAM = ["tests/data/test_values307_iamondb_forms.py", "tests/data/test_values280_iamondb_xml.py",
           "tests/data/test_values265_iamondb_points.py", "tests/data/test_values135_iamondb.py"]
OLD_KVG = ["tests/data/test_values307_kanjivg_relative.py", "tests/data/test_values280_kanjivg_commands.py",
           "tests/data/test_values265_kanjivg_files.py", "tests/data/test_values206_kanjivg.py"]
OLD_SF = ["tests/data/test_values299_stroke_files.py", "tests/data/test_values275_stroke_files.py",
          "tests/data/test_values244_stroke_files.py", "tests/data/test_values232_stroke_files.py"]

MUTANTS = [
    # ---- IAM-OnDB: lnrnn/data/iamondb.py ----
    dict(name="v324-iamondb-entity-alone-let-through", file=IAM,
         old="    for token in _FORBIDDEN:\n",
         new="    for token in _FORBIDDEN[:1]:\n",
         tests=[T_IAM + "test_an_entity_declaration_without_a_doctype_is_refused_word_for_word"] + OLD_IAM,
         why="only <!DOCTYPE is looked for: a file declaring <!ENTITY without a document type is parsed"),
    dict(name="v324-iamondb-bad-point-numbered-from-2", file=IAM,
         old="                       for i, p in enumerate(points)])",
         new="                       for i, p in enumerate(points, 1)])",
         tests=[T_IAM + "test_a_non_numeric_coordinate_is_named_by_its_point_from_1"] + OLD_IAM,
         why="a non-numeric coordinate is named one point past its place (i + 1 on a count already from 1)"),
    dict(name="v324-iamondb-x-negated-not-y", file=IAM,
         old="    xy[:, 1] *= -1.0",
         new="    xy[:, 0] *= -1.0",
         tests=[T_IAM + "test_a_line_turns_y_up_and_keeps_x"] + OLD_IAM,
         why="the line is mirrored left to right and stays upside down: x negated instead of y"),
    dict(name="v324-iamondb-flat-data-dir-not-searched", file=IAM,
         old="    root = root if os.path.isdir(root) else data_dir",
         new="    root = root if os.path.isdir(data_dir) else data_dir",
         tests=[T_IAM + "test_line_files_straight_in_the_data_dir_are_found"] + OLD_IAM,
         why="a --data-dir holding the line files without a lineStrokes/ folder is searched as DIR/lineStrokes "
             "and refused as holding none"),
    dict(name="v324-iamondb-line-numbers-in-name-order", file=IAM,
         old="            numbers = sorted(forms[key])",
         new="            numbers = forms[key]",
         tests=[T_IAM + "test_eleven_unpadded_line_files_pair_with_eleven_csr_lines"] + OLD_IAM,
         why="a form's line numbers are compared in file-name order: unpadded -1 .. -11 (1, 10, 11, 2, ...) are "
             "refused as not matching their 11 CSR lines"),
    dict(name="v324-iamondb-texts-of-every-file", file=IAM,
         old="    for p in used:\n",
         new="    for p in files:\n",
         tests=[T_IAM + "test_only_the_used_lines_get_texts"] + OLD_IAM,
         why="form_texts returns a text per line file found, not per line the split reads: texts misalign"),
    # ---- KanjiVG: lnrnn/data/kanjivg.py ----
    dict(name="v324-kanjivg-subfolder-named-kanjivg", file=KVG,
         old='    sub = os.path.join(folder, "kanji")',
         new='    sub = os.path.join(folder, "kanjivg")',
         tests=[T_KVG + "test_a_kanji_subfolder_is_keyed_by_code_point"] + OLD_KVG,
         why="the package's kanji/ subfolder is never entered: a folder holding it is refused as holding no files"),
    dict(name="v324-kanjivg-moveto-not-a-start", file=KVG,
         old="                cur = start = base + a",
         new="                cur = base + a",
         tests=[T_KVG + "test_z_closes_to_the_latest_moveto"] + OLD_KVG,
         why="a moveto does not become the subpath's start: Z closes to the origin (or an earlier point)"),
    dict(name="v324-kanjivg-cubic-u-sign", file=KVG,
         old="    u = 1 - t",
         new="    u = t - 1",
         tests=[T_KVG + "test_a_cubic_follows_the_bernstein_form"] + OLD_KVG,
         why="1 - t written t - 1: the first and third Bernstein terms change sign, the curve leaves its ends"),
    dict(name="v324-kanjivg-make-lines-one-short", file=KVG,
         old="    for _ in range(count):",
         new="    for _ in range(1, count):",
         tests=[T_KVG + "test_make_lines_draws_count_lines"] + OLD_KVG,
         why="make_lines draws count - 1 lines: a task has one line fewer than asked in each split"),
    dict(name="v324-kanjivg-split-counts-swapped", file=KVG,
         old="    n_train, n_val = S.split_counts(spec)",
         new="    n_val, n_train = S.split_counts(spec)",
         tests=[T_KVG + "test_split_gives_that_many_lines"] + OLD_KVG,
         why="--split A/B draws B training lines and A validation lines"),
    # ---- stroke files: lnrnn/data/stroke_files.py ----
    dict(name="v324-stroke-files-max-points-1000", file=SF,
         old="MAX_POINTS = 10000   #",
         new="MAX_POINTS = 1000   #",
         tests=[T_SF + "test_ten_thousand_points_read_and_one_more_refused"] + OLD_SF,
         why="a zero dropped: sequences past 1,000 points (IAM-OnDB's longest lines have ~2,000) are refused"),
    dict(name="v324-stroke-files-lengths-cast-to-int", file=SF,
         old="    lengths = np.asarray(lengths)\n",
         new="    lengths = np.asarray(lengths, np.int64)\n",
         tests=[T_SF + "test_float_lengths_are_refused_word_for_word"] + OLD_SF,
         why="float lengths are cast to integers and accepted instead of refused as not an integer array"),
    dict(name="v324-stroke-files-xml-not-a-line-file", file=SF,
         old='LINE_FILES = (".npy", ".npz", ".xml")',
         new='LINE_FILES = (".npy", ".npz")',
         tests=[T_SF + "test_read_lines_reads_an_iamondb_xml"] + OLD_SF,
         why="read_lines refuses an IAM-OnDB line .xml as not a stroke file it reads"),
]
