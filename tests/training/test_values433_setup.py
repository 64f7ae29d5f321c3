"""A checkpoint description's records that are lists (lnrnn/training/setup.py: resume_problem), on the two-update
digits run of test_values418_damaged_description: the epoch's sums may be the list of four numbers lnrnn 0.1 wrote
(resumed; any other list refused naming it), and that allowance is theirs alone: the metrics rows and the
schedule's changes given as lists of something other than tables are refused, not passed over as an old epoch_sums
list is."""
import pytest

from lnrnn.training.setup import resume_problem
from test_values418_damaged_description import edited, run  # noqa: F401  (run: the module's fixture)


def test_the_old_list_of_four_epoch_sums_resumes(run):  # noqa: F811
    assert resume_problem(edited(run[1], "epoch_sums", [7.5, 12.0, 16, 20])) is None


@pytest.mark.parametrize("value", [[7.5, 12.0, 16], [1.0, 2.0, "x", 4]])
def test_another_epoch_sums_list_is_refused(run, value):  # noqa: F811
    assert resume_problem(edited(run[1], "epoch_sums", value)) == f"epoch_sums {value!r} (not four finite numbers)"


@pytest.mark.parametrize("top", ["metrics", "lr_changes"])
@pytest.mark.parametrize("value", [[1, 2], ["x"], [{"step": 1}, 3]])
def test_a_list_of_rows_that_are_not_tables_is_refused(run, top, value):  # noqa: F811
    assert resume_problem(edited(run[1], top, value)) == f"{top} {value!r} (not a list of rows)"


@pytest.mark.parametrize("top", ["metrics", "lr_changes"])
def test_an_empty_list_of_rows_resumes(run, top):  # noqa: F811
    assert resume_problem(edited(run[1], top, [])) is None
