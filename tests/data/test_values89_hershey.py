"""lnrnn/data/hershey.py's line texts against their definition: WORDS_PER_LINE words (counted by the spaces and
hyphens between them: no word of WORDS, number, quote or mark holds either), fewer only where MAX_CHARS stops
the line, and every count of the range turning up; the same seed gives the same texts."""
import re

import numpy as np

from lnrnn.data import hershey
from lnrnn.data.hershey import MAX_CHARS, WORDS_PER_LINE
from lnrnn.data.words import WORDS


def test_words_per_line_within_the_range():
    assert not any(re.search(r"[ -]", w) for w in WORDS)
    texts = hershey.line_texts(np.random.default_rng(11), 3000)
    counts = [len(re.split(r"[ -]", t)) for t in texts]
    assert min(counts) >= 1
    assert max(counts) == WORDS_PER_LINE[1]                    # reached, never passed
    assert set(range(WORDS_PER_LINE[0], WORDS_PER_LINE[1] + 1)) <= set(counts)
    assert max(len(t) for t in texts) <= MAX_CHARS
    assert hershey.line_texts(np.random.default_rng(11), 50) == texts[:50]
