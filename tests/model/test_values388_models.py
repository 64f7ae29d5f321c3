"""lnrnn/model/models.py at tiny sizes, float64, against what is written out here: a synthesis network's config keeping
K, C and the window layer's own norm, its window layer shaped by them (Wx over the input and the C-wide window, Wp 3K
wide), and the model rebuilt from that config the same model; initial-state noise of 0.5 drawn by hand from numpy's
generator, for a key and for the first two updates given none (keys 0 and 1); the refusals of a text where it does
not belong and of a missing one word for word; a per-step classifier's inference sums and count over ragged rows
against log-softmax by hand, and the evaluated mean; last_outputs of rows of lengths 5, 0 and 2 (T = 5, B = 3), from
zero states and from given ones, against reference.rnn_forward row by row; head_config refusing an unknown objective;
an lnrnn 0.1 config upgraded by build_model."""
import numpy as np
import pytest

from lnrnn import reference as ref
from lnrnn.model.models import build_model, head_config

I, H, C = 2, 3, 4
T, B = 5, 3
LENGTHS = np.array([5, 0, 2], np.int64)


def _cfg(**kw):
    base = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
                forget_bias=1.0, head=head_config("ce", C))
    return {**base, **kw}


def _rows_by_hand(P, x, lengths, h0):
    """(B,H): each row's plain-RNN output at its last step (zeros for a row of 0 steps), one row at a time."""
    out = np.zeros((x.shape[1], H))
    for b, n in enumerate(lengths):
        if n:
            y = ref.rnn_forward(x[:n, b:b + 1], h0[b:b + 1], P["rnn.l0.Wx"], P["rnn.l0.Wh"], P["rnn.l0.b"],
                                None, "none")[0]
            out[b] = y[n - 1, 0]
    return out


def _log_softmax(z):
    return z - np.log(np.exp(z - z.max(-1, keepdims=True)).sum(-1, keepdims=True)) - z.max(-1, keepdims=True)


# ---- the synthesis network's config ----

def _window_cfg():
    return dict(cell="lstm", norm="none", input_size=3, hidden_size=4, num_layers=2, dtype="float64",
                forget_bias=1.0, head={"kind": "mdn", "components": 2, "per_step": True}, skip=True,
                window=2, alphabet_size=5, window_norm="ln")


def test_a_synthesis_models_config_keeps_k_c_and_the_window_norm_and_rebuilds_the_same_model():
    m = build_model(_window_cfg(), seed=4)
    L1, L2 = m.stack.layers
    assert (L1.I_x, L1.C, L1.K) == (3, 5, 2)
    assert L1.params["Wx"].shape == (3 + 5, 4 * 4)     # the input and the window w (C wide), LSTM gates
    assert L1.params["Wp"].shape == (4, 3 * 2)         # alpha, beta, kappa of K Gaussians
    assert L1.norm == "ln" and L2.norm == "none"
    assert {k: m.config[k] for k in ("window", "alphabet_size", "window_norm")} == \
        {"window": 2, "alphabet_size": 5, "window_norm": "ln"}
    again = build_model(m.config, seed=4)
    assert again.stack.layers[0].norm == "ln"
    assert list(again.params) == list(m.params)
    for n, p in m.params.items():
        np.testing.assert_array_equal(again.params[n], p, err_msg=n)


def test_a_conditioned_model_without_text_is_refused_word_for_word():
    m = build_model(_window_cfg(), seed=4)
    x = np.zeros((2, 1, 3))
    with pytest.raises(ValueError, match=r"^this model writes a given text: pass text=\(codes \(B,U\), "
                                         r"lengths \(B,\)\)$"):
        m.last_outputs(x)


def test_a_text_given_to_a_model_without_a_window_is_refused_by_every_run():
    m = build_model(_cfg(), seed=1)
    x = np.zeros((T, B, I))
    text = (np.zeros((B, 2), np.int64), np.full(B, 2, np.int64))
    msg = r"^this model reads no text \(it was not trained with an attention window\)$"
    for run in (lambda: m.last_outputs(x, text=text), lambda: m.loss_sums(x, np.zeros(B, np.int64), text=text),
                lambda: m.step(x[0], text=text)):
        with pytest.raises(ValueError, match=msg):
            run()


# ---- initial-state noise ----

