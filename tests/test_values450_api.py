"""lnrnn.api.require_predictable (lnrnn/api.py) on runs made by hand around real heads: a handwriting reader (a CTC
head that keeps its strokes' scale) is refused in one sentence that points to lnrnn read, a mixture density run to
lnrnn sample; a CTC head without a scale (label sequences of other data), a classifier and a regression head pass."""
from types import SimpleNamespace

import pytest

from lnrnn.api import require_predictable
from lnrnn.errors import UserError
from lnrnn.model.heads import make_head


def run_with(head, task="strokes-hershey"):
    return SimpleNamespace(model=SimpleNamespace(head=make_head(head, 4)), path="runs/r", task_spec={"task": task})


def test_a_handwriting_reader_is_sent_to_read():
    with pytest.raises(UserError) as e:
        require_predictable(run_with({"kind": "ctc", "outputs": 5, "scale": [2.0, 3.0]}))
    assert str(e.value) == ("the run in runs/r reads handwriting (strokes-hershey --head ctc): use lnrnn read, which "
                            "normalizes each line as the run's training lines were.")


def test_a_drawing_run_is_sent_to_sample():
    with pytest.raises(UserError, match=r"^the run in runs/r draws handwriting \(a mixture density head, "
                                        r"strokes-hershey\): use lnrnn sample"):
        require_predictable(run_with({"kind": "mdn", "components": 2, "scale": [2.0, 3.0]}))


@pytest.mark.parametrize("head", [{"kind": "ctc", "outputs": 5}, {"kind": "classifier", "outputs": 3},
                                  {"kind": "regression", "outputs": 2, "per_step": True}])
def test_heads_that_predict_pass(head):
    assert require_predictable(run_with(head, task="npz")) is None
