"""The byte limit of the files the stroke data sets read (lnrnn/data/iamondb.py: read_limited, which IAM-OnDB's
XML, transcriptions and task lists and KanjiVG's SVG files go through): a file of exactly the limit is read whole
and one byte more is refused by its size, before it is read; a file that gives more bytes than its size said (one
growing while it is read, a device such as /dev/zero whose size is 0, a pipe) is refused once it has given one
byte past the limit, with at most limit + 1 bytes read; one that grew but stayed within the limit is read whole."""
import os

import pytest

from lnrnn.data import iamondb
from lnrnn.data.iamondb import read_limited
from lnrnn.errors import DataError

LIMIT = 64


def written(tmp_path, n):
    path = tmp_path / f"f{n}.xml"
    path.write_bytes(b"a" * n)
    return str(path)


def test_a_file_of_exactly_the_limit_is_read_whole(tmp_path):
    assert read_limited(written(tmp_path, LIMIT), LIMIT, "XML file") == b"a" * LIMIT


def test_one_byte_more_is_refused_by_its_size(tmp_path):
    path = written(tmp_path, LIMIT + 1)
    with pytest.raises(DataError) as e:
        read_limited(path, LIMIT, "XML file")
    assert str(e.value) == (f"XML file {path} is {LIMIT + 1:,} bytes, more than the {LIMIT:,} allowed; it is not a "
                            "file of this data set.")


def growing(monkeypatch, said):
    """os.path.getsize says ``said`` bytes: the file grew after its size was taken."""
    real = os.path.getsize
    monkeypatch.setattr(iamondb.os.path, "getsize", lambda p: said if str(p).endswith(".xml") else real(p))


@pytest.mark.parametrize("n", [LIMIT + 1, 10 * LIMIT])
def test_a_file_giving_more_than_its_size_said_is_refused(tmp_path, monkeypatch, n):
    path = written(tmp_path, n)
    growing(monkeypatch, 3)
    reads = []
    real_open = open

    class Counting:
        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *a):
            self.f.close()

        def read(self, k):
            reads.append(k)
            return self.f.read(k)

    monkeypatch.setattr("builtins.open", lambda p, mode="r", *a, **k: Counting(real_open(p, mode, *a, **k)))
    with pytest.raises(DataError) as e:
        read_limited(path, LIMIT, "XML file")
    assert str(e.value) == (f"XML file {path} gives more than the {LIMIT:,} bytes allowed (more than its size, 3 "
                            "bytes, said); it is not a file of this data set.")
    assert reads == [LIMIT + 1]


@pytest.mark.parametrize("n", [5, LIMIT])
def test_a_file_that_grew_within_the_limit_is_read_whole(tmp_path, monkeypatch, n):
    path = written(tmp_path, n)
    growing(monkeypatch, 3)
    assert read_limited(path, LIMIT, "XML file") == b"a" * n


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_of_endless_bytes_is_refused():
    with pytest.raises(DataError) as e:
        read_limited("/dev/zero", LIMIT, "IAM-OnDB task list")
    assert str(e.value) == (f"IAM-OnDB task list /dev/zero gives more than the {LIMIT:,} bytes allowed (more than "
                            "its size, 0 bytes, said); it is not a file of this data set.")
