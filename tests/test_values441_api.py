"""``lnrnn.predict`` (lnrnn/api.py) of a model with initial-state noise: batch i starts from evaluation's own draw
for batch i, so the probabilities predict gives over a set score exactly the loss that evaluation computes over
it with the same batch size (``SequenceModel.evaluate``: noise key i), and another draw scores another loss.
An LN-LSTM classifier (float64, state noise 1.5, a head of large weights so that the draw shows) saved as a run;
ten sequences in batches of four (4, 4, 2)."""
import numpy as np
import pytest

import lnrnn
from lnrnn.model.models import build_model, head_config
from lnrnn.training.checkpoint import save_checkpoint

N, T, I, C, BATCH = 10, 5, 2, 3, 4


@pytest.fixture(scope="module")
def noisy(tmp_path_factory):
    cfg = dict(cell="lstm", norm="ln", input_size=I, hidden_size=4, num_layers=1, dtype="float64", forget_bias=1.0,
               state_noise=1.5, head=head_config("ce", C))
    m = build_model(cfg, seed=3)
    rng = np.random.default_rng(7)
    m.params["head.W"][...] = 3.0 * rng.standard_normal(m.params["head.W"].shape)
    folder = tmp_path_factory.mktemp("noisy") / "run"
    save_checkpoint(str(folder), {"param/" + k: v for k, v in m.params.items()},
                    {"model": m.config, "step": 0, "task": {"task": "digits"}, "train": {"cell": "ln-lstm", "seed": 3}})
    x = rng.standard_normal((N, T, I))
    y = rng.integers(0, C, N)
    return str(folder), x, y


def _batches(x, y):
    """The sequences in batches of BATCH as evaluation takes them: [(x (T,B,I), targets (B,), lengths None)]."""
    return [(np.ascontiguousarray(x[s:s + BATCH].transpose(1, 0, 2)), y[s:s + BATCH], None) for s in range(0, N, BATCH)]


def test_predict_scores_what_evaluation_scores(noisy):
    folder, x, y = noisy
    run = lnrnn.load_run(folder)
    assert run.model.state_noise == 1.5
    p = lnrnn.predict(run, x, batch_size=BATCH)
    got = -np.mean(np.log(p.probabilities[np.arange(N), y]))
    want = run.model.evaluate(_batches(x, y))["loss"]                      # batch i with noise key i
    assert got == pytest.approx(want, rel=1e-12)
    other = run.model.evaluate(_batches(x, y)[::-1])["loss"]                # each batch with another key
    assert abs(other - want) > 1e-3                                         # the draw matters at these weights
    again = lnrnn.predict(run, x, batch_size=BATCH)
    np.testing.assert_array_equal(again.probabilities, p.probabilities)   # the same draw every time
