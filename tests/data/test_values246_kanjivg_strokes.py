"""lnrnn/data/kanjivg.py's stroke geometry, second pass, against hand computations: numbers written without a
leading zero or with an exponent read as SVG reads them; Z closing to its subpath's start and a relative moveto
after it measured from that start; a file's strokes resampled every 3 units (ceil(L / 3) intervals, both ends) with
y turned up; one character's augmentation written out as shear, rotation by an angle in +-0.06 rad, a scale in
0.93..1.07 of the writer's and Gaussian jitter of std 0.4, from the same seed; characters joined left to right with
the first one left in place and a pen-up gap of 4..14 units times the writer's scale before each later one; a
line's characters drawn, augmented and joined by hand from the same seed; refusals of malformed files and paths
word for word (entities refused before parsing, nothing expanded)."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data import strokes as S
from lnrnn.errors import DataError
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke


def test_numbers_without_a_leading_zero_or_with_an_exponent():
    # ".5,.5" is (0.5, 0.5); "1.5.5" is 1.5 then .5; "-.25" is -0.25
    got = kanjivg.path_polylines("M.5,.5 l1.5.5 h-.25")
    assert [p.tolist() for p in got] == [[[0.5, 0.5], [2.0, 1.0], [1.75, 1.0]]]
    got = kanjivg.path_polylines("M1e1,2E0 L-.5e1,0")
    assert [p.tolist() for p in got] == [[[10.0, 2.0], [-5.0, 0.0]]]


def test_z_closes_to_the_start_and_a_relative_move_after_it_starts_there():
    got = kanjivg.path_polylines("M1,1 L5,1 5,4 Z m2,0 l0,3")
    # Z draws back to (1, 1), which becomes the current point; m2,0 moves to (3, 1), l0,3 draws to (3, 4)
    assert [p.tolist() for p in got] == [[[1.0, 1.0], [5.0, 1.0], [5.0, 4.0], [1.0, 1.0]],
                                         [[3.0, 1.0], [3.0, 4.0]]]


def test_a_files_strokes_resampled_every_3_units_with_y_up(tmp_path):
    f = tmp_path / "04e00.svg"
    f.write_bytes(svg(["M10,20 l10,0", "M0,0 L0,7"]))
    a, b = kanjivg.read_design(str(f))
    # 10 units: ceil(10 / 3) = 4 intervals of 2.5; y = 20 turned up to -20
    assert np.allclose(a, [[10, -20], [12.5, -20], [15, -20], [17.5, -20], [20, -20]], rtol=0, atol=1e-12)
    # 7 units: ceil(7 / 3) = 3 intervals of 7 / 3, downward in SVG, so upward negated
    assert np.allclose(b, [[0, 0], [0, -7 / 3], [0, -14 / 3], [0, -7]], rtol=0, atol=1e-12)


def augment_by_hand(design, rng, scale, slant):
    a = rng.uniform(-0.06, 0.06)
    s = scale * rng.uniform(0.93, 1.07)
    out = []
    for st in design:
        x, y = st[:, 0] + slant * st[:, 1], st[:, 1]                    # shear: x += slant * y
        xr, yr = x * np.cos(a) - y * np.sin(a), x * np.sin(a) + y * np.cos(a)
        out.append(s * np.column_stack([xr, yr]) + rng.normal(0.0, 0.4, st.shape))
    return out


DESIGN = [np.array([[0.0, 0.0], [3.0, 1.0], [6.0, -2.0]]), np.array([[1.0, 5.0], [2.0, 9.0]])]


def test_one_characters_augmentation_by_hand():
    for seed in range(4):
        got = kanjivg.augment(DESIGN, np.random.default_rng(seed), 1.1, -0.2)
        want = augment_by_hand(DESIGN, np.random.default_rng(seed), 1.1, -0.2)
        assert len(got) == 2
        for g, w in zip(got, want):
            np.testing.assert_allclose(g, w, rtol=0, atol=1e-12)


def join_by_hand(chars, rng, scale):
    out, right = [], None
    for strokes in chars:
        xs = np.concatenate([st[:, 0] for st in strokes])
        shift = 0.0 if right is None else right + scale * rng.uniform(4.0, 14.0) - xs.min()
        out += [st + [shift, 0.0] for st in strokes]
        right = xs.max() + shift
    return out


def test_the_first_character_stays_and_each_later_one_follows_a_gap():
    c1 = [np.array([[2.0, 0.0], [5.0, 3.0]])]
    c2 = [np.array([[-1.0, 1.0], [4.0, 2.0]]), np.array([[0.0, 0.0], [1.0, 1.0]])]
    rng = np.random.default_rng(7)
    got = kanjivg.join_line([c1, c2, c1], rng, 0.9)
    g = np.random.default_rng(7)
    gap1, gap2 = 0.9 * g.uniform(4.0, 14.0), 0.9 * g.uniform(4.0, 14.0)
    # c1 as it is (5 its right edge); c2's left edge -1 moved to 5 + gap1; c1 again: its left edge 2 to c2's right
    want = [c1[0], c2[0] + [5 + gap1 + 1, 0], c2[1] + [5 + gap1 + 1, 0],
            c1[0] + [(5 + gap1 + 1 + 4) + gap2 - 2, 0]]
    assert len(got) == 4
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-12)
    assert rng.random() == g.random()                                # two draws taken, no more
    assert [a.tolist() for a in join_by_hand([c1, c2, c1], np.random.default_rng(7), 0.9)] == \
        [a.tolist() for a in want]


def test_a_lines_characters_drawn_augmented_and_joined_by_hand():
    designs = {65: DESIGN, 66: [np.array([[0.0, 0.0], [0.0, 10.0]])], 67: [np.array([[0.0, 5.0], [8.0, 5.0]])]}
    cps = np.array([65, 66, 67], np.int64)
    lines, texts = kanjivg.make_lines(np.random.default_rng(246), designs, cps, 6, 4)
    rng = np.random.default_rng(246)
    assert len(lines) == len(texts) == 6
    for line, text in zip(lines, texts):
        chosen = rng.choice(cps, size=int(rng.integers(1, 5)))
        scale, slant = rng.uniform(0.8, 1.2), rng.uniform(-0.3, 0.3)
        chars = [augment_by_hand(designs[int(c)], rng, scale, slant) for c in chosen]
        want = S.to_stroke3(join_by_hand(chars, rng, scale))
        assert text == "".join(chr(int(c)) for c in chosen)
        np.testing.assert_allclose(line, want, rtol=0, atol=1e-12)
    assert {len(t) for t in texts} != {1}


LONG = "10,10 L20,20 L30,30 L40,40 L50,50 L60,60 L70,70"


def test_malformed_paths_are_refused_word_for_word():
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines(LONG, "a.svg")
    # the first 40 characters: "10,10 " (6) and four "L.0,.0 " (28) and "L60,60" (6)
    assert str(e.value) == "a.svg: path data '10,10 L20,20 L30,30 L40,40 L50,50 L60,60' does not start with a command."
    with pytest.raises(DataError) as e:
        kanjivg.path_polylines("L1,1 M0,0", "b.svg")
    assert str(e.value) == "b.svg: path data 'L1,1 M0,0' draws before its first moveto (M)."


def test_malformed_files_are_refused_word_for_word(tmp_path):
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(svg(["M0,0 L1,1", ""]), "c.svg")
    assert str(e.value) == "c.svg: stroke path kvg:04e00-s2 has no path data (d)."
    bomb = svg(["M0,0 L1,1"], prolog='<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;">]>\n')
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(bomb, "d.svg")
    assert str(e.value) == "d.svg declares XML entities (or is not 8-bit text); refusing to parse it."
    with pytest.raises(DataError) as e:
        kanjivg.stroke_paths(b'<html><path id="kvg:04e00-s1" d="M0,0 L1,1"/></html>', "e.svg")
    assert str(e.value) == "e.svg has root element <html>, not <svg>; it is not a KanjiVG file."
    assert list(tmp_path.iterdir()) == []
