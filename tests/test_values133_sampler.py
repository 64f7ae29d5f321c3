"""lnrnn/sample.py's writing against lnrnn.reference: each written row is replayed through the NumPy reference
of the window layer (its inputs: the start point, then the row's own points before the last, in the model's
units), and its phi, its length and its capped flag must be what the reference's window gives: the row ends at
the first step whose weight just past the text, sum_k alpha exp(-beta (kappa - (U+1))^2) from the reference's
h and its kappa = sum of exp(k_hat), exceeds phi on every character. Unprimed rows read exactly their line;
a given start is the first input; a primed row reads the prime's points first (teacher-forced) with the prime's
codes before its line's. A prime with a pen of 2 or a NaN is refused. Seeds: the same seed gives the same
rows, another seed others. text_inputs refuses an empty list of lines and calls an empty alphabet a corrupt
checkpoint. strokes_of's strokes by hand: the first point kept, each lift's point ending its stroke.

One layer (LN), H = 5, K = 2, mixture of 2, float64; texts of 5, 1 and 3 characters."""
from types import SimpleNamespace

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.errors import CheckpointError, UserError
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes, strokes_of, text_inputs

ALPHABET = "\ufffd abcde"
SCALE = (2.0, 3.0)
UNIT = np.array([SCALE[0], SCALE[1], 1.0])
H, K = 5, 2


def text_model(seed=2):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=H, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=K, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": 2, "per_step": True, "scale": list(SCALE)}), seed=seed)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(5).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.6), np.log(0.25)]   # kappa walks ~0.6 a step
    return m


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def replay(m, inputs, line):
    """The reference's window over one row: inputs (T,3) normalized, line (U,) codes -> phi (T,U), and the
    weight just past the text end (T,), from the reference's h and kappa by the definition."""
    L1 = m.stack.layers[0]
    p, G, C = L1.params, 4 * H, len(ALPHABET)
    args = (p["Wx"], p["Wh"], p["b"], p.get("gx", np.ones(G)), p.get("bx", np.zeros(G)), p.get("gh", np.ones(G)),
            p.get("bh", np.zeros(G)), p.get("gc", np.ones(H)), p.get("bc", np.zeros(H)), p["Wp"], p["bp"])
    U = len(line)
    out = ref.window_lstm_forward(np.asarray(inputs, np.float64)[:, None, :], np.zeros((1, H)), np.zeros((1, H)),
                                  np.zeros((1, K)), np.zeros((1, C)), line[None, :], np.array([U]), *args,
                                  *(np.zeros((1, G)),) * 6, "ln", training=False)
    y, phi = out[0][:, 0], out[6][:, 0]                                # (T,H), (T,U)
    q = y @ p["Wp"] + p["bp"]                                          # (T,3K)
    alpha, beta, kappa = np.exp(q[:, :K]), np.exp(q[:, K:2 * K]), np.cumsum(np.exp(q[:, 2 * K:]), axis=0)
    end = (alpha * np.exp(-beta * (kappa - (U + 1)) ** 2)).sum(axis=1)
    return phi, end


def first_stop(phi, end):
    """1 + the first step whose end weight beats phi on every character, or None."""
    fired = np.all(end[:, None] > phi, axis=1)
    return int(np.argmax(fired)) + 1 if fired.any() else None


def check_row(m, row, line, start, steps, prime=None):
    pts = row.points / UNIT                                            # (n,3) the model's units
    n = len(pts)
    first = np.asarray(start, np.float64)[None] if prime is None else prime[0]
    inputs = np.concatenate([first, pts[:-1]])                         # what each step read
    full = line if prime is None else np.concatenate([prime[1], line])
    np.testing.assert_array_equal(row.codes, full)
    phi, end = replay(m, inputs, full)
    drawn = slice(0 if prime is None else len(prime[0]) - 1, None)    # the steps that drew a point
    phi, end = phi[drawn], end[drawn]
    assert row.phi.shape == (n, len(full))
    np.testing.assert_allclose(row.phi, phi, rtol=1e-9, atol=1e-12)
    stop = first_stop(phi, end)
    if stop is None:
        assert n == steps and row.capped
    else:
        assert n == stop and not row.capped
    return stop


