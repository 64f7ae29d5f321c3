"""lnrnn/data/kanjivg.py's geometry and counts by hand: augment with known draws (a rotation by 0.05 rad, a
scale, a slant: the slant shifts x by y, then the rotation turns counter-clockwise), join_line's pen-up
advance along x, resampling of known polylines (point counts and places), S's reflected control point at
t = 1/2, and on a folder of designs written here: points per line from the resampled strokes, a lift at each
stroke's end, the alphabet of the training texts, and a folder of one character refused."""
import math

import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError


class Draws:
    """A stand-in for the generator: uniform(lo, hi) returns the value given for those bounds, normal the
    zeros (after checking its std)."""

    def __init__(self, uniform, normal_std=None):
        self.uniform_values, self.normal_std = uniform, normal_std

    def uniform(self, lo, hi):
        v = self.uniform_values[(lo, hi)]
        assert lo <= v <= hi
        return v

    def normal(self, loc, std, shape):
        assert loc == 0.0 and std == self.normal_std
        return np.zeros(shape)


def test_augment_by_a_known_angle_scale_and_slant():
    a, own, scale, slant = 0.05, 1.05, 2.0, 0.25
    draws = Draws({(-kanjivg.CHAR_ROTATION, kanjivg.CHAR_ROTATION): a, kanjivg.CHAR_SCALE: own},
                  normal_std=kanjivg.JITTER)
    design = [np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([[3.0, -2.0]])]
    got = kanjivg.augment(design, draws, scale, slant)
    s, c, n = scale * own, math.cos(a), math.sin(a)

    def by_hand(x, y):
        x = x + slant * y                                   # slant: x shifts by slant per unit of height
        return [s * (x * c - y * n), s * (x * n + y * c)]   # rotate counter-clockwise by a, then scale

    assert [len(g) for g in got] == [2, 1]
    np.testing.assert_allclose(got[0], [by_hand(1, 0), by_hand(0, 1)], rtol=0, atol=1e-12)
    np.testing.assert_allclose(got[1], [by_hand(3, -2)], rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.hypot(*got[0][0]), s, rtol=1e-12)                 # (1, 0): length s,
    assert math.atan2(got[0][0][1], got[0][0][0]) == pytest.approx(a, abs=1e-12)    # turned by a


def test_join_line_advances_along_x_by_the_scaled_gap():
    gap, scale = 6.0, 1.5
    draws = Draws({kanjivg.GAP: gap})
    first = [np.array([[0.0, 0.0], [2.0, 1.0]]), np.array([[1.0, 3.0]])]
    second = [np.array([[5.0, -1.0], [7.0, 2.0]])]
    third = [np.array([[0.0, 0.0], [1.0, 0.0]])]
    out = kanjivg.join_line([first, second, third], draws, scale)
    # first unmoved (right edge 2); second's left edge 5 moves to 2 + 1.5 * 6 = 11; its right edge 13;
    # third's left edge 0 moves to 13 + 9 = 22. y never moves.
    want = [[[0, 0], [2, 1]], [[1, 3]], [[11, -1], [13, 2]], [[22, 0], [23, 0]]]
    assert [o.tolist() for o in out] == want


def test_resample_known_polylines():
    np.testing.assert_allclose(kanjivg.resample(np.array([[0.0, 0.0], [0.0, 9.0]]), 3.0),
                               [[0, 0], [0, 3], [0, 6], [0, 9]], atol=1e-12)
    # an L of arc length 7, spacing 2: ceil(3.5) + 1 = 5 points at arc 0, 1.75, 3.5, 5.25, 7
    np.testing.assert_allclose(kanjivg.resample(np.array([[0.0, 0.0], [4.0, 0.0], [4.0, 3.0]]), 2.0),
                               [[0, 0], [1.75, 0], [3.5, 0], [4, 1.25], [4, 3]], atol=1e-12)
    # a diagonal going down and left: y is interpolated from y
    np.testing.assert_allclose(kanjivg.resample(np.array([[6.0, 8.0], [0.0, 0.0]]), 5.0),
                               [[6, 8], [3, 4], [0, 0]], atol=1e-12)
    # counts: ceil(arc / spacing) + 1 points
    for arc, m in ((6.0, 3), (6.01, 4), (2.9, 2), (0.5, 2), (30.0, 11)):
        assert len(kanjivg.resample(np.array([[0.0, 0.0], [arc, 0.0]]), 3.0)) == m


