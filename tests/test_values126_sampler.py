"""lnrnn/sample.py's input checks and its drawing's shared scale, by hand: an integer stroke-3 prime is read
as the same float64 rows; the .npz of one sample (as lnrnn sample --count 1 --npz writes it) reads back as a
prime, its points cut at lengths[0]; text_inputs names a refused line by its number counted from 1 and lists
what the run can write without the unknown symbol; strokes_figure gives every row the tallest line's height
and the widest line's width, each plus 3% of the larger, around the row's own ink."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn.data.strokes import UNKNOWN
from lnrnn.errors import UserError
from lnrnn.sample import _pyplot, check_stroke3, read_stroke3, strokes_figure, text_inputs

ALPHABET = UNKNOWN + " abc"
NAMES = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}


def conditioned():
    return SimpleNamespace(conditioned=True, head=SimpleNamespace(scale=(1.0, 1.0)))


def test_integer_prime_is_read_as_float_rows():
    pts = np.array([[0, 0, 0], [3, -2, 0], [1, 4, 1]], np.int32)
    got = check_stroke3(pts, "the prime")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, pts.astype(np.float64))


def test_one_sample_npz_reads_back_as_a_prime(tmp_path):
    pts = np.array([[0.0, 0.0, 0.0], [1.5, -2.0, 1.0], [0.5, 0.25, 1.0], [9.0, 9.0, 0.0]], np.float32)
    path = tmp_path / "one.npz"
    np.savez(path, points=pts, lengths=np.array([3, 1]))   # a line of 3 points, then one of the 4th row
    got = read_stroke3(path, "--prime-strokes")
    np.testing.assert_array_equal(got, pts[:3].astype(np.float64))


def test_refused_line_is_named_by_its_number_from_1():
    record = {"alphabet": ALPHABET}
    with pytest.raises(UserError) as e:
        text_inputs(conditioned(), record, ["ab", "cz"], names=NAMES, source="the run")
    msg = str(e.value)
    assert msg.startswith("--text line 2 ('cz') has characters"), msg
    with pytest.raises(UserError) as e:
        text_inputs(conditioned(), record, ["xa"], names=NAMES, source="the run")
    assert str(e.value).startswith("--text line 1 ('xa')"), str(e.value)


def test_refusal_lists_the_writable_characters_without_the_unknown_symbol():
    with pytest.raises(UserError) as e:
        text_inputs(conditioned(), {"alphabet": ALPHABET}, ["a!"], names=NAMES, source="the run")
    msg = str(e.value)
    assert msg.endswith(f"only these: {ALPHABET[1:]!r}."), msg
    assert UNKNOWN not in msg


def test_rows_share_the_tallest_height_and_widest_width():
    a = np.array([[0.0, 0.0, 0.0], [4.0, 1.0, 1.0]])                   # ink x 0..4, y 0..1
    b = np.array([[0.0, 0.0, 0.0], [1.0, -2.0, 0.0], [0.0, 5.0, 1.0]])  # ink x 0..1, y -2..3
    W, H = 4.0, 5.0                                                    # the widest and the tallest, by hand
    pad = 0.03 * max(W, H)
    plt = _pyplot()
    fig = strokes_figure(plt, [a, b])
    try:
        axes = fig.axes
        assert len(axes) == 2
        for ax, (x0, y0, y1) in zip(axes, [(0.0, 0.0, 1.0), (0.0, -2.0, 3.0)]):
            np.testing.assert_allclose(ax.get_xlim(), (x0 - pad, x0 + W + pad))
            mid = (y0 + y1) / 2
            np.testing.assert_allclose(ax.get_ylim(), (mid - H / 2 - pad, mid + H / 2 + pad))
    finally:
        plt.close(fig)
