"""lnrnn/data/hershey.py's lines, twelfth pass: a line laid out word by word against the HersheyFonts package's own
strokes_for_text of the whole line (its space glyph's advance after each word, two spaces meaning two advances,
y turned up about the font's baseline, joins of script letters folded in by the definition: a stroke starting
exactly where the one before ended continues it); line texts from a scripted stream whose every draw is written in
the test (Script), so that WHEN each decision fires is fixed by hand: the first word capitalized at a draw of 0.2
(under CAPITAL 0.3, not under NAME 0.05), and the 32-character limit counted by hand over lines of 32 and 33
characters with and without a closing mark."""
import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.words import WORDS

pytest.importorskip("HersheyFonts")


class Script:
    """A stand-in for numpy's Generator giving the draws written in a test, in order, each checked to be the kind
    of draw expected: random() the float given; integers(lo, hi) the integer given, checked in [lo, hi);
    uniform(lo, hi) lo + f (hi - lo) for the fraction f given; choice(seq, size) seq at the index (or indices)
    given; normal(loc, scale, size) loc everywhere (no jitter)."""

    def __init__(self, *draws):
        self.draws = list(draws)

    def _next(self, kind):
        assert self.draws, f"one {kind} draw more than the script holds"
        got, value = self.draws.pop(0)
        assert got == kind, f"a {kind} draw where the script has {got}"
        return value

    def random(self):
        return self._next("random")

    def integers(self, lo, hi=None):
        lo, hi = (0, lo) if hi is None else (lo, hi)
        v = self._next("integers")
        assert lo <= v < hi, (v, lo, hi)
        return np.int64(v)

    def uniform(self, lo=0.0, hi=1.0):
        return lo + self._next("uniform") * (hi - lo)

    def choice(self, seq, size=None):
        idx, a = self._next("choice"), np.asarray(seq)
        if size is None:
            return a[idx]
        assert len(idx) == size, (idx, size)
        return a[np.asarray(idx)]

    def normal(self, loc=0.0, scale=1.0, size=None):
        self._next("normal")
        return np.full(size, loc, np.float64)


def _font_line(font, text):
    """The package's strokes of the whole line, y up about its baseline, joins folded in by the definition."""
    base = font.render_options["base_line"]
    out = []
    for st in font.strokes_for_text(text):
        st = [(float(x), float(base - y)) for x, y in st]
        if out and out[-1][-1] == st[0]:
            out[-1] = out[-1] + st[1:]
        else:
            out.append(st)
    return out


@pytest.mark.parametrize("face, text", [("futural", "ab  c"), ("scripts", "in  go an")], ids=["futural", "scripts"])
def test_a_line_is_the_fonts_own_line_with_one_space_advance_per_space(face, text):
    font = hershey.load_font(face)
    words = text.split(" ")                                       # "in", "", "go", "an": one gap draw each
    rng = Script(*[("uniform", 0.0)] * len(words))
    got = hershey.layout(font, text, rng, 6.0)
    want = _font_line(font, text)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, np.array(w))
    assert rng.draws == []                                        # one gap drawn per word, the empty one included
    # by hand for futural: "ab" advances 19 + 19, each space 16, so "c" (its stroke from x = 3 to 15) starts at 70
    if face == "futural":
        assert got[-1][:, 0].min() == 19 + 19 + 16 + 16 + 3


def _word(idx, cap=0.9):
    # not a number, WORDS[idx], not in capitals, capitalized when cap < the share, not wrapped
    return [("random", 0.9), ("integers", idx), ("random", 0.9), ("random", cap), ("random", 0.9)]


SPACE = [("random", 0.9), ("random", 0.9)]                        # no hyphen, no inner mark: " "


def test_the_first_word_is_capitalized_under_capital_not_under_name():
    a, b = WORDS.index("different"), next(i for i, w in enumerate(WORDS) if len(w) == 3)
    rng = Script(("integers", 2), ("random", 0.9), *_word(a, 0.2), *_word(b, 0.2), *SPACE)
    # 0.2 is under CAPITAL (0.3) for the first word, not under NAME (0.05) for the second
    assert hershey.line_text(rng) == "Different " + WORDS[b]
    assert rng.draws == []


@pytest.mark.parametrize("last_len, mark, want_len", [
    (2, None, 32),          # "different different different" (29) + " " + 2 letters: 32, kept
    (3, None, 29),          # 33 with a 3-letter word: cut before it
    (2, 2, 30),             # 29 + " " + 2 letters + "?" = 33: cut, the mark kept (30)
    (1, 2, 32),             # 29 + " " + 1 letter + "?" = 32: kept
])
def test_thirty_two_characters_with_the_closing_mark_at_most(last_len, mark, want_len):
    d = WORDS.index("different")
    last = next(i for i, w in enumerate(WORDS) if len(w) == last_len)
    head = [("integers", 4)] + ([("random", 0.9)] if mark is None else [("random", 0.1), ("choice", mark)])
    rng = Script(*head, *_word(d), *_word(d), *SPACE, *_word(d), *SPACE, *_word(last), *SPACE)
    got = hershey.line_text(rng)
    assert rng.draws == []
    words = " ".join(["different"] * 3)
    ending = "?" if mark is not None else ""
    want = (words + " " + WORDS[last] if want_len == 32 else words) + ending
    assert got == want and len(got) == want_len
