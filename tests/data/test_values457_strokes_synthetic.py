"""strokes-synthetic's lines (lnrnn/data/strokes.py) against their definitions.

A word (_loop_word) is a prolate cycloid over t from 0 to 2 pi per loop, so with per_loop points a loop, the
point at t = 2 pi j (index j * per_loop) is back on the word's baseline, x0 + adv * 2 pi j along it (plus the slant
times its height), and the point at t = pi (2 j + 1) is the loop's top, h or 2 h (a tall loop) above it; jitter
of 0.3 on every point, so a loop's bottoms agree to a few units. 20 words of h 40 at each of two slants, a quarter
of their loops tall.

Sensor spikes (synthetic_lines): one inner point of a line moved SYN_SPIKE away, any inner point alike, the first
(index 1) and the last (N - 2) included. Judged on the lines themselves: a spike is the one place where two offsets
in a row are longer than SYN_SPIKE / 2 (the line's own offsets stay far below GLITCH_STEP), into the moved point and
out of it, the second the first's opposite plus the line's own small steps (the two summed: under a third of
GLITCH_STEP). 2,000 lines with a spike each (glitch rate 1), 40-300 points: the first inner point is drawn about 16
times (the sum of 1 / (N - 2) over the lines), as is the last; the spike's relative place (i - 1) / (N - 3) averages
1/2."""
import numpy as np
import pytest

from lnrnn.data import strokes as S

COUNT = 2000


def spike_places():
    """(N, i) for each of COUNT lines of seed 0, each given a spike at its point i."""
    lines, spikes = S.synthetic_lines(np.random.default_rng(0), COUNT, glitch_rate=1.0)
    assert spikes == COUNT and len(lines) == COUNT
    places = []
    for seq in lines:                                                  # (N, 3) stroke-3
        norm = np.hypot(seq[:, 0], seq[:, 1])                          # (N,) offset lengths
        long = np.flatnonzero(norm > S.SYN_SPIKE / 2)
        assert len(long) == 2 and long[1] == long[0] + 1, long         # into the moved point and out of it
        i = int(long[0])
        into, out = seq[i, :2], seq[i + 1, :2]
        assert np.hypot(*(into + out)) < S.GLITCH_STEP / 3             # the same jump, back
        places.append((len(seq), i))
    return np.array(places)


def test_a_spike_can_land_on_every_inner_point_the_first_and_the_last_included():
    places = spike_places()
    n, i = places[:, 0], places[:, 1]
    assert n.min() >= S.SYN_POINTS[0] and n.max() <= S.SYN_POINTS[1]
    assert np.all(i >= 1) and np.all(i <= n - 2)                       # inner points only: the last one stays put
    expected = np.sum(1.0 / (n - 2))                                   # draws of one given inner point, about 16
    first, last = np.sum(i == 1), np.sum(i == n - 2)
    assert expected > 10
    assert expected / 3 < first < 3 * expected, (first, expected)
    assert expected / 3 < last < 3 * expected, (last, expected)
    rel = (i - 1) / (n - 3)                                            # 0 at the first inner point, 1 at the last
    assert abs(rel.mean() - 0.5) < 0.03 and rel.min() == 0.0 and rel.max() == 1.0


@pytest.mark.parametrize("slant", [0.2, -0.3])
def test_each_loop_of_a_word_starts_on_the_baseline_and_tops_at_one_or_two_heights(slant):
    h, per_loop, x0 = 40.0, 16, 100.0
    talls = []
    for seed in range(20):
        word = S._loop_word(np.random.default_rng(seed), h, slant, per_loop, x0)    # (n, 2)
        loops, rest = divmod(len(word) - 1, per_loop)
        assert rest == 0 and 2 <= loops <= 6, len(word)
        bottoms = word[::per_loop]                                     # (loops + 1, 2): t = 2 pi j
        tops = word[per_loop // 2::per_loop]                           # (loops, 2): t = pi (2 j + 1)
        base = bottoms[:, 1].mean()
        assert np.ptp(bottoms[:, 1]) < 4.0, (seed, bottoms[:, 1])     # every loop starts and ends on it
        assert abs(word[0, 0] - (x0 + slant * word[0, 1])) < 3.0      # the word starts at x0
        advance = np.diff(bottoms[:, 0] - slant * bottoms[:, 1])       # adv * 2 pi a loop, adv in [0.5, 0.9] h / 2 pi
        assert np.all(advance > 0.5 * h - 3.0) and np.all(advance < 0.9 * h + 3.0), advance
        assert np.ptp(advance) < 4.0                                   # one pen speed for the whole word
        height = (tops[:, 1] - base) / h                               # 1 or 2 (tall)
        tall = np.round(height)
        assert np.all(np.isin(tall, (1.0, 2.0))) and np.all(np.abs(height - tall) < 3.0 / h), height
        talls += tall.tolist()
    share = np.mean(np.array(talls) == 2.0)                            # a quarter of the loops are tall
    assert 0.1 < share < 0.4, share
