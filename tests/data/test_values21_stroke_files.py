"""A stroke file whose suffix disagrees with its content is refused, naming both (an .npy holding a zip of
arrays, an .npz holding one array), while the same bytes under the right suffix, in upper case too, read as
the lines they hold; and the npz task's held-out split of a file without x_val: a file of one sequence is
refused (holding it out would leave no training sequence), two sequences split one and one."""
import os
import shutil

import numpy as np
import pytest

from lnrnn.data import stroke_files
from lnrnn.data.arrays import VAL_FRACTION, held_out
from lnrnn.errors import DataError
from test_values20_strokes import line  # (n, 3) stroke-3 of small steps, the pen lifted at the end


def test_a_suffix_that_disagrees_with_the_content_is_refused(tmp_path):
    a, b = line(5, 1), line(3, 2)
    npz = tmp_path / "two.npz"
    np.savez(npz, points=np.concatenate([a, b]), lengths=np.array([5, 3]))
    npy = tmp_path / "one.npy"
    np.save(npy, a)
    got = stroke_files.read_lines(str(npz))
    assert [len(s) for s in got] == [5, 3]
    np.testing.assert_array_equal(got[1], b)
    np.testing.assert_array_equal(stroke_files.read_lines(str(npy))[0], a)

    upper = tmp_path / "TWO.NPZ"
    shutil.copyfile(npz, upper)
    assert [len(s) for s in stroke_files.read_lines(str(upper))] == [5, 3]

    for src, name, kind in ((npz, "zip.npy", ".npz"), (npy, "array.npz", ".npy")):
        wrong = tmp_path / name
        shutil.copyfile(src, wrong)
        with pytest.raises(DataError) as e:
            stroke_files.read_lines(str(wrong))
        msg = str(e.value)
        assert f"is a {kind} file" in msg and f"expected a {os.path.splitext(name)[1]}" in msg, msg


def test_one_sequence_is_not_held_out_and_two_split_one_and_one():
    with pytest.raises(DataError, match="at least 2"):
        held_out(1, None, "one.npz")
    tr, va = held_out(2, None, "two.npz")
    assert len(tr) == 1 and len(va) == 1 and sorted(np.concatenate([tr, va]).tolist()) == [0, 1]
    assert VAL_FRACTION == 0.1
    tr, va = held_out(25, None, "many.npz")                  # 10% of 25: 2.5, rounded to the even 2
    assert len(va) == 2 and len(tr) + len(va) == 25 and not set(tr) & set(va)
