"""lnrnn/data/kanjivg.py on SVG files written here in KanjiVG's format (test_values206_kanjivg.svg), seventeenth
pass: a kanji/ subfolder's files keyed by the code point of their 5-digit hex names; Z after a second moveto
closing to that moveto's point, absolute and relative; a cubic's 16 points against the Bernstein form of the
Bezier formula written out here; make_lines drawing exactly 1, 2, 10 and 11 lines; a task's --split 11/10 and
2/1 giving that many training and validation lines."""
import numpy as np
import pytest

from lnrnn.data import kanjivg
from lnrnn.data.tasks import load_task, task_spec
from test_values206_kanjivg import svg  # a KanjiVG file of the given path data, one <path> per stroke


def test_a_kanji_subfolder_is_keyed_by_code_point(tmp_path):
    sub = tmp_path / "kanji"
    sub.mkdir()
    for name in ("04e00.svg", "00041.svg", "04e14-Kaisho.svg"):
        (sub / name).write_bytes(svg(["M10,20 L10,26"]))
    assert kanjivg.folder_files(str(tmp_path)) == {0x4E00: str(sub / "04e00.svg"), 0x41: str(sub / "00041.svg")}


def test_z_closes_to_the_latest_moveto():
    got = kanjivg.path_polylines("M10,10 L20,10 L20,20 Z M30,30 l10,0 z m5,5 l0,4 Z")
    assert [p.tolist() for p in got] == [
        [[10, 10], [20, 10], [20, 20], [10, 10]],
        [[30, 30], [40, 30], [30, 30]],
        [[35, 35], [35, 39], [35, 35]],       # m5,5 from the point z returned to, (30, 30)
    ]


def test_a_cubic_follows_the_bernstein_form():
    p0, p1, p2, p3 = np.array([7.0, 3.0]), np.array([10.0, 40.0]), np.array([50.0, 45.0]), np.array([60.0, 5.0])
    got = kanjivg.path_polylines("M7,3 C10,40 50,45 60,5")
    assert len(got) == 1 and got[0].shape == (17, 2)
    for k in range(17):
        t = k / 16
        want = (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t ** 2 * p2 + t ** 3 * p3
        np.testing.assert_allclose(got[0][k], want, rtol=0, atol=1e-12)


@pytest.mark.parametrize("count", [1, 2, 10, 11])
def test_make_lines_draws_count_lines(count):
    designs = {0x41: [np.array([[0.0, 0.0], [0.0, 6.0]])], 0x42: [np.array([[0.0, 0.0], [4.0, 0.0]])]}
    lines, texts = kanjivg.make_lines(np.random.default_rng(5), designs, np.array([0x41, 0x42]), count, 3)
    assert len(lines) == count and len(texts) == count
    for line, text in zip(lines, texts):
        assert 1 <= len(text) <= 3 and set(text) <= {"A", "B"}
        assert line[:, 2].sum() == len(text)           # one two-point stroke per character, one lift each


@pytest.mark.parametrize("split, n_train, n_val", [("11/10", 11, 10), ("2/1", 2, 1)])
def test_split_gives_that_many_lines(tmp_path, split, n_train, n_val):
    for name in ("00041.svg", "00042.svg", "00043.svg"):
        (tmp_path / name).write_bytes(svg(["M10,20 L10,26", "M5,5 L11,5"]))
    t = load_task(task_spec("strokes-kanjivg", str(tmp_path), split=split))
    assert (t.size("train"), t.size("val")) == (n_train, n_val)
