"""lnrnn/sample.py's _same_scale, the one scale of every written row, against limits worked out here from its
definition: each axis gets the widest ink's width W and the tallest ink's height H, its own ink left-aligned at its
smallest x and centred on the middle of its y range, a pad of 3% of the larger of W and H on every side; a row
without ink counts as a point at the origin (no width, no height), so it neither widens nor heightens the others;
rows all without ink keep a tiny positive size (axes of stand-in objects that record the limits set)."""
import numpy as np
import pytest

from lnrnn import sample as sampling


class Axis:
    def set_xlim(self, lo, hi):
        self.x = (lo, hi)

    def set_ylim(self, lo, hi):
        self.y = (lo, hi)


def _limits(inks):
    axes = [Axis() for _ in inks]
    sampling._same_scale(axes, [np.asarray(p, np.float64).reshape(-1, 2) for p in inks])
    return [a.x + a.y for a in axes]                     # (x0, x1, y0, y1) of each row


def test_every_row_takes_the_widest_width_and_the_tallest_height():
    a = [[0.0, 1.0], [4.0, 2.0], [1.0, 1.5]]          # x 0..4, y 1..2
    b = [[10.0, -3.0], [12.0, 0.0]]                    # x 10..12, y -3..0
    W, H, pad = 4.0, 3.0, 0.03 * 4.0
    got = _limits([a, b])
    want = [(0 - pad, 0 + W + pad, 1.5 - H / 2 - pad, 1.5 + H / 2 + pad),
            (10 - pad, 10 + W + pad, -1.5 - H / 2 - pad, -1.5 + H / 2 + pad)]
    assert np.allclose(np.array(got), np.array(want), rtol=0, atol=1e-12)
    tall = _limits([[[0, 0], [1, 8]], [[5, 5], [6, 5]]])   # height 8 over width 1: the pad is 3% of the height
    assert tall[1] == pytest.approx((5 - 0.24, 5 + 1 + 0.24, 5 - 4 - 0.24, 5 + 4 + 0.24))


def test_a_row_without_ink_neither_widens_nor_heightens_the_others():
    small = [[2.0, 0.25], [2.2, 0.75]]                 # width 0.2, height 0.5: smaller than 1 both ways
    W, H = 0.2, 0.5
    pad = 0.03 * H
    got = _limits([[], small, np.zeros((0, 2))])
    assert got[1] == pytest.approx((2 - pad, 2 + W + pad, 0.5 - H / 2 - pad, 0.5 + H / 2 + pad), abs=1e-12)
    for empty in (got[0], got[2]):                     # a point at the origin, at the same scale
        assert empty == pytest.approx((-pad, W + pad, -H / 2 - pad, H / 2 + pad), abs=1e-12)


def test_rows_all_without_ink_keep_a_tiny_positive_size():
    for x0, x1, y0, y1 in _limits([[], []]):
        assert 0 < x1 - x0 < 1e-6 and 0 < y1 - y0 < 1e-6 and x0 < 0 < x1 and y0 < 0 < y1
