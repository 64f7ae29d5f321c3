"""``lnrnn sample --text``: a synthesis run writes given lines (Graves 2013, sec. 5): the same seed gives the
same lines, each line stops by Graves's rule (the window's weight just past the text above its weight on
every character) or at the step cap, a prime is read teacher-forced, the attention is drawn, and every bad
input is one line with nothing written."""
import numpy as np
import pytest
from click.testing import CliRunner

from lnrnn import backend
from lnrnn import reference as R
from lnrnn.cli import main
from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.sample import past_the_end, sample_strokes
from lnrnn.training.checkpoint import save_checkpoint
from test_sample import mdn_run

ALPHABET = "\ufffdabcde"  # code 0 the unknown character, then the training texts' characters
SCALE = (2.0, 3.0)
CONFIG = dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float32", forget_bias=1.0,
              head={"kind": "mdn", "components": 3, "per_step": True, "scale": list(SCALE)}, skip=True, window=2,
              alphabet_size=len(ALPHABET))
K = CONFIG["window"]


# ---- the window op, until its compiled kernel is bound in lnrnn.backend: the NumPy reference stands in

def _reference_window_ops():
    """(forward, backward, sequences) with the window kernel's signature, computed by lnrnn.reference."""
    norms = {0: "none", 1: "ln", 2: "bn"}

    def forward(x, h0, c0, k0, w0, chars, ulen, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp, rmx, rvx, rmh, rvh,
                rmc, rvc, norm, training, momentum, eps, lengths, keep):
        T = x.shape[0]
        y, w, hT, cT, kT, wT, phi, cache = R.window_lstm_forward(
            x, h0, c0, k0, w0, chars, ulen, Wx, Wh, b, gx, bx, gh, bh, gc, bc, Wp, bp, rmx, rvx, rmh, rvh, rmc, rvc,
            norms[norm], training, momentum, eps, lengths=None if (lengths == T).all() else lengths)
        return y.astype(x.dtype), w.astype(x.dtype), hT, cT, kT, wT, phi, cache

    def backward(dy, dw, saved, x, h0, c0, k0, w0, chars, ulen, Wx, Wh, gx, gh, gc, Wp, norm, clip):
        return R.window_lstm_backward(dy, dw, saved, Wx, Wh, gx, gh, gc, Wp, chars, clip)

    def sequences(saved):
        return (np.stack([s["c"] for s in saved["steps"]]),
                np.stack([s["win"]["kappa"] for s in saved["steps"]]))

    return forward, backward, sequences


@pytest.fixture(scope="module", autouse=True)
def window_op():
    """Bind the reference window op on the CPU backend where no kernel is bound yet (then unbind it)."""
    ns = backend.kernels("cpu")
    names = ("window_lstm_forward", "window_lstm_backward", "window_sequences")
    if hasattr(ns, "window_lstm_forward"):
        yield
        return
    for n, f in zip(names, _reference_window_ops()):
        setattr(ns, n, f)
    yield
    for n in names:
        delattr(ns, n)


# ---- a tiny synthesis run

def text_model(seed=1, kappa_bias=None):
    """An untrained synthesis network (2 layers of 5, K = 2 window Gaussians over ALPHABET); ``kappa_bias``:
    the window's k_hat bias (large: it runs past the text in a few points; very negative: it never does)."""
    m = build_model(CONFIG, seed=seed)
    if kappa_bias is not None:
        m.stack.layers[0].params["bp"][2 * K:] = kappa_bias
    return m


