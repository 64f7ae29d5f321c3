"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own format (lineStrokes XML of Strokes of Points, y
growing down; ascii/ transcriptions after CSR:; the task lists): a line file of real size (past 16 KiB) read back
point by point against stroke-3 computed by hand, a one-point stroke (the dot of an i) kept; a two-digit line
number parsed by its definition; an empty coordinate named as non-numeric in one exact sentence; ascii/ found
beside a --data-dir that is the line folder itself; the validation split read from testset_v.txt and never from
the test sets (testset_t, testset_f); a form in both lists refused in one sentence, singular and plural."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

HEAD = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession>\n'
        '  <WhiteboardDescription>\n    <SensorLocation corner="top_left"/>\n'
        '    <DiagonallyOppositeCoords x="6512" y="1376"/>\n  </WhiteboardDescription>\n  <StrokeSet>\n')


def xml(strokes):
    body = []
    for st in strokes:
        body.append('    <Stroke colour="black" start_time="769.05" end_time="769.64">')
        body += [f'      <Point x="{x}" y="{y}" time="769.05"/>' for x, y in st]
        body.append("    </Stroke>")
    return (HEAD + "\n".join(body) + "\n  </StrokeSet>\n</WhiteboardCaptureSession>\n").encode("latin-1")


def by_hand(strokes):
    """Stroke-3 by definition: row 0 is (0, 0); row i the step from point i-1 to point i with y turned up;
    pen 1 on the last point of every stroke."""
    pts = [(float(x), -float(y)) for st in strokes for x, y in st]
    last = set()
    n = 0
    for st in strokes:
        n += len(st)
        last.add(n - 1)
    rows = []
    for i, (x, y) in enumerate(pts):
        dx, dy = (0.0, 0.0) if i == 0 else (x - pts[i - 1][0], y - pts[i - 1][1])
        rows.append((dx, dy, 1.0 if i in last else 0.0))
    return np.array(rows)


def write_form(root, form, n, texts=None, ascii_root=None):
    folder = root / form[:3] / form[:7]
    folder.mkdir(parents=True, exist_ok=True)
    for k in range(1, n + 1):
        (folder / f"{form}-{k:02d}.xml").write_bytes(xml([[(100 + k, 200), (110, 190 - k), (120 + k, 185)]]))
    if texts is not None:
        a = ascii_root / form[:3] / form[:7]
        a.mkdir(parents=True, exist_ok=True)
        (a / f"{form}.txt").write_bytes(("OCR:\n\nignored\n\nCSR:\n\n" + "\n".join(texts) + "\n").encode("latin-1"))


def names(t, which):
    return sorted(t.sets[which].names)


def test_a_line_file_of_real_size_reads_back_point_by_point(tmp_path):
    rng = np.random.default_rng(5)
    strokes = [[(int(x), int(y)) for x, y in rng.integers(500, 3000, (n, 2))] for n in (300, 1, 250, 2, 400)]
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(xml(strokes))
    assert os.path.getsize(path) > 32 << 10                   # a real line file's size, well past 16 KiB
    got = iamondb.read_line(str(path))
    assert got.shape == (953, 3)
    assert np.array_equal(got, by_hand(strokes))
    assert got[300].tolist() == [strokes[1][0][0] - strokes[0][-1][0], strokes[0][-1][1] - strokes[1][0][1], 1.0]


def test_a_two_digit_line_number_is_the_forms_line(tmp_path):
    assert iamondb.form_of("lineStrokes/a01/a01-000/a01-000u-10.xml") == ("a01-000u", 10)
    assert iamondb.form_of("a01-000u-07.xml") == ("a01-000u", 7)
    texts = [f"line {k}" for k in range(1, 12)]
    write_form(tmp_path / "lineStrokes", "a01-000u", 11, texts, tmp_path / "ascii")
    line_root, files = iamondb.find_lines(str(tmp_path))
    got = iamondb.form_texts(files, files, line_root, str(tmp_path / "ascii"))
    assert [os.path.basename(f) for f in files] == [f"a01-000u-{k:02d}.xml" for k in range(1, 12)]
    assert got == texts


def test_an_empty_coordinate_is_non_numeric_not_missing(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(xml([[(10, 20), ("", 21)]]))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(path))
    assert str(e.value) == f"{path}: point 2 of stroke 1 has the non-numeric x=''."


def test_ascii_beside_a_bare_line_folder_gives_the_texts(tmp_path):
    bare = tmp_path / "lineStrokes"
    forms = {"a01-000u": ["A MOVE to stop", "Mr. Gaitskell"], "b02-010x": ["nominating"], "c03-020z": ["any more"]}
    for form, tx in forms.items():
        write_form(bare, form, len(tx), tx, tmp_path / "ascii")
    assert iamondb._ascii_root(str(bare), str(bare)) == os.path.join(str(tmp_path), "ascii")
    t = load_task(task_spec("strokes", str(bare)))
    want = {f"{f}-{k + 1:02d}": s for f, tx in forms.items() for k, s in enumerate(tx)}
    got = {t.sets[w].names[i]: t.text(w, i) for w in ("train", "val") for i in range(t.size(w))}
    assert got == want and t.extra["skipped_no_text"] == 0


def test_validation_is_testset_v_never_the_test_sets(tmp_path):
    forms = {"a01-000u": 2, "b02-010x": 1, "c03-020z": 2, "d04-030y": 1, "e05-040w": 1}
    for form, n in forms.items():
        write_form(tmp_path / "lineStrokes", form, n)
    (tmp_path / "trainset.txt").write_text("a01-000u\nb02-010x\n")
    (tmp_path / "testset_v.txt").write_text("c03-020z\n")
    (tmp_path / "testset_t.txt").write_text("d04-030y\n")
    (tmp_path / "testset_f.txt").write_text("e05-040w\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert names(t, "val") == ["c03-020z-01", "c03-020z-02"]
    assert names(t, "train") == ["a01-000u-01", "a01-000u-02", "b02-010x-01"]
    assert t.extra["split"] == "official"


@pytest.mark.parametrize("val_list, what", [("a01-000u\n", "form a01-000u is"),
                                             ("b02-010x\na01-000u\n", "2 forms (a01-000u, b02-010x) are")])
def test_a_form_in_both_lists_is_refused_in_one_sentence(tmp_path, val_list, what):
    for form in ("a01-000u", "b02-010x"):
        write_form(tmp_path / "lineStrokes", form, 1)
    (tmp_path / "trainset.txt").write_text("a01-000u\nb02-010x-01\n")
    (tmp_path / "testset_v.txt").write_text(val_list)
    line_root, files = iamondb.find_lines(str(tmp_path))
    with pytest.raises(DataError) as e:
        iamondb.official_split(files, str(tmp_path), line_root)
    assert str(e.value) == (f"{what} in both trainset.txt and testset_v.txt of {tmp_path}; a form must be in one "
                            "split only (its writer wrote all its lines).")
