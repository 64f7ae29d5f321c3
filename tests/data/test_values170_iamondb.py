"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own format (a StrokeSet of Strokes of Points, y
growing down; ascii/ transcriptions with their CSR: section; the task lists trainset.txt and testset_v.txt): an
internal entity refused in one sentence before any parsing (never expanded), a non-numeric or missing
coordinate named by its 1-based point and stroke, the task lists' 1 MiB cap at its edge, the lists found in the
tasks/ beside a --data-dir that is the line folder itself, the refusal of entries naming no file with its
counts, and a transcription's CSR: lines read back as written."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.errors import DataError
from test_values135_iamondb import line_xml


def test_a_line_reads_as_its_offsets_by_hand(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1073, 1058), (1080, 1050)], [(1100, 1060), (1102, 1061), (1110, 1040)]]))
    # points y up: (1073,-1058) (1080,-1050) | (1100,-1060) (1102,-1061) (1110,-1040); offsets from the last
    want = np.array([[0, 0, 0], [7, 8, 1], [20, -10, 0], [2, -1, 0], [8, 21, 1]], np.float64)
    assert np.array_equal(iamondb.read_line(str(path)), want)


def test_an_internal_entity_is_refused_in_one_sentence_and_never_expanded(tmp_path):
    prolog = '<!DOCTYPE WhiteboardCaptureSession [<!ENTITY x "1073">]>\n'
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[("&x;", 1058), (1080, 1050)]], prolog))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(path))
    assert str(e.value) == (f"{path} declares DOCTYPE in its XML, which a stroke file never needs (it could "
                            "expand entities or fetch external files); refusing to parse it.")
    with pytest.raises(DataError, match="declares DOCTYPE"):
        iamondb.read_xml(str(path))


@pytest.mark.parametrize("bad, where", [((2, 3, "x", "abc"), "point 3 of stroke 2 has the non-numeric x='abc'"),
                                        ((1, 1, "y", "nan"), "point 1 of stroke 1 has the non-numeric y='nan'"),
                                        ((2, 1, "y", None), "point 1 of stroke 2 lacks the attribute y")])
def test_a_bad_coordinate_is_named_by_its_point_and_stroke_from_1(tmp_path, bad, where):
    k, i, name, text = bad
    strokes = [[["10", "20"], ["11", "21"]], [["30", "40"], ["31", "41"], ["32", "42"], ["33", "43"]]]
    strokes[k - 1][i - 1][0 if name == "x" else 1] = text
    xml = line_xml(strokes).decode("latin-1")
    if text is None:
        xml = xml.replace(' y="None"', "")
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(xml.encode("latin-1"))
    with pytest.raises(DataError) as e:
        iamondb.read_line(str(path))
    assert str(e.value) == f"{path}: {where}."


def test_a_task_list_is_capped_at_one_mebibyte(tmp_path):
    entry = b"a01-000u\n"                                             # 9 bytes
    path = tmp_path / "trainset.txt"
    path.write_bytes(entry * ((1 << 20) // 9) + b"x" * ((1 << 20) % 9))   # 116508 entries and 4 bytes: exactly 1 MiB, read
    with pytest.raises(DataError, match="line 116509: 'xxxx' is not an IAM-OnDB form or line id"):
        iamondb.read_split_list(str(path))
    path.write_bytes(entry * ((1 << 20) // 9 + 1))                    # 1 MiB + 5 bytes of good entries
    with pytest.raises(DataError) as e:
        iamondb.read_split_list(str(path))
    assert str(e.value) == (f"IAM-OnDB task list {path} is {9 * 116509:,} bytes, more than the 1,048,576 "
                            "allowed; it is not a file of this data set.")


def write_line(root, form, k):
    folder = root / form[:3] / form[:7]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{form}-{k:02d}.xml").write_bytes(line_xml([[(100 + k, 200), (110, 190 - k)]]))


def test_lists_in_the_tasks_beside_a_bare_line_folder_give_the_split(tmp_path):
    bare = tmp_path / "lineStrokes"                                    # --data-dir names the line folder itself
    for form, n in (("a01-000u", 2), ("b02-010x", 1), ("c03-020z", 1)):
        for k in range(1, n + 1):
            write_line(bare, form, k)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\nc03-020z\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    line_root, files = iamondb.find_lines(str(bare))
    assert line_root == str(bare)
    folder = iamondb.find_split_lists(str(bare), line_root)
    assert folder == str(tmp_path / "tasks")
    got, val = iamondb.official_split(files, folder, line_root)
    names = [os.path.basename(p) for p in got]
    assert names == ["a01-000u-01.xml", "a01-000u-02.xml", "b02-010x-01.xml", "c03-020z-01.xml"]
    assert val.tolist() == [False, False, True, False]


def test_entries_naming_no_file_are_counted_in_the_refusal(tmp_path):
    root = tmp_path / "lineStrokes"
    write_line(root, "a01-000u", 1)
    write_line(root, "b02-010x", 1)
    (tmp_path / "trainset.txt").write_text("a01-000u\na01-009u\na01-010u-03\n")
    (tmp_path / "testset_v.txt").write_text("b02-010x\n")
    line_root, files = iamondb.find_lines(str(tmp_path))
    with pytest.raises(DataError) as e:
        iamondb.official_split(files, str(tmp_path), line_root)
    assert str(e.value) == (f"2 of the 3 entries of {tmp_path / 'trainset.txt'} (a01-009u, a01-010u-03) name no "
                            f"line file under {line_root}; unpack lineStrokes-all.tar.gz whole, or use the task "
                            "lists that came with it.")


def test_a_transcription_is_its_csr_lines_as_written(tmp_path):
    path = tmp_path / "a01-000u.txt"
    path.write_bytes(b"SEGMENTATION\n\nOCR:\n\nA MOVE to stop Mr.\nGaitskell\n\nCSR: \n\n"
                     b"A MOVE to stop Mr. Gaitskell from  \nnominating any more Labour\n\n\n")
    assert iamondb.transcriptions(str(path)) == ["A MOVE to stop Mr. Gaitskell from", "nominating any more Labour"]
    path.write_bytes(b"OCR:\n\nno section here\n")
    with pytest.raises(DataError) as e:
        iamondb.transcriptions(str(path))
    assert str(e.value) == f"transcription {path} has no 'CSR:' section; it is not an IAM-OnDB ascii file."
