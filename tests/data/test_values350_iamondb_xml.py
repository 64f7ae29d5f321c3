"""lnrnn/data/iamondb.py on line files written here in IAM-OnDB's XML (test_values135_iamondb.line_xml: StrokeSet,
Stroke, Point with x, y, time), eighteenth pass: a point without its y refused naming point 2 of stroke 1 and a
decimal comma in x as point 3 of stroke 2; a truncated line file refused in a sentence that carries the XML
parser's own words, with nothing written; a DOCTYPE with an external reference refused word for word; the CSR
section read, not the OCR one above it; forms of 1 and 2 lines each paired with their transcriptions; an ascii/
folder that transcribes none of the 2 or 3 lines read refused word for word, the count of lines said out."""
import os
import xml.etree.ElementTree as ET

import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from test_values135_iamondb import line_xml, write_form  # IAM-OnDB's XML of given strokes; a form's files
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_a_point_without_its_y_is_refused_naming_it(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20), (13, 24), (15, 30)], [(40, 5)]]).replace(b' y="24"', b"", 1)
    path.write_bytes(raw)
    assert refused(iamondb.read_line, str(path)) == f"{path}: point 2 of stroke 1 lacks the attribute y."


def test_a_non_numeric_x_is_refused_naming_it(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20)], [(40, 5), (41, 6), (47, 9)]]).replace(b' x="47"', b' x="4,7"', 1)
    path.write_bytes(raw)
    assert refused(iamondb.read_line, str(path)) == f"{path}: point 3 of stroke 2 has the non-numeric x='4,7'."


def test_a_truncated_line_file_is_refused_with_the_parsers_words(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20), (13, 24)], [(40, 5), (41, 6)]])
    raw = raw[:raw.index(b"</StrokeSet>")]                          # cut where the download broke off
    path.write_bytes(raw)
    with pytest.raises(ET.ParseError) as parser:                    # what the standard parser says of it
        ET.fromstring(raw)
    before = sorted(os.listdir(tmp_path))
    assert refused(iamondb.read_line, str(path)) == f"{path} is malformed or truncated XML ({parser.value})."
    assert sorted(os.listdir(tmp_path)) == before


def test_a_doctype_with_an_external_reference_is_refused_word_for_word(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2)]], prolog='<!DOCTYPE strokes SYSTEM "http://x/y.dtd">\n'))
    before = sorted(os.listdir(tmp_path))
    assert refused(iamondb.read_line, str(path)) == (
        f"{path} declares DOCTYPE in its XML, which a stroke file never needs (it could expand entities or fetch "
        "external files); refusing to parse it.")
    assert sorted(os.listdir(tmp_path)) == before


def test_the_csr_section_is_read_not_the_ocr_one(tmp_path):
    path = tmp_path / "a01-000u.txt"
    path.write_bytes(b"Data:\nOCR:\n\nthe scanned guess\nof two lines\n\nCSR: \n\nthe first line\nthe second line\n\n")
    assert iamondb.transcriptions(str(path)) == ["the first line", "the second line"]


def test_forms_of_one_and_two_lines_pair_with_their_transcriptions(tmp_path):
    write_form(tmp_path, "a01-000u", 2, ["alpha beta", "gamma"])
    write_form(tmp_path, "b02-010x", 1, ["delta"])
    line_root, files = iamondb.find_lines(str(tmp_path))
    assert [os.path.basename(p) for p in files] == ["a01-000u-01.xml", "a01-000u-02.xml", "b02-010x-01.xml"]
    got = iamondb.form_texts(files, files, line_root, str(tmp_path / "ascii"))
    assert got == ["alpha beta", "gamma", "delta"]


@pytest.mark.parametrize("second, lines", [(1, "2 lines"), (2, "3 lines")])
def test_an_ascii_folder_transcribing_nothing_is_refused_counting_the_lines(tmp_path, second, lines):
    write_form(tmp_path, "a01-000u", 1)
    write_form(tmp_path, "b02-010x", second)
    (tmp_path / "ascii").mkdir()                                    # unpacked, but from another download
    before = sorted(os.listdir(tmp_path))
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"{tmp_path / 'ascii'} holds no transcription of the {lines} read; unpack ascii-all.tar.gz of the same "
        "download there, or move it away to train without text.")
    assert sorted(os.listdir(tmp_path)) == before
