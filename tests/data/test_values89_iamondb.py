"""lnrnn/data/iamondb.py on a folder written here as the IAM-OnDB download lays it out (lineStrokes/<a>/<form>/
line XML files, ascii/ transcriptions with their CSR: section, tasks/ with trainset.txt and testset_v.txt): the
official split puts exactly the lines of testset_v's forms in validation and trainset's in training, and a line
file named without a line number is line 1 of its form, carrying the CSR section's first line."""
import os

import numpy as np

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec

HEAD = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession>\n  <WhiteboardDescription>\n'
        '    <SensorLocation corner="top_left"/>\n  </WhiteboardDescription>\n  <StrokeSet>\n')


def line_xml(strokes):
    body = []
    for st in strokes:
        body.append('    <Stroke colour="black" start_time="1.00" end_time="1.50">')
        body += [f'      <Point x="{x}" y="{y}" time="1.00"/>' for x, y in st]
        body.append("    </Stroke>")
    return (HEAD + "\n".join(body) + "\n  </StrokeSet>\n</WhiteboardCaptureSession>\n").encode("latin-1")


def write_line(root, stem, k=0):
    form = stem.rsplit("-", 1)[0] if stem.count("-") == 2 else stem
    folder = root / "lineStrokes" / form[:3] / form[:7]
    folder.mkdir(parents=True, exist_ok=True)
    strokes = [[(100 + 3 * j + k, 200 + (j % 3)) for j in range(4 + k)], [(150, 210), (160, 215)]]
    (folder / f"{stem}.xml").write_bytes(line_xml(strokes))
    return folder


def test_official_split_follows_the_task_lists(tmp_path):
    lines = {"a01-000u": 2, "a01-001w": 3, "b02-010x": 1, "c03-020z": 2}
    for form, n in lines.items():
        for k in range(1, n + 1):
            write_line(tmp_path, f"{form}-{k:02d}", k)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\nc03-020z\nb02-010x\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("a01-001w\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert sorted(t.sets["val"].names) == ["a01-001w-01", "a01-001w-02", "a01-001w-03"]
    assert sorted(t.sets["train"].names) == ["a01-000u-01", "a01-000u-02", "b02-010x-01", "c03-020z-01",
                                             "c03-020z-02"]
    line_root, files = iamondb.find_lines(str(tmp_path))
    kept, mask = iamondb.official_split(files, str(tmp_path / "tasks"), line_root)
    assert len(kept) == 8 and int(mask.sum()) == 3
    assert all((iamondb.form_of(p)[0] == "a01-001w") == m for p, m in zip(kept, mask))


def test_a_line_file_without_a_number_is_line_1(tmp_path):
    assert iamondb.form_of(os.path.join("x", "a01-000u.xml")) == ("a01-000u", 1)
    assert iamondb.form_of(os.path.join("x", "a01-000u-07.xml")) == ("a01-000u", 7)
    folders = [write_line(tmp_path, "a01-000u", 1), write_line(tmp_path, "b02-010x", 2)]
    for folder, text in zip(folders, ("first line", "other form")):
        rel = folder.relative_to(tmp_path / "lineStrokes")
        (tmp_path / "ascii" / rel).mkdir(parents=True, exist_ok=True)
        form = sorted(os.listdir(folder))[0][:-4]
        (tmp_path / "ascii" / rel / f"{form}.txt").write_bytes(
            f"OCR:\n\nnot this\n\nCSR: \n\n{text}\n\n".encode("latin-1"))
    t = load_task(task_spec("strokes", str(tmp_path)))
    got = {t.sets[w].names[i]: t.text(w, i) for w in ("train", "val") for i in range(t.size(w))}
    assert got == {"a01-000u": "first line", "b02-010x": "other form"}
    assert sorted([t.size("train"), t.size("val")]) == [1, 1]
    lens = {t.sets[w].names[i]: len(t.line(w, i)) for w in ("train", "val") for i in range(t.size(w))}
    assert lens == {"a01-000u": 5 + 2, "b02-010x": 6 + 2}      # the two strokes' points, no glitch dropped
    assert np.isfinite(t.scale).all()
