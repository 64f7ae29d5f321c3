"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own formats (line files of XML strokes, ascii/
transcriptions with their CSR: section, the task lists trainset.txt / testset_v.txt): the stroke-3 of a
known line by hand (y negated, a lift at each stroke's end, the jump between strokes an offset); every
line's name, text and offsets in the built task against the points and CSR lines written for it, under
IAM-OnDB's split (a form id takes all the form's lines, a line id one, a blank line in a list is skipped,
forms of no list not read) and with --data-dir naming lineStrokes/ itself; malformed files (document types
and entities refused before any parsing, numbers that are not finite, a missing attribute) and a folder
with one task list only refused in one line that names the file."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
from test_strokes_data import iam_xml  # a line file in IAM-OnDB's format


def stroke3_here(strokes):
    """The stroke-3 of board strokes, computed here: offsets between consecutive points with y up, the
    first row zero, pen 1 on each stroke's last point."""
    rows, prev = [], None
    for pts in strokes:
        for j, (x, y) in enumerate(pts):
            dx, dy = (0.0, 0.0) if prev is None else (x - prev[0], -(y - prev[1]))
            rows.append([dx, dy, 1.0 if j == len(pts) - 1 else 0.0])
            prev = (x, y)
    return np.array(rows)


def one_line(e):
    msg = str(e.value)
    assert "\n" not in msg and msg.strip()
    return msg


# ---------------------------------------------------------------- one line file

KNOWN = [[(1073, 1058), (1080, 1050), (1090, 1061)], [(1200, 1000)], [(1210, 1005), (1215, 1010)]]


def test_a_known_line_file_by_hand(tmp_path):
    p = tmp_path / "a01-000u-01.xml"
    p.write_bytes(iam_xml(KNOWN))
    want = np.array([[0, 0, 0],            # the first point
                     [7, 8, 0],            # (1073, 1058) -> (1080, 1050): y down 8 is y up 8
                     [10, -11, 1],         # -> (1090, 1061), end of stroke 1
                     [110, 61, 1],         # the pen-up jump to the one-point stroke 2, its own end
                     [10, -5, 0],          # -> (1210, 1005)
                     [5, -5, 1]], float)   # -> (1215, 1010), end of stroke 3
    np.testing.assert_array_equal(iamondb.read_line(str(p)), want)
    np.testing.assert_array_equal(stroke3_here(KNOWN), want)
    strokes = iamondb.line_strokes(iamondb.read_xml(str(p)), str(p))
    assert [s.tolist() for s in strokes] == [[[x, -y] for x, y in st] for st in KNOWN]


@pytest.mark.parametrize("value", ["3a", "inf", "-1e999", "", "0x10"])
def test_a_point_that_is_not_a_number_is_refused_by_file_stroke_and_point(tmp_path, value):
    strokes = [[(1, 2), (3, 4)], [(5, 6), (7, 8), (9, 10)]]
    raw = iam_xml(strokes).replace(b'x="9"', f'x="{value}"'.encode())
    p = tmp_path / "a01-000u-02.xml"
    p.write_bytes(raw)
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(p))
    msg = one_line(e)
    assert str(p) in msg and "point 3 of stroke 2" in msg and f"x={value!r}" in msg, msg


def test_a_point_without_y_is_refused(tmp_path):
    p = tmp_path / "a01-000u-03.xml"
    p.write_bytes(iam_xml([[(1, 2), (3, 4)]]).replace(b'y="4"', b""))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(p))
    assert str(p) in one_line(e) and "point 2 of stroke 1 lacks the attribute y" in one_line(e)


GOOD = iam_xml([[(1, 2), (3, 4)]])
HEAD = b'<?xml version="1.0" encoding="ISO-8859-1"?>'
DECLARED = {
    "external_dtd": (GOOD.replace(HEAD, HEAD + b'\n<!DOCTYPE WhiteboardCaptureSession SYSTEM '
                                               b'"http://example.invalid/iam.dtd">'), "DOCTYPE"),
    "internal_subset": (GOOD.replace(HEAD, HEAD + b'\n<!DOCTYPE WhiteboardCaptureSession [ '
                                                  b'<!ATTLIST Point x CDATA #IMPLIED> ]>'), "DOCTYPE"),
    "entity": (GOOD.replace(HEAD, HEAD + b'\n<!DOCTYPE w [ <!ENTITY a "aaaaaaaa"> ]>')
               .replace(b'x="1"', b'x="&a;"'), "DOCTYPE"),
    "entity_alone": (GOOD.replace(b"<StrokeSet>", b'<!ENTITY b SYSTEM "http://example.invalid/b"><StrokeSet>'),
                     "ENTITY"),
}


@pytest.mark.parametrize("case", sorted(DECLARED))
def test_document_types_and_entities_are_refused_before_any_parsing(tmp_path, monkeypatch, case):
    raw, word = DECLARED[case]
    p = tmp_path / "a01-000u-04.xml"
    p.write_bytes(raw)

    def no_parse(*a, **k):
        raise AssertionError("the parser was handed a file with a declaration")
    monkeypatch.setattr(iamondb.ET, "fromstring", no_parse)
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(p))
    msg = one_line(e)
    assert str(p) in msg and f"declares {word}" in msg, msg


# ---------------------------------------------------------------- a folder: texts, names, the split

