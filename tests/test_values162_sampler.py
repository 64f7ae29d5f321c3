"""lnrnn/sample.py against definitions worked out here: a stack of two layers writes three lines of 5, 1 and 3
characters (codes past the window's K) in one batch, and each row ends at the exact step where the NumPy
reference's window, replayed over the row's own inputs, puts more weight just past the text than on any
character (test_values133_sampler's check_row), or at the cap; the first point of a free draw with bias b is a
NumPy draw with the same seed from Graves's (2013) biased mixture (pi = softmax(pi_hat (1 + b)),
sigma = exp(sigma_hat - b), the pen up where a uniform falls below sigmoid(e_hat)); what a sample is given
(a line of spaces, a half-given prime named by its half, a prime's float64 digits); the written picture's
sizes, caption, and a primed line's ink starting where the prime ends, by hand.

Two layers (LN), H = 5, K = 2, mixture of 2 and 3, float64."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.kernels.mdn import RHO
from lnrnn.model.models import build_model
from lnrnn.sample import Written, _pyplot, check_prime_pair, check_stroke3, sample_strokes, text_inputs, \
    written_figure
from test_values133_sampler import ALPHABET, H, K, SCALE, check_row, codes, conditioned, text_model

CLI_NAMES = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}


def two_layer_text_model():
    """test_values133_sampler's window layer (the same Wp and bp) under a second LSTM layer."""
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, window=K, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": 2, "per_step": True, "scale": list(SCALE)}), seed=2)
    m.stack.layers[0].params["Wp"][...] = text_model().stack.layers[0].params["Wp"]
    m.stack.layers[0].params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.6), np.log(0.25)]
    return m


def test_two_layer_rows_of_unequal_lines_stop_where_the_references_window_passes_them():
    m = two_layer_text_model()
    lines = codes("edcba", "e", "dab")
    steps = 6
    rows = sample_strokes(m, steps, 3, 0.5, 3, text=lines, alphabet=ALPHABET)
    stops = [check_row(m, r, c, np.zeros(3), steps) for r, c in zip(rows, lines)]
    assert stops[1] is not None and stops[0] is None               # the short line stops, the long one is capped
    assert rows[0].capped and rows[2].capped and len(rows[0].points) == steps and not rows[1].capped


def free_model(M):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}), seed=4)
    for v in m.head.params.values():
        v[...] = np.random.default_rng(8).normal(0.0, 1.0, v.shape)
    return m


def graves_draw(o, M, bias, seed):
    """One point per row from Graves's biased mixture, drawn in mdn_sample's order from default_rng(seed) (a
    Generator given as seed is drawn from as it stands: several steps share one)."""
    rng = np.random.default_rng(seed)
    e = 1.0 / (1.0 + np.exp(-o[:, 0]))
    z = o[:, 1:1 + M] * (1.0 + bias)
    pi = np.exp(z) / np.exp(z).sum(axis=1, keepdims=True)
    mu1, mu2 = o[:, 1 + M:1 + 2 * M], o[:, 1 + 2 * M:1 + 3 * M]
    s1, s2 = np.exp(o[:, 1 + 3 * M:1 + 4 * M] - bias), np.exp(o[:, 1 + 4 * M:1 + 5 * M] - bias)
    rho = RHO * np.tanh(o[:, 1 + 5 * M:1 + 6 * M])
    u = rng.random(len(o))
    u1, u2 = rng.standard_normal(len(o)), rng.standard_normal(len(o))
    out = []
    for n in range(len(o)):
        k = min(int(np.searchsorted(np.cumsum(pi[n]), u[n], side="left")), M - 1)  # first cumulative pi >= u
        r = rho[n, k]
        out.append([mu1[n, k] + s1[n, k] * u1[n], mu2[n, k] + s2[n, k] * (r * u1[n] + np.sqrt(1 - r * r) * u2[n])])
    pen = (rng.random(len(o)) < e).astype(float)
    return np.column_stack([np.array(out), pen])


