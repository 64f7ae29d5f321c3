"""lnrnn/sample.py's sampler against what is worked out here. A free draw is replayed step by step: the first
input the origin with the pen down, each point Graves's biased mixture drawn in the test
(test_values162_sampler.graves_draw) from one default_rng(seed), the next input the point drawn; the defaults
are one row, seed 0 and no bias. A written row's stop is the first step at which the reference's window
(test_values133_sampler.check_row: lnrnn/reference.py's window and the weight just past the text) puts more
weight past the text than on every character; the same row capped at that step, one short and one past it
stops (or is capped) exactly there. Graves's stop rule is also read on phi written by hand, with ties and
padding columns. A primed row reads the prime first and keeps it in data units."""
import numpy as np
import pytest

from lnrnn.sample import past_the_end, sample_strokes
from test_values133_sampler import ALPHABET, UNIT, check_row, codes, text_model
from test_values162_sampler import free_model, graves_draw

M = 3


def replay_free(m, steps, count, bias, seed):
    rng = np.random.default_rng(seed)
    x, state, want = np.zeros((count, 3)), None, []
    for t in range(steps):
        o, state = m.step(x, state, t=t)
        p = graves_draw(np.asarray(o, np.float64), M, bias, rng)
        want.append(p)
        x = p
    return np.stack(want, axis=1) * UNIT                                  # (count,steps,3) data units


def test_the_defaults_draw_one_row_from_seed_0_without_bias():
    m = free_model(M)
    got = sample_strokes(m, 4)
    assert len(got) == 1 and got[0].shape == (4, 3)
    np.testing.assert_allclose(got[0], replay_free(m, 4, 1, 0.0, 0)[0], rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("bias,seed", [(0.0, 7), (0.7, 7), (2.5, 12)])
def test_a_biased_draw_is_the_mixture_drawn_here_and_a_seed_repeats_it(bias, seed):
    m = free_model(M)
    a = sample_strokes(m, 5, 3, bias, seed)
    np.testing.assert_allclose(np.stack(a), replay_free(m, 5, 3, bias, seed), rtol=1e-10, atol=1e-12)
    b = sample_strokes(m, 5, 3, bias, seed)
    c = sample_strokes(m, 5, 3, bias, seed + 1)
    for x, y, z in zip(a, b, c):
        np.testing.assert_array_equal(x, y)
        assert not np.allclose(x[:, :2], z[:, :2])


class Counter:
    def __init__(self):
        self.updates = []

    def update(self, n):
        self.updates.append(n)


def test_progress_is_told_each_steps_points():
    m = free_model(M)
    bar = Counter()
    got = sample_strokes(m, 6, 3, 0.0, 2, progress=bar)
    assert bar.updates == [3] * 6 and sum(bar.updates) == 6 * 3
    np.testing.assert_allclose(np.stack(got), replay_free(m, 6, 3, 0.0, 2), rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("end,phi,ulen,want", [
    ([0.5, 0.8], [[0.2, 0.5, 9.0], [0.3, 0.1, 0.79]], [2, 3], [False, True]),   # a tie is not past; padding ignored
    ([0.5, 0.8], [[0.2, 0.49, 9.0], [0.3, 0.1, 0.8]], [2, 3], [True, False]),
    ([0.1, 0.1], [[0.0, 0.0, 0.0], [0.05, 0.2, 0.0]], [1, 1], [True, True]),     # only the first character counts
])
def test_the_stop_rule_on_phi_written_here(end, phi, ulen, want):
    got = past_the_end(np.array(end), np.array(phi), np.array(ulen, np.int64))
    assert got.tolist() == want


def test_a_written_row_stops_at_its_step_capped_one_short_and_there_exactly():
    m = text_model()
    line = codes("ab")
    long = sample_strokes(m, 40, 1, 0.2, 5, text=line, alphabet=ALPHABET)[0]
    s = check_row(m, long, line[0], np.zeros(3), 40)
    assert s is not None and s >= 3
    for cap in (s - 1, s, s + 1):
        row = sample_strokes(m, cap, 1, 0.2, 5, text=line, alphabet=ALPHABET)[0]
        assert check_row(m, row, line[0], np.zeros(3), cap) == (None if cap < s else s)
        assert len(row.points) == min(cap, s) and row.capped == (cap < s)
        np.testing.assert_array_equal(row.points, long.points[:min(cap, s)])
        assert row.text == "ab" and row.chars == ["a", "b"]


def test_a_primed_pair_of_rows_reads_the_prime_and_keeps_it_in_data_units():
    m = text_model()
    rng = np.random.default_rng(37)
    pre = np.column_stack([rng.normal(0, 0.4, (5, 2)), [0.0, 1.0, 0.0, 0.0, 1.0]])   # (P,3) normalized
    prime = (pre, codes("ca ")[0])
    lines = codes("bd", "e")
    rows = sample_strokes(m, 30, 2, 0.1, 8, text=lines, prime=prime, alphabet=ALPHABET)
    for r, c in zip(rows, lines):
        check_row(m, r, c, None, 30, prime=prime)
        assert r.prime_chars == 3 and r.chars[:3] == ["c", "a", " "]
        np.testing.assert_allclose(r.prime, pre * UNIT, rtol=1e-12)
    assert [r.text for r in rows] == ["bd", "e"]