def stroke_points(form, k):
    """A small line of its own for each (form, line number): three strokes, offsets well under a glitch."""
    seed = sum(map(ord, form)) * 10 + k
    rng = np.random.default_rng(seed)
    x0, y0 = 500 + 7 * k + seed % 97, 900 + 3 * k
    return [[(int(x0 + 40 * s + a), int(y0 + b)) for a, b in rng.integers(-15, 16, (n, 2))]
            for s, n in enumerate((3, 1, 4))]


def write_forms(base, forms, ascii_dir=True):
    """forms: {form id: number of lines}; lineStrokes/a01/a01-000/a01-000u-01.xml and ascii/.../a01-000u.txt
    as IAM-OnDB lays them out. -> {line name: (strokes, CSR text)}."""
    written = {}
    for form, n in forms.items():
        writer, text = form.split("-")
        sub = os.path.join(writer, f"{writer}-{text[:3]}")
        os.makedirs(os.path.join(base, "lineStrokes", sub), exist_ok=True)
        texts = [f"{form} says {'abc'[k % 3]}{k} to \xe9" for k in range(1, n + 1)]
        for k in range(1, n + 1):
            name = f"{form}-{k:02d}"
            strokes = stroke_points(form, k)
            with open(os.path.join(base, "lineStrokes", sub, name + ".xml"), "wb") as f:
                f.write(iam_xml(strokes))
            written[name] = (strokes, texts[k - 1])
        if ascii_dir:
            os.makedirs(os.path.join(base, "ascii", sub), exist_ok=True)
            body = "Data:\n\nOCR:\n\nsome typed text\n\nCSR: \n\n" + "\n".join(texts) + "\n\n"
            with open(os.path.join(base, "ascii", sub, form + ".txt"), "wb") as f:
                f.write(body.encode("latin-1"))
    return written


def lines_of(task):
    """{name: (split, text, stroke-3 back in board units)} of a built task."""
    out = {}
    div = np.array([task.scale[0], task.scale[1], 1.0])
    for w in ("train", "val"):
        s = task.sets[w]
        for i in range(task.size(w)):
            out[s.names[i]] = (w, task.text(w, i), task.line(w, i) * div)
    return out


def check_lines(got, written, names):
    assert sorted(got) == sorted(names)
    for name in names:
        strokes, text = written[name]
        assert got[name][1] == text, name
        np.testing.assert_allclose(got[name][2], stroke3_here(strokes), rtol=1e-6, atol=1e-4, err_msg=name)


def test_the_official_split_reads_forms_lines_and_skips_blanks_and_test_forms(tmp_path):
    written = write_forms(tmp_path, {"a01-000u": 2, "b02-001x": 2, "c03-002": 3, "d04-003": 1})
    tasks = tmp_path / "tasks"
    tasks.mkdir()
    # a form id (all its lines), a blank line, a line id (that line alone); d04-003 is a test form
    (tasks / "trainset.txt").write_text("a01-000u\n\n  \nb02-001x-01\n")
    (tasks / "testset_v.txt").write_text("c03-002\n")
    (tasks / "testset_t.txt").write_text("d04-003\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    got = lines_of(t)
    train = ["a01-000u-01", "a01-000u-02", "b02-001x-01"]
    val = ["c03-002-01", "c03-002-02", "c03-002-03"]
    check_lines(got, written, train + val)
    assert sorted(n for n in got if got[n][0] == "train") == train
    assert sorted(n for n in got if got[n][0] == "val") == val
    assert t.extra["split"] == "official" and t.extra["forms"] == 3 and t.extra["skipped_no_text"] == 0


def test_split_by_form_carries_each_lines_own_text_and_points(tmp_path):
    forms = {"a01-000u": 2, "a01-001w": 1, "b02-001x": 2, "c03-002": 1, "d04-003": 2}
    written = write_forms(tmp_path, forms)
    os.remove(tmp_path / "ascii" / "d04" / "d04-003" / "d04-003.txt")      # a form without a transcription
    t = load_task(task_spec("strokes", str(tmp_path)))
    got = lines_of(t)
    check_lines(got, written, [n for n in written if not n.startswith("d04")])
    for w in ("train", "val"):                                            # a form lies in one split only
        assert not {n.rsplit("-", 1)[0] for n in got if got[n][0] == w} & \
            {n.rsplit("-", 1)[0] for n in got if got[n][0] != w}
    assert t.extra["skipped_no_text"] == 2


def test_data_dir_naming_linestrokes_finds_ascii_beside_it(tmp_path):
    written = write_forms(tmp_path, {"a01-000u": 2, "b02-001x": 1, "c03-002": 2})
    t = load_task(task_spec("strokes", str(tmp_path / "lineStrokes")))
    assert t.texts_train is not None
    check_lines(lines_of(t), written, list(written))


@pytest.mark.parametrize("there, absent", [("trainset.txt", "testset_v.txt"), ("testset_v.txt", "trainset.txt")])
def test_one_task_list_alone_is_refused_naming_both(tmp_path, there, absent):
    write_forms(tmp_path, {"a01-000u": 1, "b02-001x": 1})
    (tmp_path / there).write_text("a01-000u\n")
    with pytest.raises(DataError) as e:
        load_task(task_spec("strokes", str(tmp_path)))
    msg = one_line(e)
    assert f"{tmp_path} holds IAM-OnDB's {there} but not {absent}" in msg, msg
