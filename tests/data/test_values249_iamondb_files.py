"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's true format (line XML of Strokes of Points, y down,
from test_values135_iamondb's writers; ascii/ files with their CSR: section; the task lists trainset.txt and
testset_v.txt of form ids), second pass: refusals word for word with nothing parsed past them (a file over its cap
naming its size then the cap, both with thousands separators; a root element that is not IAM-OnDB's own; a
StrokeSet without a Stroke; a NaN coordinate and a point lacking y, named by point and stroke from 1; a
transcription with one CSR line more than the form's line files; a task list's bad entry cut at 40 characters on
its line counted with the blanks; a task list of blank lines only; entries naming no line file counted against
the list's own entries), time stamps that go backwards left unread (the points are the rows by hand), and the
description's form count against a hand count of forms and lines."""
import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.strokes import VAL_FRACTION
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
from test_values135_iamondb import line_xml, stroke3_by_hand, write_form
from test_values232_iamondb import refused


def test_a_file_past_its_cap_is_refused_naming_its_size_then_the_cap(tmp_path):
    path = tmp_path / "a01-000u.txt"
    path.write_bytes(b"x" * 1234)
    assert refused(iamondb.read_limited, str(path), 1000, "transcription") == (
        f"transcription {path} is 1,234 bytes, more than the 1,000 allowed; it is not a file of this data set.")
    assert iamondb.read_limited(str(path), 1234) == b"x" * 1234        # at the cap: read whole


def test_a_root_other_than_iam_ondbs_own_is_refused(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2), (3, 4)]]).replace(iamondb.ROOT.encode() + b">", b"InkML>"))
    assert iamondb.ROOT.encode() not in path.read_bytes()
    assert refused(iamondb.read_line, str(path)) == (
        f"{path} has root element <InkML>, not <{iamondb.ROOT}>; it is not an IAM-OnDB line file.")


def test_a_line_with_no_strokes_is_refused_as_empty(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([]))                                      # <StrokeSet> with nothing in it
    assert b"<StrokeSet>" in path.read_bytes() and b"<Stroke " not in path.read_bytes()
    assert refused(iamondb.read_line, str(path)) == f"{path} has no <Stroke> in its <StrokeSet>; the line is empty."


def test_a_nan_coordinate_is_refused_naming_its_point_and_stroke(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(10, 20), (11, 21), (12, 22)], [(30, 40), ("NaN", 41), (32, 42)]]))
    assert refused(iamondb.read_line, str(path)) == f"{path}: point 2 of stroke 2 has the non-numeric x='NaN'."


def test_a_point_without_y_is_refused_naming_y(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    raw = line_xml([[(10, 20), (11, 21), (12, 22), (13, 23)]]).replace(b'x="12" y="22"', b'x="12"')
    path.write_bytes(raw)
    assert refused(iamondb.read_line, str(path)) == f"{path}: point 3 of stroke 1 lacks the attribute y."


def test_time_stamps_going_backwards_leave_the_points_as_written(tmp_path):
    strokes = [[(1073, 1058), (1075, 1050), (1080, 1049)], [(1100, 1060), (1093, 1071)]]
    raw = line_xml(strokes).decode("latin-1")
    for t in ("9.50", "9.40", "9.30", "2.00", "1.00"):                 # every point earlier than the one before
        raw = raw.replace('time="1.00"/>', f'time="{t}"/>', 1)
    assert raw.count('time="1.00"/>') == 1 and 'time="9.30"' in raw
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(raw.encode("latin-1"))
    got = iamondb.read_line(str(path))
    want = np.array([[0, 0, 0], [2, 8, 0], [5, 1, 1], [20, -11, 0], [-7, -11, 1]], float)   # by hand, y up
    assert np.array_equal(got, want) and np.array_equal(want, stroke3_by_hand(strokes))


def test_a_transcription_with_more_lines_than_line_files_is_refused(tmp_path):
    write_form(tmp_path, "a01-000u", 2, ["one", "two", "three"])       # 3 CSR lines, 2 line files
    write_form(tmp_path, "b02-010x", 1, ["four"])
    txt = tmp_path / "ascii" / "a01" / "a01-000" / "a01-000u.txt"
    folder = tmp_path / "lineStrokes" / "a01" / "a01-000"
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"transcription {txt} has 3 lines after CSR: but form a01-000u has 2 line files in {folder} (numbered 1 "
        "to 2); they do not belong together: unpack lineStrokes-all.tar.gz and ascii-all.tar.gz of one "
        "download, or move ascii/ away to train without text.")


def test_a_bad_list_entry_is_shown_to_forty_characters_on_its_line(tmp_path):
    path = tmp_path / "trainset.txt"
    entry = "these are notes on the forms a01 to a09, not ids"
    shown = "these are notes on the forms a01 to a09,"                # its first 40 characters
    assert len(entry) > 40 and len(shown) == 40 and entry.startswith(shown)
    path.write_text("a01-000u\n\n" + entry + "\n")                     # line 3, after a blank line
    assert refused(iamondb.read_split_list, str(path)) == (
        f"{path} line 3: {shown!r} is not an IAM-OnDB form or line id (such as a01-000u or a01-000u-01); "
        "is this one of IAM-OnDB's task lists?")


def test_a_list_of_blank_lines_lists_no_forms(tmp_path):
    path = tmp_path / "testset_v.txt"
    path.write_text("\n   \n\t\n\n")
    assert refused(iamondb.read_split_list, str(path)) == (
        f"{path} lists no forms; IAM-OnDB's task lists hold one form id (a01-000u) per line.")


def test_entries_naming_no_line_file_are_counted_of_the_lists_entries(tmp_path):
    write_form(tmp_path, "a01-000u", 2)                                 # names: a01-000u, -01, -02
    write_form(tmp_path, "b02-010x", 1)                                 # names: b02-010x, -01 (5 in all)
    (tmp_path / "tasks").mkdir()
    absent = ["c03-020z", "d04-030y", "e05-040w", "f06-050v", "g07-060t"]
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\n" + "".join(f + "\n" for f in absent))
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    path = tmp_path / "tasks" / "trainset.txt"
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"5 of the 6 entries of {path} (c03-020z, d04-030y, e05-040w, ...) name no line file under "
        f"{tmp_path / 'lineStrokes'}; unpack lineStrokes-all.tar.gz whole, or use the task lists that came with it.")


def test_the_description_counts_forms_not_lines(tmp_path):
    forms = {"a01-000u": 2, "b02-010x": 1, "c03-020z": 3, "d04-030y": 1, "e05-040w": 4}   # 5 forms, 11 lines
    for form, n in forms.items():
        write_form(tmp_path, form, n)
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.description.startswith(
        f"IAM-OnDB lines from {tmp_path} (5 forms, split by form; 0 with transcriptions: no ascii/ found, the "
        "lines carry no text)")
    assert t.extra["forms"] == 5 and t.extra["skipped_no_text"] == 0
    assert t.size("train") + t.size("val") == 11
    held = {n[:-3] for n in t.sets["val"].names}
    assert len(held) == max(1, round(VAL_FRACTION * 5))
    assert t.size("val") == sum(forms[f] for f in held)
