"""Planted bugs, round 265 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the stroke sources (lnrnn/data/hershey.py, lnrnn/data/kanjivg.py, lnrnn/data/iamondb.py), twelfth pass:
a Hershey line laid out without the font's space advance after each word; two spaces in a line's text laid out as
one; the first word of a line capitalized at the share of the later words (NAME, not CAPITAL); a line of 33
characters let through the 32-character limit; a KanjiVG file read under the 16 MiB cap of an IAM-OnDB line file
instead of its own 1 MiB; an older release's kvg: prefix bound as the default namespace (a second xmlns, so its
files are refused as malformed); the kanji/ subfolder of a KanjiVG folder ignored; the designs of the description
counted over every file found instead of the charset's; kana lines of up to 5 characters (the latin count); the
writer's slant drawn in the scale's range; an IAM-OnDB point that is not a number named one point later; its text
shown unquoted; task-list line ids matched against file names with their .xml; the official split's description
naming --data-dir instead of the folder the lists came from.

14 mutants. Against the old targeted files alone: 7 of 14 caught; they missed two spaces laid out as one, KanjiVG
files read under IAM-OnDB's cap, the kanji/ subfolder ignored, designs counted as files, kana lines of 5 characters,
task-list ids matched with .xml, and the lists' folder named as --data-dir. The new value tests catch every mutant
on their own (checked with the old files taken off the lists): test_values265_hershey_lines (layout of 'ab  c' in
futural and 'in  go an' in scripts against the HersheyFonts package's own strokes_for_text of the whole line, y
turned up about its baseline, joins folded in by the definition, and 'c' starting at 19 + 19 + 16 + 16 + 3 by hand;
line texts from a scripted stream, every draw written in the test: the first word capitalized at a draw of 0.2, the
second not; lines of 32 and 33 characters counted by hand with and without a closing '?'),
test_values265_kanjivg_files (a file of exactly 1,048,576 bytes read to its three points and one byte more refused
word for word; an older release's file, kvg: bound only in its declaration, read to its points by hand in stroke
order; a kanji/ subfolder's files listed and a stray file beside it not; 3 latin designs counted of 5 .svg files and
kana lines of 1-4 characters in the description's words; make_lines over a scripted stream at fractions of the
documented ranges, the line's stroke-3 by hand), test_values265_iamondb_points (an empty y at point 1 of stroke 1
and x='1O73' at point 3 of stroke 2 refused word for word; task lists of single lines reading those lines only,
counted by hand per side, the description naming tasks/). Left out as equivalent: _word's capitalize made title (a
word is one run of letters or digits before it is wrapped); `rng.random() < WRAP` made <= (a draw of exactly 0.04
has probability zero); form_texts' sorted(forms[key]) left unsorted (the line files come sorted and their numbers
are zero-padded); _ascii_root's and find_lines' isdir made exists (a file named ascii or lineStrokes is not a data
set anyone unpacks); read_limited's f.read(limit + 1) made f.read(limit) (the size is checked just before). Left out
as a crash rather than a value: Designs' cache test inverted (a KeyError on the first design). Left out as not cheap
to reach: installed_files' `len(f.parts) == 2` (the installed kanjivg package lists kanji/*.svg at one level only;
only a faked distribution could tell).

    python tests/mutants/run.py --only 'v265-*'
"""
HER = "lnrnn/data/hershey.py"
KVG = "lnrnn/data/kanjivg.py"
IAM = "lnrnn/data/iamondb.py"

T_HER = "tests/data/test_values265_hershey_lines.py::"
T_KVG = "tests/data/test_values265_kanjivg_files.py::"
T_IAM = "tests/data/test_values265_iamondb_points.py::"
OLD_HER = ["tests/data/test_values246_hershey_words.py", "tests/data/test_values233_hershey_lines.py",
           "tests/data/test_values213_hershey.py"]
OLD_KVG = ["tests/data/test_values246_kanjivg_strokes.py", "tests/data/test_values206_kanjivg.py",
           "tests/data/test_values61_kanjivg_prefix.py", "tests/data/test_values_kanjivg.py"]
OLD_IAM = ["tests/data/test_values249_iamondb_files.py", "tests/data/test_values232_iamondb.py",
           "tests/data/test_values135_iamondb.py"]

