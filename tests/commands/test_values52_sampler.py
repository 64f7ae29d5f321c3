"""The writing sampler's per-step decisions replayed here (lnrnn/sample.py): every point sample_strokes draws
must be the mixture drawn by hand (Graves 2013 eqs. 18-22 with the bias of sec. 5.4: pi = softmax(pi_hat (1 + b)),
sigma = exp(sigma_hat - b), the pen lifting where a uniform falls below e = sigmoid(e_hat)) from the output of one
whole-sequence forward over the sampler's own inputs: the start (in every row), then each drawn point in the
model's units (pen included), each row of a text batch over its own characters only (as if alone), after a
prime's points. A generator seeded by ``seed`` gives the uniforms and normals in the sampler's order. Also by
hand: the returned points in data units (dx by the x scale, dy by the y scale), stroke-3 and prime checks and
their messages, an --npz prime's first line, the prime's units and the space after its text."""
import numpy as np
import pytest

from lnrnn.data.strokes import encode_text
from lnrnn.errors import UserError
from lnrnn.kernels.mdn import RHO, SMAX
from lnrnn.model.models import build_model
from lnrnn.sample import check_prime_pair, check_stroke3, read_stroke3, sample_strokes, text_inputs

ALPHABET = "\ufffd abcde"   # code 0 the unknown character; a space, so that a prime's text is followed by one
SCALE = (2.0, 3.0)
M = 3


def free_model(seed=1):
    return build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float64",
                            forget_bias=1.0, skip=True,
                            head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}),
                       seed=seed)


def text_model(seed=2, alphabet=ALPHABET):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(alphabet), skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}), seed=seed)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = np.random.default_rng(9).normal(0.0, 0.5, L1.params["Wp"].shape)
    L1.params["bp"][...] = [0.5, -0.2, 0.3, 0.1, np.log(0.3), np.log(0.25)]   # kappa walks ~0.3 a step
    return m


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def draw(out, rng, bias):
    """One point per row of the head's output out (B, 1+6M) = [e_hat | pi_hat | mu1 | mu2 | s1_hat | s2_hat |
    rho_hat], drawn by the definitions: component by the first uniform against pi's running sum, two standard
    normals (the second correlated by rho), the pen by the last uniform against e."""
    out = np.asarray(out, np.float64)
    B = len(out)
    e = 1.0 / (1.0 + np.exp(-out[:, 0]))
    a = out[:, 1:1 + M] * (1.0 + bias)
    pi = np.exp(a) / np.exp(a).sum(axis=1, keepdims=True)
    mu1, mu2 = out[:, 1 + M:1 + 2 * M], out[:, 1 + 2 * M:1 + 3 * M]
    s1 = np.exp(np.clip(out[:, 1 + 3 * M:1 + 4 * M], -SMAX, SMAX) - bias)
    s2 = np.exp(np.clip(out[:, 1 + 4 * M:1 + 5 * M], -SMAX, SMAX) - bias)
    rho = RHO * np.tanh(out[:, 1 + 5 * M:])
    u = rng.random(B)
    z1, z2 = rng.standard_normal(B), rng.standard_normal(B)
    pen = rng.random(B) < e
    pts = np.zeros((B, 3))
    for b in range(B):
        k = 0
        while k < M - 1 and u[b] > pi[b, :k + 1].sum():
            k += 1
        r = rho[b, k]
        pts[b] = (mu1[b, k] + s1[b, k] * z1[b], mu2[b, k] + s2[b, k] * (r * z1[b] + np.sqrt(1 - r * r) * z2[b]),
                  float(pen[b]))
    return pts


def outputs(m, inputs, text=None):
    """The head's outputs (T, O) of one row fed inputs (T,3) from zero states, one whole-sequence forward."""
    kw = {} if text is None else dict(text=(text[None], np.array([len(text)])))
    y, _ = m.stack.forward(np.asarray(inputs, np.float64)[:, None, :], None, training=False, keep=False, **kw)
    return m.head.linear(y)[:, 0]


def replay(m, rows, first, seed, bias, texts=None, prime=None):
    """rows: list of (n_b,3) points in data units the sampler returned; first (3,) the first input. -> the
    points by hand (n_b,3) per row, every row fed its own drawn points back and drawn from one generator."""
    units = np.array([*SCALE, 1.0])
    lead = [np.asarray(first, np.float64)[None]] if prime is None else [prime[0]]
    outs = []
    for b, r in enumerate(rows):
        inputs = np.concatenate(lead + [r[:-1] / units])
        text = None if texts is None else texts[b] if prime is None else np.concatenate([prime[1], texts[b]])
        outs.append(outputs(m, inputs, text)[len(inputs) - len(r):])
    rng = np.random.default_rng(seed)
    want = [np.zeros_like(r) for r in rows]
    for i in range(max(len(r) for r in rows)):
        o = np.stack([o[i] if i < len(o) else np.zeros(1 + 6 * M) for o in outs])   # stopped rows: any output
        p = draw(o, rng, bias)
        for b in range(len(rows)):
            if i < len(rows[b]):
                want[b][i] = p[b] * units
    return want


