"""``lnrnn sample``'s refusals and report against the values given here: --count 0 is refused in one
'Error:' line that names --count and its value (not --steps'), before a picture is written; the report of a
written line counts its points, as many as the .npz's lengths and the points sample_strokes returns for the
same seed (a line of 2 characters held on its first one runs to the --steps cap of 5)."""
import numpy as np

from lnrnn.api import load_run
from lnrnn.data.strokes import encode_text
from lnrnn.sample import sample_strokes
from test_values99_sample_cli import ALPHABET, free_run, invoke, one_line_error, text_run


def test_count_0_is_refused_with_its_own_value(tmp_path):
    run = free_run(tmp_path / "run")
    out = tmp_path / "s.svg"
    r = invoke("sample", "--checkpoint", run, "--steps", 4, "--count", 0, "--out", out)
    one_line_error(r, "--count must be at least 1, not 0.")
    assert not out.exists()


def test_report_counts_each_written_line_by_its_points(tmp_path):
    run = text_run(tmp_path / "run")
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--steps", 5, "--seed", 4, "--out", tmp_path / "s.svg",
               "--npz", tmp_path / "s.npz", "--quiet")
    assert r.exit_code == 0, r.output + repr(r.exception)
    want = sample_strokes(load_run(run).model, 5, 1, seed=4, text=[encode_text("ab", ALPHABET)])
    n = len(want[0].points)
    assert n == 5                                            # the window never leaves 'a': the cap stops it
    np.testing.assert_array_equal(np.load(tmp_path / "s.npz")["lengths"], [n])
    assert "(5 points; line 1 reached the 5-point cap first)" in r.output, r.output
