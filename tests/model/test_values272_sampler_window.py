"""The sampler's first input and a BatchNorm synthesis network stepped one point at a time, by value (round 272
of the planted bugs, tests/mutants/mutants_values272.py), against test_values52's replay: the mixture drawn by
hand (Graves 2013 eqs. 18-22 with the bias of sec. 5.4) from one whole-sequence forward over the sampler's own
inputs. A start with its pen down away from the origin is the first input of every row (the default start, the
origin, draws elsewhere); a bn-lstm synthesis network of two layers whose running statistics differ at every
step (six rows, set here) writes, step by step through the sampler, exactly what the whole-sequence forward at
inference gives: each layer reads its statistics at the step's own row, the layer above the window's too."""
import numpy as np

from lnrnn.model.models import build_model
from lnrnn.sample import sample_strokes
from test_values52_sampler import ALPHABET, M, SCALE, codes, free_model, replay


def test_a_start_pen_down_is_the_first_input_of_every_row():
    m = free_model()
    start = np.array([0.5, -1.0, 0.0])
    rows = sample_strokes(m, 4, 2, 0.3, 8, start=start)
    want = replay(m, rows, start, 8, 0.3)
    for g, w in zip(rows, want):
        np.testing.assert_allclose(g, w, rtol=1e-9, atol=1e-12)
    plain = sample_strokes(m, 4, 2, 0.3, 8)
    from_origin = replay(m, plain, np.zeros(3), 8, 0.3)
    np.testing.assert_allclose(plain[0], from_origin[0], rtol=1e-9, atol=1e-12)
    assert not np.allclose(plain[0][0], rows[0][0])


def bn_text_model():
    """A two-layer bn-lstm synthesis network with statistics for 6 steps, each step's row different."""
    m = build_model(dict(cell="lstm", norm="bn", input_size=3, hidden_size=4, num_layers=2, dtype="float64",
                         forget_bias=1.0, window=2, alphabet_size=len(ALPHABET), skip=True,
                         head={"kind": "mdn", "components": M, "per_step": True, "scale": list(SCALE)}),
                    seed=5, max_steps=6)
    rng = np.random.default_rng(1)
    for layer in m.stack.layers:
        for name, v in layer.buffers.items():
            v[...] = rng.normal(0.0, 0.5, v.shape) if name.startswith("rm") else rng.uniform(0.3, 2.0, v.shape)
    m.stack.layers[0].params["bp"][4:] = np.log(0.3)          # kappa walks 0.3 a step on each of K = 2
    return m


def test_a_bn_synthesis_network_steps_at_each_steps_own_statistics():
    m = bn_text_model()
    texts = codes("abc", "e")
    rows = sample_strokes(m, 8, 2, 0.0, 3, text=texts, alphabet=ALPHABET)
    assert max(len(r.points) for r in rows) > 2                 # steps past row 0 of the statistics
    want = replay(m, [r.points for r in rows], np.zeros(3), 3, 0.0, texts=texts)
    for r, w in zip(rows, want):
        np.testing.assert_allclose(r.points, w, rtol=1e-9, atol=1e-12)
