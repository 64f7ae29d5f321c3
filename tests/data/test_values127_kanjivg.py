"""lnrnn/data/kanjivg.py against files written here in KanjiVG's SVG format and hand computations: a character
of twelve strokes keeps all twelve in numeric order (s10 after s9), a folder's file names are code points in
hex (variants and other files skipped, a kanji/ subfolder found), absolute and relative M, L, H, V, C, S and Z
end where the SVG rules put them, files with entities or a declaration that cannot be cut are refused in one
line, a character's augmentation is p (s A R) by hand, and a line's height is the writer's scale's."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.kanjivg import CHAR_ROTATION, CHAR_SCALE, CURVE_POINTS, JITTER, WRITER_SCALE
from lnrnn.errors import DataError

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.0//EN" "http://www.w3.org/TR/2001/REC-SVG-20010904/DTD/svg10.dtd" [\n'
        '<!ATTLIST g\nxmlns:kvg CDATA #FIXED "http://kanjivg.tagaini.net"\nkvg:element CDATA #IMPLIED >\n]>\n')
OPEN = ('<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109" viewBox="0 0 109 109">\n'
        '<g id="kvg:StrokePaths_{cp:05x}" style="fill:none;stroke:#000000;stroke-width:3">\n'
        '<g id="kvg:{cp:05x}" kvg:element="{ch}">\n')
CLOSE = '</g>\n</g>\n</svg>\n'


def svg(cp, paths, head=HEAD):
    body = "".join(f'\t<path id="kvg:{cp:05x}-s{k}" kvg:type="x" d="{d}"/>\n' for k, d in paths)
    return head + OPEN.format(cp=cp, ch=chr(cp)) + body + CLOSE


def test_twelve_strokes_kept_in_numeric_order(tmp_path):
    cp = 0x9f8d
    order = [1, 2, 10, 3, 11, 4, 5, 12, 6, 7, 8, 9]       # file order mixes one- and two-digit ids
    paths = [(k, f"M{k},1 l0,{k}") for k in order]
    f = tmp_path / f"{cp:05x}.svg"
    f.write_text(svg(cp, paths), encoding="utf-8")
    ds = kanjivg.stroke_paths(f.read_bytes(), str(f))
    assert ds == [f"M{k},1 l0,{k}" for k in range(1, 13)]
    design = kanjivg.read_design(str(f))
    assert len(design) == 12
    for k, pts in enumerate(design, 1):                   # each stroke from (k, -1) down to (k, -1 - k)
        np.testing.assert_allclose(pts[[0, -1]], [[k, -1.0], [k, -1.0 - k]], atol=1e-12)


@pytest.mark.parametrize("nested", [False, True])
def test_folder_names_are_hex_code_points(tmp_path, nested):
    folder = tmp_path / "kanji" if nested else tmp_path
    folder.mkdir(exist_ok=True)
    for name in ["00041.svg", "0004e.svg", "04e00.svg", "04e00-Kaisho.svg", "notes.txt", "abc.svg"]:
        (folder / name).write_text(svg(0x41, [(1, "M0,0 L1,1")]))
    files = kanjivg.folder_files(str(tmp_path))
    assert files == {ord("A"): str(folder / "00041.svg"), ord("N"): str(folder / "0004e.svg"),
                     0x4E00: str(folder / "04e00.svg")}


def test_absolute_and_relative_commands_by_hand():
    (poly,) = kanjivg.path_polylines("M10,10 L20,30 l5,5 H40 h-10 V0 v5 L 1e1 , 2E1 z")
    hand = [[10, 10], [20, 30], [25, 35], [40, 35], [30, 35], [30, 0], [30, 5], [10, 20], [10, 10]]
    np.testing.assert_allclose(poly, hand, atol=1e-12)
    a, b = kanjivg.path_polylines("M1,2 3,4 m1,1 l2,0")   # pairs after M are lines; m starts a new subpath
    np.testing.assert_allclose(a, [[1, 2], [3, 4]])
    np.testing.assert_allclose(b, [[4, 5], [6, 5]])


def bezier(p0, p1, p2, p3):
    t = np.linspace(0.0, 1.0, CURVE_POINTS + 1)[:, None]
    return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3


def test_absolute_curve_then_relative_smooth_curve_by_hand():
    (poly,) = kanjivg.path_polylines("M0,0 C0,10 10,10 10,0 s10,-10 10,0")
    p0, p1, p2, p3 = map(np.array, ([0.0, 0.0], [0.0, 10.0], [10.0, 10.0], [10.0, 0.0]))
    first = bezier(p0, p1, p2, p3)
    second = bezier(p3, 2 * p3 - p2, p3 + [10.0, -10.0], p3 + [10.0, 0.0])   # reflected control point
    np.testing.assert_allclose(poly, np.concatenate([first, second[1:]]), atol=1e-12)


BODY = OPEN.format(cp=0x41, ch="A") + '<path id="kvg:00041-s1" d="M0,0 L1,1"/>\n' + CLOSE


@pytest.mark.parametrize("head, what", [
    ('<?xml version="1.0"?>\n<!DOCTYPE svg [ <!ATTLIST svg x CDATA "a]b"> ]>\n', "document type declaration"),
    ('<?xml version="1.0"?>\n<!DOCTYPE svg [ <!ENTITY a "aaaa"> ]>\n', "entities"),
    ('<?xml version="1.0"?>\n<!DOCTYPE svg [ <!ENTITY e SYSTEM "http://example.invalid/e"> ]>\n', "entities"),
    ('<?xml version="1.0"?>\n<!DOCTYPE svg>\n<!DOCTYPE svg>\n', "document type declaration"),
])
def test_unsafe_declarations_refused_in_one_line(tmp_path, head, what):
    f = tmp_path / "00041.svg"
    f.write_text(head + BODY)
    with pytest.raises(DataError) as e:
        kanjivg.read_design(str(f))
    assert what in str(e.value) and str(f) in str(e.value) and "\n" not in str(e.value)


def test_external_dtd_is_cut_not_fetched(tmp_path):
    f = tmp_path / "00041.svg"
    f.write_text('<?xml version="1.0"?>\n<!DOCTYPE svg SYSTEM "http://example.invalid/svg.dtd">\n' + BODY)
    (pts,) = kanjivg.read_design(str(f))
    np.testing.assert_allclose(pts[[0, -1]], [[0.0, 0.0], [1.0, -1.0]], atol=1e-12)


def test_augment_is_the_hand_transform():
    stroke = np.array([[0.0, 0.0], [3.0, -4.0], [5.0, 2.0]])
    scale, slant = 1.1, 0.25
    out = kanjivg.augment([stroke], np.random.default_rng(9), scale, slant)[0]
    rng = np.random.default_rng(9)
    a = rng.uniform(-CHAR_ROTATION, CHAR_ROTATION)
    s = scale * rng.uniform(*CHAR_SCALE)
    noise = rng.normal(0.0, JITTER, stroke.shape)
    x, y = stroke[:, 0], stroke[:, 1]
    u = x + slant * y                                      # slant: x shifts by slant per unit of height
    hand = s * np.column_stack([u * np.cos(a) - y * np.sin(a), u * np.sin(a) + y * np.cos(a)]) + noise
    np.testing.assert_allclose(out, hand, atol=1e-12)


def test_line_height_follows_the_writers_scale():
    """A design of one vertical stroke 100 high: whatever the slant (|slant| <= 0.3) and rotation, each
    line's drawn height is 100 times the writer's and the character's scale, give or take the jitter."""
    designs = {0x41: [np.array([[0.0, 0.0], [0.0, -50.0], [0.0, -100.0]])]}
    lines, texts = kanjivg.make_lines(np.random.default_rng(4), designs, np.array([0x41]), 30, 1)
    assert texts == ["A"] * 30
    worst = np.cos(CHAR_ROTATION) - 0.3 * np.sin(CHAR_ROTATION)
    for seq in lines:
        y = np.cumsum(seq[:, 1])
        height = y.max() - y.min()
        assert 100 * WRITER_SCALE[0] * CHAR_SCALE[0] * worst - 8 * JITTER <= height
        assert height <= 100 * WRITER_SCALE[1] * CHAR_SCALE[1] + 8 * JITTER
