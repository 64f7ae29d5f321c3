"""Planted bugs, round 350 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
the stroke loaders (lnrnn/data/kanjivg.py, lnrnn/data/iamondb.py, lnrnn/data/stroke_files.py,
lnrnn/data/hershey.py), eighteenth pass: KanjiVG's relative and absolute commands swapped; a moveto's first point
taken from the base it is measured from; a trailing comma in path data refused; an entity refusal naming only the
file's base name; a kana or kanji task's "1 characters held out"; an IAM-OnDB point with a non-numeric coordinate
crashing instead of being named; the OCR section read as the transcription; a form's line numbers counted from 0; an
ascii/ folder transcribing none of the lines read not refused; a malformed line file's refusal without the parser's
words; a numeric .npy given to strokes-npz refused as "array"; an .npz under an .npy name refused as expecting an
.npz; strokes-hershey's --split A/B giving B training and A validation lines; each word laid out one space wider.

14 mutants. Against the old targeted files alone (each mutant's v350 files taken off its list): 6 of 14 caught;
missed: a trailing comma in path data refused, the entity refusal naming the base name, '1 characters held out', an
ascii/ folder with no transcription not refused, the malformed-XML refusal without the parser's words, a numeric
.npy named 'array', read_lines expecting the kind found, --split A/B swapped. The new value tests catch every mutant
on their own (checked with the old files taken off the lists): test_values350_kanjivg_paths (M/m, L/l, z read to
points worked out by hand; c/s and C/S after m against the Bezier formula in Bernstein form, the reflected control
point worked out by hand; "M10,20 L30,40 ," read and a stray '#' refused at character 13 counted by hand; an entity
and an uncuttable DOCTYPE refused word for word naming the whole path, nothing written; a kana task of 2, 11 and 15
designs saying 1, 1 and 2 characters held out, round(0.1 n) at least 1), test_values350_iamondb_xml (line files in
IAM-OnDB's XML: a point without y named as point 2 of stroke 1 and x='4,7' as point 3 of stroke 2; a truncated file
refused with the words xml.etree's parser says of the same bytes, nothing written; a DOCTYPE with an external
reference refused word for word; CSR lines read, not the OCR ones above; forms of 2 and 1 lines paired with their 3
transcriptions; an ascii/ folder with no transcription of 2 or 3 lines read refused word for word, nothing written),
test_values350_stroke_files (a numeric .npy refused word for word; an .npz named .npy refused naming both kinds; an
IAM-OnDB .xml read as a list of one line against the rows by hand; save_npz of 1, 2, 10 and 11 lines read back
against the hand-made arrays), test_values350_hershey_layout (a line laid out against the hershey-fonts package's
own strokes_for_text and glyph widths, joins merged by hand, in futural and scripts; --split 11/10 and 2/1 giving
those counts). Left out as equivalent: _commands' 'm.end() == pos' dropped (a match always consumes a letter or a
number); read_limited's read(limit + 1) made read(limit) (the size is checked before); Designs' cache test dropped
(a design parsed again reads the same); the plural of "line ... read" made len(files) > 1 (the refusal needs two
forms, so at least 2 lines); _word's capitalize() made title() (WORDS holds words of letters only and a number has
none, so the two agree).

    python tests/mutants/run.py --only 'v350-*'
"""
KVG = "lnrnn/data/kanjivg.py"
IAM = "lnrnn/data/iamondb.py"
SF = "lnrnn/data/stroke_files.py"
HER = "lnrnn/data/hershey.py"

T_KVG = "tests/data/test_values350_kanjivg_paths.py::"
T_IAM = "tests/data/test_values350_iamondb_xml.py::"
T_SF = "tests/data/test_values350_stroke_files.py::"
T_HER = "tests/data/test_values350_hershey_layout.py::"
OLD_KVG = ["tests/data/test_values324_kanjivg_svg.py", "tests/data/test_values307_kanjivg_relative.py",
           "tests/data/test_values280_kanjivg_commands.py", "tests/data/test_values206_kanjivg.py"]
OLD_IAM = ["tests/data/test_values324_iamondb_lines.py", "tests/data/test_values307_iamondb_forms.py",
           "tests/data/test_values280_iamondb_xml.py", "tests/data/test_values135_iamondb.py"]
OLD_SF = ["tests/data/test_values324_stroke_files.py", "tests/data/test_values299_stroke_files.py",
          "tests/data/test_values275_stroke_files.py"]
OLD_HER = ["tests/data/test_values280_hershey_layout.py", "tests/data/test_values265_hershey_lines.py",
           "tests/data/test_values233_hershey_lines.py", "tests/data/test_values127_hershey.py"]

