"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own format (test_values135_iamondb.line_xml and
write_form: StrokeSet, Stroke, Point; ascii/ with its CSR: section), nineteenth pass: a line file with a
mismatched closing tag refused in one sentence carrying the XML parser's own words; an empty <Stroke/> refused
word for word naming stroke 2; a line read against its stroke-3 rows by hand; IAM-OnDB's task lists (trainset.txt
a form and a single line, testset_v.txt a form) giving the files and the validation mask worked out by hand."""
import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from lnrnn.data import iamondb
from test_values135_iamondb import line_xml, stroke3_by_hand, write_form  # IAM-OnDB XML; rows by hand; a form
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_a_mismatched_tag_is_refused_with_the_parsers_words(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20), (13, 24)], [(40, 5)]]).replace(b"</StrokeSet>", b"</StrokeSat>", 1)
    path.write_bytes(raw)
    with pytest.raises(ET.ParseError) as parser:
        ET.fromstring(raw)
    assert refused(iamondb.read_line, str(path)) == f"{path} is malformed or truncated XML ({parser.value})."


def test_an_empty_stroke_is_refused_naming_it(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20), (13, 24)], [(40, 5)]])
    head, tail = raw.rsplit(b'      <Point x="40" y="5" time="1.00"/>\n', 1)
    path.write_bytes(head + tail)
    assert refused(iamondb.read_line, str(path)) == (
        f"{path}: stroke 2 has no <Point>; an empty stroke is not valid.")


def test_a_line_reads_to_its_rows_by_hand(tmp_path):
    strokes = [[(10, 20), (13, 24), (15, 30)], [(40, 5)], [(41, 7), (47, 2)]]
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml(strokes))
    got = iamondb.read_line(str(path))
    np.testing.assert_array_equal(got, stroke3_by_hand(strokes))
    assert got[4].tolist() == [1.0, -2.0, 0.0]                 # (40, 5) -> (41, 7): dx 1, y down 2 is dy -2


def test_the_task_lists_put_each_form_on_its_side(tmp_path):
    for form, n in (("a01-000u", 2), ("b02-010x", 1), ("c03-020z", 3)):
        write_form(tmp_path, form, n)
    (tmp_path / "trainset.txt").write_text("a01-000u\nc03-020z-02\n")
    (tmp_path / "testset_v.txt").write_text("b02-010x\n")
    line_root, files = iamondb.find_lines(str(tmp_path))
    assert iamondb.find_split_lists(str(tmp_path), line_root) == str(tmp_path)
    chosen, val = iamondb.official_split(files, str(tmp_path), line_root)
    assert [os.path.basename(p) for p in chosen] == ["a01-000u-01.xml", "a01-000u-02.xml", "b02-010x-01.xml",
                                                     "c03-020z-02.xml"]
    assert val.tolist() == [False, False, True, False]
