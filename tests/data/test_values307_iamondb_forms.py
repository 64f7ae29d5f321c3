"""lnrnn/data/iamondb.py on line files written in IAM-OnDB's XML (test_values135's writers: a StrokeSet of Strokes of
Points with x, y and time), forms of 1 and 2 lines with their ascii/ transcriptions, and the task lists: an empty
stroke and a point without an attribute refused word for word naming their place counted from 1; a transcription
whose CSR: count differs from its form's line files refused with both counts and their plurals at 1 and 2; one
task list of two refused with nothing written; entries naming no line file counted against the list's entries at
1 and 2; the official split's files in name order with their mask by hand; the lines skipped for want of a
transcription counted by hand among the lines the split reads (not among every file found)."""
import os

import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from test_values135_iamondb import HEAD, line_xml, write_form  # IAM-OnDB's XML of given strokes; a form's files
from test_values232_iamondb import refused  # the DataError's one-line sentence


def test_an_empty_stroke_is_named_by_its_place_counted_from_1(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(10, 20), (13, 24)], []]))
    assert refused(iamondb.read_line, str(path)) == f"{path}: stroke 2 has no <Point>; an empty stroke is not valid."
    path.write_bytes(line_xml([[], [(10, 20)]]))
    assert refused(iamondb.read_line, str(path)) == f"{path}: stroke 1 has no <Point>; an empty stroke is not valid."


def _raw_line(points_of_strokes):
    """A line file whose Points are given as their attribute text (a missing attribute left out)."""
    body = []
    for pts in points_of_strokes:
        body.append('    <Stroke colour="black" start_time="1.00" end_time="1.50">')
        body += [f"      <Point {p} time=\"1.00\"/>" for p in pts]
        body.append("    </Stroke>")
    return (HEAD + "\n".join(body) + f"\n  </StrokeSet>\n</{iamondb.ROOT}>\n").encode("latin-1")


@pytest.mark.parametrize("strokes, where, name", [
    ([['x="1" y="2"', 'x="3"']], "point 2 of stroke 1", "y"),
    ([['x="1" y="2"'], ['x="5" y="6"', 'x="7" y="8"', 'y="9"']], "point 3 of stroke 2", "x"),
])
def test_a_point_without_an_attribute_is_refused_naming_it(tmp_path, strokes, where, name):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(_raw_line(strokes))
    assert refused(iamondb.read_line, str(path)) == f"{path}: {where} lacks the attribute {name}."


@pytest.mark.parametrize("n_files, texts, said", [
    (1, ["one", "two"], "has 2 lines after CSR: but form a01-000u has 1 line file in {folder} (numbered 1 to 1)"),
    (2, ["one"], "has 1 line after CSR: but form a01-000u has 2 line files in {folder} (numbered 1 to 2)"),
])
def test_a_transcription_not_matching_its_line_files_counts_both(tmp_path, n_files, texts, said):
    write_form(tmp_path, "a01-000u", n_files, texts)
    line_root, files = iamondb.find_lines(str(tmp_path))
    folder = os.path.join(line_root, "a01", "a01-000")
    txt = os.path.join(str(tmp_path / "ascii"), "a01", "a01-000", "a01-000u.txt")
    assert refused(iamondb.form_texts, files, files, line_root, str(tmp_path / "ascii")) == (
        f"transcription {txt} " + said.format(folder=folder) + "; they do not belong together: unpack "
        "lineStrokes-all.tar.gz and ascii-all.tar.gz of one download, or move ascii/ away to train without text.")


def test_matching_forms_of_1_and_2_lines_read_their_texts(tmp_path):
    write_form(tmp_path, "a01-000u", 1, ["the one"])
    write_form(tmp_path, "b02-010x", 2, ["first", "second"])
    line_root, files = iamondb.find_lines(str(tmp_path))
    assert line_root == os.path.join(str(tmp_path), "lineStrokes")
    assert [os.path.basename(p) for p in files] == ["a01-000u-01.xml", "b02-010x-01.xml", "b02-010x-02.xml"]
    assert iamondb.form_texts(files, files, line_root, str(tmp_path / "ascii")) == ["the one", "first", "second"]


