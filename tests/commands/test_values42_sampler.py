"""When the writing sampler stops, worked out by hand (lnrnn/sample.py, Graves 2013 sec. 5): a synthesis
network whose window does not depend on h (Wp = 0) has alpha = 3, beta = 2 and kappa moving 0.45 characters a
step from zero, so phi(t, u) = K * 3 exp(-2 (0.45 (t + 1) - u)^2) at every step t, and Graves's rule
(phi(t, U+1) above every phi(t, u <= U)) first holds when kappa_t > U + 0.5. Each row stops at its own step,
stays stopped while the others run on, stops at the cap exactly without being called capped, is capped one
step earlier with every one of the cap's steps run; a prime's teacher-forced steps move kappa too, its text
counts in U, and its characters name phi's first columns. The draws take the bias and, after a prime, the
prime's last point as their input (one whole-sequence forward, the mixture drawn by hand). sample_run passes
bias and seed on as they are and refuses zero steps or lines."""
import numpy as np
import pytest

import lnrnn
from lnrnn.errors import UserError
from lnrnn.kernels.mdn import mdn_split
from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes
from test_sample import mdn_run
from test_sample_text import save_run

ALPHABET = "\ufffdabcde"
SCALE = (2.0, 3.0)
K = 2
INC, ALPHA, BETA = 0.45, 3.0, 2.0


def text_model(dtype="float64", fixed_window=True, seed=1):
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype=dtype,
                         forget_bias=1.0, window=K, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": 3, "per_step": True, "scale": list(SCALE)}), seed=seed)
    if fixed_window:
        L1 = m.stack.layers[0]
        L1.params["Wp"][...] = 0.0
        L1.params["bp"][...] = [np.log(ALPHA)] * K + [np.log(BETA)] * K + [np.log(INC)] * K
    return m


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


def phi_by_hand(steps, U, t0=0):
    """(steps, U) phi(t0 + i, u) for u = 1..U, kappa_t = INC (t + 1)."""
    kappa = INC * (t0 + np.arange(steps) + 1.0)[:, None]
    return K * ALPHA * np.exp(-BETA * (kappa - np.arange(1, U + 1)) ** 2)


def first_stop(U, t0=0):
    """The number of points drawn up to the first step i at which kappa_{t0+i} > U + 0.5, by counting."""
    i = 0
    while not INC * (t0 + i + 1) > U + 0.5:
        i += 1
    return i + 1


def test_the_worked_stopping_steps():
    assert first_stop(1) == 4 and first_stop(3) == 8 and first_stop(3, t0=2) == 6 and first_stop(5, t0=2) == 11


def check_rows(rows, lengths, caps, U, t0=0):
    assert [len(r.points) for r in rows] == lengths
    assert [r.capped for r in rows] == caps
    for r, n, u in zip(rows, lengths, U):
        assert r.points.shape == (n, 3) and r.phi.shape == (n, u)
        np.testing.assert_allclose(r.phi, phi_by_hand(n, u, t0), rtol=1e-10, atol=1e-300)
        assert np.all(np.isin(r.points[:, 2], (0.0, 1.0))) and np.all(np.abs(r.points[-1, :2]) > 0)


def test_each_row_stops_at_its_own_step_and_stays_stopped():
    """Lines of 1 and 3 characters under a cap of 20: 4 and 8 points, neither capped; the short row is not
    restarted while the long one runs on."""
    m = text_model()
    rows = sample_strokes(m, 20, 2, 0.0, 3, text=codes("a", "bcd"), alphabet=ALPHABET)
    check_rows(rows, [4, 8], [False, False], [1, 3])


def test_the_rule_firing_at_the_cap_is_not_capped_and_a_smaller_cap_runs_every_step():
    m = text_model()
    rows = sample_strokes(m, 8, 2, 0.0, 3, text=codes("a", "bcd"), alphabet=ALPHABET)
    check_rows(rows, [4, 8], [False, False], [1, 3])                   # step 8 is the cap and the stop
    rows = sample_strokes(m, 7, 2, 0.0, 3, text=codes("a", "bcd"), alphabet=ALPHABET)
    check_rows(rows, [4, 7], [False, True], [1, 3])                    # one step short of the stop: capped
    rows = sample_strokes(m, 1, 2, 0.0, 3, text=codes("a", "bcd"), alphabet=ALPHABET)
    check_rows(rows, [1, 1], [True, True], [1, 3])                     # a cap of one point