MUTANTS = [
    # ---- Hershey lines: lnrnn/data/hershey.py ----
    dict(name="v265-hershey-space-advance-dropped", file=HER,
         old='    space = word_strokes(font, " ")[1]',
         new='    space = word_strokes(font, "")[1]',
         tests=[T_HER + "test_a_line_is_the_fonts_own_line_with_one_space_advance_per_space"] + OLD_HER,
         why="words follow each other without the font's space advance: a line's words run together"),
    dict(name="v265-hershey-double-space-collapsed", file=HER,
         old='    for word in text.split(" "):\n',
         new='    for word in text.split():\n',
         tests=[T_HER + "test_a_line_is_the_fonts_own_line_with_one_space_advance_per_space"] + OLD_HER,
         why="two spaces in a text are laid out as one: the line is narrower than the font writes it"),
    dict(name="v265-hershey-first-word-at-name-share", file=HER,
         old="    text = _word(rng, first=True)",
         new="    text = _word(rng, first=False)",
         tests=[T_HER + "test_the_first_word_is_capitalized_under_capital_not_under_name"] + OLD_HER,
         why="a line's first word is capitalized at NAME's 5 % instead of CAPITAL's 30 %"),
    dict(name="v265-hershey-max-chars-33", file=HER,
         old="MAX_CHARS = 32 ",
         new="MAX_CHARS = 33 ",
         tests=[T_HER + "test_thirty_two_characters_with_the_closing_mark_at_most"] + OLD_HER,
         why="a line of 33 characters (the closing mark included) is let through the 32-character limit"),
    # ---- KanjiVG files: lnrnn/data/kanjivg.py ----
    dict(name="v265-kanjivg-svg-cap-not-passed", file=KVG,
         old='    raw = read_limited(path, MAX_SVG_BYTES, "KanjiVG file")',
         new='    raw = read_limited(path, what="KanjiVG file")',
         tests=[T_KVG + "test_a_file_of_one_mebibyte_is_read_and_one_byte_more_refused"] + OLD_KVG,
         why="a KanjiVG file is read under the 16 MiB cap of an IAM-OnDB line file, not its own 1 MiB"),
    dict(name="v265-kanjivg-prefix-bound-as-default", file=KVG,
         old="""b'<svg xmlns:kvg="' + _KVG_NS""",
         new="""b'<svg xmlns="' + _KVG_NS""",
         tests=[T_KVG + "test_an_older_releases_file_reads_to_its_points_by_hand"] + OLD_KVG,
         why="an older release's file gets a second default namespace instead of the kvg: binding: refused"),
    dict(name="v265-kanjivg-kanji-subfolder-ignored", file=KVG,
         old="    folder = sub if os.path.isdir(sub) else folder",
         new="    folder = sub if os.path.isfile(sub) else folder",
         tests=[T_KVG + "test_the_files_of_a_kanji_subfolder_are_the_ones_listed"] + OLD_KVG,
         why="a folder's kanji/ subfolder is never read: its files are not found, stray ones beside it are"),
    dict(name="v265-kanjivg-designs-counted-as-files", file=KVG,
         old="({len(cps)} designs, {split})",
         new="({len(files)} designs, {split})",
         tests=[T_KVG + "test_the_designs_counted_are_the_charsets_only"] + OLD_KVG,
         why="the description counts every KanjiVG file found as a design, not the charset's characters"),
    dict(name="v265-kanjivg-chars-per-line-latin", file=KVG,
         old="designs, k = Designs(files), CHARS_PER_LINE[charset]",
         new='designs, k = Designs(files), CHARS_PER_LINE["latin"]',
         tests=[T_KVG + "test_a_kana_line_holds_one_to_four_characters"] + OLD_KVG,
         why="kana and kanji lines hold up to 5 characters, the latin count, not 4 and 2"),
    dict(name="v265-kanjivg-slant-in-scale-range", file=KVG,
         old="rng.uniform(*WRITER_SCALE), rng.uniform(*WRITER_SLANT)",
         new="rng.uniform(*WRITER_SCALE), rng.uniform(*WRITER_SCALE)",
         tests=[T_KVG + "test_a_line_of_two_characters_by_hand_from_a_scripted_stream"] + OLD_KVG,
         why="a writer's slant is drawn in 0.8..1.2 (the scale's range) instead of -0.3..0.3"),
    # ---- IAM-OnDB line files and lists: lnrnn/data/iamondb.py ----
    dict(name="v265-iam-points-numbered-from-two", file=IAM,
         old="                       for i, p in enumerate(points)])",
         new="                       for i, p in enumerate(points, 1)])",
         tests=[T_IAM + "test_a_point_that_is_not_a_number_is_named_and_quoted"] + OLD_IAM,
         why="a point that is not a number is named one point later than it is"),
    dict(name="v265-iam-non-numeric-unquoted", file=IAM,
         old="has the non-numeric {name}={text!r}.",
         new="has the non-numeric {name}={text}.",
         tests=[T_IAM + "test_a_point_that_is_not_a_number_is_named_and_quoted"] + OLD_IAM,
         why="the attribute's text is shown unquoted: an empty value shows as nothing at all"),
    dict(name="v265-iam-line-ids-with-extension", file=IAM,
         old="    stems = [os.path.splitext(os.path.basename(p))[0] for p in files]",
         new="    stems = [os.path.basename(p) for p in files]",
         tests=[T_IAM + "test_lists_of_single_lines_read_those_lines_only"] + OLD_IAM,
         why="task-list line ids (a01-000u-01) are matched against file names with .xml: every one is refused"),
    dict(name="v265-iam-split-named-by-data-dir", file=IAM,
         old="""how = f"IAM-OnDB's split: trainset / testset_v of {lists}\"""",
         new="""how = f"IAM-OnDB's split: trainset / testset_v of {data_dir}\"""",
         tests=[T_IAM + "test_lists_of_single_lines_read_those_lines_only"] + OLD_IAM,
         why="the description names --data-dir as the lists' folder where they came from its tasks/"),
]
