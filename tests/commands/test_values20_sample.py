"""The sampler's files and pictures against their definitions: a prime read from an .npz with lengths is its
first line, whole when the file holds one line (what ``lnrnn sample --npz`` writes for one sample);
``shortened`` keeps keep - keep // 3 characters of the repr before the ellipsis and keep // 3 after it
(worked by hand for keeps that are not multiples of 3); a caption exactly CAPTION_CHARS long is kept whole
and one a character longer is shortened; every row of a picture gets the widest row's width."""
import numpy as np
import pytest

from lnrnn.sample import (CAPTION_CHARS, Written, _pyplot, read_stroke3, shortened, strokes_figure,
                          written_label)

POINTS = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 0.0], [-3.0, 0.5, 1.0], [4.0, -6.0, 0.0], [2.0, 1.0, 1.0]])


def test_a_prime_file_of_one_line_is_read_whole(tmp_path):
    path = tmp_path / "one.npz"
    np.savez(path, points=POINTS, lengths=np.array([len(POINTS)]))
    np.testing.assert_array_equal(read_stroke3(path), POINTS)


def test_a_prime_file_of_several_lines_gives_its_first(tmp_path):
    path = tmp_path / "two.npz"
    np.savez(path, points=POINTS, lengths=np.array([2, 3]))
    np.testing.assert_array_equal(read_stroke3(path), POINTS[:2])
    np.savez(path, points=POINTS, lengths=np.array([4, 1]))
    np.testing.assert_array_equal(read_stroke3(path), POINTS[:4])


@pytest.mark.parametrize("text, limit, want", [
    ("abcdefghij", 10, "'abcd\u2026j'"),          # repr 12 long, keep 7: 5 before, 2 after
    ("abcdefghijklmnop", 11, "'abcde\u2026p'"),  # repr 18 long, keep 8: 6 before, 2 after
    ("abcdefghijklmnop", 12, "'abcde\u2026op'"),   # keep 9: 6 before, 3 after
])
def test_shortened_by_hand(text, limit, want):
    got = shortened(text, limit)
    assert got == want and len(got) <= limit


def written(text, n=5, capped=True):
    pts = np.zeros((n, 3))
    return Written(points=pts, phi=np.full((n, len(text)), 1.0 / len(text)), capped=capped, text=text,
                   chars=list(text), codes=np.zeros(len(text), np.int64))


def test_a_caption_of_exactly_the_limit_is_kept_whole():
    note = " (stopped at the 5-point cap)"
    n = CAPTION_CHARS - len(note) - 2                     # the repr's quotes
    text = "a" * n
    label = written_label(written(text))
    assert label == repr(text) + note and len(label) == CAPTION_CHARS
    longer = written_label(written(text + "a"))
    assert longer != repr(text + "a") + note and "\u2026" in longer and len(longer) <= CAPTION_CHARS
    free = "b" * (CAPTION_CHARS - 3)                      # no note: repr + 1 = CAPTION_CHARS, kept whole
    assert written_label(written(free, capped=False)) == repr(free)


def test_every_row_of_a_picture_gets_the_widest_rows_width():
    short = np.array([[0.0, 0.0, 0.0], [10.0, 1.0, 0.0], [0.0, 2.0, 1.0]])       # 10 wide, 3 tall
    long = np.array([[0.0, 0.0, 0.0], [60.0, -1.0, 0.0], [40.0, 1.0, 1.0]])      # 100 wide, 2 tall
    plt = _pyplot()
    fig = strokes_figure(plt, [short, long])
    try:
        W, H = 100.0, 3.0
        pad = 0.03 * max(W, H)
        for ax, x0 in zip(fig.axes, (0.0, 0.0)):
            lo, hi = ax.get_xlim()
            assert lo == pytest.approx(x0 - pad) and hi == pytest.approx(x0 + W + pad)
            lo, hi = ax.get_ylim()
            assert hi - lo == pytest.approx(H + 2 * pad)
    finally:
        plt.close(fig)
