"""task_spec's refusals word for word: an option the task does not take is named as the user typed it (--steps,
--split, --data-dir), --head ctc on a task without text lists the text tasks, and an unknown task lists every
task by its name."""
import pytest

from lnrnn.data.tasks import task_spec
from lnrnn.errors import UserError

EVERY_TASK = ("digits, digits-binary, mnist, pmnist, mnist-rows, adding, copy, npz, strokes, strokes-kanjivg, "
              "strokes-npz, strokes-synthetic, strokes-hershey")


@pytest.mark.parametrize("kwargs, flag", [({"steps": 5}, "--steps"), ({"data_dir": "d"}, "--data-dir")])
def test_a_flag_the_task_does_not_take_is_named_as_typed(kwargs, flag):
    with pytest.raises(UserError) as e:
        task_spec("digits", **kwargs)
    assert str(e.value) == f"task digits does not take {flag}."


def test_head_ctc_on_a_task_without_text_lists_the_text_tasks():
    with pytest.raises(UserError) as e:
        task_spec("adding", head="ctc")
    assert str(e.value) == ("--head ctc reads each handwriting line's text as its labels, and the sequences of task "
                            "adding carry none; use strokes-hershey, strokes-kanjivg, strokes (IAM-OnDB with its "
                            "ascii/ transcriptions).")


def test_an_unknown_task_lists_every_task():
    with pytest.raises(UserError) as e:
        task_spec("mnits")
    assert str(e.value) == f"unknown task 'mnits'; choose one of {EVERY_TASK}."
