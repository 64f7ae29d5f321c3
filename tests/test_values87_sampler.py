"""The sampler against replays and definitions (lnrnn/sample.py).

Free sampling: every step's input is the point drawn the step before (zeros first), the rows handed back are
the drawn points times the head's scale, row by row, and a large bias draws each point at the mean of its
step's most probable component (Graves 2013, sec. 4.3: pi sharpened by 1 + b, sigma shrunk by e^-b), recomputed
here from the head's output recorded at every step; a seed reproduces its rows, rows and seeds differ, pens are
0 or 1. Writing: every row of a batch stops at its own first step whose window passes its text (recomputed from
the recorded step_end and step_phi), a cap below every stop leaves each row capped at the cap. Boundaries:
the stroke-3 check's pen column and a text of more or fewer lines than count. strokes_of's strokes by hand."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.sample import check_stroke3, sample_strokes, strokes_of

ALPHABET = "\ufffd abcde"
SCALE = (2.0, 3.0)
M = 2                                                    # mixture components


def free_model(seed=3):
    return build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                            forget_bias=1.0,
                            head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}),
                       seed=seed)


def text_model(seed=2):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}), seed=seed)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(5).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.6), np.log(0.25)]   # kappa walks ~0.6 a step
    return m


def recorded(m, **extra):
    """Wrap m.step: the list of (t, input x (B,3), head output o (B,K), extra attributes) per call."""
    seen, step = [], m.step

    def wrapper(x, state=None, t=0, text=None):
        o, state = step(x, state, t=t, text=text) if text is not None else step(x, state, t=t)
        seen.append((t, np.array(x, np.float64), np.array(o, np.float64),
                     {k: np.array(getattr(m.stack, k)) for k in extra}))
        return o, state
    m.step = wrapper
    return seen


def test_free_rows_feed_each_drawn_point_back_and_come_back_scaled_row_by_row():
    m = free_model()
    seen = recorded(m)
    steps, count = 6, 3
    rows = sample_strokes(m, steps, count, bias=0.4, seed=11)
    assert len(rows) == count and all(r.shape == (steps, 3) for r in rows)
    assert [t for t, _, _, _ in seen] == list(range(steps))
    unit = np.array([SCALE[0], SCALE[1], 1.0])
    drawn = np.stack(rows, axis=1) / unit                          # (steps,count,3) the normalized draws
    np.testing.assert_array_equal(seen[0][1], np.zeros((count, 3)))
    for t in range(1, steps):                                       # step t read the point drawn at t - 1
        np.testing.assert_allclose(seen[t][1], drawn[t - 1], rtol=1e-12, atol=1e-12)
    # the same draws again from the recorded outputs, the same stream
    rng = np.random.default_rng(11)
    again = np.stack([m.head.sample(o, rng, 0.4) for _, _, o, _ in seen])   # (steps,count,3)
    np.testing.assert_allclose(drawn, again, rtol=1e-12, atol=1e-12)
    assert set(np.unique(drawn[:, :, 2])) <= {0.0, 1.0}
    assert not np.allclose(rows[0], rows[1]) and not np.allclose(rows[1], rows[2])   # rows draw their own


def test_a_seed_reproduces_its_rows_and_another_seed_does_not():
    a = sample_strokes(free_model(), 5, 2, bias=0.0, seed=4)
    b = sample_strokes(free_model(), 5, 2, bias=0.0, seed=4)
    c = sample_strokes(free_model(), 5, 2, bias=0.0, seed=5)
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
    assert not np.allclose(a[0], c[0])


def test_a_large_bias_draws_the_most_probable_components_mean():
    """pi = softmax(pi_hat (1 + b)), sigma = exp(s_hat - b): at b = 500 the draw is the mean of argmax pi_hat
    (checked where the two pi_hat differ by more than 0.06, so that the other's weight is below e^-30)."""
    m = free_model(seed=8)
    seen = recorded(m)
    bias = 500.0
    rows = sample_strokes(m, 6, 3, bias=bias, seed=1)
    checked = 0
    for t, (_, _, o, _) in enumerate(seen):
        ph = o[:, 1:1 + M]                                           # (B,M) pi_hat
        k = np.argmax(ph, axis=1)                                    # (B,) the most probable component
        clear = np.abs(ph[:, 0] - ph[:, 1]) * (1 + bias) > 30.0
        b = np.arange(3)[clear]
        got = np.array([r[t] for r in rows])[clear]                  # data units
        np.testing.assert_allclose(got[:, 0], o[b, 1 + M + k[b]] * SCALE[0], rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(got[:, 1], o[b, 1 + 2 * M + k[b]] * SCALE[1], rtol=1e-9, atol=1e-9)
        checked += len(b)
    assert checked >= 9                                              # of 18 points


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def test_each_row_of_a_written_batch_stops_at_its_own_first_step_past_its_text():
    m = text_model()
    seen = recorded(m, step_end=True, step_phi=True)
    texts = codes("abcde", "a", "cab")
    steps = 25
    rows = sample_strokes(m, steps, 3, 0.2, 9, text=texts, alphabet=ALPHABET)
    stops = []
    for b, r in enumerate(rows):
        U = len(texts[b])
        n = next((i + 1 for i, (_, _, _, a) in enumerate(seen)
                  if np.all(a["step_end"][b] > a["step_phi"][b, :U])), None)
        stops.append(n)
        assert len(r.points) == (steps if n is None else n) and r.capped == (n is None)
        np.testing.assert_allclose(r.phi, [a["step_phi"][b, :U] for _, _, _, a in seen[:len(r.points)]],
                                   rtol=1e-12)
        assert r.text == "".join(ALPHABET[c] for c in texts[b])
    assert sum(n is not None for n in stops) >= 2 and len(set(stops)) > 1
    assert len(seen) == max(steps if n is None else n for n in stops)
    unit = np.array([SCALE[0], SCALE[1], 1.0])
    for i in range(1, len(seen)):                                    # each step reads every row's last draw
        for b, r in enumerate(rows):
            if i - 1 < len(r.points):
                np.testing.assert_allclose(seen[i][1][b], r.points[i - 1] / unit, rtol=1e-12, atol=1e-12)


def test_a_cap_below_every_stop_leaves_every_row_capped_at_the_cap():
    m = text_model()
    rows = sample_strokes(m, 2, 2, 0.0, 3, text=codes("abcde", "edcba"), alphabet=ALPHABET)
    assert [len(r.points) for r in rows] == [2, 2] and all(r.capped for r in rows)


def test_a_text_of_more_or_fewer_lines_than_count_is_refused():
    m = text_model()
    for count, lines in ((2, ("ab", "c", "d")), (3, ("ab", "c"))):
        with pytest.raises(UserError, match=f"text holds {len(lines)} lines but count is {count}"):
            sample_strokes(m, 4, count, text=codes(*lines), alphabet=ALPHABET)


def test_stroke3_pens_other_than_0_and_1_are_refused():
    ok = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 1.0]])
    np.testing.assert_array_equal(check_stroke3(ok, "the prime"), ok)
    for pens in ([0.0, 0.5, 1.0], [1.0, 2.0, 0.0], [0.5, 0.5, 0.5]):
        bad = np.zeros((3, 3))
        bad[:, 2] = pens
        with pytest.raises(UserError, match="pen values other than 0 and 1"):
            check_stroke3(bad, "the prime")


def test_strokes_of_ends_a_stroke_after_each_lift_only():
    pts = np.array([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 1.0], [2.0, 0.0, 1.0], [1.0, -1.0, 0.0]])
    paths = strokes_of(pts)
    assert [p.tolist() for p in paths] == [[[1.0, 0.0], [2.0, 1.0], [2.0, 2.0]], [[4.0, 2.0]], [[5.0, 1.0]]]
