"""The writing sampler's stop rule and its drawing geometry against recomputations (lnrnn/sample.py).

Stop rule (Graves 2013, sec. 5): a primed row's window reads the prime's text then its line's, so its text
length is len(prime codes) + len(line codes); the row keeps its points up to and including the first step at
which phi(t, U+1) exceeds phi(t, u) for every u <= U, recomputed here from the window's own step_end and
step_phi recorded at every step; Written.phi covers all U characters. Geometry: strokes_of's paths are the
origin plus the running sums of (dx, dy) down the points, a new path after every lift; _ink draws those paths
and returns where its ink ends, the origin plus the offsets' sum (where a line after a prime starts)."""
import numpy as np

from lnrnn.model.models import build_model
from lnrnn.sample import _ink, sample_strokes, strokes_of

ALPHABET = "\ufffd abcde"
SCALE = (2.0, 3.0)


def text_model(seed=2):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": 2, "per_step": True, "scale": list(SCALE)}), seed=seed)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(9).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.6), np.log(0.25)]   # kappa walks ~0.6 a step
    return m


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def test_primed_rows_stop_at_the_first_step_the_window_passes_prime_and_line():
    m = text_model()
    seen = []                                                  # (t, step_end (B,), step_phi (B,U)) per step
    step = m.step

    def recording(x, state=None, t=0, text=None):
        out = step(x, state, t=t, text=text)
        seen.append((t, m.stack.step_end.copy(), m.stack.step_phi.copy()))
        return out
    m.step = recording
    prime_pts = np.array([[0.0, 0.0, 0.0], [0.6, -0.3, 0.0], [-0.2, 0.5, 1.0], [0.3, 0.1, 0.0]])
    pc = codes("de ")[0]
    texts = codes("abcd", "c", "ba")
    steps = 30
    rows = sample_strokes(m, steps, 3, 0.3, 7, text=texts, prime=(prime_pts, pc), alphabet=ALPHABET)
    t0 = len(prime_pts) - 1
    drawn = [(e, p) for t, e, p in seen if t >= t0]            # the steps that drew a point
    assert [t for t, _, _ in seen] == list(range(t0 + len(drawn)))
    stops = []
    for b, r in enumerate(rows):
        U = len(pc) + len(texts[b])
        n = next((i + 1 for i, (e, p) in enumerate(drawn) if np.all(e[b] > p[b, :U])), None)
        stops.append(n)
        assert len(r.points) == (steps if n is None else n)
        assert r.capped == (n is None)
        assert r.phi.shape == (len(r.points), U)
        np.testing.assert_allclose(r.phi, np.array([p[b, :U] for _, p in drawn[:len(r.points)]]), rtol=1e-12)
        assert r.prime_chars == len(pc) and list(r.codes) == list(pc) + list(texts[b])
    assert sum(n is not None for n in stops) >= 2 and len(set(stops)) > 1   # stopped rows, at different steps
    assert len(drawn) == max(steps if n is None else n for n in stops)      # no step after the last row stops


def test_strokes_of_a_right_angle_and_a_dash_are_running_sums_from_the_origin():
    pts = np.array([[0.0, 0.0, 0.0], [3.0, 0.0, 0.0], [0.0, 2.0, 1.0],      # a right angle, lifted
                    [4.0, -1.0, 0.0], [0.0, -1.5, 1.0],                     # a pen-up move, a down stroke
                    [1.0, 1.0, 0.0]])                                        # a last point, no lift
    paths = strokes_of(pts, origin=(5.0, -2.0))
    want = [[[5.0, -2.0], [8.0, -2.0], [8.0, 0.0]], [[12.0, -1.0], [12.0, -2.5]], [[13.0, -1.5]]]
    assert [p.tolist() for p in paths] == want
    corner = np.diff(paths[0], axis=0)                                       # the two legs meet at 90 degrees
    assert corner[0] @ corner[1] == 0.0


class Ax:
    def __init__(self):
        self.paths = []

    def plot(self, x, y, *args, **kw):
        self.paths.append(np.column_stack([x, y]))


def test_ink_ends_at_its_origin_plus_the_offsets_and_a_line_after_a_prime_starts_there():
    prime = np.array([[0.0, 0.0, 0.0], [1.0, 2.0, 1.0], [2.0, 0.5, 0.0], [0.5, 0.5, 1.0]])
    line = np.array([[0.0, 0.0, 0.0], [-1.0, 1.0, 1.0]])
    ax = Ax()
    end = _ink(ax, prime, origin=(10.0, 20.0))
    np.testing.assert_array_equal(end, [13.5, 23.0])
    end2 = _ink(ax, line, origin=end)
    np.testing.assert_array_equal(end2, [12.5, 24.0])
    assert [p.tolist() for p in ax.paths] == [[[10.0, 20.0], [11.0, 22.0]], [[13.0, 22.5], [13.5, 23.0]],
                                              [[13.5, 23.0], [12.5, 24.0]]]
