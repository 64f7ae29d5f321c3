"""lnrnn/judge.py, nineteenth pass (round 360 of the planted bugs, tests/mutants/mutants_values360.py):
replay_kappa of written lines made here (lnrnn.sample.Written: points in data units with the x and y scales
apart, 2 and 3; rows of 4 and 6 points, primed and not) against lnrnn/reference.py's window run over each row
alone: its inputs the prime's points (or the origin) then every point but the last, in the model's units, its
text the row's codes (the prime's first); kappa_T the alpha-weighted mean of the K centres at the row's last
step, alpha = exp(a_hat) and kappa the running sum of exp(k_hat), both from the reference's h by Graves's
parameterization, and phi the reference's over the row's written points. check_judge on stand-in runs
(test_values281_judge._runs) gives the reader's alphabet, and refuses a writer offered as the judge word for
word."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.errors import UserError
from lnrnn.judge import check_judge, replay_kappa
from lnrnn.sample import Written
from test_values133_sampler import ALPHABET, H, K, UNIT, codes, text_model
from test_values281_judge import _runs


def spec_row(m, inputs, full):
    """The reference's window over one row: inputs (T,3) normalized, full (U,) codes -> kappa_T, phi (T,U)."""
    p = m.stack.layers[0].params
    G, C, U = 4 * H, len(ALPHABET), len(full)
    out = ref.window_lstm_forward(inputs[:, None, :], np.zeros((1, H)), np.zeros((1, H)), np.zeros((1, K)),
                                  np.zeros((1, C)), full[None, :], np.array([U]), p["Wx"], p["Wh"], p["b"],
                                  p["gx"], p["bx"], p["gh"], p["bh"], p["gc"], p["bc"], p["Wp"], p["bp"],
                                  *(np.zeros((1, G)),) * 6, "ln", training=False)
    y, phi = out[0][:, 0], out[6][:, 0]                                # (T,H), (T,U)
    q = y @ p["Wp"] + p["bp"]                                          # (T,3K)
    alpha = np.exp(q[-1, :K])
    kappa = np.exp(q[:, 2 * K:]).sum(axis=0)                           # kappa_T: the sum of every step's move
    return (alpha * kappa).sum() / alpha.sum(), phi


def rows(prime, lines, sizes, seed):
    """Written lines of random points (data units): prime (P,3) normalized or None, lines as str."""
    rng = np.random.default_rng(seed)
    pre = codes("ab ")[0] if prime is not None else np.zeros(0, np.int64)
    out = []
    for text, n in zip(lines, sizes):
        pts = np.column_stack([rng.normal(0.0, 0.6, (n, 2)), (rng.random(n) < 0.3).astype(float)]) * UNIT
        full = np.concatenate([pre, codes(text)[0]])
        out.append(Written(points=pts, phi=np.zeros((n, len(full))), capped=False, text=text,
                           chars=[ALPHABET[c] for c in full], codes=full,
                           prime=None if prime is None else prime * UNIT, prime_chars=len(pre)))
    return out


@pytest.mark.parametrize("primed", [False, True])
def test_replay_kappa_is_the_alpha_weighted_centre_of_each_rows_reference_window(primed):
    m = text_model()
    prime = np.array([[0.4, -0.3, 0.0], [0.2, 0.5, 1.0], [-0.6, 0.1, 0.0]]) if primed else None
    written = rows(prime, ["cab", "de"], [4, 6], seed=31 + primed)
    kappa, phi = replay_kappa(m, written)
    assert kappa.shape == (2,) and len(phi) == 2
    for b, r in enumerate(written):
        first = np.zeros((1, 3)) if prime is None else prime
        inputs = np.concatenate([first, r.points[:-1] / UNIT])
        want_kappa, want_phi = spec_row(m, inputs, r.codes)
        assert kappa[b] == pytest.approx(want_kappa, rel=1e-10)
        assert phi[b].shape == (len(r.points), len(r.codes))
        np.testing.assert_allclose(phi[b], want_phi[-len(r.points):], rtol=1e-9, atol=1e-12)
    assert abs(kappa[0] - kappa[1]) > 1e-3                             # the rows are each their own


def test_check_judge_gives_the_readers_alphabet_and_refuses_a_writer_as_judge():
    writer, reader = _runs(" abc")
    assert check_judge(writer, reader, ["cab", "bac"]) == " abc"
    with pytest.raises(UserError) as e:
        check_judge(writer, writer, ["cab"])
    assert str(e.value) == ("the judge (w-run) is a writer (a synthesis run), not a reader; judge with a run "
                            "trained with lnrnn train --head ctc on the writer's task.")
