"""lnrnn.judge.stop_at_last against its definition: the line ended by the stop rule (not at the step cap) at a
step whose largest phi is on the text's last character. A capped line whose last step happens to peak on the
last character did not stop there by the rule."""
from types import SimpleNamespace

import numpy as np

from lnrnn.judge import stop_at_last, summary

PEAK_LAST = np.array([[0.9, 0.1, 0.0], [0.1, 0.3, 0.6]])     # (N=2, U=3): the last step peaks on character 3
PEAK_MID = np.array([[0.9, 0.1, 0.0], [0.1, 0.6, 0.3]])


def row(capped, phi):
    return SimpleNamespace(capped=capped, points=np.zeros((len(phi), 3)), phi=phi, prime_chars=0)


def test_stop_at_last_needs_the_rule_and_the_last_character():
    assert stop_at_last(row(False, PEAK_LAST)) is True
    assert stop_at_last(row(True, PEAK_LAST)) is False
    assert stop_at_last(row(False, PEAK_MID)) is False
    assert stop_at_last(row(True, PEAK_MID)) is False


def test_the_summary_share_of_lines_that_stopped_at_the_last():
    from lnrnn.judge import Judged
    rows = [row(False, PEAK_LAST), row(True, PEAK_LAST), row(False, PEAK_MID), row(False, PEAK_LAST)]
    judged = [Judged(text="ab", read="ab", cer=0.0, travel=1.0, stop_at_last=stop_at_last(r), peak_phi=0.9,
                     points=2, capped=r.capped) for r in rows]
    assert summary(judged)["stop_at_last"] == 2 / 4


def test_travel_of_lines_of_different_lengths_is_each_line_alone():
    """replay_kappa over a padded batch: each line's alpha is read at its own last point, so a short line's
    kappa_T is the one it has replayed alone (a line's alpha past its end would weigh its centres otherwise)."""
    from lnrnn.judge import replay_kappa
    from lnrnn.sample import sample_strokes
    from test_sample_text import ALPHABET, codes, text_model, window_op  # noqa: F401  (the fixture binds the op)

    m = text_model(kappa_bias=np.array([0.05, 0.9]))   # the K = 2 centres apart: alpha's weighting shows
    rows = sample_strokes(m, 40, 3, 0.5, 4, text=codes("ab", "bdeca", "c"), alphabet=ALPHABET)
    assert len({len(r.points) for r in rows}) > 1, [len(r.points) for r in rows]
    both, phi = replay_kappa(m, rows, seed=4)
    for b, r in enumerate(rows):
        alone, phi_alone = replay_kappa(m, [r], seed=4)
        np.testing.assert_allclose(both[b], alone[0], rtol=1e-5)
        np.testing.assert_allclose(phi[b], phi_alone[0], rtol=1e-5, atol=1e-7)
