"""lnrnn/data/kanjivg.py on SVG files written here in KanjiVG's true format (one <path id="kvg:XXXXX-sK" d=...> per
stroke, test_values206_kanjivg.svg; an older release's file binding kvg: only in its document type declaration,
test_values61_kanjivg_prefix.DTD), twelfth pass: a file of exactly 1 MiB read to its three points by hand (a 6-unit
stroke as ceil(6 / 3) intervals, y turned up) and one byte more refused word for word with both sizes; the files of
a kanji/ subfolder the ones listed, not a stray file beside it; the designs counted over the charset only (3 latin
files of 5 .svg files: a kanji and a variant are not latin designs) and a kana line of 1 to 4 characters, both in
the description's words; make_lines over a scripted stream (test_values265_hershey_lines.Script) with the writer's
scale and slant, each character's rotation, scale and gap at fractions of their documented ranges, the line's
stroke-3 worked out by hand."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.errors import DataError
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke
from test_values61_kanjivg_prefix import DTD  # an older release's declaration binding kvg: as #FIXED attributes
from test_values265_hershey_lines import Script  # a stream of draws written in the test

MIB = 1 << 20


def _padded(size):
    raw = svg(["M10,20 L10,26"])
    head, tail = raw.rsplit(b"</svg>", 1)
    pad = size - len(raw) - len(b"<!---->")
    return head + b"<!--" + b"x" * pad + b"-->" + b"</svg>" + tail


def test_a_file_of_one_mebibyte_is_read_and_one_byte_more_refused(tmp_path):
    ok, big = tmp_path / "04e00.svg", tmp_path / "04e01.svg"
    ok.write_bytes(_padded(MIB))
    big.write_bytes(_padded(MIB + 1))
    assert ok.stat().st_size == 1_048_576 and big.stat().st_size == 1_048_577
    got = kanjivg.read_design(str(ok))
    assert len(got) == 1
    np.testing.assert_array_equal(got[0], [[10.0, -20.0], [10.0, -23.0], [10.0, -26.0]])
    with pytest.raises(DataError) as e:
        kanjivg.read_design(str(big))
    assert str(e.value) == (f"KanjiVG file {big} is 1,048,577 bytes, more than the 1,048,576 allowed; "
                            "it is not a file of this data set.")


def test_an_older_releases_file_reads_to_its_points_by_hand(tmp_path):
    body = (b'<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109" viewBox="0 0 109 109">\n'
            b'<g id="kvg:StrokePaths_00041" kvg:element="A">\n'
            b'  <path id="kvg:00041-s2" kvg:type="T" d="M0,9 h6"/>\n'
            b'  <path id="kvg:00041-s1" kvg:type="T" d="M1,1 l3,4"/>\n</g>\n</svg>\n')
    path = tmp_path / "00041.svg"
    path.write_bytes(b'<?xml version="1.0" encoding="UTF-8"?>\n' + DTD + body)
    got = kanjivg.read_design(str(path))
    # s1 first: a 3-4-5 diagonal, ceil(5 / 3) = 2 intervals; then s2, 6 units, 2 intervals; y turned up
    assert [g.tolist() for g in got] == [[[1.0, -1.0], [2.5, -3.0], [4.0, -5.0]],
                                         [[0.0, -9.0], [3.0, -9.0], [6.0, -9.0]]]


def test_the_files_of_a_kanji_subfolder_are_the_ones_listed(tmp_path):
    (tmp_path / "kanji").mkdir()
    for name in ("00041.svg", "00042.svg", "00041-Kaisho.svg", "readme.txt"):
        (tmp_path / "kanji" / name).write_bytes(svg(["M0,0 L9,9"]))
    (tmp_path / "00043.svg").write_bytes(svg(["M0,0 L9,9"]))           # beside kanji/: not read
    got = kanjivg.folder_files(str(tmp_path))
    assert got == {0x41: str(tmp_path / "kanji" / "00041.svg"), 0x42: str(tmp_path / "kanji" / "00042.svg")}


def _folder(tmp_path, names):
    for k, name in enumerate(names):
        (tmp_path / name).write_bytes(svg([f"M{10 + k},10 L{40 + k},50", "M20,70 h30"]))


def _build(tmp_path, charset):
    return kanjivg.build({"task": "strokes-kanjivg", "data_dir": str(tmp_path), "charset": charset,
                          "head": "ctc", "split": "6/3"})


def test_the_designs_counted_are_the_charsets_only(tmp_path):
    # three latin designs (A, b, 7); a kanji (04e00) and a variant (00041-Kaisho) are files but not latin designs
    _folder(tmp_path, ["00041.svg", "00062.svg", "00037.svg", "04e00.svg", "00041-Kaisho.svg"])
    t = _build(tmp_path, "latin")
    assert t.description.startswith(
        "KanjiVG latin characters (3 designs, every design in both splits, validation lines other combinations "
        "and augmentations), 1-5 per line, augmented, each line's characters its text")
    assert set("".join(t.texts_train)) <= set("Ab7")


def test_a_kana_line_holds_one_to_four_characters(tmp_path):
    _folder(tmp_path, ["03042.svg", "03044.svg", "030a2.svg"])       # あ, い, ア
    t = _build(tmp_path, "kana")
    assert t.description.startswith(
        "KanjiVG kana characters (3 designs, every design in both splits, validation lines other combinations "
        "and augmentations), 1-4 per line, augmented, each line's characters its text")
    assert max(len(x) for x in t.texts_train + t.texts_val) <= 4


def test_a_line_of_two_characters_by_hand_from_a_scripted_stream():
    designs = {0x41: [np.array([[0.0, 0.0], [0.0, 10.0]])], 0x42: [np.array([[0.0, 0.0], [4.0, 0.0]])]}
    rng = Script(("integers", 2), ("choice", [0, 1]),                 # two characters: A then B
                 ("uniform", 0.5), ("uniform", 0.75),                 # writer: scale 0.8 + 0.2 = 1, slant 0.15
                 ("uniform", 0.5), ("uniform", 0.5), ("normal", None),   # A: no rotation, scale 1, no jitter
                 ("uniform", 0.5), ("uniform", 0.5), ("normal", None),   # B: the same
                 ("uniform", 0.1))                                    # gap 4 + 0.1 * 10 = 5, times scale 1
    lines, texts = kanjivg.make_lines(rng, designs, np.array([0x41, 0x42], np.int64), 1, 2)
    assert rng.draws == [] and texts == ["AB"]
    # A sheared: (0, 10) -> (0 + 0.15 * 10, 10) = (1.5, 10); its right edge 1.5, so B's left edge 0 goes to 6.5
    want = np.array([[0.0, 0.0, 0.0], [1.5, 10.0, 1.0], [6.5 - 1.5, -10.0, 0.0], [4.0, 0.0, 1.0]])
    np.testing.assert_allclose(lines[0], want, rtol=0, atol=1e-12)
