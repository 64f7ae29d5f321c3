"""lnrnn/model/models.py at tiny sizes, float64, against what is written out here: a last-step classifier's loss
(reference.rnn_forward and log-softmax by hand) and every gradient that ``model.grads`` names against central
differences of that loss, with the flat gradient buffer holding the same values; the initial-state noise of an
update drawn by hand from numpy's generator seeded (noise_seed, 1, key), for a given key and for the counter of
calls; the scored count of last-step and per-step heads over rows of lengths 5, 0 and 2 counted by hand; a config
upgraded and a model built from it with the caller's dict left as it was; the documented recurrent_init default
(random orthogonal blocks, not identity ones)."""
import copy

import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.models import build_model, head_config, upgrade_config
from test_values341_layers_stacks import _central

I, H, C = 2, 5, 4


def _cfg(**kw):
    base = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                forget_bias=1.0, head=head_config("ce", C))
    return {**base, **kw}


def _loss_by_hand(P, x, labels, h0=None):
    """The mean cross-entropy of a one-layer plain RNN's last step (every row runs all T steps)."""
    h0 = np.zeros((x.shape[1], H)) if h0 is None else h0
    hT = ref.rnn_forward(x, h0, P["rnn.l0.Wx"], P["rnn.l0.Wh"], P["rnn.l0.b"], None, "none")[1]
    z = hT @ P["head.W"] + P["head.b"]
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    return -float(np.mean(logp[np.arange(len(labels)), labels]))


def test_loss_and_every_named_gradient_against_the_spec_and_central_differences():
    m = build_model(_cfg(), seed=3)
    P = m.params
    assert list(P) == ["rnn.l0.Wx", "rnn.l0.Wh", "rnn.l0.b", "head.W", "head.b"]
    rng = np.random.default_rng(5)
    x = rng.standard_normal((4, 3, I))
    labels = np.array([2, 0, 3])
    out = m.loss_and_grad(x, labels)
    assert out["loss"] == pytest.approx(_loss_by_hand(P, x, labels), rel=1e-12)
    names = list(P)
    want = _central(lambda: _loss_by_hand(P, x, labels), [P[n] for n in names])
    got = m.grads
    assert list(got) == names
    for n, w in zip(names, want):
        np.testing.assert_allclose(got[n], w, rtol=1e-6, atol=1e-9, err_msg=n)
    # the flat buffers are the optimizer's view of the same arrays
    np.testing.assert_array_equal(m.flat[1].data, np.concatenate([got[n].ravel() for n in names]))
    np.testing.assert_array_equal(m.flat[0].data, np.concatenate([P[n].ravel() for n in names]))


def _noise_by_hand(seed, key, sigma, B):
    return sigma * np.random.default_rng([seed, 1, key]).standard_normal((B, H))


def test_an_updates_initial_state_noise_drawn_by_hand_for_its_key_and_for_the_counter():
    m = build_model(_cfg(state_noise=0.3), seed=2)
    assert m.state_noise == 0.3 and m.noise_seed == 2
    rng = np.random.default_rng(6)
    x = rng.standard_normal((3, 4, I))
    labels = np.array([1, 3, 0, 2])
    P = m.params
    out = m.loss_and_grad(x, labels, noise_key=7)
    assert out["loss"] == pytest.approx(_loss_by_hand(P, x, labels, _noise_by_hand(2, 7, 0.3, 4)), rel=1e-12)
    for calls in (0, 1):   # without a key: the counter of calls, 0 then 1
        out = m.loss_and_grad(x, labels)
        want = _loss_by_hand(P, x, labels, _noise_by_hand(2, calls, 0.3, 4))
        assert out["loss"] == pytest.approx(want, rel=1e-12)
    assert _loss_by_hand(P, x, labels, _noise_by_hand(2, 0, 0.3, 4)) != pytest.approx(
        _loss_by_hand(P, x, labels, _noise_by_hand(2, 7, 0.3, 4)), rel=1e-6)


def test_scored_counts_by_hand_over_rows_of_lengths_5_0_2():
    T, B = 5, 3
    lengths = np.array([5, 0, 2])
    last = build_model(_cfg(), seed=0)
    assert last.scored_count(np.array([1, 2, 3]), lengths, T, B) == 2       # rows with a step
    assert last.scored_count(np.array([1, 2, 3]), None, T, B) == 3
    per_step = build_model(_cfg(head=head_config("ce", C, per_step=True)), seed=0)
    labels = np.array([[0, 3, -1, 2, 1], [2, 2, 1, 0, 3], [1, -1, 0, 0, 0]])   # (B,T); -1 unscored
    assert per_step.scored_count(labels, lengths, T, B) == 4 + 0 + 1
    assert per_step.scored_count(labels, None, T, B) == 4 + 5 + 4


def test_upgrade_config_and_build_model_leave_the_callers_dict_as_it_was():
    cfg = _cfg()
    kept = copy.deepcopy(cfg)
    assert upgrade_config(cfg) == {**kept, "state_noise": 0.0}
    assert cfg == kept
    m = build_model(cfg, seed=1)
    assert cfg == kept
    assert m.config == {**kept, "state_noise": 0.0}


@pytest.mark.parametrize("cell", ["rnn", "lstm"])
def test_build_model_draws_random_orthogonal_recurrent_blocks_by_default(cell):
    m = build_model(_cfg(cell=cell), seed=4)
    Wh = m.params["rnn.l0.Wh"]
    blocks = 4 if cell == "lstm" else 1
    assert Wh.shape == (H, blocks * H)
    for k in range(blocks):
        w = Wh[:, k * H:(k + 1) * H]
        np.testing.assert_allclose(w @ w.T, np.eye(H), rtol=0, atol=1e-12)
        assert np.abs(w - np.eye(H)).max() > 0.1      # not the identity init (Cooijmans et al.'s MNIST setting)
