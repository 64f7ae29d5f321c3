"""lnrnn/data/strokes.py on hand-made strokes: stroke-3 and back (a last stroke lifted or not, a scale), the
glitch steps drop_long_steps removes counted by hand, a StrokeSet's lines whole, the offset scale of a built
task against NumPy's std over the training offsets alone, and _cut / synthetic_line giving exactly the points
asked for, with no empty stroke."""
import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.data.strokes import GLITCH_STEP, StrokeSet, _cut, drop_long_steps, synthetic_line, to_stroke3, to_strokes
from lnrnn.data.tasks import load_task, task_spec

STROKES = [[(0, 0), (1, 2), (3, 3)], [(5, 5)], [(6, 4), (7, 4)]]
# by hand: offsets from the point before (row 0: (0, 0)); pen 1 on each stroke's last point
STROKE3 = [(0, 0, 0), (1, 2, 0), (2, 1, 1), (2, 2, 1), (1, -1, 0), (1, 0, 1)]


def test_stroke3_of_hand_made_strokes_and_back():
    assert to_stroke3(STROKES).tolist() == [list(map(float, r)) for r in STROKE3]
    back = to_strokes(np.array(STROKE3, float))
    assert [s.tolist() for s in back] == [[list(map(float, p)) for p in s] for s in STROKES]


def test_to_strokes_of_an_unlifted_end_and_a_scale():
    seq = np.array([(0, 0, 0), (2, 1, 1), (1, 1, 0), (1, 0, 0)], float)     # the last stroke never lifted
    got = to_strokes(seq, scale=(3.0, 0.5))
    want = [[[0, 0], [6, 0.5]], [[9, 1.0], [12, 1.0]]]                       # cumulative (3 dx, 0.5 dy)
    assert [s.tolist() for s in got] == want
    single = to_strokes(np.array([(4, 4, 1)], float))                        # one point, lifted
    assert [s.tolist() for s in single] == [[[4.0, 4.0]]]


def test_drop_long_steps_counts_the_dropped_rows():
    big = GLITCH_STEP + 1
    seq = np.array([(big, 0, 0),           # row 0: always kept
                    (1, 1, 0),
                    (0, big, 1),           # dropped, its lift moves to row 1
                    (2, 0, 0),
                    (-big, -big, 0),       # dropped
                    (1, 1, 1)], float)
    out, dropped = drop_long_steps(seq)
    assert dropped == 2
    assert out.tolist() == [[big, 0, 0], [1, 1, 1], [2, 0, 0], [1, 1, 1]]
    same, none = drop_long_steps(seq[[0, 1, 3, 5]])
    assert none == 0 and same.tolist() == seq[[0, 1, 3, 5]].tolist()


def test_stroke_set_lines_are_whole():
    lines = [np.arange(9, dtype=float).reshape(3, 3), np.array([[5.0, 6.0, 1.0]]),
             np.arange(12, dtype=float).reshape(4, 3) - 6]
    s = StrokeSet(lines)
    assert len(s) == 3
    for i, ln in enumerate(lines):
        assert s.line(i).tolist() == ln.astype(np.float32).tolist()
    assert s.max_steps == 3                                                  # the longest line's N - 1


def _write_split(path, train, val):
    stroke_files.save_npz(path, train, val)


def _lines(rng, n, spread):
    out = []
    for k in range(n):
        N = 3 + k % 4
        seq = np.zeros((N, 3))
        seq[1:, :2] = rng.normal(0, spread, (N - 1, 2))
        seq[-1, 2] = 1.0
        out.append(seq)
    return out


def test_offset_scale_is_numpys_std_of_the_training_offsets_alone(tmp_path):
    rng = np.random.default_rng(3)
    train = _lines(rng, 5, [4.0, 9.0])
    val = _lines(rng, 3, [60.0, 1.0])                                        # other scales: must not leak
    path = tmp_path / "split.npz"
    _write_split(path, train, val)
    t = load_task(task_spec("strokes-npz", str(path)))
    offsets = np.concatenate([ln[1:, :2] for ln in train])                   # row 0 is no offset
    want = offsets.std(axis=0)                                               # NumPy, population std
    np.testing.assert_allclose(t.scale, want, rtol=1e-12)
    for which, lines in (("train", train), ("val", val)):
        assert t.size(which) == len(lines)
        for i, ln in enumerate(lines):
            got = t.line(which, i)
            assert got.shape == ln.shape
            np.testing.assert_allclose(got[:, :2] * want, ln[:, :2], rtol=1e-5, atol=1e-4)
            assert got[:, 2].tolist() == ln[:, 2].tolist()


@pytest.mark.parametrize("n, want", [(7, [4, 3]), (5, [4, 1]), (4, [4]), (12, [4, 3, 5]), (20, [4, 3, 5])])
def test_cut_takes_exactly_the_points_asked_for(n, want):
    strokes = [np.ones((4, 2)), np.ones((3, 2)) * 2, np.ones((5, 2)) * 3]
    got = _cut(strokes, n)
    assert [len(s) for s in got] == want                                     # no empty stroke after them
    assert all(got[i].tolist() == strokes[i][:want[i]].tolist() for i in range(len(want)))


@pytest.mark.parametrize("n", [40, 97, 300])
def test_synthetic_line_has_n_points_in_non_empty_strokes(n):
    for seed in range(3):
        strokes = synthetic_line(np.random.default_rng(seed), n)
        assert sum(len(s) for s in strokes) == n
        assert min(len(s) for s in strokes) >= 1
