"""The strokes-hershey texts against what lnrnn/data/hershey.py documents of them, over 3000 lines drawn from a fixed
seed: every letter (both cases), digit and common punctuation mark a training set promises is in them (the closing
marks . , ? !, the inner marks , ; :, quotes, parentheses, the hyphen), each line ends in a closing mark about
MARK of the time and in a letter, digit or closing quote otherwise, holds 2 to 6 words (as docs/hershey.md says)
with a space between words that no hyphen or inner mark joins, at most MAX_CHARS characters, and about WRAP of its
words are quoted or in parentheses. The task built on 4 and 3 lines credits A. V. Hershey in its description."""
import pathlib
import re
import string

import numpy as np
import pytest

from lnrnn.data import hershey
from lnrnn.data.tasks import load_task, task_spec

pytest.importorskip("HersheyFonts")


@pytest.fixture(scope="module")
def texts():
    return hershey.line_texts(np.random.default_rng(404), 3000)


def words_of(text):
    """A line's words: the pieces between spaces and hyphens, marks, quotes and parentheses taken off."""
    return [w for w in re.split(r"[ -]", text.strip(".,?!")) if w.strip(",;:\"'()")]


def documented_words_per_line():
    """The '2 to 6 words' of docs/hershey.md's description of a line's text."""
    doc = (pathlib.Path(__file__).parents[2] / "docs" / "hershey.md").read_text()
    lo, hi = re.search(r"\*\*Text\.\*\* (\d+) to (\d+) words", doc).groups()
    return int(lo), int(hi)


def test_every_promised_character_is_written(texts):
    seen = set("".join(texts))
    promised = set(string.ascii_letters + string.digits + ".,?!;:\"'()-")
    assert promised - seen == set()


def test_lines_end_in_a_closing_mark_about_mark_of_the_time(texts):
    ends = [t[-1] for t in texts]
    marked = sum(e in hershey.MARKS for e in ends) / len(texts)
    assert abs(marked - hershey.MARK) < 0.05, marked
    assert set(ends) <= set(hershey.MARKS + string.ascii_letters + string.digits + "\"')")
    assert set(hershey.MARKS) <= set(ends)


def test_lines_hold_two_to_six_spaced_words(texts):
    counts = [len(words_of(t)) for t in texts]
    lo, hi = documented_words_per_line()
    assert (lo, hi) == tuple(hershey.WORDS_PER_LINE)
    assert min(counts) == lo and max(counts) == hi, (min(counts), max(counts))
    assert max(len(t) for t in texts) <= hershey.MAX_CHARS
    joined = sum(t.count(" ") for t in texts) / sum(len(words_of(t)) - 1 for t in texts)
    assert joined > 0.9, joined


def test_about_wrap_of_the_words_are_wrapped(texts):
    words = [w for t in texts for w in re.split(r"[ -]", t) if w]
    wrapped = sum(w.lstrip()[:1] in "\"'(" for w in words) / len(words)
    assert abs(wrapped - hershey.WRAP) < 0.02, wrapped


def test_the_task_credits_a_v_hershey():
    t = load_task(task_spec("strokes-hershey", split="4/3"))
    assert "A. V. Hershey" in t.description, t.description
