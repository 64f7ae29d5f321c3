"""lnrnn/data/iamondb.py's counts by value, on a small IAM-OnDB tree with IAM-OnDB's task lists naming some of
its forms: the lines skipped for want of a transcription are counted among the lines of the split only (not
among every line file found), the forms counted are forms, not lines, and a transcription's leading spaces
are not part of a line's text."""
import os

from lnrnn.data.tasks import load_task, task_spec
import test_strokes_data as sd   # the IAM-OnDB writer and task lists


def ascii_file(base, form):
    return os.path.join(base, "ascii", form[:3], form[:7], form + ".txt")


def test_skipped_lines_are_counted_within_the_split(tmp_path):
    sd.write_iam(tmp_path)              # forms a01-000u a01-000x a02-004 b05-123z c01-009, 3 lines each
    sd.write_task_lists(tmp_path / "tasks", ["a01-000u", "a02-004"], ["a01-000x", "b05-123z-02"], test=["c01-009"])
    os.remove(ascii_file(tmp_path, "a02-004"))
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.size("train") == 3 and t.size("val") == 4      # a02-004's 3 lines skipped, c01-009 unread
    assert t.extra["skipped_no_text"] == 3
    assert t.extra["forms"] == 3
    assert "(3 forms, IAM-OnDB's split" in t.description
    assert "7 with transcriptions from" in t.description and "3 lines without one skipped" in t.description


def test_leading_spaces_of_a_transcription_are_not_text(tmp_path):
    written = sd.write_iam(tmp_path, forms=("a01-000u", "a01-000x"), lines=3)
    path = ascii_file(tmp_path, "a01-000u")
    with open(path, "rb") as f:
        body = f.read().decode("latin-1")
    body = body.replace("a01-000u line 2", "   a01-000u line 2").replace("a01-000u line 3", "\ta01-000u line 3")
    with open(path, "wb") as f:
        f.write(body.encode("latin-1"))
    t = load_task(task_spec("strokes", str(tmp_path)))
    seen = 0
    for w in ("train", "val"):
        for i, name in enumerate(t.sets[w].names):
            assert t.text(w, i) == written[name][1], name
            seen += 1
    assert seen == 6
