"""make_task's description against the lines given here: the train and validation line counts in their
places; the note of lines of fewer than 2 points skipped appears exactly when a line was skipped (with the
count), whatever glitch steps were dropped."""
import numpy as np

from lnrnn.data.strokes import GLITCH_STEP, RawSplit, make_task


def line(n, glitch=False):
    s = np.zeros((n, 3))
    s[1:, 0] = np.arange(1, n)                 # offsets 1, 2, ...: a std above 0 on x
    s[1:, 1] = (-1.0) ** np.arange(1, n)
    s[-1, 2] = 1.0
    if glitch:
        s[1, 0] = 2 * GLITCH_STEP              # one step past the glitch limit: dropped
    return s


def test_description_counts_each_split_in_its_place():
    train = RawSplit([line(3), line(4), line(5)])
    val = RawSplit([line(3)])
    task = make_task({"task": "t"}, "demo", train, val)
    assert task.description.startswith("demo: 3 train / 1 validation lines of "), task.description


def test_short_lines_note_follows_the_skipped_lines_not_the_glitches():
    glitchy = make_task({"task": "t"}, "demo", RawSplit([line(4, glitch=True), line(3)]), RawSplit([line(3)]))
    assert "; 1 glitch step longer than" in glitchy.description     # one step: singular
    assert "skipped" not in glitchy.description, glitchy.description
    short = make_task({"task": "t"}, "demo", RawSplit([line(4), line(1), line(3)]), RawSplit([line(3)]))
    assert "0 glitch steps" in short.description
    assert short.description.endswith(", 1 line of fewer than 2 points skipped"), short.description
