"""IDX files written and read byte by byte (lnrnn/data/idx.py): write_idx's bytes against the format's
definition laid out here with int.to_bytes and big-endian NumPy data; files with a wrong magic number, one item
short, a header promising more or fewer dimensions than the data holds, each refused by a one-line DataError
naming the file. Hershey lines (lnrnn/data/hershey.py): layout's points against the font's own polylines
(hershey-fonts' strokes_for_text, y flipped about its base line), each word shifted by the advance widths of the
glyphs before it and the font's space."""
import numpy as np
import pytest

from lnrnn.data import idx
from lnrnn.errors import DataError


def _header(code, dims):
    return bytes([0, 0, code, len(dims)]) + b"".join(int(d).to_bytes(4, "big") for d in dims)


def test_write_idx_bytes_follow_the_format(tmp_path):
    a = np.arange(-3, 3, dtype=np.int16).reshape(2, 3) * 300   # (2,3) int16: type code 0x0B
    path = tmp_path / "a.idx"
    idx.write_idx(path, a)
    want = _header(0x0B, (2, 3)) + b"".join(int(v).to_bytes(2, "big", signed=True) for v in a.ravel())
    assert path.read_bytes() == want
    back = idx.read_idx(path)
    assert back.shape == (2, 3) and back.dtype == np.int16
    np.testing.assert_array_equal(back, a)


def test_uint8_images_written_and_read_as_mnist(tmp_path):
    img = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    path = tmp_path / "img.idx"
    idx.write_idx(path, img)
    assert path.read_bytes() == _header(0x08, (2, 3, 4)) + img.tobytes()
    np.testing.assert_array_equal(idx.read_idx(path, idx.IMAGES_MAGIC), img)


def _refused(path):
    with pytest.raises(DataError) as e:
        idx.read_idx(path)
    msg = str(e.value)
    assert str(path) in msg and "\n" not in msg
    return msg


@pytest.mark.parametrize("short", [1, 2, 4])
def test_file_short_by_items_refused(tmp_path, short):
    data = np.arange(6, dtype=">i4").tobytes()                    # (2,3) int32, 4 bytes an item
    path = tmp_path / "short.idx"
    path.write_bytes(_header(0x0C, (2, 3)) + data[:len(data) - short])
    assert "truncated" in _refused(path)


def test_file_one_uint8_short_refused(tmp_path):
    path = tmp_path / "u8.idx"
    path.write_bytes(_header(0x08, (3, 2)) + bytes(5))
    assert "truncated" in _refused(path)


def test_wrong_magic_and_wrong_dims_refused(tmp_path):
    p = tmp_path / "magic.idx"
    p.write_bytes(b"\x01\x00\x08\x01" + (2).to_bytes(4, "big") + bytes(2))
    _refused(p)
    p = tmp_path / "more.idx"                                     # header says (2, 3), data for (2, 2)
    p.write_bytes(_header(0x08, (2, 3)) + bytes(4))
    _refused(p)
    p = tmp_path / "fewer.idx"                                    # header says (2,), data for (2, 3)
    p.write_bytes(_header(0x08, (2,)) + bytes(6))
    _refused(p)
    good = tmp_path / "good.idx"
    good.write_bytes(_header(0x08, (2,)) + bytes([7, 9]))
    with pytest.raises(DataError):
        idx.read_idx(good, idx.LABELS_MAGIC + 1)
    np.testing.assert_array_equal(idx.read_idx(good, idx.LABELS_MAGIC), [7, 9])


def _font_points(font, word, dx):
    """The font's polylines of word, y flipped about the base line, shifted right by dx: a set of points."""
    base = float(font.render_options["base_line"])
    return {(round(x + dx, 9), round(base - y, 9)) for st in font.strokes_for_text(word) for x, y in st}


@pytest.mark.parametrize("face", ["futural", "scripts"])
def test_layout_against_the_fonts_polylines(face):
    hershey = pytest.importorskip("lnrnn.data.hershey")
    pytest.importorskip("HersheyFonts")
    font = hershey.load_font(face)
    words = ["ab", "cd", "x"]
    widths = {w: sum(g.char_width for g in font.glyphs_for_text(w)) for w in words + [" "]}
    assert widths[" "] > 0
    strokes = hershey.layout(font, " ".join(words), np.random.default_rng(0), 0.0)   # no extra gap
    got = {(round(float(x), 9), round(float(y), 9)) for st in strokes for x, y in st}
    want, x0 = set(), 0.0
    for w in words:
        want |= _font_points(font, w, x0)
        x0 += widths[w] + widths[" "]
    assert got == want
    first = list(font.strokes_for_text("ab"))[0][0]                  # the line starts where the font's "ab" does
    assert tuple(strokes[0][0]) == (first[0], float(font.render_options["base_line"]) - first[1])
