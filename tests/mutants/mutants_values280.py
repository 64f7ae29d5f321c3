"""Planted bugs, round 280 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round
mutates, in the stroke and image readers (lnrnn/data/hershey.py, lnrnn/data/kanjivg.py, lnrnn/data/iamondb.py,
lnrnn/data/idx.py), thirteenth pass: a Hershey word's advance width summed over its lower-cased glyphs (a capital
advances by its small letter's width); zero-length pen lifts left unmerged (the strokes returned as given);
SPACING made 2.5 font units; an absolute KanjiVG L drawn relative to the current point; a C's two control points
swapped; an S's first control point taken as the previous second one instead of its reflection; an absolute S's
control point taken relative to the current point; only the first subpath of a stroke kept (a stroke with a second
moveto counted as one); an IAM-OnDB line's Strokes looked up under the root instead of its StrokeSet (every line
refused as empty); an empty StrokeSet tested by its truthiness (it has no children, so it is said to be missing);
a transcription's CSR: lines counted from 1 (the first text line lost where no blank line follows CSR:); an IDX
array reshaped to its dimensions reversed; the labels file read under no magic (an images file given as the labels
refused by its shape, not by its magic); '0 label' written without its plural.

14 mutants. Against the old targeted files alone: not measured yet. The new value tests catch every mutant on
their own (checked with the old files taken off the lists): test_values280_hershey_layout ('Box at' laid out in
futural against the HersheyFonts package's own strokes_for_text of the whole line, y turned up about its
baseline, with 'at' shifted by 21 + 19 + 17 + 16 = 73 by hand from the glyphs' advances; 'an' in scripts, whose
two letters join, one stroke; 400 writers' point spacing over their scale within 2.0 x [0.85, 1.15] and reaching
both ends), test_values280_kanjivg_commands (M/L/l, C/c and S/s path data flattened against de Casteljau's
construction at t = k/16 with the control points written out by hand, S's first control the reflection
2 * current - previous; a file whose first stroke has two subpaths read to 3 strokes, each resampled every 3 units
by hand), test_values280_iamondb_xml (a line written in IAM-OnDB's XML read to its stroke-3 rows by hand, an empty
StrokeSet and a missing one refused word for word, CSR: lines with and without a blank line after the header),
test_values280_idx_headers (a 2 x 3 int16 array and a 2 x 3 x 4 uint8 array by their bytes, an images file given
as the labels refused by its magic word for word, 1 image against 0 labels counted word for word, nothing written
but the test's own files). Left out as equivalent: _commands' `m.end() == pos` (the token's pattern always
consumes a letter or a number, so a match never ends where it starts); write_idx's key without newbyteorder('=')
(lstrip removes the byte-order mark either way); load_mnist_split's ndim and dtype checks (the magics 2051 and
2049 already fix uint8 and 3 or 1 dimensions); form_of's splitext made [:-4] (find_lines keeps only .xml files).
Left out as not cheap to reach: transcriptions' read cap named 'file' (only a 16 MiB transcription would show it).

    python tests/mutants/run.py --only 'v280-*'
"""
HER = "lnrnn/data/hershey.py"
KVG = "lnrnn/data/kanjivg.py"
IAM = "lnrnn/data/iamondb.py"
IDX = "lnrnn/data/idx.py"

T_HER = "tests/data/test_values280_hershey_layout.py::"
T_KVG = "tests/data/test_values280_kanjivg_commands.py::"
T_IAM = "tests/data/test_values280_iamondb_xml.py::"
T_IDX = "tests/data/test_values280_idx_headers.py::"
OLD_HER = ["tests/data/test_values265_hershey_lines.py", "tests/data/test_values246_hershey_words.py",
           "tests/data/test_values233_hershey_lines.py"]
OLD_KVG = ["tests/data/test_values246_kanjivg_strokes.py", "tests/data/test_values233_kanjivg_paths.py",
           "tests/data/test_values206_kanjivg.py"]
OLD_IAM = ["tests/data/test_values265_iamondb_points.py", "tests/data/test_values249_iamondb_files.py",
           "tests/data/test_values135_iamondb.py"]
OLD_IDX = ["tests/data/test_values249_idx_taskdata.py", "tests/data/test_values233_idx_gzip.py",
           "tests/data/test_values186_idx.py"]

