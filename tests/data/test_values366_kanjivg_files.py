"""lnrnn/data/kanjivg.py on path data and SVG files written here in KanjiVG's format (test_values206_kanjivg.svg:
stroke paths inside <g>), nineteenth pass: a file's stroke paths found inside their group and given in sK order;
relative lower-case m, l, h, v and z read to points worked out by hand; a folder's files keyed by the code point of
their hex name, variants and other names skipped; a design read y up from two strokes against the hand points."""
import numpy as np

from lnrnn.data import kanjivg
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke


def test_stroke_paths_inside_their_group_in_stroke_order():
    raw = svg(["M1,2 L3,4", "M5,6 L7,8", "M9,9 L9,10"])
    raw = raw.replace(b"-s1\"", b"-s9\"", 1).replace(b"-s3\"", b"-s1\"", 1)   # file order s9, s2, s1
    assert kanjivg.stroke_paths(raw, "x.svg") == ["M9,9 L9,10", "M5,6 L7,8", "M1,2 L3,4"]


def test_relative_lower_case_commands_by_hand():
    got = kanjivg.path_polylines("m10,20 l5,0 h-3 v4 z m1,1 l2,2")
    assert [p.tolist() for p in got] == [[[10, 20], [15, 20], [12, 20], [12, 24], [10, 20]],
                                         [[11, 21], [13, 23]]]


def test_a_folder_is_keyed_by_code_point(tmp_path):
    for name in ("04e00.svg", "00041.svg", "04e14-Kaisho.svg", "notes.svg", "03042.txt"):
        (tmp_path / name).write_bytes(svg(["M10,20 L10,26"]))
    files = kanjivg.folder_files(str(tmp_path))
    assert files == {0x4E00: str(tmp_path / "04e00.svg"), 0x41: str(tmp_path / "00041.svg")}


def test_a_design_reads_y_up_and_resampled(tmp_path):
    path = tmp_path / "04e00.svg"
    path.write_bytes(svg(["M10,20 L10,26", "M5,5 l6,0"]))
    got = kanjivg.read_design(str(path))
    # 6 units of arc at spacing 3: ceil(6 / 3) + 1 = 3 points, 3 apart
    np.testing.assert_allclose(got[0], [[10, -20], [10, -23], [10, -26]], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], [[5, -5], [8, -5], [11, -5]], rtol=0, atol=1e-12)
