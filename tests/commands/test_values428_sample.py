"""The summary lnrnn sample prints after writing lines of text (lnrnn/commands/sample.py), with
test_values400_sample_command's recording stand-ins (nothing is sampled): one line is "it", two or more are "every
line" when the stop rule ended them all; the lines that reached the cap are named counting from 1, "line" for one
and "lines" for more; the points of each line are listed in order, "point" only for a single line of one point."""
import pytest

from test_cli import invoke
from test_values400_sample_command import Line, calls  # noqa: F401  (calls: the stand-ins, a fixture)


def summary(tmp_path, calls, lines):  # noqa: F811
    calls["lines"] = lines
    texts = [a for k in range(len(lines)) for a in ("--text", "ab"[k % 2] * (k + 1))]
    out = tmp_path / "s.png"
    r = invoke("sample", "--checkpoint", tmp_path / "run", *texts, "--steps", 50, "--out", out, "-q")
    assert r.exit_code == 0, r.output + repr(r.exception)
    return r.stdout, out


def points(n):
    return [[0.5, 0.5, 0.0]] * n


@pytest.mark.parametrize("sizes, capped, ends", [
    ([3], [], "it ended by the stop rule"),
    ([3, 4], [], "every line ended by the stop rule"),
    ([3, 4, 5], [], "every line ended by the stop rule"),
    ([50], [1], "line 1 reached the 50-point cap first"),
    ([3, 50], [2], "line 2 reached the 50-point cap first"),
    ([50, 4, 50], [1, 3], "lines 1, 3 reached the 50-point cap first"),
])
def test_the_summary_says_how_the_lines_ended(tmp_path, calls, sizes, capped, ends):  # noqa: F811
    lines = [Line(points(n), capped=k + 1 in capped) for k, n in enumerate(sizes)]
    text, out = summary(tmp_path, calls, lines)
    n = len(sizes)
    assert text == (f"Wrote {n} line{'s' * (n != 1)} of text to {out} "
                    f"({', '.join(map(str, sizes))} points; {ends}).\n")


def test_one_line_of_one_point_says_point(tmp_path, calls):  # noqa: F811
    text, out = summary(tmp_path, calls, [Line(points(1))])
    assert text == f"Wrote 1 line of text to {out} (1 point; it ended by the stop rule).\n"
