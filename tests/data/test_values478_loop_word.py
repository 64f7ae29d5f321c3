"""The synthetic stroke task's words (lnrnn/data/strokes.py, _loop_word: "2-6 loops"): a word drawn with per_loop
points per loop holds loops * per_loop + 1 points, and over 300 draws every count from 2 to 6 comes, each about as
often (each of the five 40-80 times in 300), none outside."""
from collections import Counter

import numpy as np

from lnrnn.data.strokes import _loop_word


def test_a_word_draws_two_to_six_loops_evenly():
    rng = np.random.default_rng(478)
    per_loop = 7
    seen = Counter()
    for _ in range(300):
        word = _loop_word(rng, 20.0, 0.2, per_loop, 0.0)
        assert word.shape[1] == 2 and (len(word) - 1) % per_loop == 0
        seen[(len(word) - 1) // per_loop] += 1
    assert set(seen) == {2, 3, 4, 5, 6}, seen
    assert all(40 <= n <= 80 for n in seen.values()), seen
