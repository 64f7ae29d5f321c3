"""lnrnn/data/iamondb.py on folders written here as the IAM-OnDB download lays them out (lineStrokes/a01/a01-000/
a01-000u-01.xml, ascii/a01/a01-000/a01-000u.txt with its CSR: section, tasks/trainset.txt and testset_v.txt):
each line carries its CSR line from the transcription in its own nested folder, line files named .XML are found
as .xml ones are, task lists may name single lines as well as whole forms, an infinite coordinate is refused in
one sentence, the alphabet is the unknown symbol and the training texts' characters, sorted, and the
points read are the file's with y turned up."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

from test_values89_iamondb import line_xml as xml  # a line file's XML from its strokes


def strokes_of(k):
    return [[(100 + 4 * j + k, 200 + (j % 2)) for j in range(3 + k)], [(150 + k, 210), (158 + k, 214)]]


def write_form(root, form, n, texts=None, ext=".xml"):
    """n line files of ``form`` in their nested folder, and its transcription when texts are given."""
    rel = os.path.join(form[:3], form[:7])
    folder = root / "lineStrokes" / rel
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(1, n + 1):
        (folder / f"{form}-{k:02d}{ext}").write_bytes(xml(strokes_of(k)))
    if texts is not None:
        (root / "ascii" / rel).mkdir(parents=True, exist_ok=True)
        body = "\n".join(texts)
        (root / "ascii" / rel / f"{form}.txt").write_bytes(f"OCR:\n\nignored\n\nCSR: \n\n{body}\n\n".encode("latin-1"))


def all_lines(t):
    return {t.sets[w].names[i]: (w, t.text(w, i)) for w in ("train", "val") for i in range(t.size(w))}


def test_each_line_carries_its_csr_line_from_its_nested_folder(tmp_path):
    forms = {"a01-000u": ["A MOVE to stop", "Mr. Gaitskell"], "b02-010x": ["one"], "c03-020z": ["x y", "z", "w"]}
    for form, texts in forms.items():
        write_form(tmp_path, form, len(texts), texts)
    t = load_task(task_spec("strokes", str(tmp_path)))
    got = {name: text for name, (_, text) in all_lines(t).items()}
    want = {f"{form}-{k + 1:02d}": text for form, texts in forms.items() for k, text in enumerate(texts)}
    assert got == want
    assert t.alphabet == "\ufffd" + "".join(sorted(set("".join(t.texts_train))))   # UNKNOWN, training characters
    assert t.extra["skipped_no_text"] == 0


def test_upper_case_xml_names_are_line_files(tmp_path):
    write_form(tmp_path, "a01-000u", 2, ext=".XML")
    write_form(tmp_path, "b02-010x", 1, ext=".xml")
    _, files = iamondb.find_lines(str(tmp_path))
    want = sorted(os.path.join(d, f) for d, _, names in os.walk(tmp_path / "lineStrokes") for f in names)
    assert sorted(files) == want and len(files) == 3
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert sorted(all_lines(t)) == ["a01-000u-01", "a01-000u-02", "b02-010x-01"]


def test_task_lists_may_name_single_lines(tmp_path):
    for form, n in {"a01-000u": 3, "b02-010x": 2, "c03-020z": 2}.items():
        write_form(tmp_path, form, n)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u-01\na01-000u-03\nb02-010x\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("c03-020z-02\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    split = {name: w for name, (w, _) in all_lines(t).items()}
    assert split == {"a01-000u-01": "train", "a01-000u-03": "train", "b02-010x-01": "train",
                     "b02-010x-02": "train", "c03-020z-02": "val"}


@pytest.mark.parametrize("bad", ["inf", "-inf", "nan", "1e999", "abc"])
def test_a_non_finite_coordinate_is_refused(tmp_path, bad):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(xml([[(1, 2), (3, 4)], [(5, 6), (bad, 8)]]))
    with pytest.raises(DataError, match=r"point 2 of stroke 2.*x="):
        iamondb.read_line(str(path))


def test_points_are_read_with_y_turned_up(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    strokes = [[(10, 20), (13, 24), (19, 16)], [(30, 5), (31, 6)]]
    path.write_bytes(xml(strokes))
    got = iamondb.line_strokes(iamondb.read_xml(str(path)), str(path))
    for g, s in zip(got, strokes):
        np.testing.assert_array_equal(g, [[x, -y] for x, y in s])


def test_entities_are_refused_before_parsing(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = xml(strokes_of(1)).replace(b"<WhiteboardCaptureSession>",
                                     b'<!DOCTYPE w [<!ENTITY e SYSTEM "http://example.invalid/x">]>\n'
                                     b"<WhiteboardCaptureSession>", 1)
    path.write_bytes(raw)
    with pytest.raises(DataError, match="DOCTYPE"):
        iamondb.read_line(str(path))
