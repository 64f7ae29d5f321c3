"""lnrnn/judge.py's alignment quantities on lines written after a prime (test_judge.py covers unprimed
lines): travel is (kappa_T - V) / (U - V) over the line's own U - V characters, kappa_T computed here by
stepping the writer over the prime's points and every written point but the last, with the prime's
text in front; the replayed phi is the sampler's; the peak of phi skips the prime's columns."""
import numpy as np
import pytest

import lnrnn
from lnrnn.judge import judge, replay_kappa
from test_judge import reader_run
from test_sample_text import SCALE, save_run, text_model

PRIME = np.array([[0.0, 0.0, 0.0], [3.0, 1.0, 0.0], [2.0, -0.5, 1.0], [-1.0, 0.4, 0.0], [2.5, 0.3, 0.0]])


def stepped_kappa(m, row, seed):
    """kappa_T (alpha-weighted) by stepping the model one input at a time: the prime's points, then the
    written points but the last (what the sampler fed back), normalized by the head's scale."""
    units = np.array([*SCALE, 1.0])
    xs = np.concatenate([np.asarray(row.prime) / units, row.points[:-1] / units])
    txt = (row.codes[None, :], np.array([len(row.codes)]))
    state = m.noise_state(1, (3, seed))
    for t, xt in enumerate(xs):
        y, state = m.stack.step(xt[None].astype(m.dtype), state, t=t, text=txt)
    K, L1 = m.stack.K, m.stack.layers[0]
    alpha = np.exp(np.asarray(y[:, :m.stack.H], np.float64) @ L1.params["Wp"] + L1.params["bp"])[0, :K]
    return float((alpha * state[0][2][0]).sum() / alpha.sum())


def test_travel_of_primed_lines_counts_the_lines_own_characters(tmp_path):
    m = text_model(kappa_bias=-0.3)
    writer, reader = save_run(tmp_path / "w", m), reader_run(tmp_path / "r")
    texts, prime_text = ["abc", "dcaeb"], "da"
    rows = lnrnn.sample_run(writer, steps=20, text=texts, bias=0.5, seed=5, prime_strokes=PRIME * [*SCALE, 1.0],
                            prime_text=prime_text)
    assert all(r.prime_chars == 2 and len(r.codes) == 2 + len(t) for r, t in zip(rows, texts))
    run = lnrnn.load_run(writer)
    got = judge(writer, reader, rows, seed=5)
    for j, r, t in zip(got, rows, texts):
        want = (stepped_kappa(run.model, r, 5) - 2) / len(t)
        assert j.travel == pytest.approx(want, rel=1e-4, abs=1e-6)
        assert j.peak_phi == pytest.approx(float(np.asarray(r.phi)[:, 2:].max()))
    _, phi = replay_kappa(run.model, rows, seed=5)
    for p, r in zip(phi, rows):
        np.testing.assert_allclose(p, r.phi, rtol=1e-4, atol=1e-6)
