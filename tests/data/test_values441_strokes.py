"""strokes-synthetic (lnrnn/data/strokes.py), against its definition: the training and validation lines come from
two separate seeded streams, so no validation line is one of the training lines (a model scored on lines it trained
on would look better than it is); within a line, each word after the first starts where the pen lifted off the
one before plus an advance of 0.6-1.4 loop heights, measured along x from that word's rightmost point (words run
left to right, never over each other), and a dot stays above its word."""
import numpy as np
import pytest

from lnrnn.data import strokes as S
from lnrnn.data.tasks import load_task, task_spec


def _board(task, which):
    """The split's lines in board units (the training std put back), each (N, 3)."""
    k = np.array([*task.scale, 1.0])
    return [task.line(which, i) * k for i in range(task.size(which))]


def test_no_validation_line_is_a_training_line():
    t = load_task(task_spec("strokes-synthetic", split="40/20"))
    train, val = _board(t, "train"), _board(t, "val")
    for j, v in enumerate(val):
        same = [i for i, a in enumerate(train) if a.shape == v.shape and np.allclose(a, v, atol=1e-3)]
        assert same == [], (j, same)


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_each_word_starts_past_the_last_words_rightmost_point(seed, monkeypatch):
    calls, plain = [], S._loop_word

    def word(rng, h, slant, per_loop, x0):
        w = plain(rng, h, slant, per_loop, x0)
        calls.append((h, x0, w))
        return w
    monkeypatch.setattr(S, "_loop_word", word)
    strokes = S.synthetic_line(np.random.default_rng(seed), 600)
    assert len(calls) >= 3
    assert calls[0][1] == 0.0
    for (h, _, prev), (h2, x0, _) in zip(calls, calls[1:]):
        assert h2 == h                                          # one writer's loop height per line
        gap = (x0 - prev[:, 0].max()) / h
        assert 0.6 <= gap <= 1.4, gap
    # the words, in order, among the strokes; a dot (2 points) between them sits above its word's baseline
    words = [w for _, _, w in calls]
    k = 0
    for s in strokes:
        if k < len(words) and len(s) <= len(words[k]) and np.array_equal(s, words[k][:len(s)]):
            k += 1
        else:
            assert len(s) == 2 and k >= 1 and s[:, 1].min() > words[k - 1][:, 1].min(), s
    assert k == len(words)
