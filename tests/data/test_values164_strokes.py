"""Stroke preparation against hand computations: stroke-3 offsets of points far from the origin, the group split's
held-out share of distinct groups at awkward counts, and a task's counts, point range and offset scale recomputed
here from the lines given."""
import numpy as np
import pytest

from lnrnn.data.strokes import GLITCH_STEP, RawSplit, make_task, split_groups, to_stroke3
from lnrnn.errors import DataError


def test_offsets_of_points_far_from_the_origin_keep_every_unit():
    far = 2.0 ** 24                                       # float32 spacing is 2 here, float64 keeps halves
    strokes = [[(far, far), (far + 1, far + 0.5)], [(far + 3, far)]]
    expected = np.array([[0, 0, 0],                       # the first point: no offset
                         [1, 0.5, 1],                     # end of the first stroke: the pen lifts
                         [2, -0.5, 1]])                   # the second stroke's one point, and its lift
    np.testing.assert_array_equal(to_stroke3(strokes), expected)


# distinct groups -> groups held out: 10% rounded, at least 1, never all (by hand: 0.2, 0.3, 0.7, 1.1, 10.1)
HELD_OUT_GROUPS = {2: 1, 3: 1, 7: 1, 11: 1, 101: 10}


@pytest.mark.parametrize("n", sorted(HELD_OUT_GROUPS))
def test_whole_groups_are_held_out_by_the_seed_0_permutation_of_the_distinct_groups(n):
    names = [f"f{i:03d}" for i in range(n)]               # sorted as listed
    groups = [names[-1 - k % n] for k in range(2 * n)] + names[:1]   # every group twice, the first thrice
    mask = split_groups(groups)
    val = {names[i] for i in np.random.default_rng(0).permutation(n)[:HELD_OUT_GROUPS[n]]}
    np.testing.assert_array_equal(mask, [g in val for g in groups])
    assert len({g for g, m in zip(groups, mask) if m}) == HELD_OUT_GROUPS[n]


def test_one_group_of_many_lines_cannot_be_split():
    with pytest.raises(DataError, match=r"^needs at least two forms to split into training and validation, "
                                        r"found 1\.$"):
        split_groups(["a01-000u"] * 5, what="forms")


def _line(offsets):
    """A stroke-3 line whose first row is the start and then the given (dx, dy) offsets, the pen down."""
    seq = np.zeros((len(offsets) + 1, 3))
    seq[1:, :2] = np.reshape(offsets, (-1, 2))
    seq[-1, 2] = 1.0
    return seq


def test_a_task_counts_its_skipped_lines_dropped_steps_and_points_and_scales_by_the_training_offsets():
    spike = GLITCH_STEP + 500
    train = [_line([(1, 2), (3, -1), (0, 4)]),                        # 4 points
             _line([(2, 1), (spike, 0), (-spike, 0), (1, 1)]),       # 5 points, 2 glitch steps dropped: 3 left
             _line([])]                                               # 1 point: skipped
    val = [_line([(5, 5), (-2, 7), (1, 0), (0, 1), (3, 3)]),         # 6 points
           _line([]), _line([])]                                      # skipped
    task = make_task({"task": "strokes-synthetic"}, "hand lines", RawSplit(train), RawSplit(val))
    assert task.extra["dropped_steps"] == 2
    assert task.extra["short_lines"] == 3
    assert task.extra["points"] == [4 + 3, 6]
    kept = np.array([(1, 2), (3, -1), (0, 4), (2, 1), (1, 1)], float)  # the training offsets after the drop
    np.testing.assert_allclose(task.scale, kept.std(axis=0), rtol=1e-12)
    assert "2 train / 1 validation lines of 3-6 points" in task.description
    assert "; 2 glitch steps longer than 1000 dropped, 3 lines of fewer than 2 points skipped" in task.description
