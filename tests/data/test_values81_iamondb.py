"""lnrnn/data/iamondb.py against files written here in IAM-OnDB's own XML (ISO-8859-1, a WhiteboardCaptureSession
with its StrokeSet, y down): a line's stroke-3 by hand (point order kept, y up, a pen lift after each stroke's
last point and only there), an empty stroke named by its number, a document type with an entity refused
before any parsing, the size limit inclusive, ISO-8859-1 transcriptions, and each built line carrying the
CSR line of its own number."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError

HEAD = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<WhiteboardCaptureSession>\n  <WhiteboardDescription>\n'
        '    <SensorLocation corner="top_left"/>\n    <DiagonallyOppositeCoords x="6512" y="1376"/>\n'
        '  </WhiteboardDescription>\n  <StrokeSet>\n')


def line_xml(strokes, head=HEAD):
    body, t = [], 769.0
    for st in strokes:
        body.append(f'    <Stroke colour="black" start_time="{t:.2f}" end_time="{t + 0.5:.2f}">')
        for x, y in st:
            body.append(f'      <Point x="{x}" y="{y}" time="{t:.2f}"/>')
            t += 0.01
        body.append("    </Stroke>")
    return (head + "\n".join(body) + "\n  </StrokeSet>\n</WhiteboardCaptureSession>\n").encode("latin-1")


def test_a_line_by_hand(tmp_path):
    strokes = [[(1073, 1058), (1080, 1050), (1091, 1049)], [(1100, 1070)], [(1120, 1060), (1118, 1066)]]
    p = tmp_path / "a01-000u-01.xml"
    p.write_bytes(line_xml(strokes))
    got = iamondb.read_line(str(p))
    want = [[0, 0, 0], [7, 8, 0], [11, 1, 1],               # y up: an offset's dy is minus the file's
            [9, -21, 1],
            [20, 10, 0], [-2, -6, 1]]
    np.testing.assert_array_equal(got, want)


def test_an_empty_stroke_is_named_by_its_number(tmp_path):
    xml = line_xml([[(1, 2)], [(3, 4)]]).replace(b'<Point x="3" y="4" time="769.01"/>', b"")
    p = tmp_path / "a01-000u-02.xml"
    p.write_bytes(xml)
    with pytest.raises(DataError, match="stroke 2 has no <Point>"):
        iamondb.read_line(str(p))


def test_a_document_type_with_an_entity_is_refused_before_parsing(tmp_path, monkeypatch):
    doctype = '<!DOCTYPE WhiteboardCaptureSession [<!ENTITY x "1073">]>\n'
    xml = line_xml([[(1, 2), (3, 4)]]).replace(b"<WhiteboardCaptureSession>", doctype.encode() +
                                               b"<WhiteboardCaptureSession>", 1)
    p = tmp_path / "a01-000u-03.xml"
    p.write_bytes(xml)

    def no_parse(*a, **k):
        raise AssertionError("parsed")
    monkeypatch.setattr(iamondb.ET, "fromstring", no_parse)
    with pytest.raises(DataError, match="declares DOCTYPE"):
        iamondb.read_line(str(p))


def test_the_size_limit_admits_a_file_of_exactly_that_size(tmp_path):
    p = tmp_path / "ten.txt"
    p.write_bytes(b"0123456789")
    assert iamondb.read_limited(str(p), 10, "file") == b"0123456789"
    with pytest.raises(DataError, match="is 10 bytes, more than the 9 allowed"):
        iamondb.read_limited(str(p), 9, "file")


def test_transcriptions_are_iso_8859_1(tmp_path):
    p = tmp_path / "a01-000u.txt"
    p.write_bytes("OCR:\n\nx\n\nCSR: \n\nCaf\xe9 cr\xe8me \xbd off\n\nna\xefve line\n\n".encode("latin-1"))
    assert iamondb.transcriptions(str(p)) == ["Caf\xe9 cr\xe8me \xbd off", "", "na\xefve line"]


def test_each_line_carries_the_csr_line_of_its_number(tmp_path):
    forms = {"a01-000u": 3, "b02-011x": 2}
    written = {}
    for form, n in forms.items():
        writer, text = form.split("-")
        sub = os.path.join(writer, f"{writer}-{text[:3]}")
        os.makedirs(tmp_path / "lineStrokes" / sub)
        os.makedirs(tmp_path / "ascii" / sub)
        texts = [f"{form} line {k} \xe0 {'xyz'[k % 3] * k}" for k in range(1, n + 1)]
        for k in range(1, n + 1):
            strokes = [[(100 * k + 3 * j, 50 + 7 * j + len(form)) for j in range(k + 1)], [(10, 10), (12, 9)]]
            (tmp_path / "lineStrokes" / sub / f"{form}-{k:02d}.xml").write_bytes(line_xml(strokes))
            written[f"{form}-{k:02d}"] = (texts[k - 1], sum(len(s) for s in strokes))
        (tmp_path / "ascii" / sub / f"{form}.txt").write_bytes(
            ("Data:\n\nCSR: \n\n" + "\n".join(texts) + "\n").encode("latin-1"))
    t = load_task(task_spec("strokes", str(tmp_path)))
    got = {}
    for w in ("train", "val"):
        for i in range(t.size(w)):
            got[t.sets[w].names[i]] = (t.text(w, i), len(t.line(w, i)))
    assert got == written
