"""lnrnn/data/iamondb.py on line files and folders written here in IAM-OnDB's own format (an XML StrokeSet of
Strokes of Points, y growing down; ascii/ transcriptions with their CSR: section; the task lists trainset.txt and
testset_v.txt of form ids): a line's stroke-3 rows against a hand computation (one-point strokes included), a
DOCTYPE or ENTITY refused in one sentence before parsing (the external reference is never fetched), the official
split read from tasks/ with every line of a listed form on its side, the random split's held-out form count
against its definition, and a transcription's blank line skipped and counted."""
import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.strokes import VAL_FRACTION
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

HEAD = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession>\n'
        '  <WhiteboardDescription>\n    <SensorLocation corner="top_left"/>\n  </WhiteboardDescription>\n'
        '  <StrokeSet>\n')


def line_xml(strokes, prolog=""):
    body = []
    for st in strokes:
        body.append('    <Stroke colour="black" start_time="1.00" end_time="1.50">')
        body += [f'      <Point x="{x}" y="{y}" time="1.00"/>' for x, y in st]
        body.append("    </Stroke>")
    head = HEAD.replace("\n<Whiteboard", "\n" + prolog + "<Whiteboard", 1) if prolog else HEAD
    return (head + "\n".join(body) + "\n  </StrokeSet>\n</WhiteboardCaptureSession>\n").encode("latin-1")


def stroke3_by_hand(strokes):
    """Row 0 (0, 0); each later row the offset from the previous point with y turned up; pen 1 at each
    stroke's last point."""
    pts = [(x, -y) for st in strokes for x, y in st]
    ends = set(np.cumsum([len(st) for st in strokes]) - 1)
    rows = [(0.0, 0.0, 1.0 if 0 in ends else 0.0)]
    for i in range(1, len(pts)):
        rows.append((pts[i][0] - pts[i - 1][0], pts[i][1] - pts[i - 1][1], 1.0 if i in ends else 0.0))
    return np.array(rows)


def test_a_line_with_one_point_strokes_reads_as_its_hand_rows(tmp_path):
    strokes = [[(10, 20), (13, 24), (13, 30)], [(50, 20)], [(51, 18), (60, 18)], [(70, 5)]]
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml(strokes))
    got = iamondb.read_line(str(path))
    assert np.array_equal(got, stroke3_by_hand(strokes))
    assert got[:, 2].sum() == len(strokes)          # one lift per stroke, the last row's included


@pytest.mark.parametrize("prolog, token", [
    ('<!DOCTYPE WhiteboardCaptureSession SYSTEM "http://127.0.0.1:9/line.dtd">\n', "DOCTYPE"),
    ('<!DOCTYPE WhiteboardCaptureSession [<!ENTITY x "big">]>\n', "DOCTYPE"),
])
def test_a_doctype_is_refused_in_one_sentence_before_parsing(tmp_path, prolog, token):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2), (3, 4)]], prolog))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(path))
    msg = str(e.value)
    assert token in msg and str(path) in msg and "\n" not in msg


def test_an_entity_without_doctype_is_refused(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2), (3, 4)]]).replace(b"<StrokeSet>", b'<!ENTITY x "y"><StrokeSet>'))
    with pytest.raises(DataError, match="ENTITY"):
        iamondb.read_line(str(path))


def write_form(root, form, n, texts=None):
    folder = root / "lineStrokes" / form[:3] / form[:7]
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(1, n + 1):
        strokes = [[(100 + 5 * j + k, 200 - 2 * j) for j in range(2 + k)], [(300 + k, 210)]]
        (folder / f"{form}-{k:02d}.xml").write_bytes(line_xml(strokes))
    if texts is not None:
        (root / "ascii" / form[:3] / form[:7]).mkdir(parents=True, exist_ok=True)
        (root / "ascii" / form[:3] / form[:7] / f"{form}.txt").write_bytes(
            ("OCR:\n\nsomething\n\nCSR: \n\n" + "\n".join(texts) + "\n\n").encode("latin-1"))


FORMS = {"a01-000u": 2, "b02-010x": 1, "c03-020z": 3, "d04-030y": 2}


def names(t, which):
    return sorted(t.sets[which].names)


def test_the_task_lists_in_tasks_split_every_line_of_each_listed_form(tmp_path):
    for form, n in FORMS.items():
        write_form(tmp_path, form, n)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\n\nc03-020z\n  \nd04-030y\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    lines_of = {f: [f"{f}-{k:02d}" for k in range(1, n + 1)] for f, n in FORMS.items()}
    assert names(t, "val") == lines_of["b02-010x"]
    assert names(t, "train") == sorted(lines_of["a01-000u"] + lines_of["c03-020z"] + lines_of["d04-030y"])
    assert t.extra["split"] == "official" and t.extra["forms"] == len(FORMS)


def test_without_task_lists_the_split_is_by_form_with_the_defined_count(tmp_path):
    forms = {f"{c}0{i}-0{i}0u": 1 + i % 2 for i, c in enumerate("abcdefg", 1)}   # 7 forms
    for form, n in forms.items():
        write_form(tmp_path, form, n)
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.extra["split"] == "by form"
    val_forms = {iamondb.form_of(n)[0] for n in t.sets["val"].names}
    train_forms = {iamondb.form_of(n)[0] for n in t.sets["train"].names}
    assert not val_forms & train_forms and val_forms | train_forms == set(forms)
    assert len(val_forms) == min(len(forms) - 1, max(1, round(VAL_FRACTION * len(forms))))
    assert len(t.sets["val"]) == sum(forms[f] for f in val_forms)       # every line of a held-out form


def test_a_blank_transcription_line_skips_its_line_and_is_counted(tmp_path):
    texts = {"a01-000u": ["first line", "", "third"], "b02-010x": ["only one"], "c03-020z": ["x", "y"]}
    for form, tx in texts.items():
        write_form(tmp_path, form, len(tx), tx)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\nc03-020z\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    want = {f"{f}-{k + 1:02d}": s for f, tx in texts.items() for k, s in enumerate(tx) if s}
    got = {t.sets[w].names[i]: t.text(w, i) for w in ("train", "val") for i in range(t.size(w))}
    assert got == want
    assert t.extra["skipped_no_text"] == sum(1 for tx in texts.values() for s in tx if not s)
    assert [t.text("val", i) for i in range(t.size("val"))] == ["only one"]


def test_task_lists_in_tasks_beside_the_forms_of_a_bare_line_folder(tmp_path):
    # --data-dir is the unpacked lineStrokes folder itself: its tasks/ is the only place the lists are
    for form, n in FORMS.items():
        write_form(tmp_path, form, n)
    bare = tmp_path / "lineStrokes"
    (bare / "tasks").mkdir()
    (bare / "tasks" / "trainset.txt").write_text("a01-000u\nb02-010x\nd04-030y\n")
    (bare / "tasks" / "testset_v.txt").write_text("c03-020z\n")
    t = load_task(task_spec("strokes", str(bare)))
    assert t.extra["split"] == "official"
    assert names(t, "val") == [f"c03-020z-{k:02d}" for k in range(1, FORMS["c03-020z"] + 1)]
