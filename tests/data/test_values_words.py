"""lnrnn/data/words.py: the word list of strokes-hershey is what its docstring says: lower case ASCII letters
only, each word once, in alphabetical order, every letter of the alphabet in several words; docs/hershey.md gives
the count the list has."""
import os
import re
import string

import testpaths

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


def test_the_count_docs_hershey_gives_is_the_lists_length():
    text = open(os.path.join(testpaths.ROOT, "docs", "hershey.md"), encoding="utf-8").read()
    said = re.search(r"holds ([0-9,]+) common English words", text)
    assert said, "docs/hershey.md no longer says how many words lnrnn/data/words.py holds"
    assert int(said.group(1).replace(",", "")) == len(WORDS)