def test_draw_by_hand_matches_a_worked_mixture():
    """One component holding all the weight: the point is mu + sigma z, sigma exp(-b) smaller under bias b."""
    out = np.zeros((1, 1 + 6 * M))
    out[0, 0] = 50.0                                        # e = 1: the pen lifts
    out[0, 1:1 + M] = [30.0, 0.0, 0.0]                      # component 0
    out[0, 1 + M], out[0, 1 + 2 * M] = 1.5, -2.0            # mu
    out[0, 1 + 3 * M], out[0, 1 + 4 * M] = np.log(0.5), np.log(2.0)
    rng = np.random.default_rng(0)
    rng.random(1)
    z1, z2 = rng.standard_normal(1)[0], rng.standard_normal(1)[0]
    p = draw(out, np.random.default_rng(0), 1.0)[0]
    np.testing.assert_allclose(p, [1.5 + 0.5 * np.exp(-1) * z1, -2.0 + 2.0 * np.exp(-1) * z2, 1.0], rtol=1e-12)


@pytest.mark.parametrize("bias", [0.0, 1.3])
def test_free_samples_are_the_mixture_drawn_from_their_own_inputs(bias):
    """Three rows from a start with its pen up: each row's points equal the draws from a forward over the
    start and its own points, in data units; the bias of 1.3 draws elsewhere than 0."""
    m = free_model()
    start = np.array([0.4, -0.7, 1.0])
    rows = sample_strokes(m, 7, 3, bias, 11, start=start)
    assert [r.shape for r in rows] == [(7, 3)] * 3
    want = replay(m, rows, start, 11, bias)
    for g, w in zip(rows, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    other = replay(m, rows, start, 11, 1.3 - bias)
    assert not np.allclose(other[0][0, :2], rows[0][0, :2])


def test_free_samples_scale_dx_by_x_and_dy_by_y_and_the_seed_repeats():
    m = free_model()
    a = sample_strokes(m, 5, 2, 0.0, 4)
    b = sample_strokes(m, 5, 2, 0.0, 4)
    for r, s in zip(a, b):
        np.testing.assert_array_equal(r, s)                           # same seed, same samples
    c = sample_strokes(m, 5, 2, 0.0, 5)
    assert not np.allclose(c[0], a[0])
    head_out = outputs(m, np.zeros((1, 3)))                           # both rows' first step reads the origin
    p = draw(np.repeat(head_out, 2, axis=0), np.random.default_rng(4), 0.0)
    for k in range(2):
        np.testing.assert_allclose(a[k][0], [p[k, 0] * SCALE[0], p[k, 1] * SCALE[1], p[k, 2]], rtol=1e-10)


@pytest.mark.parametrize("bias", [0.0, 0.8])
def test_text_rows_of_different_lengths_each_read_only_their_own_text(bias):
    """Lines of 4, 1 and 2 characters in one batch, each stopping at its own step: each row's points are the
    draws from a forward of that row alone over its own characters and its own points, the pen fed back."""
    m = text_model()
    texts = codes("abcd", "e", "ba")
    rows = sample_strokes(m, 25, 3, bias, 6, text=texts, alphabet=ALPHABET)
    assert len({len(r.points) for r in rows}) > 1                     # the rows stop at different steps
    want = replay(m, [r.points for r in rows], np.zeros(3), 6, bias, texts=texts)
    for r, w, t in zip(rows, want, texts):
        np.testing.assert_allclose(r.points, w, rtol=1e-9, atol=1e-12)
        assert r.phi.shape == (len(r.points), len(t))
    assert any(np.any(r.points[:-1, 2] == 1.0) for r in rows)        # a lift was drawn and fed back


def test_a_primed_row_reads_the_prime_then_its_own_points():
    m = text_model()
    prime_pts = np.array([[0.0, 0.0, 0.0], [0.6, -0.3, 0.0], [-0.2, 0.5, 1.0]])
    pc = codes("de ")[0]
    texts = codes("ab", "c")
    rows = sample_strokes(m, 12, 2, 0.5, 3, text=texts, prime=(prime_pts, pc), alphabet=ALPHABET)
    want = replay(m, [r.points for r in rows], None, 3, 0.5, texts=texts, prime=(prime_pts, pc))
    for r, w in zip(rows, want):
        np.testing.assert_allclose(r.points, w, rtol=1e-9, atol=1e-12)
    assert [r.chars for r in rows] == [list("de ab"), list("de c")] and [r.prime_chars for r in rows] == [3, 3]
    np.testing.assert_allclose(rows[0].prime, prime_pts * [*SCALE, 1.0])


def test_a_bad_code_names_its_line_counting_from_one():
    m = text_model()
    with pytest.raises(UserError, match=r"^line 2 of text must be"):
        sample_strokes(m, 5, 2, text=[np.array([1, 2]), np.array([1, len(ALPHABET)])])
    with pytest.raises(UserError, match=r"^line 1 of text must be"):
        sample_strokes(m, 5, 2, text=[np.array([-1]), np.array([1])])


# ---- what a sample is given

def test_stroke3_checks_name_what_is_wrong():
    ok = check_stroke3([[1, 2, 0], [3, 4, 1]], "p")
    assert ok.dtype == np.float64 and ok.tolist() == [[1, 2, 0], [3, 4, 1]]
    for bad in ([[0.0, 0.0, np.nan]], [[np.inf, 0.0, 0.0]], [[0.0, np.nan, 1.0]]):
        with pytest.raises(UserError, match=r"^p hold NaN or infinite values"):
            check_stroke3(bad, "p")
    for bad in ([[0.0, 0.0, 0.5]], [[0.0, 0.0, -1.0]], [[0.0, 0.0, 2.0]]):
        with pytest.raises(UserError, match="pen values other than 0 and 1"):
            check_stroke3(bad, "p")


def test_an_npz_prime_is_its_first_line(tmp_path):
    pts = np.arange(18, dtype=np.float64).reshape(6, 3)
    pts[:, 2] = [0, 1, 0, 0, 0, 1]
    np.savez(tmp_path / "s.npz", points=pts, lengths=np.array([2, 4]))
    np.testing.assert_array_equal(read_stroke3(tmp_path / "s.npz"), pts[:2])
    np.savez(tmp_path / "all.npz", points=pts)                     # no lengths: one line
    np.testing.assert_array_equal(read_stroke3(tmp_path / "all.npz"), pts)
    np.save(tmp_path / "p.npy", pts[2:])
    np.testing.assert_array_equal(read_stroke3(tmp_path / "p.npy"), pts[2:])


def test_a_prime_given_half_names_the_missing_half():
    with pytest.raises(UserError, match=r"^prime_text needs prime_strokes"):
        check_prime_pair(None, "ab")
    with pytest.raises(UserError, match=r"^prime_strokes needs prime_text"):
        check_prime_pair(np.zeros((2, 3)), None)
    names = {"text": "--text", "prime_strokes": "--prime-strokes", "prime_text": "--prime-text"}
    with pytest.raises(UserError, match=r"^--prime-text needs --prime-strokes"):
        check_prime_pair(None, "ab", names)
    check_prime_pair(None, None)
    check_prime_pair(np.zeros((2, 3)), "ab")


def test_a_model_without_a_window_refuses_a_prime_alone():
    m = free_model()
    with pytest.raises(UserError, match="leave out prime_strokes"):
        text_inputs(m, None, None, np.zeros((2, 3)), "ab")
    with pytest.raises(UserError, match="leave out text"):
        text_inputs(m, None, ["ab"])
    assert text_inputs(m, None, None) == (None, None, None)


def test_text_inputs_put_the_prime_in_the_models_units_and_a_space_after_its_text():
    m = text_model()
    data = np.array([[2.0, -3.0, 0.0], [4.0, 6.0, 1.0], [-1.0, 1.5, 0.0]])    # data units
    got, prime, alphabet = text_inputs(m, {"alphabet": ALPHABET}, ["ab", "e"], data, "dc")
    assert alphabet == ALPHABET
    assert [g.tolist() for g in got] == [[2, 3], [6]]
    np.testing.assert_allclose(prime[0], [[1.0, -1.0, 0.0], [2.0, 2.0, 1.0], [-0.5, 0.5, 0.0]])
    assert prime[1].tolist() == [ALPHABET.index("d"), ALPHABET.index("c"), ALPHABET.index(" ")]
    assert prime[1].tolist() == encode_text("dc ", ALPHABET).tolist()
    no_space = "\ufffdabcde"                                                     # no space in the alphabet
    _, prime, _ = text_inputs(text_model(alphabet=no_space), {"alphabet": no_space}, ["ab"], data, "dc")
    assert prime[1].tolist() == [4, 3]
