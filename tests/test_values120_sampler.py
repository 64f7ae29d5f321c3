"""The sampler (lnrnn/sample.py) against a teacher-forced replay: the points a written line drew are fed again,
after the prime's points, through one inference forward of the whole sequence (WindowStack.forward over every step
at once, with the text each row's window should read: the prime's codes, then the line's); the head's draws from
that forward's outputs, in the same random stream, are the line's points, and its phi at each free step is the
line's phi. Primed rows of two lines of their own lengths (LayerNorm), and unprimed rows of a BatchNorm model
whose running rows differ from step to step (the free steps are steps 0, 1, ... of the recurrence). Also: the
attention plot greys exactly the prime's characters, and a prime needs both its strokes and its text."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.sample import Written, _pyplot, check_prime_pair, sample_strokes, written_figure

ALPHABET = "\ufffd abcde"
SCALE = (2.0, 3.0)
UNIT = np.array([SCALE[0], SCALE[1], 1.0])
M = 2                                                    # mixture components
TOL = 1e-9


def text_model(norm, seed=2, max_steps=1):
    m = build_model(dict(cell="lstm", norm=norm, input_size=3, hidden_size=4, num_layers=1, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}),
                    seed=seed, max_steps=max_steps)
    rng = np.random.default_rng(seed + 50)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = rng.normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.3), np.log(0.2)]   # kappa walks slowly: no early stop
    L1.params["Wx"][...] += rng.normal(0.0, 0.5, L1.params["Wx"].shape)      # w_{t-1} (the text) steers the gates
    for name, v in L1.buffers.items():                                       # BN: running rows of their own
        v[...] = rng.uniform(0.5, 1.5, v.shape) if name.startswith("rv") else rng.normal(0.0, 0.5, v.shape)
    return m


def codes(text):
    return np.array([ALPHABET.index(c) for c in text], np.int64)


def replay(m, x, rows_codes, seed, bias, first):
    """One inference forward over x (T,B,3) reading rows_codes; the head's draws at steps first.. -> (draws
    (N,B,3), phi (T,B,U))."""
    U = max(len(c) for c in rows_codes)
    text = np.zeros((len(rows_codes), U), np.int64)
    for b, c in enumerate(rows_codes):
        text[b, :len(c)] = c
    ulen = np.array([len(c) for c in rows_codes], np.int64)
    y, _ = m.stack.forward(x, training=False, text=(text, ulen))
    rng = np.random.default_rng(seed)
    draws = np.stack([m.head.sample(m.head.linear(y[t]), rng, bias) for t in range(first, x.shape[0])])
    return draws, np.array(m.stack.phi)


def test_a_primed_line_draws_what_a_forward_over_the_prime_and_its_own_points_draws():
    m = text_model("ln")
    lines = [codes("abcdeabcde"), codes("edcbaedcbaed")]
    pts = np.array([[0.3, -0.2, 0.0], [0.5, 0.1, 0.0], [-0.4, 0.2, 1.0]])         # (P,3) normalized
    pre = codes("ca ")
    steps, seed, bias = 5, 7, 0.3
    rows = sample_strokes(m, steps, 2, bias, seed, text=lines, prime=(pts, pre), alphabet=ALPHABET)
    assert [len(r.points) for r in rows] == [steps, steps] and all(r.capped for r in rows)
    drawn = np.stack([r.points for r in rows], axis=1) / UNIT                      # (steps,B,3)
    P = len(pts)
    x = np.concatenate([np.repeat(pts[:, None], 2, axis=1), drawn[:-1]])           # (P-1+steps,B,3)
    full = [np.concatenate([pre, c]) for c in lines]
    again, phi = replay(m, x, full, seed, bias, P - 1)
    np.testing.assert_allclose(drawn, again, rtol=TOL, atol=TOL)
    for b, r in enumerate(rows):
        np.testing.assert_allclose(r.phi, phi[P - 1:, b, :len(full[b])], rtol=TOL, atol=TOL)
        np.testing.assert_array_equal(r.codes, full[b])
        assert r.chars == [ALPHABET[k] for k in full[b]] and r.prime_chars == len(pre)
        np.testing.assert_allclose(r.prime, pts * UNIT, rtol=0, atol=0)
    # the window's text matters here: the line's codes alone at the start (0 after them) draw other points
    other, _ = replay(m, x, [np.concatenate([c, np.zeros(len(pre), np.int64)]) for c in lines], seed, bias, P - 1)
    assert not np.allclose(other, again, rtol=1e-6, atol=1e-6)


def test_free_steps_of_a_bn_model_are_steps_0_1_2_of_its_running_rows():
    m = text_model("bn", max_steps=6)
    lines = [codes("abcdeab"), codes("ba")]
    steps, seed, bias = 4, 3, 0.1
    rows = sample_strokes(m, steps, 2, bias, seed, text=lines, alphabet=ALPHABET)
    n = [len(r.points) for r in rows]
    drawn = np.zeros((steps, 2, 3))
    for b, r in enumerate(rows):
        drawn[:n[b], b] = r.points / UNIT
    k = min(n)                                                                       # steps every row drew
    assert k >= 3
    x = np.concatenate([np.zeros((1, 2, 3)), drawn[:k - 1]])
    again, phi = replay(m, x, lines, seed, bias, 0)
    np.testing.assert_allclose(drawn[:k], again, rtol=TOL, atol=TOL)
    for b, r in enumerate(rows):
        np.testing.assert_allclose(r.phi[:k], phi[:, b, :len(lines[b])], rtol=TOL, atol=TOL)


def test_the_attention_plot_greys_exactly_the_primes_characters():
    chars = list("ab cd")
    row = Written(points=np.array([[0.1, 0.2, 0.0], [0.3, 0.1, 1.0]]), phi=np.full((2, 5), 0.2), capped=False,
                  text="cd", chars=chars, codes=np.arange(5), prime=np.array([[0.2, 0.0, 0.0], [0.1, 0.1, 1.0]]),
                  prime_chars=3)
    plt = _pyplot()
    fig = written_figure(plt, [row], attention=True)
    try:
        ax = next(a for a in fig.axes if a.get_ylabel() == "character")
        labels = ax.get_yticklabels()
        assert [t.get_text() for t in labels] == ["a", "b", "\u2423", "c", "d"]
        grey = [t.get_color() == "#909090" for t in labels]
        assert grey == [True, True, True, False, False]
    finally:
        plt.close(fig)


def test_a_prime_needs_both_its_strokes_and_its_text():
    pts = np.zeros((2, 3))
    with pytest.raises(UserError, match="prime_strokes needs prime_text"):
        check_prime_pair(pts, None)
    with pytest.raises(UserError, match="prime_text needs prime_strokes"):
        check_prime_pair(None, "ab")
    check_prime_pair(pts, "ab")
    check_prime_pair(None, None)
