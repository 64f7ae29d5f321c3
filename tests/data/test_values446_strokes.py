"""A stroke task read in the units of a run trained on other data (lnrnn/data/strokes.py: StrokeTask.as_trained, a
writer's task and a reader's): each axis by its own ratio, one at a time. A run scale that differs from the task's
in y alone leaves every dx as it was, bit for bit, and divides every dy by the ratio (the pen untouched); one that
differs in x alone does the same the other way; the description names both of the run's scales. The four-line task of
test_values425_other_data (texts "ab", "ba", "abc" and "cad")."""
import numpy as np
import pytest

from test_values425_other_data import small_task


@pytest.mark.parametrize("head", [None, "ctc"])
@pytest.mark.parametrize("axis", [0, 1])
def test_each_axis_by_its_own_ratio(head, axis):
    task = small_task(head)
    own = list(task.scale)
    assert own[0] != own[1]
    run = list(own)
    run[axis] = 4.0 * own[axis]
    before = {w: s.points.copy() for w, s in task.sets.items()}
    assert np.all([np.any(p[:, axis] != 0) for p in before.values()])
    task.as_trained(run, None)
    other = 1 - axis
    for w, s in task.sets.items():
        np.testing.assert_array_equal(s.points[:, other], before[w][:, other])     # the other axis as it was
        np.testing.assert_array_equal(s.points[:, 2], before[w][:, 2])             # the pen
        ratio = np.float32(own[axis] / run[axis])
        np.testing.assert_array_equal(s.points[:, axis], before[w][:, axis] * ratio)
        np.testing.assert_allclose(s.points[:, axis], before[w][:, axis] / 4.0, rtol=1e-6)
    assert task.scale == run
    assert task.description.endswith(f"; offsets in the run's units (divided by {run[0]:.3g}, {run[1]:.3g})")
