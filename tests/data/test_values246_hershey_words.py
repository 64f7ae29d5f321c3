"""lnrnn/data/hershey.py's lines and lnrnn/data/words.py's list, second pass: a line laid out from x = 0 with each
word after the one before by its advance width, the font's space and an extra gap drawn in [0, 6] (the writer's
most, WORD_GAP) from the line's stream, against the HersheyFonts package's own strokes and widths
(test_values233_hershey_lines._by_hand); 400 line texts drawn by hand from their own stream seeded by one draw
(test_values213_hershey.line_by_hand), a word that does not fit ending the line even where a later, shorter one
would fit; lines named face-00000 up past ten; the words holding the rare letters j, q, x and z listed here from
the word list as typed."""
import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.words import WORDS
from test_values213_hershey import line_by_hand, word_by_hand  # a line's / a word's text drawn by hand
from test_values233_hershey_lines import _by_hand  # a text's font strokes, y up, joins folded in, no extra gap

pytest.importorskip("HersheyFonts")


def test_words_start_at_zero_and_follow_by_width_space_and_a_gap_up_to_six():
    for seed in range(3):
        style = hershey.random_style(np.random.default_rng(seed))
        assert style.word_gap == 6.0
    font = hershey.load_font("futural")
    space = sum(g.char_width for g in font.glyphs_for_text(" "))
    width_go = sum(g.char_width for g in font.glyphs_for_text("go"))
    gap = np.random.default_rng(11).uniform(0.0, 6.0)                  # the gap after "go"
    go, to = _by_hand(font, "go")[1], _by_hand(font, "to")[1]
    want = go + [[(x + width_go + space + gap, y) for x, y in st] for st in to]
    got = hershey.layout(font, "go to", np.random.default_rng(11), 6.0)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, np.array(w, np.float64), rtol=0, atol=1e-12)


def test_line_texts_drawn_by_hand_from_their_own_stream():
    rng = np.random.default_rng(246)
    got = hershey.line_texts(rng, 400)
    own = np.random.default_rng(int(np.random.default_rng(246).integers(2**63)))
    assert got == [line_by_hand(own) for _ in range(400)]


def test_a_word_that_does_not_fit_ends_the_line():
    # count the lines where a word was cut by the 32-character limit and a later word of the same draw would
    # have fitted: each must end at the cut, as line_by_hand does
    own = np.random.default_rng(int(np.random.default_rng(9).integers(2**63)))
    got = hershey.line_texts(np.random.default_rng(9), 300)
    cut_with_room = 0
    for text in got:
        state = own.bit_generator.state
        assert text == line_by_hand(own)
        probe = np.random.default_rng()
        probe.bit_generator.state = state
        n = int(probe.integers(2, 7))
        mark = str(probe.choice(list(".,?!"))) if probe.random() < 0.25 else ""
        line, cut = word_by_hand(probe, True), False
        for _ in range(n - 1):
            w = word_by_hand(probe, False)
            sep = "-" if probe.random() < 0.03 else (",;:"[int(probe.integers(3))] + " "
                                                    if probe.random() < 0.06 else " ")
            if len(line) + len(sep) + len(w) + len(mark) > 32:
                cut = True
            elif cut:
                cut_with_room += 1                                    # would fit, but the line has ended
                break
            else:
                line += sep + w
    assert cut_with_room > 0


def test_lines_are_named_by_face_and_index_from_zero_past_ten():
    lines, texts, names = hershey.make_lines(np.random.default_rng(3), 12, faces=("futural",))
    assert names == [f"futural-000{i:02d}" for i in range(12)]
    assert names[0] == "futural-00000" and names[-1] == "futural-00011"
    assert len(lines) == len(texts) == 12


def test_the_words_with_the_rare_letters():
    # read off the list as typed in words.py
    assert [w for w in WORDS if "j" in w] == ["job", "join", "jump", "just"]
    assert [w for w in WORDS if "q" in w] == ["queen", "question", "quick", "quiet", "quite", "square"]
    assert [w for w in WORDS if "z" in w] == ["dozen", "lazy", "prize", "size", "zebra", "zero", "zone", "zoo"]
    assert [w for w in WORDS if "x" in w] == ["box", "example", "explain", "extra", "fix", "fox", "mix", "next",
                                             "six", "wax"]
