"""lnrnn/data/hershey.py's lines against strokes put together here from the HersheyFonts package itself: merge_joins
on strokes written here (a join continues the stroke, a real lift, before or after a join, keeps every point of the
stroke after it); layout of script words as the font's strokes for each word, y turned up about the font's baseline,
shifted by the widths of the words before and one space each, with every stroke that starts exactly where the one
before it ended folded into it by the definition; make_lines' lines over two faces drawn again here line by line,
each in the face its name says, from the same seed."""
import numpy as np

from lnrnn.data import hershey
from lnrnn.data import strokes as S


def test_a_join_continues_the_stroke_and_a_real_lift_keeps_every_point():
    a = np.array([[0.0, 0.0], [1.0, 2.0]])
    b = np.array([[1.0, 2.0], [3.0, 1.0], [4.0, 4.0]])             # starts where a ends: a join
    c = np.array([[4.0, 4.5], [5.0, 0.0]])                         # half a unit away: a lift
    d = np.array([[6.0, 1.0], [7.0, 1.0], [6.0, 3.0]])             # a lift
    e = np.array([[6.0, 3.0], [2.0, 2.0]])                         # a join
    got = hershey.merge_joins([a, b, c, d, e])
    want = [[[0, 0], [1, 2], [3, 1], [4, 4]], [[4, 4.5], [5, 0]], [[6, 1], [7, 1], [6, 3], [2, 2]]]
    assert [g.tolist() for g in got] == want
    assert [g.tolist() for g in hershey.merge_joins([c, d])] == [c.tolist(), d.tolist()]


def _by_hand(font, text):
    """The font's strokes of each word, y up, shifted word by word (no extra gap), joins folded in."""
    base = font.render_options["base_line"]
    space = sum(g.char_width for g in font.glyphs_for_text(" "))
    raw, x = [], 0.0
    for word in text.split(" "):
        raw += [[(px + x, base - py) for px, py in st] for st in font.strokes_for_text(word)]
        x += sum(g.char_width for g in font.glyphs_for_text(word)) + space
    out = []
    for st in raw:
        if out and out[-1][-1] == st[0]:
            out[-1] = out[-1] + st[1:]
        else:
            out.append(list(st))
    return raw, out


def test_a_script_lines_joined_letters_are_one_stroke():
    font = hershey.load_font("scripts")
    text = "an minimum go"
    raw, want = _by_hand(font, text)
    assert len(raw) == 23 and len(want) == 18                       # 1 join in "an", 4 in "minimum", 0 in "go"
    got = hershey.layout(font, text, np.random.default_rng(0), 0.0)
    assert [g.tolist() for g in got] == [[list(map(float, p)) for p in st] for st in want]


def test_each_line_is_drawn_in_the_face_its_name_says():
    faces = ("futural", "scripts")
    lines, texts, names = hershey.make_lines(np.random.default_rng(0), 4, faces)
    rng = np.random.default_rng(0)
    assert hershey.line_texts(rng, 4) == texts
    seen = set()
    for i, (line, text, name) in enumerate(zip(lines, texts, names)):
        face = faces[int(rng.integers(2))]
        seen.add(face)
        assert name == f"{face}-{i:05d}"
        want = S.to_stroke3(hershey.draw_line(hershey.load_font(face), text, hershey.random_style(rng), rng))
        np.testing.assert_array_equal(line, want)
    assert seen == set(faces)
