"""lnrnn/data/iamondb.py: lines skipped for want of a transcription leave the split by form as it was: the
validation form stays the one chosen with every line, each form's lines stay in one split."""
import os

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
import test_strokes_data as sd   # the IAM-OnDB writer


def forms(t):
    return {w: {iamondb.form_of(n + ".xml")[0] for n in t.sets[w].names} for w in ("train", "val")}


def test_skipped_lines_leave_the_split_by_form_as_it_was(tmp_path):
    sd.write_iam(tmp_path)
    before = forms(load_task(task_spec("strokes", str(tmp_path))))
    first = sorted(before["train"])[0]                   # a training form before the validation one's lines
    ascii_file = [os.path.join(d, f) for d, _, fs in os.walk(tmp_path / "ascii") for f in fs if f == first + ".txt"]
    os.remove(ascii_file[0])
    t = load_task(task_spec("strokes", str(tmp_path)))
    after = forms(t)
    assert after["val"] == before["val"] and after["train"] == before["train"] - {first}
    assert not after["train"] & after["val"]
    assert t.extra["skipped_no_text"] == 3
