"""A stroke task read by a run trained on other data (lnrnn/data/strokes.py: StrokeTask.as_trained), its texts:
a writer's task takes the run's alphabet when the run has one and it differs (the texts then encode in it, a
character it lacks as code 0, and the description says so); a run without text (alphabet None) leaves the task's
own alphabet and description; a task without texts stays without, whatever the run's alphabet; the same alphabet
changes nothing."""
import numpy as np
import pytest

from lnrnn.data.strokes import RawSplit, encode_text, make_task

NOTE = "; texts in the run's alphabet of"


def lines(n):
    rng = np.random.default_rng(433)
    out = []
    for k in range(n):
        ln = np.c_[rng.normal(0, 2, (4 + k, 2)), (rng.random(4 + k) < 0.3).astype(float)]
        ln[0, :2] = 0
        out.append(ln)
    return out


def writer_task(train=("ab", "ba", "abc"), val=("cad",), texts=True):
    """A strokes-npz task of len(train) + len(val) lines, of 4, 5, ... points, written with those texts (or none)."""
    pts = lines(len(train) + len(val))
    split = [(pts[:len(train)], train), (pts[len(train):], val)]
    return make_task({"task": "strokes-npz"}, "lines",
                     *(RawSplit(p, texts=list(t)) if texts else RawSplit(p) for p, t in split))


def test_the_runs_other_alphabet_is_taken():
    task = writer_task()
    assert task.alphabet == "\ufffdabc"
    task.as_trained(list(task.scale), "\ufffdcd")
    assert task.alphabet == "\ufffdcd"
    assert task.description.endswith(f"{NOTE} 3 characters")
    codes, ulen = task.text_batch("val", [0])
    np.testing.assert_array_equal(codes[0, :ulen[0]], encode_text("cad", "\ufffdcd"))
    assert list(codes[0, :3]) == [1, 0, 2]                    # c, a (the run lacks it: code 0), d


@pytest.mark.parametrize("run_alphabet", [None, "\ufffdabc"])
def test_a_run_without_text_or_with_the_same_alphabet_changes_nothing(run_alphabet):
    task = writer_task()
    words = task.description
    task.as_trained(list(task.scale), run_alphabet)
    assert task.alphabet == "\ufffdabc" and task.description == words
    codes, ulen = task.text_batch("val", [0])
    np.testing.assert_array_equal(codes[0, :ulen[0]], encode_text("cad", "\ufffdabc"))


def test_a_task_without_texts_stays_without():
    task = writer_task(texts=False)
    words = task.description
    task.as_trained(list(task.scale), "\ufffdab")
    assert task.alphabet is None and task.description == words
