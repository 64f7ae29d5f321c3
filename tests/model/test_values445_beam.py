"""lnrnn/model/beam.py's search_bytes (what lnrnn.api.read refuses a beam by, before any line is read) against what a
row's search really holds: the trie the search returns, (6, 1 + steps x W) int64, plus the beam's slots, heap, keys
and order (11 W) and its merge table (W, C), 8 bytes each, for widths the search caps (W below the width asked for)
and widths it keeps, short and long rows, few and many classes."""
import numpy as np
import pytest

from lnrnn.model import beam


@pytest.mark.parametrize("steps, classes, width", [(1, 3, 8), (2, 3, 16), (6, 5, 4), (9, 7, 3), (12, 4, 1),
                                                   (30, 11, 6)])
def test_search_bytes_are_the_trie_the_search_builds_and_its_beam(steps, classes, width):
    rng = np.random.default_rng(steps)
    logp = np.log(rng.dirichlet(np.ones(classes), size=(steps, 1)))      # (T,B,C) one row
    W = beam._width(width, steps, classes)
    _, _, tree = beam._search_row(logp, 0, steps, W)
    assert tree.shape == (6, 1 + steps * W) and tree.dtype == np.int64
    assert beam.search_bytes(steps, classes, width) == tree.nbytes + 8 * W * (11 + classes)


def test_search_bytes_grow_by_a_trie_level_a_step():
    for classes, width in [(5, 4), (30, 10), (3, 2)]:
        W = beam._width(width, 40, classes)
        assert W == width  # not capped at 40 steps
        for steps in (40, 41, 100):
            assert beam.search_bytes(steps + 1, classes, width) - beam.search_bytes(steps, classes, width) == 48 * W