def test_s_reflects_the_curves_second_control_point_at_half_way():
    (p,) = kanjivg.path_polylines("M0,0 C0,10 10,10 10,0 S20,-10 20,0")
    K = kanjivg.CURVE_POINTS
    assert len(p) == 1 + 2 * K and K % 2 == 0
    # the S: from (10, 0), first control 2 (10, 0) - (10, 10) = (10, -10), then (20, -10), to (20, 0);
    # B(1/2) = (p0 + 3 p1 + 3 p2 + p3) / 8, at index K + K / 2 (the S starts at the C's end, index K)
    np.testing.assert_allclose(p[K + K // 2], [(10 + 30 + 60 + 20) / 8, (0 - 30 - 30 + 0) / 8], atol=1e-12)


def _svg(cp, paths):
    h = f"{cp:05x}"
    body = "".join(f'<path id="kvg:{h}-s{k + 1}" d="{d}"/>' for k, d in enumerate(paths))
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="109" height="109"><g id="kvg:{h}">{body}</g></svg>'


# a vertical bar of length 30 (11 points at spacing 3) and a cross of two bars of 12 (5 points each)
BAR, CROSS = ["M20,10L20,40"], ["M10,30H22", "M16,24V36"]


def _folder(tmp_path, chars):
    for i, ch in enumerate(chars):
        (tmp_path / f"{ord(ch):05x}.svg").write_text(_svg(ord(ch), [BAR, CROSS][i % 2]))
    return str(tmp_path)


def test_points_lifts_and_alphabet_of_lines_of_known_designs(tmp_path):
    folder = _folder(tmp_path, "AB")
    assert kanjivg.SPACING == 3.0
    t = load_task(task_spec("strokes-kanjivg", folder, split="12/4", head="ctc"))
    points = {"A": [11], "B": [5, 5]}                                # per stroke, by hand
    for w in ("train", "val"):
        for i in range(t.size(w)):
            text, line = t.text(w, i), t.line(w, i)
            per_stroke = [n for ch in text for n in points[ch]]
            assert len(line) == sum(per_stroke)
            ends = np.cumsum(per_stroke) - 1
            assert np.flatnonzero(line[:, 2]).tolist() == ends.tolist()      # a lift at each stroke's end
            assert line[0, :2].tolist() == [0.0, 0.0]
    assert set("".join(t.texts_train)) == {"A", "B"}
    assert t.alphabet == kanjivg.S.UNKNOWN + "AB" and t.head["outputs"] == 4
    # writing: one of the two designs held out, the alphabet the other one's
    w = load_task(task_spec("strokes-kanjivg", folder, split="12/4"))
    assert len(w.extra["val_designs"]) == 1 and len(w.alphabet) == 2


@pytest.mark.parametrize("head", [None, "ctc"])
def test_a_folder_of_one_character_is_refused(tmp_path, head):
    folder = _folder(tmp_path, "A")
    with pytest.raises(DataError, match="1 latin character; at least 2"):
        load_task(task_spec("strokes-kanjivg", folder, split="4/2", head=head))


def test_kana_designs_held_out_are_counted(tmp_path):
    kana = [chr(cp) for cp in range(0x3041, 0x3041 + 21)]                  # 21 hiragana designs
    folder = _folder(tmp_path, "".join(kana))
    t = load_task(task_spec("strokes-kanjivg", folder, split="6/3", charset="kana"))
    held = t.extra["val_designs"]
    assert len(held) == 2                                                   # round(0.1 * 21) = 2
    assert "(21 designs, 2 characters held out for validation)" in t.description
    assert set("".join(t.texts_val)) <= {chr(c) for c in held}
    assert not set("".join(t.texts_train)) & {chr(c) for c in held}
