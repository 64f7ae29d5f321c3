"""A written line's caption by value (round 300 of the planted bugs, tests/mutants/mutants_values300.py):
written_label of rows built here, against the caption rule written out: repr(text), then " after the prime
(grey)" only for a primed row, then "(stopped at the N-point cap)" only for a capped one; a caption of more
than 100 characters (repr, prime note, each note and its two brackets, and one space) is cut in the middle
(first keep - keep // 3 and last keep // 3 characters of the repr, keep = limit - 3) and says its length."""
import numpy as np

from lnrnn.sample import Written, written_label


def row(text, points=4, capped=False, primed=False):
    return Written(points=np.zeros((points, 3)), phi=np.zeros((points, len(text))), capped=capped, text=text,
                   chars=list(text), codes=np.zeros(len(text), np.int64),
                   prime=np.zeros((2, 3)) if primed else None, prime_chars=3 if primed else 0)


def test_the_prime_note_only_on_a_primed_row():
    assert written_label(row("ab")) == "'ab'"
    assert written_label(row("ab", primed=True)) == "'ab' after the prime (grey)"
    assert written_label(row("ab", points=7, capped=True, primed=True)) == \
        "'ab' after the prime (grey) (stopped at the 7-point cap)"
    assert written_label(row("a", points=1, capped=True)) == "'a' (stopped at the 1-point cap)"


def test_a_caption_of_100_characters_is_whole_and_of_101_cut_to_100():
    t97 = "".join(chr(97 + k % 26) for k in range(97))                  # repr 99 + 1 = 100: whole
    assert written_label(row(t97)) == repr(t97)
    t98 = t97 + "z"                                                     # 101: cut
    tail = " (98 characters)"
    keep = 100 - len(tail) - 3                                          # 81
    r = repr(t98)
    want = r[:keep - keep // 3] + "\u2026" + r[len(r) - keep // 3:] + tail
    assert written_label(row(t98)) == want
    assert len(want) == 54 + 1 + 27 + 16


def test_a_primed_caption_counts_its_note_against_the_hundred():
    note = " after the prime (grey)"                                    # 23 characters
    t = "x" * (100 - 1 - len(note) - 2)                                 # 74: repr 76 + 23 + 1 = 100, whole
    assert written_label(row(t, primed=True)) == repr(t) + note
    t = t + "y"                                                         # 101: cut
    tail = note + " (75 characters)"
    keep = 100 - len(tail) - 3
    r = repr(t)
    assert written_label(row(t, primed=True)) == r[:keep - keep // 3] + "\u2026" + r[len(r) - keep // 3:] + tail
