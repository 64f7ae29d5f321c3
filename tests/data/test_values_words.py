"""lnrnn/data/words.py: the word list of strokes-hershey is what its docstring says: lower case ASCII letters
only, each word once, in alphabetical order, every letter of the alphabet in several words."""
import re
import string

from lnrnn.data.words import WORDS


def test_words_are_lower_case_letters_only():
    assert isinstance(WORDS, tuple) and len(WORDS) > 500
    bad = [w for w in WORDS if not re.fullmatch(r"[a-z]+", w)]
    assert bad == []


def test_each_word_once_in_alphabetical_order():
    assert list(WORDS) == sorted(set(WORDS))


def test_every_letter_in_several_words():
    for letter in string.ascii_lowercase:
        assert sum(letter in w for w in WORDS) >= 3, letter
