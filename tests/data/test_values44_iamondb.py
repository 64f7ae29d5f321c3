"""lnrnn/data/iamondb.py's counts on an IAM-OnDB tree written here: the random split holds out whole forms
(round(0.1 n) of n forms, at least one: every line of a form on one side), and the description counts the lines
read with a transcription (not the line files of the unread test list, not a line whose CSR line is blank)."""
import os

import numpy as np

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec


def _xml(strokes):
    body = "".join('<Stroke colour="black">' + "".join(f'<Point x="{x}" y="{y}" time="0"/>' for x, y in st)
                   + "</Stroke>" for st in strokes)
    return ('<?xml version="1.0" encoding="ISO-8859-1"?><WhiteboardCaptureSession><StrokeSet>'
            f"{body}</StrokeSet></WhiteboardCaptureSession>").encode("latin-1")


def _write(base, forms, csr=None):
    """forms: {form id: number of lines}; csr: {form id: its CSR lines} (ascii/ only when given)."""
    for form, n in forms.items():
        sub = os.path.join(form[:3], form[:7])
        os.makedirs(os.path.join(base, "lineStrokes", sub), exist_ok=True)
        for k in range(1, n + 1):
            pts = [(100 + 10 * j, 200 + 3 * k + (j % 2)) for j in range(4 + k)]
            with open(os.path.join(base, "lineStrokes", sub, f"{form}-{k:02d}.xml"), "wb") as f:
                f.write(_xml([pts[:3], pts[3:]]))
        if csr is not None and form in csr:
            os.makedirs(os.path.join(base, "ascii", sub), exist_ok=True)
            with open(os.path.join(base, "ascii", sub, form + ".txt"), "w", encoding="latin-1") as f:
                f.write("OCR:\n\ntyped\n\nCSR:\n\n" + "\n".join(csr[form]) + "\n")


FORMS = {"a01-000u": 3, "a01-001u": 1, "a02-000u": 2, "b01-000u": 4, "b02-007x": 2, "c03-001z": 3, "d04-010a": 1,
         "e05-011b": 2, "f06-012c": 3, "g07-013d": 2, "h08-014e": 3, "i09-015f": 1}     # 12 forms, 27 lines


def test_random_split_holds_out_whole_forms(tmp_path):
    _write(tmp_path, FORMS)
    t = load_task(task_spec("strokes", str(tmp_path)))
    form = {w: [iamondb.form_of(n + ".xml")[0] for n in t.sets[w].names] for w in ("train", "val")}
    held = set(form["val"])
    assert len(held) == 1                                            # round(0.1 * 12) = 1 form
    assert not held & set(form["train"])                           # no form on both sides
    assert len(form["val"]) == sum(FORMS[f] for f in held)          # with all of its lines
    assert t.size("train") + t.size("val") == sum(FORMS.values()) == 27
    assert t.extra["forms"] == 12 and "(12 forms, split by form;" in t.description


def test_more_forms_hold_out_more_whole_forms(tmp_path):
    forms = {f"a{k:02d}-{k:03d}u": 1 + k % 3 for k in range(24)}    # 24 forms: round(2.4) = 2 held out
    _write(tmp_path, forms)
    t = load_task(task_spec("strokes", str(tmp_path)))
    form = {w: [iamondb.form_of(n + ".xml")[0] for n in t.sets[w].names] for w in ("train", "val")}
    assert len(set(form["val"])) == 2 and not set(form["val"]) & set(form["train"])
    assert len(form["val"]) == sum(forms[f] for f in set(form["val"]))


def test_lines_with_transcriptions_are_counted_as_read(tmp_path):
    forms = {"a01-000u": 2, "a01-001u": 3, "a02-000u": 2, "b01-000u": 2}             # 9 line files
    csr = {"a01-000u": ["one line", "two line"], "a01-001u": ["first", "", "third"],  # line 2 blank
           "a02-000u": ["val one", "val two"], "b01-000u": ["test one", "test two"]}
    _write(tmp_path, forms, csr)
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    (tasks / "trainset.txt").write_text("a01-000u\na01-001u\n")
    (tasks / "testset_v.txt").write_text("a02-000u\n")
    (tasks / "testset_t.txt").write_text("b01-000u\n")               # not read
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.size("train") == 2 + 3 - 1 and t.size("val") == 2
    assert t.extra["skipped_no_text"] == 1
    assert "; 6 with transcriptions from " in t.description
    assert "1 line without one skipped" in t.description
    assert sorted(t.texts_train) == ["first", "one line", "third", "two line"]
    assert t.texts_val == ["val one", "val two"]
    # without ascii/, every line read and none with text
    _write(tmp_path / "plain", forms)
    p = load_task(task_spec("strokes", str(tmp_path / "plain")))
    assert p.size("train") + p.size("val") == 9 and "0 with transcriptions" in p.description
    np.testing.assert_array_equal(p.line("train", 0)[0], [0, 0, 0])
