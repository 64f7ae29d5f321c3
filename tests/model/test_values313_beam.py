"""The compiled CTC prefix beam search against a brute force over every path, in exact rational arithmetic:
a path of t steps survives while the collapse of each of its first s steps (s < t) is a prefix kept at step s;
the prefixes kept at step t are the W of largest summed probability over the surviving paths (zero-probability
ones dropped), ties in the order of the labels (a prefix before its extensions). Tiny alphabets, widths 1 and 2,
rows of lengths 0, 1 and T in one batch, and a tie at the beam's cut that the later-offered prefix must win."""
import math
from fractions import Fraction

import numpy as np

from lnrnn.model.beam import beam_search_array, prefix_beams
from test_values109_beam import collapse as _collapse


def _kept_by_paths(P, W):
    """P: T rows of C Fractions (class 0 the blank) -> the kept prefixes after the last row, [(labels, mass)]
    best first."""
    paths = {(): Fraction(1)}
    kept = [((), Fraction(1))]
    for row in P:
        grown = {pi + (c,): m * q for pi, m in paths.items() for c, q in enumerate(row)}
        mass = {}
        for pi, m in grown.items():
            mass[_collapse(pi)] = mass.get(_collapse(pi), Fraction(0)) + m
        kept = sorted(((lab, m) for lab, m in mass.items() if m > 0), key=lambda kv: (-kv[1], kv[0]))[:W]
        names = {lab for lab, _ in kept}
        paths = {pi: m for pi, m in grown.items() if m > 0 and _collapse(pi) in names}
    return kept


def _logs(P):
    return np.array([[math.log(q) if q > 0 else -math.inf for q in row] for row in P], dtype=np.float64)


def _rows(seed, T, C):
    rng = np.random.default_rng(seed)
    P = []
    for _ in range(T):
        w = rng.integers(1, 9, C)
        P.append([Fraction(int(v), int(w.sum())) for v in w])
    return P


def test_kept_prefixes_equal_the_brute_force_at_widths_1_and_2():
    for seed in range(6):
        P = _rows(seed, 4, 3)
        for W in (1, 2):
            want = _kept_by_paths(P, W)
            got = prefix_beams(_logs(P), W)
            assert [lab for lab, _ in got] == [lab for lab, _ in want], (seed, W)
            np.testing.assert_allclose([s for _, s in got], [math.log(m) for _, m in want], rtol=1e-13, atol=0)


def test_a_tie_at_the_cut_goes_to_the_first_labels_even_offered_last():
    # step 1 keeps (2,) 0.6 and (1,) 0.3; step 2: (2,) again 0.42, then (2, 1) and (1, 2) both 0.18 exactly, the
    # extension of the less probable (1,) offered last; (1,) again 0.12 drops out
    P = [[Fraction(1, 10), Fraction(3, 10), Fraction(6, 10)], [Fraction(1, 10), Fraction(3, 10), Fraction(6, 10)]]
    want = _kept_by_paths(P, 2)
    assert want == [((2,), Fraction(42, 100)), ((1, 2), Fraction(18, 100))]
    got = prefix_beams(_logs(P), 2)
    assert [lab for lab, _ in got] == [(2,), (1, 2)]
    np.testing.assert_allclose([s for _, s in got], [math.log(0.42), math.log(0.18)], rtol=1e-13, atol=0)


def test_batch_rows_of_lengths_0_1_and_T_by_brute_force():
    T, C = 4, 3
    rows = [_rows(20 + b, T, C) for b in range(4)]
    lengths = [0, 1, 4, 2]
    logp = np.stack([_logs(P) for P in rows], axis=1)                    # (T,B,C)
    for W in (1, 2):
        labels, label_lengths, logq = beam_search_array(logp, W, lengths)
        for b, (P, L) in enumerate(zip(rows, lengths)):
            lab, m = _kept_by_paths(P[:L], W)[0]
            assert label_lengths[b] == len(lab), (W, b)
            assert tuple(labels[b, :len(lab)].tolist()) == lab and np.all(labels[b, len(lab):] == -1), (W, b)
            assert abs(logq[b] - math.log(m)) <= 1e-13 * max(1.0, abs(math.log(m))), (W, b)
    assert logq[0] == 0.0 and label_lengths[0] == 0                         # nothing read: the empty label, p = 1
