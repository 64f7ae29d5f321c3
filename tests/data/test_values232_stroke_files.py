"""lnrnn/data/stroke_files.py's refusals of malformed packed arrays, read word for word from files written here
with numpy.savez (nothing else written): a negative length named by its value and entry where a 0 length comes
first, lengths that do not add up to the rows with both counts (3 lengths adding to 6 beside 7 rows), the point
limit past a power of ten (10,001 against 10,000, both with their thousands separator; 10,000 itself read), and
an empty line of a packed .npz counted from 1 as read_lines counts lines."""
import os

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.errors import DataError


def rows(n, seed=0):
    """(n, 3) stroke-3 rows of small integer offsets, one stroke (pen 1 on the last row)."""
    r = np.column_stack([np.random.default_rng(seed).integers(-9, 10, (n, 2)), np.zeros(n)]).astype(np.float64)
    r[-1, 2] = 1.0
    return r


def refusal(fn, path):
    before = sorted(os.listdir(os.path.dirname(path)))
    with pytest.raises(DataError) as e:
        fn(path)
    assert sorted(os.listdir(os.path.dirname(path))) == before            # nothing written beside it
    return str(e.value)


@pytest.mark.parametrize("layout", ["pool", "own split", "lines"])
def test_a_negative_length_is_named_by_its_value_and_entry_past_an_empty_one(tmp_path, layout):
    path = str(tmp_path / "s.npz")
    lengths = np.array([3, 0, -2, 1, -5])                                # sum -3; the first negative is entry 2
    if layout == "pool":
        np.savez(path, strokes=rows(4), lengths=lengths)
        fn, name = stroke_files.load, "strokes"
    elif layout == "own split":
        np.savez(path, train_strokes=rows(4), train_lengths=lengths, val_strokes=rows(2), val_lengths=np.array([2]))
        fn, name = stroke_files.load, "train_strokes"
    else:
        np.savez(path, points=rows(4), lengths=lengths)
        fn, name = stroke_files.read_lines, "points"
    assert refusal(fn, path) == (f"{path}: the lengths beside {name} include -2 (entry 2); a sequence's length is "
                                 "a count of rows, 0 or more.")


@pytest.mark.parametrize("read", [stroke_files.load, stroke_files.read_lines])
def test_lengths_that_do_not_add_up_give_both_counts(tmp_path, read):
    path = str(tmp_path / "s.npz")
    np.savez(path, strokes=rows(7), lengths=np.array([2, 3, 1]))         # 3 lengths adding to 6, 7 rows
    assert refusal(read, path) == (f"{path}: the lengths beside strokes add up to 6 but it has 7 rows; the arrays "
                                   "do not belong together.")


def test_the_point_limit_past_ten_thousand_with_separators(tmp_path):
    n = 10_000                                                          # MAX_POINTS, the documented limit
    ok, over = str(tmp_path / "ok.npz"), str(tmp_path / "over.npz")
    np.savez(ok, strokes=np.concatenate([rows(2), rows(n, 1)]), lengths=np.array([2, n]))
    assert [len(s) for s in stroke_files.load(ok)["all"]] == [2, n]
    np.savez(over, strokes=np.concatenate([rows(2), rows(n + 1, 1)]), lengths=np.array([2, n + 1]))
    assert refusal(stroke_files.load, over) == (f"{over}: sequence 1 of strokes has 10,001 points, more than the "
                                                "limit of 10,000; split it or drop it.")


def test_an_empty_line_is_counted_from_one(tmp_path):
    path = str(tmp_path / "lines.npz")
    np.savez(path, points=rows(5), lengths=np.array([2, 0, 3]))          # the second line has no point
    assert refusal(stroke_files.read_lines, path) == f"{path}: line 2 has no point; every line needs at least one."
    np.savez(path, points=rows(5), lengths=np.array([2, 3, 0]))
    assert refusal(stroke_files.read_lines, path) == f"{path}: line 3 has no point; every line needs at least one."
