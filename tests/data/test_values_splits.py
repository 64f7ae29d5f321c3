"""lnrnn/data/splits.py and lnrnn/data/words.py by definition: --split takes two positive counts, either
side refused when it is not one; the Hershey word list is lower-case ASCII words, each once, with every
letter of the alphabet in several of them."""
import string
from collections import Counter

import pytest

from lnrnn.data.splits import parse_split
from lnrnn.data.words import WORDS
from lnrnn.errors import UserError


def test_split_counts():
    assert parse_split("8000/2000") == (8000, 2000) and parse_split("1/1") == (1, 1)
    assert parse_split(" 12/ 5") == (12, 5) and parse_split(None) is None


@pytest.mark.parametrize("bad", ["10/0", "0/10", "10/-1", "-1/10", "10", "10/5/1", "a/5", "5/b", "", "/"])
def test_each_side_is_checked(bad):
    with pytest.raises(UserError, match="--split") as e:
        parse_split(bad)
    assert "\n" not in str(e.value)


def test_the_word_list():
    assert len(WORDS) == len(set(WORDS)) > 500
    assert all(w and set(w) <= set(string.ascii_lowercase) for w in WORDS)
    letters = Counter(c for w in WORDS for c in set(w))
    assert set(letters) == set(string.ascii_lowercase) and min(letters.values()) >= 3
