"""lnrnn/training/setup.py's resume_problem on every field it checks (RESUMED), on the two-update digits run of
test_values418_damaged_description: None passes only where it means "not set yet" (NONE_MEANS_UNSET) and is refused
everywhere else, naming the field; and a field that may be None is still checked when it is set (a text where a
number belongs is refused)."""
from lnrnn.training.setup import NONE_MEANS_UNSET, RESUMED, resume_problem
from test_values418_damaged_description import edited, run  # noqa: F401  (run: the module's fixture)


def checked_paths(meta):
    """RESUMED's fields whose records the run's description holds (an optional record absent is not read)."""
    out = []
    for path in RESUMED:
        d = meta
        for key in path.split("."):
            if not isinstance(d, dict) or key not in d:
                break
            d = d[key]
        else:
            out.append(path)
    return out


def test_none_is_refused_wherever_it_does_not_mean_unset(run):  # noqa: F811
    paths = [p for p in checked_paths(run[1]) if p not in NONE_MEANS_UNSET]
    assert len(paths) >= 15, paths
    for path in paths:
        said = resume_problem(edited(run[1], path, None))
        assert said is not None and said.startswith(f"{path} None ("), (path, said)


def test_none_resumes_where_it_means_unset_and_a_text_there_is_refused(run):  # noqa: F811
    paths = [p for p in checked_paths(run[1]) if p in NONE_MEANS_UNSET]
    assert len(paths) == len(NONE_MEANS_UNSET), paths
    for path in paths:
        assert resume_problem(edited(run[1], path, None)) is None, path
        said = resume_problem(edited(run[1], path, "x"))
        assert said is not None and said.startswith(f"{path} 'x' ("), (path, said)
