"""The sequence model (lnrnn/model/models.py), thirteenth pass, in float64 at tiny sizes (I 2, H 3, tanh RNN
cells): a three-layer stack's last-step classifier over whole rows (lengths None) and ragged rows against
lnrnn/reference.py's rnn_forward composed layer by layer here (test_values257_layers_stacks.direction), its
cross-entropy written out; a two-layer bidirectional stack's regression head, every gradient against central
differences of the mean squared error over ragged rows; a CTC head over ragged rows against reference.ctc_forward
of the stack's outputs at each row's own steps; the model's parameter names, the flat buffers' layout (names,
shapes and offsets of every layer's arrays counted by hand) and their sharing with the named arrays (the
gradient buffer is the gradients', zeroing it leaves the parameters); head_config's regression head and
upgrade_config's defaults written out."""
import numpy as np

from lnrnn import reference
from lnrnn.model.models import build_model, head_config, upgrade_config
from test_values129_models import C, H, I, make
from test_values257_layers_stacks import direction


def stack_params(model):
    return {k[4:]: np.array(v) for k, v in model.params.items() if k.startswith("rnn.")}


def plain_by_hand(p, x, lengths, layers):
    inp = x
    for k in range(layers):
        inp = direction(p, f"l{k}.", inp, lengths, False)
    return inp                                                          # (T,B,H), zeros past each row


def bidirectional_by_hand(p, x, lengths, layers):
    inp = x
    for k in range(layers):
        inp = np.concatenate([direction(p, f"l{k}.", inp, lengths, False),
                              direction(p, f"l{k}_reverse.", inp, lengths, True)], axis=2)
    return inp


def test_a_three_layer_last_step_classifier_over_whole_and_ragged_rows():
    model = make(seed=3, layers=3)
    p, W, b = stack_params(model), model.params["head.W"], model.params["head.b"]
    T, B = 5, 4
    x = np.random.default_rng(27601).standard_normal((T, B, I))
    labels = np.array([2, 0, 1, 1])
    for lengths in (None, np.array([5, 1, 3, 2])):
        L = np.full(B, T) if lengths is None else lengths
        y = plain_by_hand(p, x, L, 3)
        want_h = y[L - 1, np.arange(B)]
        np.testing.assert_allclose(model.last_outputs(x, None, lengths), want_h, rtol=1e-12, atol=1e-14)
        z = want_h @ W + b
        loss = sum(np.log(np.exp(z[r]).sum()) - z[r, labels[r]] for r in range(B))
        sums, count = model.loss_sums(x, labels, lengths)
        assert count == 4
        np.testing.assert_allclose(sums["loss"], loss, rtol=1e-12)
        assert sums["acc"] == float(np.sum(z.argmax(1) == labels))


def test_a_bidirectional_two_layer_regression_gradients_by_central_differences():
    head = {"kind": "regression", "outputs": 2, "per_step": False, "tolerance": 0.04}
    model = make(seed=5, layers=2, bidirectional=True, head=head)
    T, B = 4, 3
    rng = np.random.default_rng(27602)
    x, lengths, tg = rng.standard_normal((T, B, I)), np.array([4, 1, 3]), rng.standard_normal((B, 2))

    def mse():   # the mean over rows of the squared error, the rows' outputs composed by hand
        p = stack_params(model)
        y = bidirectional_by_hand(p, x, lengths, 2)
        h = np.concatenate([y[lengths - 1, np.arange(B), :H], y[0, :, H:]], axis=1)
        pred = h @ model.params["head.W"] + model.params["head.b"]
        return float(((pred - tg) ** 2).sum()) / B

    out = model.loss_and_grad(x, tg, lengths)
    np.testing.assert_allclose(out["loss"], mse(), rtol=1e-12)
    grads = {k: np.array(v) for k, v in model.grads.items()}
    for name, v in model.params.items():
        num = np.zeros(v.shape)
        for i in np.ndindex(v.shape):
            keep = v[i]
            v[i] = keep + 1e-6
            up = mse()
            v[i] = keep - 1e-6
            down = mse()
            v[i] = keep
            num[i] = (up - down) / 2e-6
        np.testing.assert_allclose(grads[name], num, rtol=1e-6, atol=1e-9, err_msg=name)