def test_a_prime_moves_kappa_and_its_text_counts():
    """A prime of 3 points (2 teacher-forced steps) and 2 characters: the first drawn step is t = 2, the rows
    read 2 + 1 and 2 + 3 characters and stop after 6 and 11 points; chars name phi's columns, the prime's
    first."""
    m = text_model()
    prime = (np.array([[0.0, 0.0, 0.0], [0.5, 0.2, 0.0], [0.4, -0.3, 1.0]]), codes("ea")[0])
    rows = sample_strokes(m, 30, 2, 0.0, 3, text=codes("a", "bcd"), prime=prime, alphabet=ALPHABET)
    check_rows(rows, [6, 11], [False, False], [3, 5], t0=2)
    assert [r.chars for r in rows] == [list("eaa"), list("eabcd")] and [r.prime_chars for r in rows] == [2, 2]


def draw_by_hand(out, rng, bias, M=3):
    """One point per row of the head's output out (B,6M+1), drawn in the sampler's order: the component's
    uniform, two normals, the pen's uniform; weights and spreads biased by mdn_split."""
    e, pi, mu1, mu2, s1, s2, rho = mdn_split(out, M, bias)
    B = len(out)
    u = rng.random(B)
    k = np.array([min(int(np.searchsorted(np.cumsum(pi[b]), u[b], side="left")), M - 1) for b in range(B)])
    z1, z2 = rng.standard_normal(B), rng.standard_normal(B)
    rows = np.arange(B)
    r = rho[rows, k]
    x1 = mu1[rows, k] + s1[rows, k] * z1
    x2 = mu2[rows, k] + s2[rows, k] * (r * z1 + np.sqrt(1 - r * r) * z2)
    return np.stack([x1, x2, (rng.random(B) < e).astype(float)], axis=1)


@pytest.mark.parametrize("bias", [0.0, 1.5])
def test_the_first_drawn_point_reads_the_primes_last_point_and_takes_the_bias(bias):
    """The first drawn point, from one forward over the prime's points with the whole text: drawn with the
    given bias from the output of the step that reads the prime's last point."""
    m = text_model(fixed_window=False)
    prime_pts = np.array([[0.0, 0.0, 0.0], [0.9, -0.4, 0.0], [-0.6, 0.8, 1.0], [1.3, 0.7, 0.0]])
    pc = codes("ea")[0]
    text = codes("bcd")
    seed = 5
    rows = sample_strokes(m, 3, 1, bias, seed, text=text, prime=(prime_pts, pc), alphabet=ALPHABET)
    full = np.concatenate([pc, text[0]])
    y, _ = m.stack.forward(prime_pts[:, None, :], m.noise_state(1, (3, seed)), training=False, keep=False,
                           text=(full[None], np.array([len(full)])))
    out = m.head.linear(y)[-1]                                             # (1, 6M+1) the last prime step's
    want = draw_by_hand(out, np.random.default_rng(seed), bias)
    np.testing.assert_allclose(rows[0].points[0], want[0] * [*SCALE, 1.0], rtol=1e-9, atol=1e-12)
    other = draw_by_hand(out, np.random.default_rng(seed), 1.5 - bias)    # the other bias draws elsewhere
    assert not np.allclose(other[0, :2], want[0, :2])


def test_sample_run_passes_bias_and_seed_on(tmp_path):
    run = save_run(tmp_path / "text", text_model("float32", fixed_window=False))
    loaded = lnrnn.load_run(run).model
    got = lnrnn.sample_run(run, steps=6, text=["abc", "d"], bias=0.8, seed=3)
    want = sample_strokes(loaded, 6, 2, 0.8, 3, text=codes("abc", "d"), alphabet=ALPHABET)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g.points, w.points)
        np.testing.assert_array_equal(g.phi, w.phi)
    mdn_run(tmp_path / "free")
    free = lnrnn.load_run(tmp_path / "free").model
    got = lnrnn.sample_run(tmp_path / "free", steps=5, count=2, bias=0.8, seed=3)
    want = sample_strokes(free, 5, 2, 0.8, 3)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    assert not np.array_equal(want[0], sample_strokes(free, 5, 2, 3.0, 0)[0])


def test_sample_run_refuses_zero_steps_or_lines_and_takes_one(tmp_path):
    mdn_run(tmp_path / "free")
    for kw, what in ((dict(steps=0), "steps"), (dict(count=0), "count"), (dict(steps=-2), "steps")):
        with pytest.raises(UserError, match=f"{what} must be at least 1"):
            lnrnn.sample_run(tmp_path / "free", **kw)
    one = lnrnn.sample_run(tmp_path / "free", steps=1, count=1)
    assert len(one) == 1 and one[0].shape == (1, 3)
