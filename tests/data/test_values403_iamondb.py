"""lnrnn/data/iamondb.py on what a download of IAM-OnDB can hold, each wrong file refused as one DataError
sentence (never a traceback) and each right one read: a line file or a transcription that cannot be read (here a
folder in its place) named as what it is, with the reason in words as os.strerror gives it; a <Point> without
its y and one with x="abc" named by point and stroke; an ISO-8859-1 line file with a non-ASCII byte (in a
comment) read as any other; task lists with blanks and tabs around their ids and lines of blanks, and a list of
IAM-OnDB's own size (about 10 kB: 1200 form ids), read entry by entry."""
import errno
import os

import numpy as np

from lnrnn.data import iamondb

from test_strokes_data import iam_xml
from test_values170_stroke_files import refusal  # the text of the DataError a call raises


def test_a_line_file_that_cannot_be_read_is_one_sentence(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.mkdir()
    assert refusal(iamondb.read_line, str(path)) == f"cannot read XML file {path}: {os.strerror(errno.EISDIR)}."


def test_a_transcription_that_cannot_be_read_is_named_a_transcription(tmp_path):
    path = tmp_path / "a01-000u.txt"
    path.mkdir()
    assert refusal(iamondb.transcriptions, str(path)) == (f"cannot read transcription {path}: "
                                                          f"{os.strerror(errno.EISDIR)}.")


def test_a_point_without_its_y_is_named(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(iam_xml([[(10, 20), (13, 24)]]).replace(b'x="13" y="24"', b'x="13"'))
    assert refusal(iamondb.read_line, str(path)) == f"{path}: point 2 of stroke 1 lacks the attribute y."


def test_a_non_numeric_coordinate_is_named_with_its_value(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(iam_xml([[(10, 20)], [(13, 24), (15, 25)]]).replace(b'x="15"', b'x="abc"'))
    assert refusal(iamondb.read_line, str(path)) == f"{path}: point 2 of stroke 2 has the non-numeric x='abc'."


def test_an_iso_8859_1_line_with_a_non_ascii_byte_is_read(tmp_path):
    plain = tmp_path / "plain.xml"
    plain.write_bytes(iam_xml([[(10, 20), (13, 24)], [(20, 10)]]))
    accented = tmp_path / "accented.xml"
    raw = plain.read_bytes().replace(b"<StrokeSet>", "<!-- J\u00fcrgen's line --><StrokeSet>".encode("latin-1"))
    assert b"\xfc" in raw
    accented.write_bytes(raw)
    got = iamondb.read_line(str(accented))
    np.testing.assert_array_equal(got, iamondb.read_line(str(plain)))
    assert got.shape == (3, 3)


def test_list_entries_are_stripped_and_blank_lines_skipped(tmp_path):
    path = tmp_path / "trainset.txt"
    path.write_bytes(b"a01-000u \t\r\n  \r\n\ta01-001w-02\r\n\r\n")
    assert iamondb.read_split_list(str(path)) == ["a01-000u", "a01-001w-02"]


def test_a_list_of_iamondbs_own_size_is_read(tmp_path):
    ids = [f"a{i // 100:02d}-{i % 100:03d}u" for i in range(1200)]
    path = tmp_path / "trainset.txt"
    path.write_text("".join(i + "\n" for i in ids))
    assert 10_000 < path.stat().st_size < 20_000
    assert iamondb.read_split_list(str(path)) == ids