@pytest.mark.parametrize("where, there, absent", [
    ("", "trainset.txt", "testset_v.txt"),
    ("tasks", "testset_v.txt", "trainset.txt"),
])
def test_one_task_list_alone_is_refused_with_nothing_written(tmp_path, where, there, absent):
    write_form(tmp_path, "a01-000u", 1)
    folder = tmp_path / where if where else tmp_path
    folder.mkdir(exist_ok=True)
    (folder / there).write_text("a01-000u\n")
    before = sorted(p for p in tmp_path.rglob("*"))
    assert refused(iamondb.find_split_lists, str(tmp_path), str(tmp_path / "lineStrokes")) == (
        f"{os.path.join(str(tmp_path), where) if where else str(tmp_path)} holds IAM-OnDB's {there} but not "
        f"{absent}; copy both from the task folder of the IAM-OnDB download, or remove {there} to split by form "
        "at random.")
    assert sorted(p for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("train, val, which, said", [
    ("a01-000u\nz99-999z\n", "b02-010x\n", "trainset.txt", "1 of the 2 entries of {path} (z99-999z) names"),
    ("y98-999y\nz99-999z\n", "b02-010x\n", "trainset.txt", "2 of the 2 entries of {path} (y98-999y, z99-999z) name"),
    ("a01-000u\n", "x01-000x\n", "testset_v.txt", "1 of the 1 entry of {path} (x01-000x) names"),
])
def test_entries_naming_no_line_file_are_counted_at_1_and_2(tmp_path, train, val, which, said):
    write_form(tmp_path, "a01-000u", 1)
    write_form(tmp_path, "b02-010x", 2)
    (tmp_path / "trainset.txt").write_text(train)
    (tmp_path / "testset_v.txt").write_text(val)
    line_root, files = iamondb.find_lines(str(tmp_path))
    path = os.path.join(str(tmp_path), which)
    assert refused(iamondb.official_split, files, str(tmp_path), line_root) == (
        said.format(path=path) + f" no line file under {line_root}; unpack lineStrokes-all.tar.gz whole, or use "
        "the task lists that came with it.")


def test_the_official_split_keeps_name_order_with_validation_first(tmp_path):
    write_form(tmp_path, "a01-000u", 1)                                 # validation, named first
    write_form(tmp_path, "b02-010x", 2)                                 # training
    write_form(tmp_path, "c03-020z", 1)                                 # in no list
    (tmp_path / "trainset.txt").write_text("b02-010x\n")
    (tmp_path / "testset_v.txt").write_text("a01-000u\n")
    line_root, files = iamondb.find_lines(str(tmp_path))
    got, val = iamondb.official_split(files, str(tmp_path), line_root)
    assert [os.path.basename(p) for p in got] == ["a01-000u-01.xml", "b02-010x-01.xml", "b02-010x-02.xml"]
    assert val.tolist() == [True, False, False]


@pytest.mark.parametrize("listed_d, skipped, said", [
    (False, 1, "1 line without one skipped"),                          # d04 found but in no list: not counted
    (True, 2, "2 lines without one skipped"),
])
def test_lines_without_text_are_counted_among_the_lines_read(tmp_path, listed_d, skipped, said):
    write_form(tmp_path, "a01-000u", 2, ["alpha", "beta"])
    write_form(tmp_path, "b02-010x", 1, ["gamma"])
    write_form(tmp_path, "c03-020z", 1)                                 # no ascii file
    write_form(tmp_path, "d04-030y", 1)                                 # no ascii file
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\nc03-020z\n" + ("d04-030y\n" if listed_d else ""))
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert t.extra["skipped_no_text"] == skipped
    assert t.description.startswith(
        f"IAM-OnDB lines from {tmp_path} (2 forms, IAM-OnDB's split: trainset / testset_v of "
        f"{os.path.join(str(tmp_path), 'tasks')}; 3 with transcriptions from {os.path.join(str(tmp_path), 'ascii')}, "
        f"{said})")
    assert sorted(t.sets["train"].names) == ["a01-000u-01", "a01-000u-02"]
    assert list(t.sets["val"].names) == ["b02-010x-01"]
