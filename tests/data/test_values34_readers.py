"""The stroke readers on malformed input, written in each data set's true format in tmp_path: a KanjiVG file
that is not 8-bit text (UTF-16, where "<!ENTITY" hides between NUL bytes) is refused before any parsing,
with or without entities; SVG path data whose drawing command has no numbers, or a count that is not a
multiple of its arity, is refused naming the command; an IAM-OnDB point whose coordinate is not a finite
number (inf, -inf, nan, in either attribute) is refused naming the point and the stroke, and a point of
large but finite coordinates is read as it is (y turned up)."""
import numpy as np
import pytest

from lnrnn.data import iamondb, kanjivg
from lnrnn.errors import DataError

# ---- KanjiVG

def kvg(paths, encoding="UTF-8", head=""):
    body = "\n".join(f'<path id="kvg:00041-s{k + 1}" d="{d}"/>' for k, d in enumerate(paths))
    doc = (f'<?xml version="1.0" encoding="{encoding}"?>\n{head}<svg xmlns="http://www.w3.org/2000/svg" '
           f'width="109" height="109">\n<g id="kvg:00041">\n{body}\n</g>\n</svg>\n')
    return doc.encode(encoding.lower().replace("utf-16le", "utf-16-le"))


ENTITY_HEAD = '<!DOCTYPE svg [<!ENTITY a "M0,0L10,0">]>\n'


def test_the_8_bit_file_reads_and_its_utf16_twin_is_refused(tmp_path):
    assert kanjivg.stroke_paths(kvg(["M0,0L10,0"]), "f.svg") == ["M0,0L10,0"]
    for encoding in ("UTF-16", "UTF-16LE"):
        for head, d in (("", "M0,0L10,0"), (ENTITY_HEAD, "&a;")):
            raw = kvg([d], encoding, head)
            assert b"<!ENTITY" not in raw                 # the declaration is there, between NUL bytes
            with pytest.raises(DataError, match="declares XML entities \\(or is not 8-bit text\\)"):
                kanjivg.stroke_paths(raw, "f.svg")
            f = tmp_path / "00041.svg"
            f.write_bytes(raw)
            with pytest.raises(DataError, match="not 8-bit text") as e:
                kanjivg.read_design(str(f))
            assert str(f) in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("d,cmd,k,got", [
    ("M1,2L", "L", 2, 0), ("M1,2 L 3,4 C", "C", 6, 0), ("M1,2h", "h", 1, 0), ("M", "M", 2, 0),
    ("M1,2 V", "V", 1, 0), ("M1,2 s", "s", 4, 0), ("M1,2L3", "L", 2, 1), ("M1,2c1,2,3,4,5", "c", 6, 5),
])
def test_a_drawing_command_needs_a_positive_multiple_of_its_arity(d, cmd, k, got):
    numbers = "1 number" if k == 1 else f"{k} numbers"
    with pytest.raises(DataError, match=f"path command {cmd} needs a multiple of {numbers} in .*, got {got}\\."):
        kanjivg.path_polylines(d, "f.svg")


def test_commands_with_their_numbers_draw_every_point():
    (p,) = kanjivg.path_polylines("M1,2L3,4 5,6h1v1z", "f.svg")
    assert p.tolist() == [[1, 2], [3, 4], [5, 6], [6, 6], [6, 7], [1, 2]]


# ---- IAM-OnDB

def line_file(points):
    """A line file in IAM-OnDB's format (ISO-8859-1 XML), one stroke of (x, y) attribute strings."""
    rows = "\n".join(f'      <Point x="{x}" y="{y}" time="{100 + i / 100:.2f}"/>' for i, (x, y) in enumerate(points))
    return ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession>\n  <WhiteboardDescription>\n'
            '    <SensorLocation corner="top_left"/>\n  </WhiteboardDescription>\n  <StrokeSet>\n'
            '    <Stroke colour="black" start_time="100.00" end_time="100.03">\n'
            '      <Point x="1000" y="2000" time="99.99"/>\n'
            f'{rows}\n    </Stroke>\n  </StrokeSet>\n</WhiteboardCaptureSession>\n').encode("latin-1")


@pytest.mark.parametrize("value", ["inf", "-inf", "Infinity", "nan", "NaN", "1e999"])
@pytest.mark.parametrize("axis", ["x", "y"])
def test_a_point_that_is_not_a_finite_number_is_refused_where_it_is(tmp_path, value, axis):
    points = [("1010", "2005"), ("1020", "2010")]
    points[1] = (value, "2010") if axis == "x" else ("1020", value)
    f = tmp_path / "a01-000u-01.xml"
    f.write_bytes(line_file(points))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(f))
    msg = str(e.value)
    assert msg == f"{f}: point 3 of stroke 1 has the non-numeric {axis}={value!r}."


def test_large_finite_points_are_read_as_they_are(tmp_path):
    f = tmp_path / "a01-000u-01.xml"
    f.write_bytes(line_file([("1e300", "-2.5"), ("1010.5", "2005")]))
    (xy,) = iamondb.line_strokes(iamondb.read_xml(str(f)), str(f))
    assert xy.tolist() == [[1000.0, -2000.0], [1e300, 2.5], [1010.5, -2005.0]]