def test_written_rows_stop_where_the_references_window_passes_their_text():
    m = text_model()
    lines = codes("abcde", "a", "cab")
    steps = 25
    rows = sample_strokes(m, steps, 3, 0.2, 9, text=lines, alphabet=ALPHABET)
    stops = [check_row(m, r, c, np.zeros(3), steps) for r, c in zip(rows, lines)]
    assert sum(s is not None for s in stops) >= 2 and len(set(stops)) > 1
    assert [r.text for r in rows] == ["abcde", "a", "cab"]


def test_a_given_start_is_the_written_rows_first_input():
    m = text_model()
    start = np.array([0.7, -0.4, 1.0])
    lines = codes("ab", "ca")
    rows = sample_strokes(m, 20, 2, 0.0, 4, start=start, text=lines, alphabet=ALPHABET)
    stops = [check_row(m, r, c, start, 20) for r, c in zip(rows, lines)]
    assert any(s is not None for s in stops)


def test_a_primed_row_reads_the_prime_first_and_stops_on_its_own_text():
    m = text_model()
    rng = np.random.default_rng(3)
    pre = np.column_stack([rng.normal(0, 0.5, (4, 2)), [0.0, 0.0, 1.0, 0.0]])     # (P,3) normalized
    prime = (pre, codes("ab ")[0])
    lines = codes("cab", "d")
    rows = sample_strokes(m, 25, 2, 0.3, 6, text=lines, prime=prime, alphabet=ALPHABET)
    stops = [check_row(m, r, c, None, 25, prime=prime) for r, c in zip(rows, lines)]
    assert any(s is not None for s in stops)
    for r in rows:
        assert r.prime_chars == 3
        np.testing.assert_allclose(r.prime, pre * UNIT, rtol=1e-12)


@pytest.mark.parametrize("bad", [2.0, np.nan])
def test_a_prime_with_a_bad_pen_or_nan_is_refused(bad):
    m = text_model()
    pre = np.zeros((3, 3))
    pre[1, 2] = bad
    with pytest.raises(UserError, match="the prime's points"):
        sample_strokes(m, 5, 1, text=codes("ab"), prime=(pre, codes("a ")[0]), alphabet=ALPHABET)


def test_a_seed_gives_the_same_written_rows_and_another_seed_others():
    a, b, c = (sample_strokes(text_model(), 8, 2, 0.0, s, text=codes("abc", "d"), alphabet=ALPHABET)
               for s in (4, 4, 5))
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x.points, y.points)
        np.testing.assert_array_equal(x.phi, y.phi)
    assert not np.allclose(a[0].points[:3], c[0].points[:3])


def conditioned():
    return SimpleNamespace(conditioned=True, head=SimpleNamespace(scale=(1.0, 1.0)))


def test_text_inputs_refuse_no_lines_and_call_an_empty_alphabet_corrupt():
    with pytest.raises(UserError, match="give the lines to write with text"):
        text_inputs(conditioned(), {"alphabet": ALPHABET}, [])
    with pytest.raises(CheckpointError, match="does not record the alphabet"):
        text_inputs(conditioned(), {"alphabet": ""}, ["ab"])
    got, prime, alphabet = text_inputs(conditioned(), {"alphabet": ALPHABET}, ["ab"])
    np.testing.assert_array_equal(got[0], [ALPHABET.index("a"), ALPHABET.index("b")])
    assert prime is None and alphabet == ALPHABET


def test_strokes_of_keeps_the_first_point_and_each_lifts_point():
    pts = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 1.0], [0.0, 2.0, 1.0], [3.0, 0.0, 0.0], [1.0, 1.0, 0.0]])
    # absolute positions by hand from (10, -1): (11,-1) (12,0) (12,2) (15,2) (16,3); lifts after points 2 and 3
    paths = strokes_of(pts, origin=(10.0, -1.0))
    assert [p.tolist() for p in paths] == [[[11.0, -1.0], [12.0, 0.0]], [[12.0, 2.0]], [[15.0, 2.0], [16.0, 3.0]]]