def test_a_ctc_head_over_ragged_rows_scores_each_rows_own_steps():
    head = {"kind": "ctc", "outputs": 4, "per_step": True}
    model = make(seed=6, layers=2, head=head)
    T, B = 5, 3
    x = np.random.default_rng(27603).standard_normal((T, B, I))
    lengths = np.array([5, 2, 4])
    labels = np.array([[1, 3, -1], [2, -1, -1], [3, 3, 1]])
    y = plain_by_hand(stack_params(model), x, lengths, 2)
    logits = y @ model.params["head.W"] + model.params["head.b"]
    loss, _ = reference.ctc_forward(logits, labels, lengths, np.array([2, 1, 3]))
    sums, count = model.loss_sums(x, labels, lengths)
    assert count == 3
    assert sums["chars"] == 6.0
    np.testing.assert_allclose(sums["loss"], loss.sum(), rtol=1e-10)


def test_names_and_flat_layout_of_a_two_layer_bidirectional_model():
    model = make(seed=1, layers=2, bidirectional=True)
    # per direction Wx (in,H), Wh (H,H), b (H,); layer 1 reads 2H = 6 columns; the head W (2H,C), b (C,)
    shapes = []
    for k, width in ((0, I), (1, 2 * H)):
        for d in ("", "_reverse"):
            shapes += [(f"rnn.l{k}{d}.Wx", (width, H)), (f"rnn.l{k}{d}.Wh", (H, H)), (f"rnn.l{k}{d}.b", (H,))]
    shapes += [("head.W", (2 * H, C)), ("head.b", (C,))]
    want, off = [], 0
    for name, shape in shapes:
        want.append((name, shape, off))
        off += int(np.prod(shape))
    assert off == 117
    assert want[6] == ("rnn.l1.Wx", (6, 3), 36) and want[12] == ("head.W", (6, 3), 96)
    assert list(model.params) == [n for n, _ in shapes]
    assert list(model.grads) == [n for n, _ in shapes]
    for flat in model.flat:
        assert [(n, tuple(s), o) for n, s, o in flat.layout] == want
        assert flat.data.shape == (117,)
    # the named arrays are views of the buffers: writing the buffer writes them
    model.flat[0].data[:] = np.arange(117.0)
    for name, shape, o in want:
        np.testing.assert_array_equal(model.params[name], np.arange(o, o + np.prod(shape)).reshape(shape))
    model.flat[1].data[:] = -np.arange(117.0)
    for name, shape, o in want:
        np.testing.assert_array_equal(model.grads[name], -np.arange(o, o + np.prod(shape)).reshape(shape))
    # zeroing the gradients leaves the parameters
    model.zero_grad()
    for name, shape, o in want:
        np.testing.assert_array_equal(model.params[name], np.arange(o, o + np.prod(shape)).reshape(shape))
        assert not model.grads[name].any()


def test_head_config_of_mse_and_upgrade_config_defaults_written_out():
    assert head_config("mse", 3, True, 0.2) == {"kind": "regression", "outputs": 3, "per_step": True,
                                                "tolerance": 0.2}
    model = build_model(dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=2, dtype="float64",
                             forget_bias=1.0, head=head_config("mse", 3)))
    assert model.params["head.W"].shape == (H, 3)
    old = dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1, dtype="float64",
               forget_bias=1.0, num_classes=4, objective="ce")
    assert upgrade_config(old) == dict(cell="rnn", norm="none", input_size=I, hidden_size=H, num_layers=1,
                                       dtype="float64", forget_bias=1.0, state_noise=0.0,
                                       head={"kind": "classifier", "outputs": 4, "per_step": False})
    assert upgrade_config(dict(old, state_noise=0.25))["state_noise"] == 0.25
    assert build_model(old).state_noise == 0.0
