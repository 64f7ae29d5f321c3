"""lnrnn/data/iamondb.py on line files written in IAM-OnDB's own XML (a StrokeSet of Strokes of Points under the
root element iamondb.ROOT, y down): a line's stroke-3 rows against the hand computation of test_values135; an empty
StrokeSet, a missing one, an entity declaration and an external reference refused word for word; the CSR: lines
of a transcription, with and without a blank line after the header, and a file without one refused."""
import numpy as np

from lnrnn.data import iamondb
from test_values135_iamondb import line_xml, stroke3_by_hand  # IAM-OnDB's XML of given strokes; rows by hand
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_a_line_reads_to_its_rows_by_hand(tmp_path):
    strokes = [[(10, 20), (13, 24)], [(50, 20), (51, 18), (60, 18)], [(7, 3)]]
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml(strokes))
    got = iamondb.read_line(str(path))
    assert got.shape == (6, 3)
    assert np.array_equal(got, stroke3_by_hand(strokes))


def test_an_empty_and_a_missing_stroke_set_are_refused_word_for_word(tmp_path):
    empty = tmp_path / "a01-000u-01.xml"
    empty.write_bytes(line_xml([]))                                      # <StrokeSet>\n  </StrokeSet>
    assert refused(iamondb.read_line, str(empty)) == f"{empty} has no <Stroke> in its <StrokeSet>; the line is empty."
    missing = tmp_path / "a01-000u-02.xml"
    missing.write_bytes(f'<?xml version="1.0" encoding="ISO-8859-1"?>\n<{iamondb.ROOT}>\n'
                        f'  <WhiteboardDescription/>\n</{iamondb.ROOT}>\n'.encode())
    assert refused(iamondb.read_line, str(missing)) == (f"{missing} has no <StrokeSet>; it is not a complete "
                                                        "IAM-OnDB line file.")


def test_entities_and_external_references_are_refused_word_for_word(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2)]], prolog='<!DOCTYPE x SYSTEM "http://example.invalid/x.dtd">\n'))
    assert refused(iamondb.read_line, str(path)) == (
        f"{path} declares DOCTYPE in its XML, which a stroke file never needs (it could expand entities or fetch "
        "external files); refusing to parse it.")
    path.write_bytes(line_xml([[(1, 2)]]).replace(b"<StrokeSet>", b'<StrokeSet><!ENTITY e "x">'))
    assert refused(iamondb.read_line, str(path)) == (
        f"{path} declares ENTITY in its XML, which a stroke file never needs (it could expand entities or fetch "
        "external files); refusing to parse it.")


def test_the_csr_lines_are_every_line_after_the_header(tmp_path):
    tight = tmp_path / "a01-000u.txt"
    tight.write_bytes(b"OCR:\n\nsome text\n\nCSR:\nfirst line\nsecond line  \n")
    assert iamondb.transcriptions(str(tight)) == ["first line", "second line"]
    loose = tmp_path / "a01-000v.txt"
    loose.write_bytes(b"OCR:\n\nsome text\n\nCSR: \n\nfirst line\n\nthird line\n\n\n")
    assert iamondb.transcriptions(str(loose)) == ["first line", "", "third line"]
    none = tmp_path / "a01-000w.txt"
    none.write_bytes(b"OCR:\n\nsome text\n")
    assert refused(iamondb.transcriptions, str(none)) == (
        f"transcription {none} has no 'CSR:' section; it is not an IAM-OnDB ascii file.")