MUTANTS = [
    # ---- Hershey layout: lnrnn/data/hershey.py ----
    dict(name="v280-hershey-width-of-lowercased-glyphs", file=HER,
         old="    glyphs = list(font.glyphs_for_text(word))",
         new="    glyphs = list(font.glyphs_for_text(word.lower()))",
         tests=[T_HER + "test_a_capitalized_word_advances_by_its_own_glyphs"] + OLD_HER,
         why="a capital advances by its small letter's width: the next word starts too early"),
    dict(name="v280-hershey-joins-not-merged", file=HER,
         old="            out.append(st)\n    return out\n",
         new="            out.append(st)\n    return strokes\n",
         tests=[T_HER + "test_joined_script_letters_are_one_stroke"] + OLD_HER,
         why="zero-length pen lifts are kept: joined script letters are written as separate strokes"),
    dict(name="v280-hershey-spacing-2-5", file=HER,
         old="SPACING = 2.0 ",
         new="SPACING = 2.5 ",
         tests=[T_HER + "test_a_writers_point_spacing_is_two_font_units_times_speed_and_scale"] + OLD_HER,
         why="points are resampled 2.5 font units apart instead of 2.0: a fifth fewer points per letter"),
    # ---- KanjiVG path data: lnrnn/data/kanjivg.py ----
    dict(name="v280-kanjivg-absolute-l-relative", file=KVG,
         old="        return np.stack([cur, base + a]), None",
         new="        return np.stack([cur, cur + a]), None",
         tests=[T_KVG + "test_absolute_and_relative_lines"] + OLD_KVG,
         why="an absolute L is drawn relative to the current point"),
    dict(name="v280-kanjivg-c-controls-swapped", file=KVG,
         old="        c1, c2, end = base + a[0:2], base + a[2:4], base + a[4:6]",
         new="        c1, c2, end = base + a[2:4], base + a[0:2], base + a[4:6]",
         tests=[T_KVG + "test_absolute_and_relative_cubics_by_de_casteljau"] + OLD_KVG,
         why="a cubic's two control points are swapped: the curve bends the other way"),
    dict(name="v280-kanjivg-s-not-reflected", file=KVG,
         old="        c1 = 2 * cur - ctrl if ctrl is not None else cur",
         new="        c1 = ctrl if ctrl is not None else cur",
         tests=[T_KVG + "test_smooth_cubics_reflect_the_previous_control_point"] + OLD_KVG,
         why="an S's first control point is the previous second one, not its reflection about the current point"),
    dict(name="v280-kanjivg-absolute-s-control-relative", file=KVG,
         old="        c2, end = base + a[0:2], base + a[2:4]",
         new="        c2, end = cur + a[0:2], base + a[2:4]",
         tests=[T_KVG + "test_smooth_cubics_reflect_the_previous_control_point"] + OLD_KVG,
         why="an absolute S's control point is taken relative to the current point"),
    dict(name="v280-kanjivg-first-subpath-only", file=KVG,
         old="        for poly in path_polylines(d, path):",
         new="        for poly in path_polylines(d, path)[:1]:",
         tests=[T_KVG + "test_a_stroke_with_two_subpaths_is_two_polylines"] + OLD_KVG,
         why="a stroke path with a second moveto is read as its first subpath only: a character loses strokes"),
    # ---- IAM-OnDB line files: lnrnn/data/iamondb.py ----
    dict(name="v280-iam-strokes-under-root", file=IAM,
         old='    elems = stroke_set.findall("Stroke")',
         new='    elems = root.findall("Stroke")',
         tests=[T_IAM + "test_a_line_reads_to_its_rows_by_hand"] + OLD_IAM,
         why="the Strokes are looked for directly under the root: every line is refused as empty"),
    dict(name="v280-iam-empty-strokeset-as-missing", file=IAM,
         old="    if stroke_set is None:",
         new="    if not stroke_set:",
         tests=[T_IAM + "test_an_empty_and_a_missing_stroke_set_are_refused_word_for_word"] + OLD_IAM,
         why="an empty <StrokeSet> (no children, so falsy) is said to be missing rather than empty"),
    dict(name="v280-iam-csr-lines-counted-from-one", file=IAM,
         old="    for i, ln in enumerate(lines):",
         new="    for i, ln in enumerate(lines, 1):",
         tests=[T_IAM + "test_the_csr_lines_are_every_line_after_the_header"] + OLD_IAM,
         why="the CSR: section starts one line late: its first text line is lost where no blank line follows"),
    # ---- IDX headers: lnrnn/data/idx.py ----
    dict(name="v280-idx-dims-reversed", file=IDX,
         old="    arr = np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims)",
         new="    arr = np.frombuffer(raw, dtype=dtype, offset=header).reshape(dims[::-1])",
         tests=[T_IDX + "test_arrays_read_row_major_in_the_headers_shape"] + OLD_IDX,
         why="the array is reshaped to its dimensions reversed: a 2 x 3 file reads as 3 x 2"),
    dict(name="v280-idx-labels-without-magic", file=IDX,
         old="read_idx(paths[1], LABELS_MAGIC)",
         new="read_idx(paths[1])",
         tests=[T_IDX + "test_an_images_file_given_as_the_labels_is_refused_by_its_magic"] + OLD_IDX,
         why="the labels file is read under no magic: an images file there is refused by its shape instead"),
    dict(name="v280-idx-zero-labels-singular", file=IDX,
         old="{len(labels)} label{'s' * (len(labels) != 1)}",
         new="{len(labels)} label{'s' * (len(labels) > 1)}",
         tests=[T_IDX + "test_one_image_against_zero_labels_is_counted_word_for_word"] + OLD_IDX,
         why="zero labels are written '0 label'"),
]
