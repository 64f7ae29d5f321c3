"""The sampler and its inputs against replays and definitions (lnrnn/sample.py, lnrnn/model/window.py).

Every step the model runs is recorded (its input, the head's output, the window's step_phi and step_end).
Free sampling: step t reads the point drawn at t - 1, the first the given ``start``. Writing with a prime
(Graves 2013, sec. 5.3): the prime's points are the first inputs, one per step, teacher-forced; each drawn
point is the same seed's draw replayed here through the head's sampler from the recorded outputs, times the
head's scale; each row's phi is the recorded step_phi over its own characters; each row ends at the first step
where step_end exceeds its weight on every one of its characters (Graves's stop rule, recomputed here), or at
the cap; the window reads the prime's codes, then the line's. text_inputs: the prime's points divided by the
head's scale, the prime's text checked against the alphabet, a free run's refusal naming the points.
read_stroke3 reads back what NumPy wrote. check_text refuses float codes."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.model.window import check_text
from lnrnn.sample import read_stroke3, sample_strokes, text_inputs

ALPHABET = "\ufffd abcde"
SCALE = (2.0, 3.0)
UNITS = np.array([SCALE[0], SCALE[1], 1.0])
M = 2                                                    # mixture components
HEAD = {"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}


def free_model(seed=3):
    return build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                            forget_bias=1.0, head=HEAD), seed=seed)


def text_model(seed=2):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True, head=HEAD), seed=seed)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(5).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.6), np.log(0.25)]   # kappa walks ~0.6 a step
    return m


def recorded(m, window=False):
    """Wrap m.step: a list of (t, input (B,3), head output (B,O), step_phi, step_end) per call."""
    seen, step = [], m.step

    def wrapper(x, state=None, t=0, text=None):
        o, state = step(x, state, t=t, text=text) if text is not None else step(x, state, t=t)
        extra = (np.array(m.stack.step_phi), np.array(m.stack.step_end)) if window else (None, None)
        seen.append((t, np.array(x, np.float64), np.array(o, np.float64)) + extra)
        return o, state
    m.step = wrapper
    return seen


def enc(s):
    return np.array([ALPHABET.index(c) for c in s], np.int64)


# ---- free sampling

def test_free_sampling_starts_at_the_given_point_and_runs_every_step():
    m = free_model()
    seen = recorded(m)
    start = np.array([0.5, -0.25, 1.0])
    rows = sample_strokes(m, 4, 2, bias=0.3, seed=7, start=start)
    assert [t for t, *_ in seen] == [0, 1, 2, 3]
    np.testing.assert_array_equal(seen[0][1], np.stack([start, start]))
    rng = np.random.default_rng(7)
    draws = np.stack([m.head.sample(o, rng, 0.3) for _, _, o, _, _ in seen])     # (steps,count,3) normalized
    for b in range(2):
        np.testing.assert_allclose(rows[b], draws[:, b] * UNITS, rtol=1e-12, atol=1e-12)


# ---- writing, primed

def test_written_rows_replay_the_prime_the_draws_the_window_and_the_stop_rule():
    m = text_model()
    seen = recorded(m, window=True)
    prime_pts = np.array([[0.3, -0.1, 0.0], [0.2, 0.4, 1.0], [-0.5, 0.1, 0.0]])   # (P,3) normalized
    prime_codes = enc("ab ")
    lines = [enc("cad"), enc("e")]
    cap = 12
    rows = sample_strokes(m, cap, 2, bias=0.2, seed=5, text=lines, prime=(prime_pts, prime_codes),
                          alphabet=ALPHABET)
    P = len(prime_pts)
    # the prime's points are read one per step, steps 0..P-1; the last one's output gives the first draw
    assert [t for t, *_ in seen] == list(range(len(seen)))
    for t in range(P):
        np.testing.assert_array_equal(seen[t][1], np.stack([prime_pts[t]] * 2))
    drawn = seen[P - 1:]                                                     # the steps that drew a point
    rng = np.random.default_rng(5)
    draws = np.stack([m.head.sample(o, rng, 0.2) for _, _, o, _, _ in drawn])   # (n,B,3)
    for i in range(1, len(drawn)):                                           # each draw is the next input
        np.testing.assert_allclose(drawn[i][1], draws[i - 1], rtol=1e-12, atol=1e-12)
    for b, (row, line) in enumerate(zip(rows, lines)):
        full = np.concatenate([prime_codes, line])
        np.testing.assert_array_equal(row.codes, full)
        assert row.chars == [ALPHABET[k] for k in full] and row.prime_chars == P
        assert row.text == "".join(ALPHABET[k] for k in line)
        U = len(full)
        # Graves's rule by hand: the first step whose weight past the end beats every character's
        n = next((i + 1 for i, (_, _, _, phi, end) in enumerate(drawn)
                  if all(end[b] > phi[b, u] for u in range(U))), None)
        assert row.capped == (n is None)
        n = cap if n is None else n
        assert row.points.shape == (n, 3) and row.phi.shape == (n, U)
        np.testing.assert_allclose(row.points, draws[:n, b] * UNITS, rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(row.phi, np.stack([d[3][b, :U] for d in drawn[:n]]), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(row.prime, prime_pts * UNITS, rtol=1e-12, atol=1e-12)
    assert len(drawn) == max(len(r.points) for r in rows)                   # it stops when every row has


# ---- what a written sample is given

def test_text_inputs_scale_the_prime_and_append_a_space_to_its_text():
    m = text_model()
    pts = np.array([[1.0, 3.0, 0.0], [-2.0, 6.0, 1.0]])                     # data units
    codes, prime, alphabet = text_inputs(m, {"alphabet": ALPHABET}, ["cab"], pts, "de")
    assert alphabet == ALPHABET
    np.testing.assert_array_equal(codes[0], enc("cab"))
    np.testing.assert_allclose(prime[0], pts / UNITS, rtol=1e-15)
    np.testing.assert_array_equal(prime[1], enc("de "))


def test_text_inputs_refuse_a_prime_text_outside_the_alphabet():
    m = text_model()
    pts = np.array([[1.0, 3.0, 0.0]])
    with pytest.raises(UserError) as e:
        text_inputs(m, {"alphabet": ALPHABET}, ["cab"], pts, "dz")
    assert "prime_text" in str(e.value) and "'z'" in str(e.value)


def test_a_free_run_given_a_prime_is_told_to_leave_out_the_points():
    with pytest.raises(UserError) as e:
        text_inputs(free_model(), None, None, np.array([[1.0, 3.0, 0.0]]), "ab")
    assert "leave out prime_strokes" in str(e.value)


def test_read_stroke3_reads_back_npy_and_npz(tmp_path):
    pts = np.array([[1.5, -2.0, 0.0], [0.25, 3.0, 1.0], [4.0, 0.5, 0.0]])
    np.save(tmp_path / "p.npy", pts)
    np.savez(tmp_path / "p.npz", points=pts, lengths=np.array([2, 1]))
    np.testing.assert_array_equal(read_stroke3(tmp_path / "p.npy"), pts)
    np.testing.assert_array_equal(read_stroke3(tmp_path / "p.npz"), pts[:2])      # its first line only
    (tmp_path / "p2.npy").write_bytes(b"not numpy at all")
    with pytest.raises(UserError, match="not a NumPy file"):
        read_stroke3(tmp_path / "p2.npy")


def test_check_text_refuses_float_codes_and_keeps_integer_ones():
    with pytest.raises(ValueError, match="integer"):
        check_text((np.array([[1.5, 2.0]]), np.array([2])), 1, 5)
    codes, ulen = check_text((np.array([[1, 4]], np.int32), np.array([1])), 1, 5)
    assert codes.dtype == np.int64 and ulen.dtype == np.int64
    np.testing.assert_array_equal(codes, [[1, 4]])
