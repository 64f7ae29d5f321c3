"""lnrnn/judge.py's figures against their definitions: the summary's means are the means of the lines' own
figures (mean peak phi included: not the largest line's), the report's closing line prints them; the peak phi
of a line that has no point or whose text is all prime is 0 (no weight on a character of its own); and judging
no written lines is one UserError, before any replay."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.judge import Judged, peak_phi, report_lines, summary
from lnrnn.textmetrics import edit_distance

from test_judge import runs  # noqa: F401 - runs: a fixture (a tiny writer and two readers)

LINES = [("abc", "abd", 0.9, False, 1.4, 12, False), ("dcaeb", "dca", 1.1, True, 0.3, 20, False),
         ("e", "ee", 0.2, False, 0.8, 30, True), ("ab", "ab", 1.0, True, 0.5, 9, False)]


def judged():
    return [Judged(text=t, read=r, cer=edit_distance(t, r) / len(t), travel=tr, stop_at_last=s, peak_phi=p,
                   points=n, capped=c) for t, r, tr, s, p, n, c in LINES]


def test_the_summary_is_the_means_of_the_lines_figures():
    j = judged()
    s = summary(j)
    assert s["lines"] == 4
    assert s["mean_peak_phi"] == pytest.approx((1.4 + 0.3 + 0.8 + 0.5) / 4)
    assert s["mean_travel"] == pytest.approx((0.9 + 1.1 + 0.2 + 1.0) / 4)
    assert s["mean_cer"] == pytest.approx((1 / 3 + 2 / 5 + 1 / 1 + 0) / 4)
    assert s["cer"] == pytest.approx((1 + 2 + 1 + 0) / (3 + 5 + 1 + 2))
    assert s["stop_at_last"] == pytest.approx(2 / 4)
    last = report_lines(j)[-1]
    assert f"mean CER {s['mean_cer']:.3f} over 4 lines" in last
    assert "mean peak phi 0.75" in last and "mean travel 0.80" in last and "last character 2/4" in last


def test_the_peak_phi_of_a_line_without_points_or_own_characters_is_zero():
    none = SimpleNamespace(phi=np.zeros((0, 3)), prime_chars=0)
    assert peak_phi(none) == 0.0
    all_prime = SimpleNamespace(phi=np.array([[0.2, 0.9], [0.7, 0.1]]), prime_chars=2)
    assert peak_phi(all_prime) == 0.0
    own = SimpleNamespace(phi=np.array([[0.2, 0.9, 0.3], [0.7, 0.1, 0.6]]), prime_chars=1)
    assert peak_phi(own) == pytest.approx(0.9)
    one = SimpleNamespace(phi=np.array([[0.2, 0.9, 0.3], [0.7, 0.1, 0.6]]), prime_chars=2)
    assert peak_phi(one) == pytest.approx(0.6)


def test_judging_no_lines_is_one_user_error(runs):  # noqa: F811
    from lnrnn.judge import judge
    _, writer, reader_a, _ = runs
    for rows in ([], iter(())):
        with pytest.raises(UserError, match="no written lines to judge"):
            judge(writer, reader_a, rows)
