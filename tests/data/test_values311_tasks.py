"""The task registry's option handling, against its definitions: --head ctc given to a task whose sequences
carry no text refused with check_reading's sentence word for word (not the generic 'does not take'); a flag
given as false written into the spec as false, as true as true, and left out when not given."""
import pytest

from lnrnn.data.tasks import task_spec
from lnrnn.errors import UserError


@pytest.mark.parametrize("task", ["copy", "npz", "strokes-npz"])
def test_head_ctc_on_a_task_without_text_says_which_tasks_have_it(task):
    with pytest.raises(UserError) as e:
        task_spec(task, head="ctc")
    assert str(e.value) == (f"--head ctc reads each handwriting line's text as its labels, and the sequences of "
                            f"task {task} carry none; use strokes-hershey, strokes-kanjivg, strokes (IAM-OnDB with "
                            "its ascii/ transcriptions).")


def test_a_flag_given_false_is_kept_false():
    assert task_spec("strokes-npz", data_dir="f.npz", allow_pickle=False) == {
        "task": "strokes-npz", "data_dir": "f.npz", "allow_pickle": False}
    assert task_spec("strokes-npz", data_dir="f.npz", allow_pickle=True) == {
        "task": "strokes-npz", "data_dir": "f.npz", "allow_pickle": True}
    assert task_spec("strokes-npz", data_dir="f.npz") == {"task": "strokes-npz", "data_dir": "f.npz"}
