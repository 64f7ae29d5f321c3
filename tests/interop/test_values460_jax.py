"""lnrnn.jax's BatchNorm statistics of the wrong shape refused word for word, before any step runs: every statistic
of a BN-LSTM and a BN-RNN stack (one and two layers) given with no row, or as a 3-D array whose second axis has the
right width, in training and in inference; the same statistics with one row are taken (I = 2, H = 3, B = 4, T = 5)."""
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402
from test_values132_torch import _raises  # noqa: E402
from test_values314_jax import B, H, I, T  # noqa: E402

jax.config.update("jax_enable_x64", True)  # as the other JAX test files

CASES = [("lstm", 1), ("lstm", 2), ("rnn", 1), ("rnn", 2)]


def _run(cell, L, stats, training):
    p = lj.init(jax.random.PRNGKey(460), cell, "bn", I, H, num_layers=L, dtype=jnp.float64)
    x = np.random.default_rng(460).uniform(-1, 1, (T, B, I))
    return lj.apply(p, x, cell=cell, norm="bn", stats=stats, training=training, mutable=True)


@pytest.mark.parametrize("training", [True, False])
@pytest.mark.parametrize("cell,L", CASES)
def test_statistics_without_a_row_or_of_three_axes_are_refused_by_name(cell, L, training):
    good = lj.init_stats(cell, "bn", H, L, 1, dtype=jnp.float64)
    (y, _), new = _run(cell, L, good, training)                      # one row: taken
    assert y.shape == (T, B, H) and set(new) == set(good)
    assert len(good) == (3 if cell == "lstm" else 2) * 2 * L          # running means and variances of each norm
    for name, v in good.items():
        W = v.shape[1]
        for bad in (jnp.zeros((0, W)), jnp.ones((1, W, 1))):
            stats = dict(good, **{name: bad})
            _raises(ValueError, f"{name} must be a (steps, {W}) float64 array, got float64 {tuple(bad.shape)}.",
                    lambda: _run(cell, L, stats, training))
