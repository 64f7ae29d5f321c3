"""Your arrays (the npz task) against definitions: held-out sizes at awkward N (10% rounded, at least 1) and an
A/B split drawn from the seed-0 permutation computed here, the per-step flag from y's shape, class counts over
every split's labels, a file of only x and y read as is, and the refusals of stray arrays and of lengths of the
wrong count word for word."""
import numpy as np
import pytest

from lnrnn.data.arrays import build, check_arrays, held_out, read_file
from lnrnn.errors import DataError, UserError

# N -> held out by hand: round(N / 10), at least 1 (0.2, 0.3, 0.7, 1.1, 10.1)
HELD = {2: 1, 3: 1, 7: 1, 11: 1, 101: 10}


@pytest.mark.parametrize("n", sorted(HELD))
def test_held_out_sizes_at_awkward_n(n):
    tr, va = held_out(n, None, "f.npz")
    perm = np.random.default_rng(0).permutation(n)
    np.testing.assert_array_equal(va, perm[n - HELD[n]:])
    np.testing.assert_array_equal(tr, perm[:n - HELD[n]])


def test_one_sequence_and_too_large_a_split_are_refused_word_for_word():
    with pytest.raises(DataError) as e:
        held_out(1, None, "f.npz")
    assert str(e.value) == ("f.npz holds 1 sequence; holding some out for validation needs at least 2 "
                            "(or give x_val, y_val).")
    with pytest.raises(UserError) as e:
        held_out(11, (7, 5), "f.npz")
    assert str(e.value) == "--split 7/5 asks for 12 sequences but f.npz holds only 11."


def test_a_split_trains_on_a_and_holds_out_b():
    tr, va = held_out(11, (7, 3), "f.npz")
    perm = np.random.default_rng(0).permutation(11)
    np.testing.assert_array_equal(tr, perm[:7])
    np.testing.assert_array_equal(va, perm[7:10])


def test_a_built_split_has_a_train_and_b_validation_rows(tmp_path):
    x = np.arange(7 * 2, dtype=np.float32).reshape(7, 2)        # (N, T): row i starts at 2i
    y = np.array([0, 1, 0, 1, 2, 0, 1])
    path = tmp_path / "d.npz"
    np.savez(path, x=x, y=y)
    task = build({"task": "npz", "data_dir": str(path), "split": "4/2"})
    perm = np.random.default_rng(0).permutation(7)
    xb, yb = task.batch("train", np.arange(4))[:2]
    assert xb.shape == (2, 4, 1)                                  # (T, B, I) time-major
    np.testing.assert_array_equal(xb[:, :, 0].T, x[perm[:4]])
    np.testing.assert_array_equal(yb, y[perm[:4]])
    xv, yv = task.batch("val", np.arange(2))[:2]
    np.testing.assert_array_equal(xv[:, :, 0].T, x[perm[4:6]])
    assert "4 train / 2 validation" in task.description


def test_per_step_targets_keep_their_unscored_steps_and_count_classes_over_both_splits():
    x = np.zeros((3, 4, 2))
    y = np.array([[-1, 0, 1, 2], [-1, -1, 0, 0], [1, 1, 1, -1]])
    d = check_arrays({"x": x, "y": y, "x_val": x[:2], "y_val": np.array([[4, -1, -1, 0], [0, 0, 0, 0]])})
    assert d["per_step"] is True and d["objective"] == "ce"
    assert d["num_classes"] == 5                                   # the top label 4 is only in y_val
    np.testing.assert_array_equal(d["y"], y)
    d = check_arrays({"x": x, "y": np.array([0, 2, 1])})
    assert d["per_step"] is False and d["num_classes"] == 3


def test_a_file_of_x_and_y_is_read_and_a_stray_array_refused(tmp_path):
    path = tmp_path / "xy.npz"
    np.savez(path, x=np.ones((2, 3)), y=np.array([0, 1]))
    arrays = read_file(path)
    assert sorted(arrays) == ["x", "y"]
    stray = tmp_path / "stray.npz"
    np.savez(stray, x=np.ones((2, 3)), y=np.array([0, 1]), lengths=np.array([3, 2]), z=np.zeros(2))
    with pytest.raises(DataError) as e:
        read_file(stray)
    assert str(e.value) == (f"{stray} has arrays z the npz task does not read; name them x, y, lengths, x_val, "
                            "y_val, lengths_val (see docs/your_data.md).")


def test_lengths_of_the_wrong_count_are_refused_asking_one_per_sequence():
    with pytest.raises(DataError) as e:
        check_arrays({"x": np.zeros((3, 5)), "y": np.array([0, 1, 0]), "lengths": np.array([5, 4], np.int64)})
    assert str(e.value) == ("the arrays: lengths must be 3 integers (one per sequence), not int64 of shape (2,).")
