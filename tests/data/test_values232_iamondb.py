"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's own format (line XML of Strokes of Points, y down,
from test_values135_iamondb's writers; ascii/ files with their CSR: section; trainset.txt and testset_v.txt):
a document type declared after a 2 KiB prolog comment, and an entity declared inside the StrokeSet, refused in
one sentence that names the declaration, nothing expanded; a line file past 1 MiB (a task list's cap) read
point by point against stroke-3 by hand, and the line files' own cap at its edge; refusals word for word: a
form whose line files are 1, 2 and 4 (numbered 1 to 4, three of them), a folder holding one task list of two,
three and four forms in both lists (an ellipsis only past three), an ascii/ with no transcription of the lines
the split reads (counted: the test set's lines are not read); and texts that stay with their lines after a
line without one is skipped, the skip counted in the description."""
import os

import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from lnrnn.errors import DataError
from test_values135_iamondb import line_xml, stroke3_by_hand, write_form

DECLARED = ("{path} declares {what} in its XML, which a stroke file never needs (it could expand entities or fetch "
            "external files); refusing to parse it.")


def refused(fn, *args):
    with pytest.raises(DataError) as e:
        fn(*args)
    assert "\n" not in str(e.value)
    return str(e.value)


def test_a_doctype_after_a_long_prolog_comment_is_refused_never_expanded(tmp_path):
    prolog = "<!-- " + "exported by the board's software " * 64 + "-->\n"   # a comment of 2,121 bytes
    prolog += f'<!DOCTYPE {iamondb.ROOT} [<!ENTITY x "1073">]>\n'
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[("&x;", 1058), (1080, 1050)]], prolog))
    assert path.read_bytes().index(b"<!DOCTYPE") > 2048
    assert refused(iamondb.read_line, str(path)) == DECLARED.format(path=path, what="DOCTYPE")


def test_an_entity_declared_inside_the_stroke_set_is_named(tmp_path):
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml([[(1, 2), (3, 4)]]).replace(b"<StrokeSet>", b'<StrokeSet><!ENTITY x "y">'))
    assert refused(iamondb.read_line, str(path)) == DECLARED.format(path=path, what="ENTITY")


def long_line():
    """40 strokes of 600 points (24,000 points, y down) in board units."""
    rng = np.random.default_rng(3)
    return [[(int(x), int(y)) for x, y in 1000 + np.cumsum(rng.integers(-9, 10, (600, 2)), 0)] for _ in range(40)]


def test_a_line_file_past_one_mebibyte_is_read_and_capped_at_its_own_limit(tmp_path, monkeypatch):
    strokes = long_line()
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes(line_xml(strokes))
    size = os.path.getsize(path)
    assert (1 << 20) < size < (16 << 20)                                # past a task list's cap, under a line's
    assert np.array_equal(iamondb.read_line(str(path)), stroke3_by_hand(strokes))
    monkeypatch.setattr(iamondb, "MAX_XML_BYTES", size)                 # the cap at the file's size: read
    assert len(iamondb.read_line(str(path))) == 24_000
    monkeypatch.setattr(iamondb, "MAX_XML_BYTES", size - 1)             # one byte under it: refused unread
    assert refused(iamondb.read_line, str(path)) == (f"XML file {path} is {size:,} bytes, more than the "
                                                     f"{size - 1:,} allowed; it is not a file of this data set.")


def test_a_form_with_line_files_1_2_and_4_is_refused_with_its_numbers(tmp_path):
    write_form(tmp_path, "a01-000u", 4, ["one", "two", "three"])        # CSR: 3 lines; files -01 .. -04
    write_form(tmp_path, "b02-010x", 2, ["five", "six"])
    folder = tmp_path / "lineStrokes" / "a01" / "a01-000"
    os.remove(folder / "a01-000u-03.xml")                               # files 1, 2, 4: three, numbered 1 to 4
    txt = tmp_path / "ascii" / "a01" / "a01-000" / "a01-000u.txt"
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"transcription {txt} has 3 lines after CSR: but form a01-000u has 3 line files in {folder} (numbered 1 "
        "to 4); they do not belong together: unpack lineStrokes-all.tar.gz and ascii-all.tar.gz of one "
        "download, or move ascii/ away to train without text.")


@pytest.mark.parametrize("there, absent", [("trainset.txt", "testset_v.txt"), ("testset_v.txt", "trainset.txt")])
def test_one_task_list_of_two_is_refused_naming_each(tmp_path, there, absent):
    write_form(tmp_path, "a01-000u", 1)
    write_form(tmp_path, "b02-010x", 1)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / there).write_text("a01-000u\n")
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"{tmp_path / 'tasks'} holds IAM-OnDB's {there} but not {absent}; copy both from the task folder of the "
        f"IAM-OnDB download, or remove {there} to split by form at random.")


FORMS = ["a01-000u", "b02-010x", "c03-020z", "d04-030y", "e05-040w"]


@pytest.mark.parametrize("n_both, shown", [(3, "a01-000u, b02-010x, c03-020z"),
                                           (4, "a01-000u, b02-010x, c03-020z, ...")])
def test_forms_in_both_lists_are_shown_three_at_most(tmp_path, n_both, shown):
    for form in FORMS:
        write_form(tmp_path, form, 1)
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("".join(f + "\n" for f in FORMS))
    (tmp_path / "tasks" / "testset_v.txt").write_text("".join(f + "\n" for f in FORMS[:n_both]))
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"{n_both} forms ({shown}) are in both trainset.txt and testset_v.txt of {tmp_path / 'tasks'}; a form must "
        "be in one split only (its writer wrote all its lines).")


def test_no_transcription_counts_only_the_lines_the_split_reads(tmp_path):
    write_form(tmp_path, "a01-000u", 2)                                 # trainset: 2 lines
    write_form(tmp_path, "b02-010x", 1)                                 # testset_v: 1 line
    write_form(tmp_path, "c03-020z", 3, ["x", "y", "z"])               # testset_t: 3 lines, not read
    (tmp_path / "tasks").mkdir()
    for name, form in (("trainset.txt", "a01-000u"), ("testset_v.txt", "b02-010x"), ("testset_t.txt", "c03-020z")):
        (tmp_path / "tasks" / name).write_text(form + "\n")
    assert refused(load_task, task_spec("strokes", str(tmp_path))) == (
        f"{tmp_path / 'ascii'} holds no transcription of the 3 lines read; unpack ascii-all.tar.gz of the same "
        "download there, or move it away to train without text.")


def test_texts_stay_with_their_lines_after_a_skipped_one(tmp_path):
    write_form(tmp_path, "a01-000u", 4, ["one", "", "three", "four"])   # line 2 has no transcription
    write_form(tmp_path, "b02-010x", 2, ["five", "six"])
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    want = {"a01-000u-01": "one", "a01-000u-03": "three", "a01-000u-04": "four",
            "b02-010x-01": "five", "b02-010x-02": "six"}
    got = {t.sets[w].names[i]: t.text(w, i) for w in ("train", "val") for i in range(t.size(w))}
    assert got == want
    for w in ("train", "val"):                                         # line k: strokes of 2 + k and 1 points
        for i, name in enumerate(t.sets[w].names):
            assert len(t.line(w, i)) == 3 + int(name[-2:])
    assert t.extra["skipped_no_text"] == 1
    assert f"5 with transcriptions from {tmp_path / 'ascii'}, 1 line without one skipped)" in t.description
