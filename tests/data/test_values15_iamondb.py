"""lnrnn/data/iamondb.py's files by hand: a file of exactly the allowed size is read, one byte over is
refused; a transcription's CSR lines without the blank lines around them; a task list's refusal names the
bad entry's line (blank lines counted), an entry listed twice is kept once."""
import pytest

from lnrnn.data import iamondb
from lnrnn.errors import DataError


def test_a_file_of_exactly_the_limit_is_read(tmp_path):
    p = tmp_path / "f.xml"
    p.write_bytes(b"0123456789")
    assert iamondb.read_limited(str(p), limit=10) == b"0123456789"
    with pytest.raises(DataError, match="10 bytes, more than the 9 allowed"):
        iamondb.read_limited(str(p), limit=9)


def test_transcription_lines_without_surrounding_blanks(tmp_path):
    p = tmp_path / "a01-000u.txt"
    p.write_text("OCR:\n\nsome text\n\nCSR:\n\n\nline one\n\nline three  \n\n \n")
    assert iamondb.transcriptions(str(p)) == ["line one", "", "line three"]


def test_task_list_lines_and_duplicates(tmp_path):
    p = tmp_path / "trainset.txt"
    p.write_text("a01-000u\n\nbad entry!\n")
    with pytest.raises(DataError, match=r"line 3: 'bad entry!'"):
        iamondb.read_split_list(str(p))
    p.write_text("a01-000u\nb02-001\na01-000u\n\nb02-001-03\n")
    assert iamondb.read_split_list(str(p)) == ["a01-000u", "b02-001", "b02-001-03"]
