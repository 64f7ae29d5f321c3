"""lnrnn.api.Evaluation's repr, what a notebook prints for evaluate_run's result: the metrics, the sequence count and
the split, written out here, and never the built task it carries (its arrays), whose repr here fails the test if
reached; the task stays an attribute."""
import pytest

from lnrnn.api import Evaluation


class Task:
    def __repr__(self):
        raise AssertionError("the task's repr was reached: a notebook would print its arrays")


@pytest.mark.parametrize("which", ["val", "train"])
def test_the_repr_names_the_metrics_the_count_and_the_split_not_the_task(which):
    task = Task()
    ev = Evaluation({"loss": 0.25, "acc": 0.5}, 8, which, task)
    assert repr(ev) == f"Evaluation(metrics={{'loss': 0.25, 'acc': 0.5}}, sequences=8, which={which!r})"
    assert str(ev) == repr(ev) and ev.task is task
