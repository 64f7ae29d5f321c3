"""lnrnn/sample.py's reading of a prime file, its prime-pair check through text_inputs, and the pictures'
common scale, against what is worked out here. A directory named like a stroke-3 file is "no such file"; a
.npy or .npz is read as the points written. text_inputs given the CLI's names names the CLI's options in its
refusal of a half prime. The pictures put every line at one size: each ink axis spans the widest ink's width
and the tallest ink's height, padded by 3 % of the larger, from the ink's left edge and about its vertical
middle; a written line's box holds its prime (drawn first) and its points, which start where the prime ends."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.sample import Written, read_stroke3, strokes_figure, text_inputs, written_figure, _pyplot

CLI = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}


def test_a_directory_named_like_a_stroke3_file_is_no_such_file(tmp_path):
    d = tmp_path / "prime.npy"
    d.mkdir()
    with pytest.raises(UserError, match="no such file"):
        read_stroke3(d, "--prime-strokes")


def test_npy_and_npz_are_read_as_written(tmp_path):
    pts = np.array([[0.5, -1.0, 0.0], [2.0, 0.25, 1.0]])
    np.save(tmp_path / "a.npy", pts)
    np.savez(tmp_path / "b.npz", points=np.concatenate([pts, pts]), lengths=np.array([2, 2]))
    np.testing.assert_array_equal(read_stroke3(tmp_path / "a.npy"), pts)
    np.testing.assert_array_equal(read_stroke3(tmp_path / "b.npz"), pts)


class _Free:
    conditioned = False


@pytest.mark.parametrize("given,needed,strokes,text", [("--prime-strokes", "--prime-text", np.zeros((2, 3)), None),
                                                      ("--prime-text", "--prime-strokes", None, "ab")])
def test_a_half_prime_is_refused_in_the_callers_names(given, needed, strokes, text):
    with pytest.raises(UserError, match=f"^{given} needs {needed}:"):
        text_inputs(_Free(), None, [], strokes, text, names=CLI)


def box(xy):
    return xy[:, 0].min(), xy[:, 0].max(), xy[:, 1].min(), xy[:, 1].max()


def expected_limits(inks):
    boxes = [box(p) for p in inks]
    W = max(b[1] - b[0] for b in boxes)
    H = max(b[3] - b[2] for b in boxes)
    pad = 0.03 * max(W, H)
    return [((b[0] - pad, b[0] + W + pad), ((b[2] + b[3]) / 2 - H / 2 - pad, (b[2] + b[3]) / 2 + H / 2 + pad))
            for b in boxes]


def test_strokes_figure_puts_every_sample_at_one_scale():
    """A wide flat sample and a narrow tall one: both axes span 10 wide and 4 high, plus the pad."""
    a = np.array([[1.0, 1.0, 0.0], [4.0, 0.0, 0.0], [5.0, 0.5, 1.0]])     # x 1..10, y 1..1.5
    b = np.array([[-2.0, 3.0, 0.0], [1.0, 4.0, 1.0]])                     # x -2..-1, y 3..7
    plt = _pyplot()
    fig = strokes_figure(plt, [a, b])
    try:
        want = expected_limits([np.cumsum(p[:, :2], axis=0) for p in (a, b)])
        for ax, (xl, yl) in zip(fig.axes, want):
            np.testing.assert_allclose(ax.get_xlim(), xl, rtol=1e-12)
            np.testing.assert_allclose(ax.get_ylim(), yl, rtol=1e-12)
    finally:
        plt.close(fig)


def written(points, prime=None):
    return Written(points=points, phi=np.zeros((len(points), 2)), capped=False, text="ab", chars=["a", "b"],
                   codes=np.array([1, 2]), prime=prime, prime_chars=0)


def test_written_figure_boxes_hold_the_prime_and_the_line_after_it():
    prime = np.array([[1.0, 2.0, 0.0], [3.0, 0.0, 1.0]])                  # ends at (4, 2)
    line = np.array([[2.0, -5.0, 0.0], [1.0, 1.0, 1.0]])                  # (6, -3), (7, -2) after the prime
    other = np.array([[0.5, 0.5, 0.0], [0.5, 0.5, 1.0]])
    plt = _pyplot()
    fig = written_figure(plt, [written(line, prime), written(other)])
    try:
        ink0 = np.concatenate([np.cumsum(prime[:, :2], axis=0), np.array([4.0, 2.0]) + np.cumsum(line[:, :2], axis=0)])
        want = expected_limits([ink0, np.cumsum(other[:, :2], axis=0)])
        for ax, (xl, yl) in zip(fig.axes, want):
            np.testing.assert_allclose(ax.get_xlim(), xl, rtol=1e-12)
            np.testing.assert_allclose(ax.get_ylim(), yl, rtol=1e-12)
    finally:
        plt.close(fig)
