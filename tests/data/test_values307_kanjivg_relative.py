"""lnrnn/data/kanjivg.py on path data and KanjiVG SVGs written here (test_values206's writer): relative commands
m/l after absolute ones worked out by hand from the current point, coordinates with fractions (halves, quarters and
eighths, exact in binary) kept as written, and a file's strokes counted per subpath, each resampled stroke
keeping its ends with y turned up."""
import numpy as np

from lnrnn.data import kanjivg
from test_values206_kanjivg import svg  # a KanjiVG file of the given stroke paths


def test_relative_moves_and_lines_start_from_the_current_point():
    got = kanjivg.path_polylines("m10,10 l5,0 l0,5 M40,40 L45,40 m-5,10 l0,-3")
    assert [g.tolist() for g in got] == [
        [[10.0, 10.0], [15.0, 10.0], [15.0, 15.0]],                     # (10,10) +(5,0) +(0,5)
        [[40.0, 40.0], [45.0, 40.0]],
        [[40.0, 50.0], [40.0, 47.0]],                                   # (45,40) +(-5,10), then +(0,-3)
    ]


def test_fractional_coordinates_are_kept_as_written():
    got = kanjivg.path_polylines("M10.5,20.25 L30.75,20.25 l-0.5,1.5 L.125,-2.5")
    assert [g.tolist() for g in got] == [[[10.5, 20.25], [30.75, 20.25], [30.25, 21.75], [0.125, -2.5]]]


def test_a_file_counts_one_stroke_per_subpath_with_its_ends(tmp_path):
    path = tmp_path / "04e00.svg"
    path.write_bytes(svg(["M10,10 L22,10 m0,10.5 l12,0", "M50.5,5 l0,-6"]))   # 2 paths, 3 subpaths
    got = kanjivg.read_design(str(path))
    assert len(got) == 3
    ends = [(g[0].tolist(), g[-1].tolist()) for g in got]
    assert ends == [([10.0, -10.0], [22.0, -10.0]), ([22.0, -20.5], [34.0, -20.5]), ([50.5, -5.0], [50.5, 1.0])]
    assert [len(g) for g in got] == [5, 5, 3]                           # 12 / 3 + 1, 12 / 3 + 1, 6 / 3 + 1
