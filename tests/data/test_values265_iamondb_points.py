"""lnrnn/data/iamondb.py on files written here in IAM-OnDB's true format (line XML of Strokes of Points, y down,
test_values135_iamondb's writers; the task lists trainset.txt and testset_v.txt in tasks/), twelfth pass: points
that are not numbers refused word for word, named by point and stroke counted from 1 and the attribute's text
quoted as written (an empty y at point 1 of stroke 1, x='1O73' with a letter O at point 3 of stroke 2), nothing
read past them; task lists naming single lines (a01-000u-01, a01-000u-03) read only those lines, counted by hand
per side, and the description naming the tasks/ folder the lists came from."""
import pytest

from lnrnn.data import iamondb
from lnrnn.data.tasks import load_task, task_spec
from test_values135_iamondb import line_xml, write_form
from test_values232_iamondb import refused


@pytest.mark.parametrize("stroke, point, name, text", [(1, 1, "y", ""), (2, 3, "x", "1O73")])
def test_a_point_that_is_not_a_number_is_named_and_quoted(tmp_path, stroke, point, name, text):
    strokes = [[(10, 20), (13, 24)], [(50, 20), (51, 18), (60, 18), (61, 17)]]
    raw = line_xml(strokes).decode("latin-1").splitlines()
    # the line holding point `point` of stroke `stroke`: the head (6 lines), then per stroke <Stroke>, its points,
    # </Stroke>
    at = 6 + sum(len(st) + 2 for st in strokes[:stroke - 1]) + point
    x, y = strokes[stroke - 1][point - 1]
    assert raw[at] == f'      <Point x="{x}" y="{y}" time="1.00"/>'
    raw[at] = raw[at].replace(f'{name}="{x if name == "x" else y}"', f'{name}="{text}"')
    path = tmp_path / "a01-000u-01.xml"
    path.write_bytes("\n".join(raw).encode("latin-1"))
    assert refused(iamondb.read_line, str(path)) == (
        f"{path}: point {point} of stroke {stroke} has the non-numeric {name}={text!r}.")


def test_lists_of_single_lines_read_those_lines_only(tmp_path):
    write_form(tmp_path, "a01-000u", 3)
    write_form(tmp_path, "b02-010x", 2)
    write_form(tmp_path, "c03-020z", 2)                                 # in neither list: not read
    (tmp_path / "tasks").mkdir()
    (tmp_path / "tasks" / "trainset.txt").write_text("a01-000u-01\na01-000u-03\n")
    (tmp_path / "tasks" / "testset_v.txt").write_text("b02-010x-02\n")
    t = load_task(task_spec("strokes", str(tmp_path)))
    assert sorted(t.sets["train"].names) == ["a01-000u-01", "a01-000u-03"]
    assert t.sets["val"].names == ["b02-010x-02"]
    assert t.description.startswith(
        f"IAM-OnDB lines from {tmp_path} (2 forms, IAM-OnDB's split: trainset / testset_v of {tmp_path / 'tasks'}; "
        "0 with transcriptions: no ascii/ found, the lines carry no text)")
    assert t.extra["forms"] == 2 and t.extra["split"] == "official"
