"""The layout of the written lines' figure (lnrnn/sample.py written_figure, what draw_written saves): one column, each
line's ink in its own row in the order of the lines, its attention image (with attention) in the row right beneath
it; the rows' heights in the ratio 1.6 for ink to max(1.2, 0.13 U + 0.6) for an image of U characters, and the
figure 10 inches wide and as tall as its rows (0.5 more for a title). The rows are read from where matplotlib placed
the axes, colour bars aside: each below the one before, an ink row in row k of a one-column grid (an image's row is
split for its colour bar; an ink row keeps the lines' common scale, so it may not fill the row's width).
draw_written draws the ink alone unless attention is asked for, and saves at 120 dots per inch (a PNG's size in its
header)."""
import struct

import numpy as np
import pytest

from lnrnn.sample import Written, _pyplot, draw_written, written_figure


def line(text, n):
    """A Written line of n points along x, its window evenly on each character of text."""
    pts = np.column_stack([np.ones(n), np.sin(np.arange(n)), (np.arange(n) % 4 == 3).astype(float)])
    return Written(points=pts, phi=np.full((n, len(text)), 1.0 / len(text)), capped=False, text=text,
                   chars=list(text), codes=np.arange(len(text)))


LINES = [line("ab", 9), line("a much longer line of text", 14), line("xyz", 5)]


@pytest.mark.parametrize("attention", [False, True])
@pytest.mark.parametrize("title", [None, "three lines"])
def test_one_column_of_rows_in_the_lines_order(attention, title):
    plt = _pyplot()
    fig = written_figure(plt, LINES, title=title, attention=attention)
    try:
        axes = [a for a in fig.axes if a.get_label() != "<colorbar>"]
        kinds = ["ink", "image"] if attention else ["ink"]
        assert len(axes) == len(kinds) * len(LINES)
        want = []
        for r in LINES:
            want.append(1.6)
            if attention:
                want.append(max(1.2, 0.13 * len(r.text) + 0.6))
        assert list(axes[0].get_subplotspec().get_gridspec().get_height_ratios()) == pytest.approx(want)
        assert tuple(fig.get_size_inches()) == pytest.approx((10, sum(want) + (0.5 if title else 0)))
        boxes = [a.get_position() for a in axes]
        for k, (a, box) in enumerate(zip(axes, boxes)):
            if k:
                assert box.y1 <= boxes[k - 1].y0 + 1e-9, (k, box, boxes[k - 1])  # below the row before
            if kinds[k % len(kinds)] == "ink":  # row k of one column (an image's row is split for its colour bar)
                assert a.get_subplotspec().get_geometry() == (len(axes), 1, k, k), k
                assert a.get_title(loc="left").startswith(repr(LINES[k // len(kinds)].text)[:10])
            else:
                assert a.get_ylabel() == "character" and len(a.get_yticks()) == len(LINES[k // 2].text)
    finally:
        plt.close(fig)


def png_size(path):
    """(width, height) in pixels from a PNG's IHDR chunk."""
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_draw_written_saves_the_ink_alone_unless_asked_at_120_dpi(tmp_path):
    ink = 1.6 * len(LINES)
    images = sum(max(1.2, 0.13 * len(r.text) + 0.6) for r in LINES)
    assert draw_written(LINES, tmp_path / "a.png") == tmp_path / "a.png"
    w, h = png_size(tmp_path / "a.png")
    assert w == 1200 and abs(h - 120 * ink) < 1                    # 10 x ink inches (matplotlib drops a fraction)
    draw_written(LINES, tmp_path / "b.png", title="t", attention=True)
    w, h = png_size(tmp_path / "b.png")
    assert w == 1200 and abs(h - 120 * (ink + images + 0.5)) < 1

