"""Planted bugs, round 233 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates, in
KanjiVG's path parsing, the Hershey lines and the IDX reader: a moveto that keeps the previous curve's control point
(an S right after M reflects it); a relative s's second control point taken as absolute; the tokenizer stopping one
character early (a closing z or a digit right after its letter lost); the refusal of unreadable path data naming
the character after the one it stops at, and the refusal of a wrong count of numbers giving the remainder; the
resampling leaving out the stroke's end; merge_joins dropping the first point of a stroke after a real lift; layout
not merging zero-length lifts; make_lines drawing every line in the first face whatever its name says; the expected
IDX magic compared with the last three bytes only; the non-IDX refusal showing two of the magic's four bytes; the
truncation refusal's promised size without the header; trailing bytes counted from the header; read_idx not passing
the expected magic on.

14 mutants. Against the existing targeted tests alone (test_values_kanjivg, test_values206_kanjivg,
test_values170_kanjivg, test_values144_kanjivg; test_values_hershey, test_values213_hershey, test_values170_hershey;
test_values_idx, test_values186_idx, test_values144_idx, test_values69_idx) 7 were caught and 7 missed: the moveto's
control point (no S followed an M after a curve), both path-data refusals (the only arity sentence checked had fewer
numbers than one multiple, where the remainder is the count; the unreadable-data sentence was never read), the face
of make_lines' lines (names were checked, not the strokes drawn), the magic with a nonzero first byte, the non-IDX
sentence and the trailing-bytes count (never read word for word). The new value tests catch every mutant on their
own (checked with the old files taken off the lists): test_values233_kanjivg_paths (S after M and a relative s
against de Casteljau's points of the controls worked out by hand, z and h7 as last tokens, a 10-unit and an
L-shaped 7-unit run resampled by hand, the refusals word for word at the index of the character and with 7 and 8
numbers), test_values233_hershey_lines (merge_joins on strokes written here, with a half-unit lift after a join;
layout of script words against the HersheyFonts package's own strokes shifted by its widths with the joins folded
in by the definition: 23 strokes, 18 after merging; make_lines over two faces redrawn line by line from the same
seed in the face each name says), test_values233_idx_gzip (a magic of 1 << 24 + 2051, three non-IDX headers shown
as four bytes, a gzipped int16 file cut short with its promised size counted here, 1 and 7 trailing bytes, a
gzipped labels file read with the images' magic, with its own and with none; nothing written by a refusal).
Dropped before the catalogue as equivalent: the moveto's new subpath starting at start instead of cur (the two are
one point there); MERGE_EPS raised to any value under 1 (the fonts' points are integers, so every real lift is at
least one unit, and merging comes before slant and jitter); load_mnist_split's ndim/dtype checks of images and
labels (the magics 2051 and 2049 already fix uint8 and 3 or 1 dimensions, so no file reaching them can fail them);
layout's text.split(" ") as split() (line texts never hold two spaces in a row).

    python tests/mutants/run.py --only 'v233-*'
"""
KVG = "lnrnn/data/kanjivg.py"
HER = "lnrnn/data/hershey.py"
IDX = "lnrnn/data/idx.py"

OLD_KVG = ["tests/data/test_values_kanjivg.py", "tests/data/test_values206_kanjivg.py",
           "tests/data/test_values170_kanjivg.py", "tests/data/test_values144_kanjivg.py"]
OLD_HER = ["tests/data/test_values_hershey.py", "tests/data/test_values213_hershey.py",
           "tests/data/test_values170_hershey.py"]
OLD_IDX = ["tests/data/test_values_idx.py", "tests/data/test_values186_idx.py",
           "tests/data/test_values144_idx.py", "tests/data/test_values69_idx.py"]

K = "tests/data/test_values233_kanjivg_paths.py::"
H = "tests/data/test_values233_hershey_lines.py::"
I = "tests/data/test_values233_idx_gzip.py::"

