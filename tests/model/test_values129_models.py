"""Sequence models (lnrnn/model/models.py) in float64 at tiny sizes against a one-layer tanh RNN written here
(h_t = tanh(x_t Wx + h_{t-1} Wh + b), each row over its own steps) and a last-step classifier's
cross-entropy (logsumexp minus the label's logit, means over rows with steps): initial-state noise drawn
from N(0, state_noise^2) by a generator seeded (seed, 1, key) in training and (seed, 2, key) in evaluation;
evaluate over uneven batches with an empty row and a row of one step; every parameter's gradient by
central differences; the parameter count and names of a bidirectional stack from Wx (I,H), Wh (H,H),
b (H,) per direction and the head's W (2H,O), b (O,); the saved config's keys and a checkpoint's round
trip (BatchNorm statistics included); a mixture density model's nats per sequence against its loss per
step times steps over sequences, both counted by hand."""
import numpy as np

from lnrnn.model.models import STACK_KEYS, batches_of, build_model
from gradcheck_util import numeric_grad

I, H, C = 2, 3, 3


def make(state_noise=0.0, seed=0, head=None, cell="rnn", norm="none", layers=1, bidirectional=False,
         max_steps=1):
    cfg = dict(cell=cell, norm=norm, input_size=I, hidden_size=H, num_layers=layers, dtype="float64",
               forget_bias=1.0, head=head or {"kind": "classifier", "outputs": C, "per_step": False},
               state_noise=state_noise)
    if bidirectional:
        cfg["bidirectional"] = True
    model = build_model(cfg, seed=seed, max_steps=max_steps)
    rng = np.random.default_rng(50 + seed)
    for v in model.params.values():                      # away from the initial values (head bias included)
        v[...] = rng.normal(0.0, 0.7, v.shape)
    return model


def rnn_last(p, x, lengths, h0):
    """(B,H) each row's last output of the tanh RNN over its own steps from h0 (B,H); None where no step."""
    out = []
    for r, n in enumerate(lengths):
        h = h0[r]
        for t in range(n):
            h = np.tanh(x[t, r] @ p["rnn.l0.Wx"] + h @ p["rnn.l0.Wh"] + p["rnn.l0.b"])
        out.append(h if n else None)
    return out


def ce_sums(p, x, labels, lengths, h0):
    """(summed cross-entropy, correct, rows scored) over the rows with steps."""
    loss, correct, count = 0.0, 0, 0
    for r, h in enumerate(rnn_last(p, x, lengths, h0)):
        if h is None:
            continue
        z = h @ p["head.W"] + p["head.b"]
        m = z.max()
        loss += m + np.log(np.exp(z - m).sum()) - z[labels[r]]
        correct += int(np.argmax(z) == labels[r])
        count += 1
    return loss, correct, count


