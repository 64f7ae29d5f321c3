"""lnrnn/data/idx.py on IDX files packed here by hand (test_values186_idx._pack) and gzipped here, the refusals
compared word for word with sentences whose counts are worked out here: a magic whose first byte is not zero read as
four big-endian bytes (1 << 24 above the images' magic); a header that is no IDX magic shown as all four bytes; a
gzipped int16 file cut short, its promised size counting the header and two bytes an item; trailing bytes counted
after the array alone; read_idx of a gzipped labels file with the images' magic refused by the magic, and read back
whole without one; nothing written to disk by the refusals."""
import gzip

import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.data.idx import parse_idx, read_idx
from lnrnn.errors import DataError
from test_values186_idx import _pack  # an IDX file of a uint8 array, byte by byte


def _gz(tmp_path, name, raw):
    path = tmp_path / name
    path.write_bytes(gzip.compress(raw, mtime=0))
    return path


def test_a_magic_with_a_nonzero_first_byte_is_a_bad_magic():
    raw = bytes([1, 0, 8, 3]) + b"".join(d.to_bytes(4, "big") for d in (1, 1, 1)) + b"\x05"
    with pytest.raises(DataError) as e:
        parse_idx(raw, "f.idx", idx.IMAGES_MAGIC)
    found = (1 << 24) + 8 * 256 + 3
    assert str(e.value) == (f"f.idx has a bad magic number ({found}, expected {8 * 256 + 3}); "
                            "it is not the IDX file its name says.")


@pytest.mark.parametrize("head, shown", [(bytes([0, 1, 8, 1]), "00010801"), (bytes([0, 0, 7, 1]), "00000701"),
                                         (bytes([0, 0, 8, 0]), "00000800")])
def test_a_header_that_is_no_idx_magic_shows_its_four_bytes(head, shown):
    with pytest.raises(DataError) as e:
        parse_idx(head + (3).to_bytes(4, "big") + b"abc", "g.idx")
    assert str(e.value) == f"g.idx is not an IDX file (bad magic number 0x{shown})."


def test_a_gzipped_int16_file_cut_short_promises_header_and_two_bytes_an_item(tmp_path):
    items = np.array([[1, -2, 300], [4, 5, -600]], ">i2")
    raw = bytes([0, 0, 0x0B, 2]) + (2).to_bytes(4, "big") + (3).to_bytes(4, "big") + items.tobytes()
    whole = 4 + 2 * 4 + 6 * 2                                      # magic, two dimensions, six 2-byte items
    assert len(raw) == whole
    path = _gz(tmp_path, "cut.gz", raw[:-5])
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(DataError) as e:
        read_idx(path)
    assert str(e.value) == (f"{path} is truncated: its header promises shape (2, 3) ({whole} bytes) "
                            f"but it holds {whole - 5} bytes; download it again.")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    got = read_idx(_gz(tmp_path, "whole.gz", raw))
    assert got.dtype == np.int16 and got.tolist() == [[1, -2, 300], [4, 5, -600]]


@pytest.mark.parametrize("extra", [1, 7])
def test_trailing_bytes_are_counted_after_the_array_alone(extra):
    raw = _pack(np.arange(6).reshape(2, 3)) + b"\x00" * extra
    with pytest.raises(DataError) as e:
        parse_idx(raw, "t.idx")
    assert str(e.value) == (f"t.idx has {extra} bytes after the (2, 3) array its header describes; "
                            "it is not a valid IDX file.")


def test_read_idx_checks_the_magic_it_is_given_on_a_gzipped_file(tmp_path):
    path = _gz(tmp_path, "labels.gz", _pack([3, 1, 4, 1, 5]))
    with pytest.raises(DataError) as e:
        read_idx(path, idx.IMAGES_MAGIC)
    assert str(e.value) == (f"{path} has a bad magic number ({8 * 256 + 1}, expected {8 * 256 + 3}); "
                            "it is not the IDX file its name says.")
    assert read_idx(path, idx.LABELS_MAGIC).tolist() == [3, 1, 4, 1, 5]
    assert read_idx(str(path)).tolist() == [3, 1, 4, 1, 5]


def test_a_gzip_stream_cut_short_is_refused_before_any_idx_check(tmp_path):
    path = tmp_path / "damaged.gz"
    path.write_bytes(gzip.compress(_pack(np.arange(40).reshape(4, 10)), mtime=0)[:-6])
    with pytest.raises(DataError) as e:
        read_idx(path, idx.IMAGES_MAGIC)
    msg = str(e.value)
    assert msg.startswith(f"{path} is a damaged or truncated gzip file (")
    assert msg.endswith("); download it again.")