MUTANTS = [
    # ---- KanjiVG: lnrnn/data/kanjivg.py ----
    dict(name="v350-kanjivg-relative-absolute-swapped", file=KVG,
         old="        rel, up = cmd.islower(), cmd.upper()",
         new="        rel, up = cmd.isupper(), cmd.upper()",
         tests=[T_KVG + "test_lines_absolute_and_relative_read_to_hand_points",
                T_KVG + "test_relative_curves_follow_the_bezier_formula",
                T_KVG + "test_absolute_curves_after_a_relative_start"] + OLD_KVG,
         why="upper-case commands read as relative and lower-case as absolute: every stroke after the first point "
             "lands elsewhere"),
    dict(name="v350-kanjivg-moveto-point-is-its-base", file=KVG,
         old="                subpaths.append([cur[None]])",
         new="                subpaths.append([base[None]])",
         tests=[T_KVG + "test_lines_absolute_and_relative_read_to_hand_points",
                T_KVG + "test_absolute_curves_after_a_relative_start"] + OLD_KVG,
         why="a subpath's first point is the point its moveto is measured from (the origin for M), not the moveto"),
    dict(name="v350-kanjivg-trailing-comma-refused", file=KVG,
         old=r'            if not d[pos:].strip(" ,\t\r\n"):',
         new=r'            if not d[pos:].strip(" \t\r\n"):',
         tests=[T_KVG + "test_a_trailing_comma_is_a_separator_and_a_stray_character_is_placed"] + OLD_KVG,
         why="path data ending in a separating comma is refused as unreadable"),
    dict(name="v350-kanjivg-entity-refusal-names-base-name", file=KVG,
         old='        raise DataError(f"{path} declares XML entities (or is not 8-bit text); refusing to parse it.")',
         new='        raise DataError(f"{os.path.basename(path)} declares XML entities (or is not 8-bit text); '
             'refusing to parse it.")',
         tests=[T_KVG + "test_an_entity_and_an_uncuttable_doctype_are_refused_naming_the_path"] + OLD_KVG,
         why="a file declaring an entity is refused naming only its base name, not where it lies"),
    dict(name="v350-kanjivg-held-plural-at-one", file=KVG,
         old="""else f"{n_held} character{'s' * (n_held != 1)}\"""",
         new="""else f"{n_held} character{'s' * (n_held != 0)}\"""",
         tests=[T_KVG + "test_kana_held_out_counted_in_words"] + OLD_KVG,
         why="a kana or kanji task holding out one design says '1 characters held out for validation'"),
    # ---- IAM-OnDB: lnrnn/data/iamondb.py ----
    dict(name="v350-iamondb-missing-attribute-passes-fast-path", file=IAM,
         old="        ok = False",
         new="        ok = True",
         tests=[T_IAM + "test_a_non_numeric_x_is_refused_naming_it"] + OLD_IAM,
         why="a coordinate that is not a number skips the search for the culprit: an UnboundLocalError, not a "
             "DataError naming the point"),
    dict(name="v350-iamondb-ocr-section-read", file=IAM,
         old='        if ln.strip().startswith("CSR:"):',
         new='        if ln.strip().startswith("OCR:"):',
         tests=[T_IAM + "test_the_csr_section_is_read_not_the_ocr_one",
                T_IAM + "test_forms_of_one_and_two_lines_pair_with_their_transcriptions"] + OLD_IAM,
         why="the transcription is taken from the OCR section (the scan's guess, and the CSR header) instead of CSR"),
    dict(name="v350-iamondb-line-numbers-from-zero", file=IAM,
         old="        forms.setdefault((os.path.dirname(p), form), []).append(k)",
         new="        forms.setdefault((os.path.dirname(p), form), []).append(k - 1)",
         tests=[T_IAM + "test_forms_of_one_and_two_lines_pair_with_their_transcriptions"] + OLD_IAM,
         why="a form's line files counted 0..n-1: every form with a transcription is refused as not matching it"),
    dict(name="v350-iamondb-no-transcription-not-refused", file=IAM,
         old="        if not keep:",
         new="        if not texts:",
         tests=[T_IAM + "test_an_ascii_folder_transcribing_nothing_is_refused_counting_the_lines"] + OLD_IAM,
         why="an ascii/ folder with no transcription of any line read is not refused (texts holds a None per line)"),
    dict(name="v350-iamondb-malformed-without-parser-words", file=IAM,
         old='        raise DataError(f"{path} is malformed or truncated XML ({e}).") from None',
         new='        raise DataError(f"{path} is malformed or truncated XML.") from None',
         tests=[T_IAM + "test_a_truncated_line_file_is_refused_with_the_parsers_words"] + OLD_IAM,
         why="a malformed line file's refusal drops the parser's words (what is wrong, at which line and column)"),
    # ---- stroke files: lnrnn/data/stroke_files.py ----
    dict(name="v350-stroke-files-npy-named-array", file=SF,
         old='        return {"all": _object_sequences(data, path, "the array")}',
         new='        return {"all": _object_sequences(data, path, "array")}',
         tests=[T_SF + "test_a_numeric_npy_is_refused_by_the_task_naming_the_array"] + OLD_SF,
         why="a numeric .npy refused by strokes-npz says 'PATH: array is a ...' instead of naming 'the array'"),
    dict(name="v350-stroke-files-expects-the-found-kind", file=SF,
         old='expected a {ext} holding stroke-3',
         new='expected a .{kind} holding stroke-3',
         tests=[T_SF + "test_an_npz_under_an_npy_name_is_refused_naming_both_kinds"] + OLD_SF,
         why="a file whose content is not the kind its name says is refused as expecting the kind it is"),
    # ---- Hershey: lnrnn/data/hershey.py ----
    dict(name="v350-hershey-split-counts-swapped", file=HER,
         old="    n_train, n_val = S.split_counts(spec)",
         new="    n_val, n_train = S.split_counts(spec)",
         tests=[T_HER + "test_split_gives_that_many_lines"] + OLD_HER,
         why="--split A/B draws B training lines and A validation lines"),
    dict(name="v350-hershey-word-width-with-a-space", file=HER,
         old="        pieces, width = word_strokes(font, word)",
         new='        pieces, width = word_strokes(font, word + " ")',
         tests=[T_HER + "test_a_line_lays_words_out_as_the_package_draws_them"] + OLD_HER,
         why="each word's advance counts one space too many: every later word moves right by a space"),
]