def batch(T=4, B=5, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((T, B, I))
    labels = rng.integers(0, C, B)
    lengths = np.array([T, 0, 1, 3, T][:B], np.int64)
    return x, labels, lengths


def test_noise_state_is_the_seeded_normal_draw_times_state_noise():
    s, seed, key, B = 0.3, 5, (2, 4), 2000
    model = make(state_noise=s, seed=seed, cell="lstm", layers=2)
    got = model.noise_state(B, key)
    rng = np.random.default_rng([seed, *key])
    for layer in got:                                    # per layer (h0, c0), drawn in that order
        assert len(layer) == 2
        for a in layer:
            np.testing.assert_allclose(a, s * rng.standard_normal((B, H)), rtol=0, atol=1e-12)
            assert abs(a.std() - s) < 0.1 * s
    other = make(state_noise=s, seed=seed + 1, cell="lstm", layers=2).noise_state(B, key)
    assert not np.allclose(other[0][0], got[0][0])       # another seed, another draw


def test_training_and_evaluation_start_from_their_own_noise_draws():
    s, seed, key = 0.8, 3, 7
    x, labels, lengths = batch()
    B = x.shape[1]
    model = make(state_noise=s, seed=seed)
    p = {k: np.array(v) for k, v in model.params.items()}
    h_train = s * np.random.default_rng([seed, 1, key]).standard_normal((B, H))
    h_eval = s * np.random.default_rng([seed, 2, key]).standard_normal((B, H))

    sums, count = model.loss_sums(x, labels, lengths, noise_key=key)
    loss, correct, n = ce_sums(p, x, labels, lengths, h_eval)
    assert count == n == 4
    np.testing.assert_allclose(sums["loss"], loss, rtol=1e-10)
    assert sums["acc"] == correct and sums["seqs"] == 4
    zero = ce_sums(p, x, labels, lengths, np.zeros((B, H)))[0]
    assert abs(zero - loss) > 1e-3                       # the noise shows in the figures

    m = model.loss_and_grad(x, labels, lengths, noise_key=key)
    np.testing.assert_allclose(m["loss"], ce_sums(p, x, labels, lengths, h_train)[0] / 4, rtol=1e-10)


def test_evaluate_over_uneven_batches_means_over_rows_with_steps():
    x, labels, lengths = batch(T=5, B=5, seed=2)
    model = make()
    p = {k: np.array(v) for k, v in model.params.items()}
    loss, correct, n = ce_sums(p, x, labels, lengths, np.zeros((5, H)))
    got = model.evaluate(batches_of(x, labels, lengths, batch_size=2))   # rows 0-1, 2-3, 4
    np.testing.assert_allclose(got["loss"], loss / n, rtol=1e-10)
    np.testing.assert_allclose(got["acc"], correct / n, rtol=1e-12)


def test_every_gradient_by_central_differences_over_ragged_rows():
    x, labels, lengths = batch(T=4, B=5, seed=4)
    model = make(seed=1)
    m = model.loss_and_grad(x, labels, lengths)
    assert model.last_count == 4
    grads = {k: np.array(v) for k, v in model.grads.items()}
    p = {k: np.array(v) for k, v in model.params.items()}

    def loss():
        return ce_sums(p, x, labels, lengths, np.zeros((5, H)))[0] / 4
    np.testing.assert_allclose(m["loss"], loss(), rtol=1e-10)
    for k in p:
        np.testing.assert_allclose(grads[k], numeric_grad(loss, p[k]), rtol=1e-6, atol=1e-9, err_msg=k)


def test_bidirectional_parameter_names_shapes_and_count_by_definition():
    O = 4
    model = make(layers=2, bidirectional=True, head={"kind": "classifier", "outputs": O, "per_step": False})
    want = {}
    for k in range(2):
        width = I if k == 0 else 2 * H                   # layer 1 reads [forward | backward]
        for d in ("", "_reverse"):
            want.update({f"rnn.l{k}{d}.Wx": (width, H), f"rnn.l{k}{d}.Wh": (H, H), f"rnn.l{k}{d}.b": (H,)})
    want.update({"head.W": (2 * H, O), "head.b": (O,)})
    assert {k: v.shape for k, v in model.params.items()} == want
    count = sum(int(np.prod(s)) for s in want.values())
    assert model.num_params() == count == 2 * (I * H + H * H + H) + 2 * (2 * H * H + H * H + H) + 2 * H * O + O
    x, labels, lengths = batch()
    model.loss_and_grad(x, labels, lengths)              # the head reads the 2H columns


def test_checkpoint_config_and_round_trip_with_batchnorm_statistics():
    T = 4
    head = {"kind": "regression", "outputs": 1, "per_step": False, "tolerance": 0.3}
    model = make(state_noise=0.25, seed=2, head=head, norm="bn", max_steps=T)
    assert model.config == {"cell": "rnn", "norm": "bn", "input_size": I, "hidden_size": H, "num_layers": 1,
                            "dtype": "float64", "forget_bias": 1.0, "head": head, "state_noise": 0.25}
    assert set(model.config) == set(STACK_KEYS) | {"head", "state_noise"}
    rng = np.random.default_rng(9)
    for v in model.buffers.values():                     # statistics of their own (variances positive)
        v[...] = rng.uniform(0.5, 1.5, v.shape)
    arrays = {k: np.array(v) for k, v in {**model.params, **model.buffers}.items()}

    again = build_model(model.config, seed=2, max_steps=T)
    again.load_arrays(arrays)
    for k, v in {**again.params, **again.buffers}.items():
        np.testing.assert_array_equal(v, arrays[k], err_msg=k)
    assert again.state_noise == 0.25 and again.head.tolerance == 0.3
    x = rng.standard_normal((T, 3, I))
    y = rng.standard_normal((3, 1))
    a, ca = model.loss_sums(x, y, noise_key=1)
    b, cb = again.loss_sums(x, y, noise_key=1)
    assert ca == cb == 3
    for k in a:
        np.testing.assert_allclose(b[k], a[k], rtol=1e-12, err_msg=k)


def test_mdn_nats_per_sequence_is_the_summed_loss_over_sequences_with_steps():
    T, B = 3, 5
    model = build_model(dict(cell="rnn", norm="none", input_size=3, hidden_size=H, num_layers=1, dtype="float64",
                             forget_bias=1.0, head={"kind": "mdn", "components": 2}), seed=0)
    rng = np.random.default_rng(3)
    x = rng.standard_normal((T, B, 3))
    tg = np.concatenate([rng.standard_normal((B, T, 2)), (rng.random((B, T, 1)) < 0.3)], axis=2)
    lengths = np.array([3, 0, 1, 2, 3], np.int64)
    steps, seqs = int(lengths.sum()), int(np.count_nonzero(lengths))
    got = model.evaluate(batches_of(x, tg, lengths, batch_size=2))
    total = 0.0
    for s in range(0, B, 2):                             # each batch's summed loss
        sums, count = model.loss_sums(np.ascontiguousarray(x[:, s:s + 2]), tg[s:s + 2], lengths[s:s + 2])
        assert count == int(lengths[s:s + 2].sum())
        total += sums["loss"]
    np.testing.assert_allclose(got["loss"], total / steps, rtol=1e-10)
    np.testing.assert_allclose(got["nats_seq"], total / seqs, rtol=1e-10)
