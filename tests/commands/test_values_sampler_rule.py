"""Writing a given text, checked against the window's definition over one whole-sequence forward
(lnrnn.model.window's docstring, Graves 2013 eqs. 46-51): p_t = h1_t Wp + bp, alpha = exp(a_hat),
beta = exp(b_hat), kappa_t = the running sum of exp(k_hat) from zero, phi(t, u) = sum_k alpha
exp(-beta (kappa - u)^2). For a BatchNorm synthesis network (population statistics that differ from step
to step, the seed's state noise) primed with handwriting, each row's points are the draws of that
forward's outputs, its phi is phi(t, u), and it stops at the first step where phi(t, U+1) exceeds every
phi(t, u <= U), computed here; the progress bar ends full. Graves's rule itself is checked against a
loop over rows with ties and padding."""
import numpy as np
import pytest

from lnrnn.model.models import build_model
from lnrnn.sample import past_the_end, sample_strokes

ALPHABET = "\ufffdabcde"
SCALE = (2.0, 0.5)
K, H = 2, 5


def past_the_end_by_loop(end, phi, ulen):
    return np.array([all(end[b] > phi[b, u] for u in range(ulen[b])) for b in range(len(end))])


def test_the_rule_compares_strictly_with_each_rows_own_characters():
    """Small integer weights (ties everywhere), padding columns that hold weights, every length 1..U."""
    rng = np.random.default_rng(0)
    for _ in range(200):
        B, U = 4, 5
        phi = rng.integers(0, 4, (B, U)).astype(np.float64)
        end = rng.integers(0, 4, B).astype(np.float64)
        ulen = rng.integers(1, U + 1, B)
        np.testing.assert_array_equal(past_the_end(end, phi, ulen), past_the_end_by_loop(end, phi, ulen))
    # a tie with a character is not past it; a larger weight beyond the row's length is not read
    np.testing.assert_array_equal(past_the_end(np.array([2.0, 2.0]), np.array([[1.0, 2.0, 0.0], [1.0, 1.5, 3.0]]),
                                               np.array([2, 2])), [False, True])


def bn_text_model(kappa_bias, seed=4, Ts=6):
    m = build_model(dict(cell="lstm", norm="bn", input_size=3, hidden_size=H, num_layers=2, dtype="float64",
                         forget_bias=1.0, state_noise=0.3, window=K, alphabet_size=len(ALPHABET),
                         head={"kind": "mdn", "components": 2, "per_step": True, "scale": list(SCALE)}),
                    seed=seed, max_steps=Ts)
    rng = np.random.default_rng(seed + 10)
    for layer in m.stack.layers:  # population statistics whose rows differ from step to step
        for k, v in layer.buffers.items():
            layer.buffers[k] = rng.uniform(0.5, 2.0, v.shape) if k.startswith("rv") else rng.normal(0, 0.5, v.shape)
    m.stack.layers[0].params["bp"][2 * K:] = kappa_bias
    return m


def codes(*texts):
    return [np.array([ALPHABET.index(c) for c in t], np.int64) for t in texts]


class Bar:
    def __init__(self):
        self.n = 0

    def update(self, n):
        self.n += n


def window_by_definition(m, y, ulen):
    """phi (T,B,U+1) at u = 1..U+1 from the layer-1 outputs h1 = y[..., :H] (T,B,H), kappa from zero."""
    L1 = m.stack.layers[0]
    p = y[:, :, :H] @ L1.params["Wp"] + L1.params["bp"]                     # (T,B,3K)
    alpha, beta = np.exp(p[..., :K]), np.exp(p[..., K:2 * K])
    kappa = np.cumsum(np.exp(p[..., 2 * K:]), axis=0)                       # (T,B,K)
    u = np.arange(1, ulen.max() + 2, dtype=np.float64)                      # (U+1,)
    return (alpha[..., None, :] * np.exp(-beta[..., None, :] * (kappa[..., None, :] - u[:, None]) ** 2)).sum(-1)


@pytest.mark.parametrize("primed", [False, True], ids=["free", "primed"])
def test_written_rows_replay_as_one_forward_and_stop_where_the_rule_first_holds(primed):
    m = bn_text_model(kappa_bias=-0.7 if primed else -0.5)
    text = codes("abcde", "ab", "cab")
    prime_pts = np.array([[0, 0, 0], [0.5, 0.2, 0], [0.4, -0.3, 1], [-0.2, 0.1, 0]], np.float64)
    prime = (prime_pts, codes("da")[0]) if primed else None
    steps, count, seed, bias = 30, len(text), 6, 0.3
    bar = Bar()
    rows = sample_strokes(m, steps, count, bias=bias, seed=seed, text=text, prime=prime, alphabet=ALPHABET,
                          progress=bar)
    assert bar.n == steps * count
    full = [np.concatenate([prime[1], c]) if primed else c for c in text]
    ulen = np.array([len(c) for c in full])
    cd = np.zeros((count, ulen.max()), np.int64)
    for b, c in enumerate(full):
        cd[b, :len(c)] = c
    n = np.array([len(r.points) for r in rows])
    assert not any(r.capped for r in rows) and len(set(n)) > 1, n         # rows stop by the rule, at different steps
    # the inputs: the prime's points (or the origin), then each row's own draws; zeros after a row stopped
    t0 = len(prime_pts) - 1 if primed else 0
    T = t0 + n.max()
    x = np.zeros((T, count, 3))
    if primed:
        x[:t0 + 1] = prime_pts[:, None, :]
    units = np.array([*SCALE, 1.0])
    for b, r in enumerate(rows):
        x[t0 + 1:t0 + n[b], b] = r.points[:-1] / units
    y, _ = m.stack.forward(x, m.noise_state(count, (3, seed)), training=False, keep=False, text=(cd, ulen))
    out = m.head.linear(y)
    phi = window_by_definition(m, y, ulen)                                  # (T,B,U+1)
    rng = np.random.default_rng(seed)
    for i in range(n.max()):
        p = m.head.sample(out[t0 + i], rng, bias)
        for b, r in enumerate(rows):
            if i < n[b]:
                np.testing.assert_allclose(r.points[i], p[b] * units, rtol=1e-9, atol=1e-12)
                np.testing.assert_allclose(r.phi[i], phi[t0 + i, b, :ulen[b]], rtol=1e-9, atol=1e-300)
    for b in range(count):
        held = [phi[t0 + i, b, ulen[b]] > phi[t0 + i, b, :ulen[b]].max() for i in range(n[b])]
        assert held[-1] and not any(held[:-1]), (b, held)
    assert all(r.prime_chars == (len(prime[1]) if primed else 0) for r in rows)
