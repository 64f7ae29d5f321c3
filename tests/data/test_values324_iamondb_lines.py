"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own XML (a StrokeSet of Strokes of Points with x, y
and time; ascii/ transcriptions after CSR:), seventeenth pass: a line's rows worked out by hand with y turned up
and x kept; an entity declaration with no document type (hidden in a comment) refused word for word; a
non-numeric coordinate named by its point counted from 1; line files lying straight in --data-dir; a form of 11
unpadded line files (-1 .. -11, so their names sort 1, 10, 11, 2, ...) paired with its 11 CSR lines; the texts
of the used lines only, forms of 1 and 2 lines."""
import os

import numpy as np

from lnrnn.data import iamondb
from test_values135_iamondb import line_xml, stroke3_by_hand  # IAM-OnDB's XML of given strokes; rows by hand
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_a_line_turns_y_up_and_keeps_x(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1073, 1058), (1080, 1050), (1091, 1061)], [(1200, 1000)]]))
    got = iamondb.read_line(str(path))
    # offsets from the previous point: x as written, y negated (the board's y grows down)
    np.testing.assert_array_equal(got, [[0, 0, 0], [7, 8, 0], [11, -11, 1], [109, 61, 1]])
    np.testing.assert_array_equal(got, stroke3_by_hand([[(1073, 1058), (1080, 1050), (1091, 1061)], [(1200, 1000)]]))


def test_an_entity_declaration_without_a_doctype_is_refused_word_for_word(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2), (3, 4)]], '<!-- <!ENTITY x SYSTEM "file:///etc/passwd"> -->\n'))
    before = sorted(os.listdir(tmp_path))
    assert refused(iamondb.read_line, str(path)) == (
        f"{path} declares ENTITY in its XML, which a stroke file never needs (it could expand entities or fetch "
        "external files); refusing to parse it.")
    assert sorted(os.listdir(tmp_path)) == before


def test_a_non_numeric_coordinate_is_named_by_its_point_from_1(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2)], [(3, 4), (5, "1o5"), (7, 8)]]))
    assert refused(iamondb.read_line, str(path)) == f"{path}: point 2 of stroke 2 has the non-numeric y='1o5'."


def test_line_files_straight_in_the_data_dir_are_found(tmp_path):
    for name in ("a01-000u-02.xml", "a01-000u-01.xml"):
        (tmp_path / name).write_bytes(line_xml([[(1, 2), (3, 4)]]))
    root, files = iamondb.find_lines(str(tmp_path))
    assert root == str(tmp_path)
    assert files == [str(tmp_path / "a01-000u-01.xml"), str(tmp_path / "a01-000u-02.xml")]


def _form(root, form, numbers, texts):
    lines = root / "lineStrokes" / form[:3] / form[:7]
    lines.mkdir(parents=True, exist_ok=True)
    for k in numbers:
        (lines / f"{form}-{k}.xml").write_bytes(line_xml([[(k, 1), (k + 2, 3)]]))
    asc = root / "ascii" / form[:3] / form[:7]
    asc.mkdir(parents=True, exist_ok=True)
    (asc / f"{form}.txt").write_bytes(("OCR:\n\nx\n\nCSR: \n\n" + "\n".join(texts) + "\n").encode("latin-1"))


def test_eleven_unpadded_line_files_pair_with_eleven_csr_lines(tmp_path):
    words = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"]
    _form(tmp_path, "a01-000u", range(1, 12), words)
    line_root, files = iamondb.find_lines(str(tmp_path))
    assert [os.path.basename(f) for f in files][:4] == ["a01-000u-1.xml", "a01-000u-10.xml", "a01-000u-11.xml",
                                                        "a01-000u-2.xml"]
    texts = iamondb.form_texts(files, files, line_root, str(tmp_path / "ascii"))
    # each file's text is the CSR line of its number: -1 one, -10 ten, -11 eleven, -2 two, ...
    assert texts == ["one", "ten", "eleven", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def test_only_the_used_lines_get_texts(tmp_path):
    _form(tmp_path, "a01-000u", [1, 2], ["first line", "second line"])
    _form(tmp_path, "b02-010x", [1], ["lone line"])
    line_root, files = iamondb.find_lines(str(tmp_path))
    assert len(files) == 3
    used = [f for f in files if "b02-010x" in f] + [f for f in files if f.endswith("a01-000u-2.xml")]
    assert iamondb.form_texts(files, used, line_root, str(tmp_path / "ascii")) == ["lone line", "second line"]
