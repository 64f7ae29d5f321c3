"""lnrnn/data/hershey.py and lnrnn/data/words.py against the module's own documentation and the package's
fonts: in every face the letters stand on the baseline at y = 0, x-height letters reach no lower, descenders go
below and capitals are 21 font units tall (the package's polylines, turned y-up about base_line); line_texts
takes exactly one draw from the caller's generator and a set's first texts do not depend on its size; one line
in four (MARK) ends with a closing mark, each mark about equally often; the word list is lowercase, sorted,
without repeats, and holds every letter."""
import string

import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.words import WORDS

pytest.importorskip("HersheyFonts")


@pytest.fixture(scope="module")
def fonts():
    return {face: hershey.load_font(face) for face in hershey.FACES}


def ys(font, word):
    strokes, _ = hershey.word_strokes(font, word)
    return np.concatenate(strokes)[:, 1]


@pytest.mark.parametrize("face", hershey.FACES)
def test_letters_stand_on_the_baseline(fonts, face):
    font = fonts[face]
    for w in "xnmaeo":
        assert ys(font, w).min() == pytest.approx(0.0, abs=1e-9), w
    for w in "gpqy":
        assert ys(font, w).min() < -5.0, w
    for w in "HEIT":
        y = ys(font, w)
        assert (y.min(), y.max()) == pytest.approx((0.0, 21.0), abs=1e-9), w


@pytest.mark.parametrize("face", hershey.FACES)
def test_word_strokes_are_the_packages_polylines_turned_up(fonts, face):
    font = fonts[face]
    word = "Box"
    base = max(y for st in font.strokes_for_text("H") for _, y in st)   # y down: a capital's foot is the baseline
    mine, width = hershey.word_strokes(font, word)
    theirs = [np.array([[x, base - y] for x, y in st]) for st in font.strokes_for_text(word)]
    assert len(mine) == len(theirs)
    for a, b in zip(mine, theirs):
        np.testing.assert_allclose(a, b, atol=1e-9)
    assert width == pytest.approx(sum(g.char_width for g in font.glyphs_for_text(word)))


def test_line_texts_take_one_draw_of_the_callers_generator():
    rng = np.random.default_rng(11)
    hershey.line_texts(rng, 7)
    ref = np.random.default_rng(11)
    ref.integers(2**63)
    assert rng.random() == ref.random()


def test_first_texts_do_not_depend_on_the_count():
    a = hershey.line_texts(np.random.default_rng(3), 4)
    b = hershey.line_texts(np.random.default_rng(3), 9)
    assert a == b[:4]


def test_one_line_in_four_ends_with_a_mark():
    rng = np.random.default_rng(2026)
    n = 4000
    ends = [hershey.line_text(rng)[-1] for _ in range(n)]
    share = sum(e in hershey.MARKS for e in ends) / n
    assert hershey.MARK == 0.25
    assert abs(share - hershey.MARK) < 0.04                       # binomial std about 0.007
    for m in hershey.MARKS:                                       # each of the four about equally often
        assert abs(ends.count(m) / n - hershey.MARK / len(hershey.MARKS)) < 0.025, m


def test_word_list_lowercase_sorted_unique_every_letter():
    assert len(set(WORDS)) == len(WORDS)
    assert list(WORDS) == sorted(WORDS)
    assert all(w and set(w) <= set(string.ascii_lowercase) for w in WORDS)
    assert set("".join(WORDS)) == set(string.ascii_lowercase)
    for w in ("zero", "zone", "zoo", "a", "zebra"):
        assert w in WORDS
