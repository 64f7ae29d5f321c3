"""lnrnn/data/kanjivg.py against hand computations and files written here in KanjiVG's SVG format: relative
path commands taken from the current point (a square drawn with l, h and v), the pen-up gap between joined
characters measured from each character's whole extent and within GAP times the writer's scale (strokes only
moved), and a strokes-kanjivg task built from ten latin designs whose training lines never draw a held-out
design while its validation lines draw only those."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.kanjivg import GAP, path_polylines
from lnrnn.data.tasks import load_task, task_spec


@pytest.mark.parametrize("d, want", [
    ("M10,10 l5,0 l0,5 l-5,0 z", [[10, 10], [15, 10], [15, 15], [10, 15], [10, 10]]),   # a square
    ("M10,10 h5 v5 h-5 v-5", [[10, 10], [15, 10], [15, 15], [10, 15], [10, 10]]),
    ("M0,0 L3,0 l0,4 l-3,-4", [[0, 0], [3, 0], [3, 4], [0, 0]]),                        # a 3-4-5 triangle
])
def test_relative_commands_start_at_the_current_point(d, want):
    (poly,) = path_polylines(d)
    np.testing.assert_allclose(poly, want)


def test_a_relative_cubic_ends_relative_to_the_current_point():
    (poly,) = path_polylines("M1,1 l2,0 c0,1 1,1 1,0")
    np.testing.assert_allclose(poly[:2], [[1, 1], [3, 1]])
    np.testing.assert_allclose(poly[-1], [4, 1])              # (3, 1) + (1, 0)


def test_joined_characters_keep_a_gap_from_the_whole_extent():
    first = [np.array([[0.0, 0.0], [1.0, 0.0]]), np.array([[0.0, 5.0], [40.0, 5.0]])]   # right edge 40, stroke 2
    second = [np.array([[-3.0, 0.0], [2.0, 1.0]])]
    third = [np.array([[0.0, 0.0], [0.0, 9.0]]), np.array([[7.0, 2.0], [-1.0, 2.0]])]
    scale = 1.5
    out = kanjivg.join_line([first, second, third], np.random.default_rng(4), scale)
    assert len(out) == 5
    groups = [out[:2], out[2:3], out[3:]]
    for got, orig in zip(groups, (first, second, third)):      # each character only moved, along x
        shift = got[0][0] - orig[0][0]
        assert shift[1] == 0
        for g, o in zip(got, orig):
            np.testing.assert_allclose(g - o, np.broadcast_to(shift, o.shape))
    np.testing.assert_allclose(groups[0][0], first[0])         # the first one stays put
    for left, right in zip(groups, groups[1:]):
        gap = np.concatenate(right)[:, 0].min() - np.concatenate(left)[:, 0].max()
        assert scale * GAP[0] <= gap <= scale * GAP[1]


SVG = ('<?xml version="1.0" encoding="UTF-8"?>\n'
       '<svg xmlns="http://www.w3.org/2000/svg" xmlns:kvg="http://kanjivg.tagaini.net" width="109" height="109" '
       'viewBox="0 0 109 109">\n<g id="kvg:StrokePaths_{cp:05x}" style="fill:none;stroke:#000000;stroke-width:3">\n'
       '<g id="kvg:{cp:05x}" kvg:element="{ch}">\n'
       '\t<path id="kvg:{cp:05x}-s1" kvg:type="㇑" d="M{a},20 l0,{b}"/>\n'
       '\t<path id="kvg:{cp:05x}-s2" kvg:type="㇐" d="M20,{a} c10,0 20,5 {b},0"/>\n'
       '</g>\n</g>\n</svg>\n')


def test_training_lines_never_draw_a_held_out_design(tmp_path):
    chars = "0123456789"
    for k, ch in enumerate(chars):
        cp = ord(ch)
        (tmp_path / f"{cp:05x}.svg").write_text(SVG.format(cp=cp, ch=ch, a=20 + 5 * k, b=30 + 3 * k),
                                                encoding="utf-8")
    t = load_task(task_spec("strokes-kanjivg", data_dir=str(tmp_path), split="40/8"))
    held = {chr(c) for c in t.extra["val_designs"]}
    assert len(held) == 1                                       # 10 designs: the nearest to 10 %, at least 1
    train_chars = set("".join(t.texts_train))
    val_chars = set("".join(t.texts_val))
    assert not train_chars & held
    assert val_chars == held
    assert train_chars | held == set(chars)                     # the other nine all turn up in 40 lines
    assert (t.size("train"), t.size("val")) == (40, 8)
