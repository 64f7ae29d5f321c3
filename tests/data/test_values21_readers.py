"""Two readers' edge cases by hand: KanjiVG's resampling of a polyline of zero length (a dot drawn as a
repeated point) is that one point, while a segment of length 5 at spacing 2 becomes 4 points (ceil(5 / 2) + 1)
evenly spaced; IAM-OnDB's message for task-list entries without line files names up to three and says
"..." only when there are more than three."""
import numpy as np
import pytest

from lnrnn.data import iamondb
from lnrnn.data.kanjivg import resample
from lnrnn.errors import DataError


def test_a_dot_stays_one_point_and_a_segment_is_spaced_evenly():
    dot = np.array([[3.0, 4.0], [3.0, 4.0], [3.0, 4.0]])
    np.testing.assert_array_equal(resample(dot, 2.0), [[3.0, 4.0]])
    seg = np.array([[0.0, 0.0], [3.0, 4.0]])              # length 5
    got = resample(seg, 2.0)
    np.testing.assert_allclose(got, [[0, 0], [1, 4 / 3], [2, 8 / 3], [3, 4]])
    np.testing.assert_allclose(resample(np.array([[0.0, 0.0], [1.0, 0.0]]), 2.0), [[0, 0], [1, 0]])   # both ends


def lists(tmp_path, train, val):
    (tmp_path / "trainset.txt").write_text("".join(e + "\n" for e in train))
    (tmp_path / "testset_v.txt").write_text("".join(e + "\n" for e in val))
    return str(tmp_path)


@pytest.mark.parametrize("missing, shown", [
    (["z01-001", "z01-002", "z01-003"], "(z01-001, z01-002, z01-003)"),
    (["z01-001", "z01-002", "z01-003", "z01-004"], "(z01-001, z01-002, z01-003, ...)"),
    (["z01-001"], "(z01-001)"),
])
def test_entries_without_line_files_are_named_up_to_three(tmp_path, missing, shown):
    files = [f"/data/lineStrokes/a01/a01-000/a01-000u-0{k}.xml" for k in (1, 2)]
    folder = lists(tmp_path, ["a01-000u"] + missing, ["a01-000u-02"])
    with pytest.raises(DataError) as e:
        iamondb.official_split(files, folder, "/data/lineStrokes")
    msg = str(e.value)
    assert f"{len(missing)} of the {len(missing) + 1} entries" in msg and shown in msg, msg
