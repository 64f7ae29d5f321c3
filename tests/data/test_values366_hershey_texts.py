"""lnrnn/data/hershey.py's line texts and lines against the module's definitions, nineteenth pass: line_text driven
by a scripted generator (every draw chosen here) writing two words joined by a hyphen, by a space, and by an inner
mark, the text put together by hand from WORDS; make_lines' texts as line_texts draws them from the same seed, its
names face-00000, face-00001 as documented, and each line a stroke-3 array ending with a pen lift."""
import numpy as np

from lnrnn.data import hershey
from lnrnn.data.words import WORDS


class Scripted:
    """A generator whose random() and integers() return the values given, in order."""

    def __init__(self, randoms, integers):
        self.randoms, self.integers_ = list(randoms), list(integers)

    def random(self):
        return self.randoms.pop(0)

    def integers(self, *args):
        return self.integers_.pop(0)


def scripted_line(join_draws, join_integers=()):
    """Two plain words, WORDS[7] then WORDS[40], no closing mark; ``join_draws`` decide the separator."""
    word = [0.9, 0.9, 0.9, 0.9]          # not a number, not in capitals, not capitalized, not wrapped
    # n = 2 words (integers 2), no closing mark (0.9 >= MARK); word 1 WORDS[7]; word 2 WORDS[40], drawn
    # before its separator
    rng = Scripted([0.9] + word + word + list(join_draws), [2, 7, 40, *join_integers])
    return hershey.line_text(rng), rng


def test_a_hyphen_joins_two_words_without_spaces():
    text, rng = scripted_line([0.0])                             # 0.0 < HYPHEN
    assert text == WORDS[7] + "-" + WORDS[40]
    assert not rng.randoms and not rng.integers_


def test_a_plain_space_and_an_inner_mark_by_hand():
    text, _ = scripted_line([0.99, 0.99])                        # no hyphen, no inner mark
    assert text == WORDS[7] + " " + WORDS[40]
    text, _ = scripted_line([0.99, 0.0], [1])                    # an inner mark, INNER_MARKS[1] = ';'
    assert text == WORDS[7] + "; " + WORDS[40]


def test_make_lines_names_and_texts():
    lines, texts, names = hershey.make_lines(np.random.default_rng(4), 2, faces=("futural",))
    assert texts == hershey.line_texts(np.random.default_rng(4), 2)
    assert all(isinstance(t, str) and t for t in texts)
    assert names == ["futural-00000", "futural-00001"]
    for seq in lines:
        assert seq.ndim == 2 and seq.shape[1] == 3 and seq[-1, 2] == 1.0 and seq[0, :2].tolist() == [0.0, 0.0]
