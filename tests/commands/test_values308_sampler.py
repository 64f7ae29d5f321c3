"""The writing sampler's stop rule by WHEN it fires (round 308 of the planted bugs,
tests/mutants/mutants_values308.py). A synthesis network whose window does not read h (Wp = 0, one
component: alpha = 1, beta = 1, kappa walking exp(log 0.4) = 0.4 characters a step) has, after step t
(0-based), kappa = 0.4 (t + 1) and phi(t, u) = exp(-(0.4 (t + 1) - u)^2), written out here: a row of L
characters stops at the first t where kappa is nearer L + 1 than L, 0.4 (t + 1) > L + 0.5, i.e. after 4, 7
and 9 points for L = 1, 2 and 3 in one batch; a cap of 9 is met exactly with no row capped, a cap of 8 caps
the longest row only; the progress bar counts 3 a step and fills what is left (3 x 12) at the step the last
row stops. The points under bias 0.7 are test_values52's draws by hand (pi = softmax(pi_hat (1 + b)),
sigma = exp(sigma_hat - b), the pen up where a uniform from the seeded generator falls below
sigmoid(e_hat)). Refusals word for word: codes that are floats, a prime's text with a character the run
never used. A ``Written`` built without a prime greys none of its attention labels (prime_chars 0)."""
import numpy as np
import pytest

from lnrnn.errors import UserError
from lnrnn.model.models import build_model
from lnrnn.sample import Written, _pyplot, sample_strokes, text_inputs, written_figure
from test_values52_sampler import ALPHABET, M, SCALE, codes, replay
from test_values_sampler_rule import Bar

STEP = 0.4
TEXTS = ("b", "ca", "abe")          # L = 1, 2, 3
STOPS = [4, 7, 9]                   # the first n with 0.4 n > L + 0.5


def walking_model():
    m = build_model(dict(cell="lstm", norm="ln", input_size=3, hidden_size=5, num_layers=2, dtype="float64",
                         forget_bias=1.0, window=1, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}), seed=6)
    L1 = m.stack.layers[0]
    L1.params["Wp"][...] = 0.0
    L1.params["bp"][...] = [0.0, 0.0, np.log(STEP)]
    return m


def phi_by_hand(n, L):
    t = np.arange(1, n + 1, dtype=np.float64)[:, None]
    u = np.arange(1, L + 1, dtype=np.float64)[None, :]
    return np.exp(-(STEP * t - u) ** 2)


def test_each_row_stops_at_the_first_step_past_its_last_character_and_the_bar_fills_then():
    m = walking_model()
    bar = Bar()
    seen = []
    real = bar.update
    bar.update = lambda n: (seen.append(n), real(n))
    rows = sample_strokes(m, 20, 3, 0.7, 13, progress=bar, text=codes(*TEXTS), alphabet=ALPHABET)
    assert [len(r.points) for r in rows] == STOPS
    assert [r.capped for r in rows] == [False] * 3
    for r, L, n in zip(rows, (1, 2, 3), STOPS):
        assert r.phi.shape == (n, L)
        np.testing.assert_allclose(r.phi, phi_by_hand(n, L), rtol=1e-9, atol=1e-14)
        # one step before the stop the weight past the end is still below the last character's
        k = STEP * (n - 1)
        assert np.exp(-(k - (L + 1)) ** 2) < np.exp(-(k - L) ** 2)
    assert seen == [3] * 8 + [3 * 12] and bar.n == 60
    want = replay(m, [r.points for r in rows], np.zeros(3), 13, 0.7, texts=codes(*TEXTS))
    for r, w in zip(rows, want):
        np.testing.assert_allclose(r.points, w, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("cap, kept, capped", [(9, [4, 7, 9], [False, False, False]),
                                               (8, [4, 7, 8], [False, False, True])])
def test_a_cap_met_exactly_caps_nothing_and_one_less_caps_the_longest_row(cap, kept, capped):
    m = walking_model()
    bar = Bar()
    rows = sample_strokes(m, cap, 3, 0.0, 2, progress=bar, text=codes(*TEXTS), alphabet=ALPHABET)
    assert [len(r.points) for r in rows] == kept
    assert [r.capped for r in rows] == capped
    assert bar.n == 3 * cap
    np.testing.assert_allclose(rows[2].phi, phi_by_hand(kept[2], 3), rtol=1e-9, atol=1e-14)
    assert [r.text for r in rows] == list(TEXTS)


def test_codes_that_are_floats_are_refused_word_for_word():
    m = walking_model()
    with pytest.raises(UserError) as e:
        sample_strokes(m, 5, 2, text=[np.array([2, 3]), np.array([2.0, 3.0])])
    assert str(e.value) == ("line 2 of text must be a non-empty 1-D array of codes in [0, 7) (the model's "
                            "alphabet); encode a str with lnrnn.data.strokes.encode_text.")


def test_a_prime_text_with_a_character_the_run_never_used_is_refused_by_name():
    m = walking_model()
    with pytest.raises(UserError) as e:
        text_inputs(m, {"alphabet": ALPHABET}, ["ab"], prime_strokes=np.zeros((2, 3)), prime_text="azd")
    assert str(e.value) == ("prime_text ('azd') has characters that the run's training texts never used: 'z'; "
                            "the run can write only these: ' abcde'.")


def test_a_written_row_built_without_a_prime_greys_no_character():
    row = Written(points=np.array([[0.1, 0.2, 0.0], [0.3, 0.1, 1.0]]), phi=np.full((2, 3), 0.2), capped=False,
                  text="abc", chars=list("abc"), codes=np.array([2, 3, 4]))
    assert row.prime is None and row.prime_chars == 0
    plt = _pyplot()
    fig = written_figure(plt, [row], attention=True)
    try:
        ax = next(a for a in fig.axes if a.get_ylabel() == "character")
        labels = ax.get_yticklabels()
        assert [lab.get_text() for lab in labels] == ["a", "b", "c"]
        assert [lab.get_color() for lab in labels] != [] and "#909090" not in [lab.get_color() for lab in labels]
    finally:
        plt.close(fig)