MUTANTS = [
    dict(name="v233-kanjivg-moveto-keeps-control-point", file=KVG,
         old="                ctrl = None\n                continue",
         new="                continue",
         tests=[K + "test_an_s_right_after_a_moveto_starts_at_the_current_point"] + OLD_KVG,
         why="a moveto keeps the previous curve's control point: an S right after M reflects a control point of "
             "the subpath before instead of starting at the current point"),
    dict(name="v233-kanjivg-smooth-second-control-absolute", file=KVG,
         old="        c2, end = base + a[0:2], base + a[2:4]",
         new="        c2, end = a[0:2], base + a[2:4]",
         tests=[K + "test_a_relative_smooth_curve_takes_both_its_points_from_the_current_point"] + OLD_KVG,
         why="a relative s takes its second control point as absolute (base not added)"),
    dict(name="v233-kanjivg-last-character-not-read", file=KVG,
         old="    while pos < len(d):",
         new="    while pos < len(d) - 1:",
         tests=[K + "test_one_character_last_tokens_are_read"] + OLD_KVG,
         why="the tokenizer stops one character early: a one-character last token (a closing z, a digit after "
             "its command letter) is dropped"),
    dict(name="v233-kanjivg-unreadable-position-one-based", file=KVG,
         old="at character {pos}.",
         new="at character {pos + 1}.",
         tests=[K + "test_unreadable_path_data_is_refused_at_the_character_it_stops_at"] + OLD_KVG,
         why="the refusal of unreadable path data names the character after the one it cannot read"),
    dict(name="v233-kanjivg-arity-refusal-counts-remainder", file=KVG,
         old="got {len(nums)}.",
         new="got {len(nums) % k}.",
         tests=[K + "test_a_wrong_count_of_numbers_is_refused_with_the_count_given"] + OLD_KVG,
         why="the refusal of a wrong count of numbers says how many are left over, not how many were given"),
    dict(name="v233-kanjivg-resample-drops-the-end", file=KVG,
         old="s = np.linspace(0.0, arc[-1], m)",
         new="s = np.linspace(0.0, arc[-1], m, endpoint=False)",
         tests=[K + "test_a_10_unit_run_is_resampled_as_5_points_with_both_ends"] + OLD_KVG,
         why="resampling leaves out the stroke's end point (and spaces the points arc/m apart)"),
    dict(name="v233-hershey-unjoined-stroke-loses-first-point", file=HER,
         old="            out.append(st)",
         new="            out.append(st[1:])",
         tests=[H + "test_a_join_continues_the_stroke_and_a_real_lift_keeps_every_point"] + OLD_HER,
         why="a stroke after a real pen lift loses its first point, as a joined one does"),
    dict(name="v233-hershey-layout-not-merged", file=HER,
         old="    return merge_joins(strokes)",
         new="    return strokes",
         tests=[H + "test_a_script_lines_joined_letters_are_one_stroke"] + OLD_HER,
         why="a line's zero-length pen lifts are not merged: joined script letters stay separate strokes"),
    dict(name="v233-hershey-lines-drawn-in-the-first-face", file=HER,
         old="draw_line(load_font(face)",
         new="draw_line(load_font(faces[0])",
         tests=[H + "test_each_line_is_drawn_in_the_face_its_name_says"] + OLD_HER,
         why="every line is drawn in the first face, whatever face its name says"),
    dict(name="v233-idx-magic-read-from-byte-1", file=IDX,
         old='int.from_bytes(raw[:4], "big") != magic',
         new='int.from_bytes(raw[1:4], "big") != magic',
         tests=[I + "test_a_magic_with_a_nonzero_first_byte_is_a_bad_magic"] + OLD_IDX,
         why="the expected magic is compared with the last three bytes only: a nonzero first byte passes that "
             "check and is refused as no IDX file instead of by the bad-magic sentence"),
    dict(name="v233-idx-bad-magic-shows-two-bytes", file=IDX,
         old="(bad magic number 0x{raw[:4].hex()})",
         new="(bad magic number 0x{raw[2:4].hex()})",
         tests=[I + "test_a_header_that_is_no_idx_magic_shows_its_four_bytes"] + OLD_IDX,
         why="the refusal of a non-IDX header shows only the type and ndim bytes of its magic"),
    dict(name="v233-idx-truncated-counts-data-bytes", file=IDX,
         old="({expected} bytes)",
         new="({expected - header} bytes)",
         tests=[I + "test_a_gzipped_int16_file_cut_short_promises_header_and_two_bytes_an_item"] + OLD_IDX,
         why="the truncation refusal promises the data's bytes without the header"),
    dict(name="v233-idx-extra-bytes-counted-from-header", file=IDX,
         old="{len(raw) - expected} bytes after",
         new="{len(raw) - header} bytes after",
         tests=[I + "test_trailing_bytes_are_counted_after_the_array_alone"] + OLD_IDX,
         why="the refusal of trailing bytes counts every byte after the header, the array's own included"),
    dict(name="v233-idx-read-idx-drops-magic", file=IDX,
         old="parse_idx(_read_bytes(path), str(path), magic)",
         new="parse_idx(_read_bytes(path), str(path))",
         tests=[I + "test_read_idx_checks_the_magic_it_is_given_on_a_gzipped_file"] + OLD_IDX,
         why="read_idx does not pass the expected magic on: a labels file read as images is not refused by it"),
]
