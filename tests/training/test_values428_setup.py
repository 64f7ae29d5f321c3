"""Which records of a checkpoint's description a resume checks (lnrnn/training/setup.py: resume_problem), on the
two-update digits run of test_values418_damaged_description: an optional record (written by later lnrnn versions:
the log window, the blow-up watch, the budget, the best state, the rank count, the schedule's changes, the compile
time) may be absent, and is then not checked; once present, each field of it is checked like a required one, word
for word the same refusal; a required record that is absent is not passed over as if it were optional."""
import pytest

from lnrnn.training.setup import OPTIONAL, resume_problem
from test_values418_damaged_description import edited, run  # noqa: F401  (run: the module's fixture)

PRESENT_AND_WRONG = [
    ("blowup.streak", -1, "blowup.streak -1 (not an integer of 0 or more)"),
    ("log_window.count", "x", "log_window.count 'x' (not a finite number)"),
    ("budget.used_s", -5.0, "budget.used_s -5.0 (negative)"),
    ("best_state.metric", 3, "best_state.metric 3 (not a text)"),
    ("ranks", 1.5, "ranks 1.5 (not an integer of 0 or more)"),
    ("lr_changes", "x", "lr_changes 'x' (not a list of rows)"),
    ("compile_time_s", -1.0, "compile_time_s -1.0 (negative)"),
]


def test_the_records_checked_when_present_are_the_optional_ones():
    assert {p.split(".")[0] for p, _, _ in PRESENT_AND_WRONG} == set(OPTIONAL)


@pytest.mark.parametrize("path, value, words", PRESENT_AND_WRONG)
def test_an_optional_record_once_present_is_checked(run, path, value, words):  # noqa: F811
    meta = run[1]
    top = path.split(".")[0]
    if top not in meta:  # this run did not write it: give it a whole one first
        meta = edited(meta, top, {} if "." in path else value)
    assert resume_problem(edited(meta, path, value)) == words


@pytest.mark.parametrize("top", OPTIONAL)
def test_an_optional_record_may_be_absent(run, top):  # noqa: F811
    meta = run[1]
    if top in meta:
        meta = edited(meta, top, KeyError)
    assert resume_problem(meta) is None


@pytest.mark.parametrize("path, value, words", [
    ("epoch", -1, "epoch -1 (not an integer of 0 or more)"),
    ("step", "x", "step 'x' (not a finite number)"),
    ("epoch_sums.count", -2, "epoch_sums.count -2 (not an integer of 0 or more)"),
])
def test_a_required_record_is_checked_beside_absent_optional_ones(run, path, value, words):  # noqa: F811
    meta = run[1]
    for top in OPTIONAL:
        if top in meta:
            meta = edited(meta, top, KeyError)
    assert resume_problem(edited(meta, path, value)) == words