def test_state_noise_of_a_half_is_drawn_by_hand():
    m = build_model(_cfg(state_noise=0.5), seed=7)
    assert m.state_noise == 0.5 and m.config["state_noise"] == 0.5
    (h0,), = m.noise_state(B, (2, 4))
    np.testing.assert_array_equal(h0, 0.5 * np.random.default_rng([7, 2, 4]).standard_normal((B, H)))


def test_updates_without_a_key_draw_the_noise_of_keys_0_then_1():
    m = build_model(_cfg(state_noise=0.5), seed=7)
    P = m.params
    x = np.random.default_rng(12).standard_normal((T, B, I))
    labels = np.array([3, 0, 1])
    full = np.full(B, T)
    for key in (0, 1):
        h0 = 0.5 * np.random.default_rng([7, 1, key]).standard_normal((B, H))
        logp = _log_softmax(_rows_by_hand(P, x, full, h0) @ P["head.W"] + P["head.b"])
        want = -np.mean(logp[np.arange(B), labels])
        assert m.loss_and_grad(x, labels)["loss"] == pytest.approx(want, rel=1e-12), key


# ---- inference ----

def test_per_step_inference_sums_and_count_over_ragged_rows_by_hand():
    m = build_model(_cfg(head=head_config("ce", C, per_step=True)), seed=2)
    P = m.params
    rng = np.random.default_rng(8)
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, (B, T))
    labels[0, 3] = -1                                   # an unscored step of a running row
    sums, count = m.loss_sums(x, labels, LENGTHS)
    loss, want_count = 0.0, 0
    for b, n in enumerate(LENGTHS):
        if n:
            y = ref.rnn_forward(x[:n, b:b + 1], np.zeros((1, H)), P["rnn.l0.Wx"], P["rnn.l0.Wh"], P["rnn.l0.b"],
                                None, "none")[0][:, 0]                           # (n,H)
            logp = _log_softmax(y @ P["head.W"] + P["head.b"])
            for t in range(n):
                if labels[b, t] >= 0:
                    loss -= logp[t, labels[b, t]]
                    want_count += 1
    assert want_count == 5 + 2 - 1
    assert count == want_count
    assert sums["loss"] == pytest.approx(loss, rel=1e-12)
    assert sums["seqs"] == 2.0
    assert m.evaluate([(x, labels, LENGTHS)])["loss"] == pytest.approx(loss / want_count, rel=1e-12)


def test_last_outputs_of_ragged_rows_with_t_not_b_against_the_reference():
    m = build_model(_cfg(), seed=3)
    x = np.random.default_rng(9).standard_normal((T, B, I))
    got = m.last_outputs(x, lengths=LENGTHS)
    np.testing.assert_allclose(got, _rows_by_hand(m.params, x, LENGTHS, np.zeros((B, H))), rtol=1e-12, atol=1e-14)
    assert np.all(got[1] == 0.0)


def test_last_outputs_start_from_the_given_state():
    m = build_model(_cfg(), seed=3)
    rng = np.random.default_rng(10)
    x = rng.standard_normal((T, B, I))
    h0 = rng.standard_normal((B, H))
    got = m.last_outputs(x, [(h0,)], LENGTHS)
    np.testing.assert_allclose(got, _rows_by_hand(m.params, x, LENGTHS, h0), rtol=1e-12, atol=1e-14)


def test_last_step_loss_sums_of_ragged_rows_with_t_not_b_by_hand():
    m = build_model(_cfg(), seed=5)
    P = m.params
    x = np.random.default_rng(11).standard_normal((T, B, I))
    labels = np.array([1, 2, 3])
    sums, count = m.loss_sums(x, labels, LENGTHS)
    logp = _log_softmax(_rows_by_hand(P, x, LENGTHS, np.zeros((B, H))) @ P["head.W"] + P["head.b"])
    assert count == 2 and sums["seqs"] == 2.0
    assert sums["loss"] == pytest.approx(-(logp[0, 1] + logp[2, 3]), rel=1e-12)


# ---- configs ----

def test_head_config_refuses_an_unknown_objective():
    assert head_config("ce", 3) == {"kind": "classifier", "outputs": 3, "per_step": False}
    with pytest.raises(ValueError, match=r"^objective must be 'ce' or 'mse', not 'nll'$"):
        head_config("nll", 3)


def test_build_model_upgrades_an_lnrnn_0_1_config():
    old = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, objective="mse", num_classes=1, per_step=False, tolerance=0.1)
    m = build_model(old, seed=6)
    assert m.head.kind == "regression" and m.state_noise == 0.0
    assert m.config["head"] == {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.1}
    assert m.params["head.W"].shape == (H, 1)