def save_run(folder, m):
    arrays = {"param/" + k: v for k, v in m.params.items()}
    arrays.update({"buffer/" + k: v for k, v in m.buffers.items()})
    save_checkpoint(str(folder), arrays, {"model": m.config, "step": 0, "task": {"task": "strokes"},
                                          "train": {"cell": "ln-lstm"},
                                          "text": {"alphabet": ALPHABET, "unknown": 0, "lines": 1}})
    return str(folder)


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def invoke(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def one_line_error(r, *words):
    """Exit non-zero, no traceback, stderr exactly one line, 'Error: ...' holding every one of ``words``."""
    assert r.exit_code != 0, r.output
    assert isinstance(r.exception, SystemExit), repr(r.exception)
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error:"), r.stderr
    for w in words:
        assert w in lines[0], (w, lines[0])
    return lines[0]


# ---- sampling

def test_same_seed_same_lines():
    m = text_model()
    a = sample_strokes(m, 25, 2, 0.0, 3, text=codes("abc", "dcaeb"), alphabet=ALPHABET)
    b = sample_strokes(m, 25, 2, 0.0, 3, text=codes("abc", "dcaeb"), alphabet=ALPHABET)
    c = sample_strokes(m, 25, 2, 0.0, 4, text=codes("abc", "dcaeb"), alphabet=ALPHABET)
    for ra, rb in zip(a, b):
        np.testing.assert_array_equal(ra.points, rb.points)
        np.testing.assert_array_equal(ra.phi, rb.phi)
    assert not np.array_equal(a[0].points, c[0].points)
    assert [r.text for r in a] == ["abc", "dcaeb"] and a[1].chars == list("dcaeb")
    assert a[0].phi.shape == (len(a[0].points), 3) and a[1].phi.shape == (len(a[1].points), 5)


def replay(m, rows, text, bias, seed, prime=None):
    """Run model.step by hand over what the sampler returned (the prime's points, then the drawn ones fed
    back) and check each draw, each phi and where each row stopped; -> phi(t, U+1) (steps, B)."""
    full = [np.concatenate([prime[1], c]) if prime is not None else c for c in text]
    B, ulen = len(full), np.array([len(c) for c in full])
    cd = np.zeros((B, ulen.max()), np.int64)
    for b, c in enumerate(full):
        cd[b, :len(c)] = c
    rng, state = np.random.default_rng(seed), m.noise_state(B, (3, seed))
    units = np.array([*SCALE, 1.0])
    x, t0 = np.zeros((B, 3), np.float32), 0
    if prime is not None:
        for t, p in enumerate(prime[0][:-1]):
            _, state = m.step(np.tile(p, (B, 1)).astype(np.float32), state, t=t, text=(cd, ulen))
        x, t0 = np.tile(prime[0][-1], (B, 1)).astype(np.float32), len(prime[0]) - 1
    stopped, ends = np.full(B, -1), []
    for i in range(max(len(r.points) for r in rows)):
        o, state = m.step(x, state, t=t0 + i, text=(cd, ulen))
        p = m.head.sample(o, rng, bias)
        for b, r in enumerate(rows):
            if i < len(r.points):
                np.testing.assert_allclose(r.points[i], p[b] * units, rtol=1e-12)
                np.testing.assert_allclose(r.phi[i], m.stack.step_phi[b, :ulen[b]], rtol=1e-6)
        # phi(t, U+1) from layer 1's state (h, c, kappa, w), apart from the stack's own step_end
        pw = m.stack.layers[0].params
        kappa = np.asarray(state[0][2], np.float64)                       # (B,K)
        hp = np.asarray(state[0][0], np.float64) @ np.asarray(pw["Wp"], np.float64) + pw["bp"]   # (B,3K)
        end = R.window_phi_at(kappa, np.exp(hp[:, :K]), np.exp(hp[:, K:2 * K]), (ulen + 1.0)[:, None])
        ends.append(end)
        phi = m.stack.step_phi
        for b in range(B):
            if stopped[b] < 0 and all(end[b] > phi[b, u] for u in range(ulen[b])):
                stopped[b] = i
        x = p.astype(np.float32)
    for b, r in enumerate(rows):
        assert r.capped == (stopped[b] < 0)
        assert len(r.points) == (stopped[b] + 1 if stopped[b] >= 0 else len(r.points))
    return np.array(ends)


def test_lines_follow_the_model_step_by_step_and_stop_by_the_rule():
    """The window races past the end (k_hat bias 1: 2.7 characters a point): each row stops at the first
    step where phi(t, U+1) beats every phi(t, u), its point kept; not capped."""
    m = text_model(kappa_bias=1.0)
    text = codes("abcde", "ab")
    rows = sample_strokes(m, 40, 2, 0.0, 5, text=text, alphabet=ALPHABET)
    assert all(not r.capped and 1 <= len(r.points) < 40 for r in rows), [len(r.points) for r in rows]
    replay(m, rows, text, 0.0, 5)


def test_a_window_that_never_reaches_the_end_hits_the_cap():
    m = text_model(kappa_bias=-12.0)   # kappa moves 6e-6 characters a point
    rows = sample_strokes(m, 30, 2, 0.0, 1, text=codes("ab", "c"), alphabet=ALPHABET)
    assert all(r.capped and len(r.points) == 30 and r.phi.shape[0] == 30 for r in rows)
    replay(m, rows, codes("ab", "c"), 0.0, 1)


def test_the_stop_rule_compares_with_every_character():
    """Gaussian 2 sits on the first character with weight 10 (kappa stays at 0); Gaussian 1 walks past the end.
    phi(t, U+1) soon beats phi(t, U), but never phi(t, 1): the line must run on to the cap."""
    m = text_model()
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = 0.0
    L1.params["bp"][...] = [0.0, np.log(10.0), 0.0, 0.0, np.log(0.25), -20.0]   # a_hat, b_hat, k_hat (K = 2)
    text = codes("abc")
    rows = sample_strokes(m, 40, 1, 0.0, 2, text=text, alphabet=ALPHABET)
    assert rows[0].capped and len(rows[0].points) == 40
    ends = replay(m, rows, text, 0.0, 2)
    assert (ends[:, 0] > rows[0].phi[:, 2]).any()          # the last character alone would have stopped it
    assert (rows[0].phi[:, 0] > ends[:, 0]).all()


def test_past_the_end_reads_each_rows_own_characters():
    end = np.array([1.0, 1.0, 1.0])
    phi = np.array([[2.0, 0.5, 0.0], [0.5, 0.2, 9.0], [0.5, 0.2, 0.9]])   # row 2's third entry is padding
    np.testing.assert_array_equal(past_the_end(end, phi, np.array([2, 2, 3])), [False, True, True])


def test_a_prime_is_read_teacher_forced_then_the_line_is_written():
    m = text_model(kappa_bias=-1.0)
    prime_pts = np.array([[0, 0, 0], [0.5, 0.2, 0], [0.4, -0.3, 1], [-0.2, 0.1, 0], [0.3, 0.3, 0]], np.float64)
    prime = (prime_pts, codes("ca")[0])
    text = codes("ab", "bde")
    rows = sample_strokes(m, 30, 2, 0.5, 8, text=text, prime=prime, alphabet=ALPHABET)
    replay(m, rows, text, 0.5, 8, prime=prime)
    for r, t in zip(rows, ("ab", "bde")):
        assert r.text == t and r.chars == list("ca" + t) and r.prime_chars == 2 and r.phi.shape[1] == 2 + len(t)
        np.testing.assert_allclose(r.prime, prime_pts * [*SCALE, 1.0])
    free = sample_strokes(m, 30, 2, 0.5, 8, text=text, alphabet=ALPHABET)
    assert not np.array_equal(free[0].points[:5], rows[0].points[:5])


def test_a_model_without_a_window_refuses_a_text():
    m = build_model(dict(CONFIG, window=0), seed=1)
    assert not m.conditioned
    with pytest.raises(UserError, match="without text"):
        sample_strokes(m, 5, 1, text=codes("ab"))
    assert len(sample_strokes(m, 5, 2)) == 2                # and samples freely as before
    with pytest.raises(UserError, match="writes a given text"):
        sample_strokes(text_model(), 5, 1)


# ---- the API

def test_sample_run_writes_a_str_or_lines_and_checks_them(tmp_path):
    import lnrnn
    run = save_run(tmp_path / "run", text_model(kappa_bias=0.5))
    one = lnrnn.sample_run(run, steps=40, text="abc", seed=2)
    again = lnrnn.sample_run(run, steps=40, text=["abc"], seed=2)
    assert len(one) == 1 and one[0].text == "abc" and not one[0].capped
    np.testing.assert_array_equal(one[0].points, again[0].points)
    assert len(lnrnn.sample_run(run, steps=10, count=2, text=["ab", "ba"])) == 2
    assert [w.text for w in lnrnn.sample_run(run, steps=10, text=["ab", "ba"])] == ["ab", "ba"]  # count left at 1
    for kw, words in ((dict(text="abz"), "'z'"), (dict(text=["ab", ""]), "line 2 is empty"),
                      (dict(), "writes a given text"), (dict(text=["ab", "ba"], count=3), "count is 3"),
                      (dict(text="ab", prime_text="a"), "prime_text needs prime_strokes"),
                      (dict(text="ab", prime_strokes=np.zeros((3, 2)), prime_text="a"), "(N,3)")):
        with pytest.raises(UserError, match=None) as e:
            lnrnn.sample_run(run, steps=5, **kw)
        assert words in str(e.value) and "\n" not in str(e.value), str(e.value)
    mdn_run(tmp_path / "free")
    with pytest.raises(UserError, match="without text"):
        lnrnn.sample_run(tmp_path / "free", steps=5, text="ab")


# ---- the command

def test_cli_writes_the_lines_with_and_without_the_attention(tmp_path):
    run = save_run(tmp_path / "run", text_model(kappa_bias=-0.5))
    r = invoke("sample", "--checkpoint", run, "--text", "abc", "--text", "ed", "--steps", 40, "--seed", 3,
               "--out", tmp_path / "plain.png", "--npz", tmp_path / "lines.npz")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert "Wrote 2 lines of text" in r.stdout, r.stdout
    r = invoke("sample", "--checkpoint", run, "--text", "abc", "--text", "ed", "--steps", 40, "--seed", 3,
               "--attention", "--out", tmp_path / "att.png")
    assert r.exit_code == 0, r.output + repr(r.exception)
    for name in ("plain.png", "att.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    import matplotlib.image
    h_plain, h_att = (matplotlib.image.imread(str(tmp_path / n)).shape[0] for n in ("plain.png", "att.png"))
    assert h_att > h_plain * 1.5                                 # a panel beneath each line
    saved = np.load(tmp_path / "lines.npz", allow_pickle=False)
    assert list(saved["texts"]) == ["abc", "ed"] and saved["lengths"].sum() == len(saved["points"])
    # a line written before primes the next: its first line is the prime, in data units
    r = invoke("sample", "--checkpoint", run, "--text", "de", "--steps", 20, "--prime-strokes", tmp_path / "lines.npz",
               "--prime-text", "abc", "--attention", "--out", tmp_path / "primed.png", "--npz", tmp_path / "p.npz")
    assert r.exit_code == 0, r.output + repr(r.exception)
    assert (tmp_path / "primed.png").stat().st_size > 1000


def test_cli_says_which_lines_hit_the_cap(tmp_path):
    run = save_run(tmp_path / "run", text_model(kappa_bias=-12.0))
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--steps", 15, "--out", tmp_path / "s.png")
    assert r.exit_code == 0 and "line 1 reached the 15-point cap" in r.stdout, r.output
    run = save_run(tmp_path / "fast", text_model(kappa_bias=1.0))
    r = invoke("sample", "--checkpoint", run, "--text", "ab", "--steps", 15, "--out", tmp_path / "t.png")
    assert r.exit_code == 0 and "ended by the stop rule" in r.stdout, r.output


def prime_files(folder):
    """Priming files that are not stroke-3, each with what its error must say."""
    folder.mkdir()
    good = np.array([[0, 0, 0], [1, 2, 1]], np.float32)
    np.save(folder / "shape.npy", np.zeros((4, 2)))
    np.save(folder / "nan.npy", np.array([[0, 0, 0], [np.nan, 1, 0]]))
    np.save(folder / "pen.npy", np.array([[0, 0, 0], [1, 1, 2]]))
    np.save(folder / "objects.npy", np.array([good, None], dtype=object), allow_pickle=True)
    np.savez(folder / "nopoints.npz", lines=good)
    (folder / "text.npy").write_text("not numpy")
    (folder / "points.csv").write_text("0,0,0\n")
    return [("shape.npy", "(N,3)"), ("nan.npy", "NaN"), ("pen.npy", "pen values"), ("objects.npy", "pickled"),
            ("nopoints.npz", "no 'points'"), ("text.npy", "not a NumPy file"), ("points.csv", ".npz"),
            ("missing.npy", "no such file")]


def test_every_bad_input_is_one_line_and_writes_nothing(tmp_path):
    run = save_run(tmp_path / "run", text_model())
    mdn_run(tmp_path / "free")
    out = tmp_path / "out.png"
    good_prime = tmp_path / "good.npy"
    np.save(good_prime, np.array([[0, 0, 0], [1, 2, 1]], np.float32))
    cases = [(("--text", "abz", "--text", "x\u00e9"), ["--text line 1", "'z'"]),
             (("--text", "ab", "--text", ""), ["--text line 2 is empty"]),
             ((), ["writes a given text", "--text"]),
             (("--text", "ab", "--count", 3), ["--count 3", "1 --text line"]),
             (("--text", "ab", "--prime-text", "ab"), ["--prime-text needs --prime-strokes"]),
             (("--text", "ab", "--prime-strokes", good_prime), ["--prime-strokes needs --prime-text"]),
             (("--text", "ab", "--prime-strokes", good_prime, "--prime-text", "az"), ["--prime-text", "'z'"]),
             (("--attention",), ["--attention", "--text"])]
    cases += [(("--text", "ab", "--prime-strokes", tmp_path / "bad" / f, "--prime-text", "ab"), [w])
              for f, w in prime_files(tmp_path / "bad")]
    for args, words in cases:
        r = invoke("sample", "--checkpoint", run, "--steps", 5, "--out", out, *args)
        one_line_error(r, *words)
        assert not out.exists(), args
    for args, words in ((("--text", "ab"), ["without text", "leave out --text"]),
                        (("--prime-strokes", good_prime, "--prime-text", "ab"), ["leave out --prime-strokes"])):
        one_line_error(invoke("sample", "--checkpoint", tmp_path / "free", "--steps", 5, "--out", out, *args), *words)
        assert not out.exists()
