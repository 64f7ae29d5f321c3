"""lnrnn/data/hershey.py's line texts and writers against their definitions: a line has every word count
of WORDS_PER_LINE (both ends included), a line that fits MAX_CHARS exactly is kept whole, the baseline
tilts both ways within +-TILT, and the jitter is JITTER font units in source units (times the scale)."""
import numpy as np
import pytest

from lnrnn.data import hershey


@pytest.fixture
def plain_words(monkeypatch):
    """Lines of the one word 'abcd': no numbers, capitals, wraps, marks or hyphens."""
    monkeypatch.setattr(hershey, "WORDS", ["abcd"])
    for name in ("NUMBER", "CAPS", "CAPITAL", "NAME", "WRAP", "HYPHEN", "INNER", "MARK"):
        monkeypatch.setattr(hershey, name, 0.0)
    return monkeypatch


def test_every_word_count_of_words_per_line(plain_words):
    plain_words.setattr(hershey, "MAX_CHARS", 10**6)
    rng = np.random.default_rng(0)
    counts = {len(hershey.line_text(rng).split(" ")) for _ in range(300)}
    lo, hi = hershey.WORDS_PER_LINE
    assert counts == set(range(lo, hi + 1))


def test_a_line_of_exactly_max_chars_is_kept(plain_words):
    plain_words.setattr(hershey, "WORDS_PER_LINE", (6, 6))
    plain_words.setattr(hershey, "MAX_CHARS", 3 * 4 + 2)           # three words and their two spaces
    assert hershey.line_text(np.random.default_rng(1)) == "abcd abcd abcd"
    plain_words.setattr(hershey, "MAX_CHARS", 3 * 4 + 1)
    assert hershey.line_text(np.random.default_rng(1)) == "abcd abcd"


def test_writers_tilt_both_ways_and_jitter_in_source_units():
    rng = np.random.default_rng(2)
    styles = [hershey.random_style(rng) for _ in range(400)]
    tilts = np.array([s.tilt for s in styles])
    assert np.all(np.abs(tilts) <= hershey.TILT)
    assert tilts.min() < -hershey.TILT / 2 and tilts.max() > hershey.TILT / 2
    for s in styles:
        assert s.jitter == pytest.approx(hershey.JITTER * s.scale, rel=1e-12)
        assert hershey.SCALE[0] <= s.scale <= hershey.SCALE[1]
    assert len({round(s.scale, 6) for s in styles}) > 1
