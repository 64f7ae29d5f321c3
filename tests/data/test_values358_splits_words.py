"""lnrnn/data/splits.py, lnrnn/data/taskdata.py and lnrnn/data/words.py against their definitions: --split at
awkward counts (1, 2, 7, 10, 11, 101) taken as written, three parts or a word refused word for word as one
UserError; a TaskData built with only its required fields keeps the documented defaults (classification on the
last step, scale 1, no extra, no head) and counts its steps, inputs and sequences as its arrays' shapes; the words
with the rare letters j, q and z listed by hand from the list's text."""
import numpy as np
import pytest

from lnrnn.data.splits import parse_split
from lnrnn.data.taskdata import TaskData
from lnrnn.data.words import WORDS
from lnrnn.errors import UserError


@pytest.mark.parametrize("text, want", [("1/1", (1, 1)), ("2/1", (2, 1)), ("7/11", (7, 11)),
                                        ("10/1", (10, 1)), ("101/10", (101, 10)), ("1/101", (1, 101))])
def test_two_positive_counts_taken_as_written(text, want):
    assert parse_split(text) == want


@pytest.mark.parametrize("text", ["1/2/3", "10/1/1", "7/x", "x/7", "10"])
def test_anything_but_two_counts_refused_word_for_word(text):
    with pytest.raises(UserError) as e:
        parse_split(text)
    assert type(e.value) is UserError
    assert str(e.value) == f"--split must be TRAIN/VAL counts such as 8000/2000, not '{text}'."


def test_a_task_built_with_its_required_fields_keeps_the_documented_defaults():
    x_train = np.zeros((7, 11, 2), np.float32)   # N = 7 sequences of T = 11 steps, I = 2 inputs
    x_val = np.zeros((1, 11, 2), np.float32)
    t = TaskData(spec={"name": "t"}, description="d", x_train=x_train, y_train=np.zeros(7, np.int64),
                 x_val=x_val, y_val=np.zeros(1, np.int64), num_classes=3)
    assert t.objective == "ce" and t.per_step is False and t.scale == 1.0
    assert t.extra == {} and t.head is None
    assert (t.steps, t.input_size, t.size("train"), t.size("val")) == (11, 2, 7, 1)
    x, y = t.batch("train", np.array([6, 0]))
    assert x.shape == (11, 2, 2) and y.tolist() == [0, 0]


def test_the_words_with_the_rare_letters_by_hand():
    assert [w for w in WORDS if "j" in w] == ["job", "join", "jump", "just"]
    assert [w for w in WORDS if "q" in w] == ["queen", "question", "quick", "quiet", "quite", "square"]
    assert [w for w in WORDS if "z" in w] == ["dozen", "lazy", "prize", "size", "zebra", "zero", "zone", "zoo"]