@pytest.mark.parametrize("bias", [0.0, 1.5])
def test_a_biased_free_draw_is_graves_mixture_drawn_with_the_same_seed(bias):
    M, seed, count = 3, 11, 6
    m = free_model(M)
    o, _ = m.step(np.zeros((count, 3)), None, t=0)
    want = graves_draw(np.asarray(o, np.float64), M, bias, seed) * np.array([SCALE[0], SCALE[1], 1.0])
    got = np.stack([r[0] for r in sample_strokes(m, 1, count, bias, seed)])
    np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_text_inputs_take_a_line_of_spaces():
    got, prime, _ = text_inputs(conditioned(), {"alphabet": ALPHABET}, [" ", "a b"])
    assert [g.tolist() for g in got] == [[1], [2, 1, 3]] and prime is None


def test_a_half_given_prime_is_named_by_the_half_that_was_given():
    with pytest.raises(UserError, match="^--prime-strokes needs --prime-text"):
        check_prime_pair(np.zeros((1, 3)), None, CLI_NAMES)
    with pytest.raises(UserError, match="^--prime-text needs --prime-strokes"):
        check_prime_pair(None, "ab", CLI_NAMES)


def test_a_checked_prime_keeps_its_float64_digits():
    a = np.array([[0.1, 1.0 / 3.0, 0.0], [1e-9 + 1.0, -2.7, 1.0]])
    got = check_stroke3(a, "p")
    assert got.dtype == np.float64
    np.testing.assert_array_equal(got, a)


def test_written_picture_sizes_its_rows_and_starts_the_line_where_the_prime_ends():
    a = Written(points=np.array([[0.5, -1.0, 0.0], [2.0, 1.0, 1.0]]), phi=np.full((2, 9), 0.1), capped=False,
                text="ab", chars=list("xyzxyzxab"), codes=np.zeros(9, np.int64),
                prime=np.array([[1.0, 0.0, 0.0], [1.0, 2.0, 1.0]]), prime_chars=7)
    b = Written(points=np.array([[0.0, 3.0, 0.0], [1.0, 1.0, 1.0], [1.0, -1.0, 0.0]]), phi=np.full((3, 2), 0.5),
                capped=True, text="cd", chars=list("cd"), codes=np.zeros(2, np.int64))
    plt = _pyplot()
    fig = written_figure(plt, [a, b], attention=True)
    try:
        # heights: ink 1.6 each; attention max(1.2, 0.13 U + 0.6): U = 9 -> 1.77, U = 2 -> 1.2
        assert fig.get_size_inches()[1] == pytest.approx(1.6 + 1.77 + 1.6 + 1.2)
        ink = [ax for ax in fig.axes if ax.lines]
        assert len(ink) == 2
        # row a: the prime from (0,0) ends at (2,2); the line's points at (2.5,1), (4.5,2)
        line = ink[0].lines[-1].get_xydata()
        np.testing.assert_allclose(line, [[2.5, 1.0], [4.5, 2.0]])
        # inks: a x 1..4.5, y 0..2 (prime and line); b (0,3) (1,4) (2,3): x 0..2, y 3..4 -> W 3.5, H 2
        W, Hh = 3.5, 2.0
        pad = 0.03 * W
        for ax, (x0, y0, y1) in zip(ink, [(1.0, 0.0, 2.0), (0.0, 3.0, 4.0)]):
            np.testing.assert_allclose(ax.get_xlim(), (x0 - pad, x0 + W + pad))
            mid = (y0 + y1) / 2
            np.testing.assert_allclose(ax.get_ylim(), (mid - Hh / 2 - pad, mid + Hh / 2 + pad))
        assert ink[0].get_title(loc="left") == "'ab' after the prime (grey)"
        assert ink[1].get_title(loc="left") == "'cd' (stopped at the 3-point cap)"
    finally:
        plt.close(fig)
