"""lnrnn.data.kanjivg's augmentation against a hand computation of a known stroke, and the characters per line
against their definition. ``augment`` draws from the generator, in order, the character's rotation a, uniform
in [-CHAR_ROTATION, CHAR_ROTATION], its own scale, uniform in CHAR_SCALE, which multiplies the writer's, then
each stroke's jitter: p' = s [[1, 0], [slant, 1]] R(a) p + jitter for row vectors (p' = p M). A line draws
1..CHARS_PER_LINE characters, each count as likely: over many lines every count from 1 to the most occurs."""
import numpy as np

from lnrnn.data import kanjivg as K

STROKE = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 20.0]])      # an L: right, then up


def by_hand(design, seed, scale, slant):
    rng = np.random.default_rng(seed)
    a = K.CHAR_ROTATION * (2 * rng.random() - 1)                  # uniform(-R, R) as numpy draws it
    lo, hi = K.CHAR_SCALE
    s = scale * (lo + (hi - lo) * rng.random())
    out = []
    for st in design:
        jitter = rng.normal(0.0, K.JITTER, st.shape)
        rows = []
        for x, y in st:
            x1, y1 = x + slant * y, y                             # p [[1, 0], [slant, 1]]
            rows.append([s * (x1 * np.cos(a) - y1 * np.sin(a)), s * (x1 * np.sin(a) + y1 * np.cos(a))])
        out.append(np.array(rows) + jitter)
    return out, a, s


def test_augment_is_the_hand_computation_of_a_known_stroke():
    for seed, scale, slant in [(0, 1.15, 0.2), (3, 0.85, -0.25), (11, 1.0, 0.0)]:
        got = K.augment([STROKE, STROKE[:2] + 5], np.random.default_rng(seed), scale, slant)
        want, a, s = by_hand([STROKE, STROKE[:2] + 5], seed, scale, slant)
        for g, w in zip(got, want):
            assert np.allclose(g, w, atol=1e-12)


def test_rotations_go_both_ways_and_scales_carry_the_writers():
    angles, scales = [], []
    for seed in range(200):
        _, a, s = by_hand([STROKE], seed, 1.2, 0.0)
        got = K.augment([np.array([[1.0, 0.0]])], np.random.default_rng(seed), 1.2, 0.0)[0][0]
        rng = np.random.default_rng(seed)
        rng.random(), rng.random()
        jitter = rng.normal(0.0, K.JITTER, (1, 2))[0]
        v = got - jitter                                          # s (cos a, sin a): the point (1, 0) rotated
        angles.append(np.arctan2(v[1], v[0]))
        scales.append(np.hypot(*v))
        assert np.isclose(angles[-1], a) and np.isclose(scales[-1], s)
    assert min(angles) < -K.CHAR_ROTATION / 2 and max(angles) > K.CHAR_ROTATION / 2
    assert min(scales) >= 1.2 * K.CHAR_SCALE[0] - 1e-12 and max(scales) <= 1.2 * K.CHAR_SCALE[1] + 1e-12
    assert max(scales) > 1.2 * 1.0                                # beyond what CHAR_SCALE alone reaches


def test_every_count_of_characters_per_line_occurs():
    designs = {cp: [STROKE + [0.0, k]] for k, cp in enumerate(range(65, 70))}
    for most in (1, 2, 4):
        _, texts = K.make_lines(np.random.default_rng(most), designs, np.arange(65, 70), 120, most)
        assert sorted({len(t) for t in texts}) == list(range(1, most + 1))
