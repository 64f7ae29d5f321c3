"""lnrnn.jax's BatchNorm inference needs population statistics: apply(training=False) without stats is
refused in one sentence (LSTM and RNN, one and two directions), and with the statistics a stack holds (given
directly, or read back from an export file by load_export) it equals that stack's own inference
(lnrnn.model.layers.RecurrentStack, the layers every lnrnn run uses); init's forget_bias moves the forget
block of bias_ih and nothing else; lnrnn.jax exports every public name of lnrnn.interop.jax."""
import json
import os

import numpy as np
import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")

import lnrnn.jax as lj  # noqa: E402
from lnrnn.interop.export import write_safetensors  # noqa: E402
from lnrnn.model.layers import RecurrentStack  # noqa: E402

jax.config.update("jax_enable_x64", True)

T, B, I, H = 4, 3, 2, 3


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("bidirectional", [False, True])
def test_batchnorm_inference_without_stats_is_refused(cell, bidirectional):
    p = lj.init(jax.random.key(0), cell, "bn", I, H, 2, dtype=np.float64, bidirectional=bidirectional)
    x = np.random.default_rng(0).standard_normal((T, B, I))
    with pytest.raises(ValueError, match="population statistics") as e:
        lj.apply(p, x, cell=cell, norm="bn", training=False)
    assert "\n" not in str(e.value)
    y, _ = lj.apply(p, x, cell=cell, norm="bn", training=True)      # training makes its own
    assert y.shape == (T, B, (2 if bidirectional else 1) * H)


@pytest.mark.parametrize("cell", ["lstm", "rnn"])
@pytest.mark.parametrize("via_file", [False, True])
def test_batchnorm_inference_with_a_stacks_statistics_equals_the_stack(tmp_path, cell, via_file):
    rng = np.random.default_rng(1)
    st = RecurrentStack(cell, "bn", I, H, 2, dtype=np.float64, seed=2, max_steps=T)
    for layer in st.layers:                                       # statistics that differ per step
        for n, v in layer.buffers.items():
            v[...] = rng.uniform(0.5, 1.5, v.shape) if n.startswith("rv") else rng.uniform(-0.5, 0.5, v.shape)
    params, stats = lj.params_from_stack(st)
    if via_file:                                                  # through an export file's rnn.* tensors
        path = tmp_path / "w.safetensors"
        write_safetensors(str(path), {"rnn." + k: np.asarray(v) for k, v in {**params, **stats}.items()},
                          {"model_config": json.dumps(dict(cell=cell, norm="bn"))})
        p2, s2, config = lj.load_export(path)
        assert config == dict(cell=cell, norm="bn")
        assert set(p2) == set(params) and set(s2) == set(stats)
        params, stats = p2, s2
    x = rng.standard_normal((T, B, I))
    want, _ = st.forward(x, training=False, keep=False)
    y, _ = lj.apply(params, x, cell=cell, norm="bn", stats=stats, training=False)
    np.testing.assert_allclose(np.asarray(y), np.asarray(want),
                               rtol=1e-10, atol=1e-12)


def test_the_short_module_exports_every_public_name():
    import lnrnn.interop.jax as ij
    assert sorted(lj.__all__) == sorted(ij.__all__)
    space = {}
    exec("from lnrnn.jax import *", space)
    for name in ij.__all__:
        assert space[name] is getattr(ij, name)


@pytest.mark.parametrize("norm", [None, "ln"])
def test_init_forget_bias_moves_the_forget_block_only(norm):
    key = jax.random.key(3)
    one = lj.init(key, "lstm", norm, I, H, 2, dtype=np.float64, forget_bias=1.0)
    other = lj.init(key, "lstm", norm, I, H, 2, dtype=np.float64, forget_bias=2.5)
    assert set(one) == set(other)
    for name in one:
        diff = np.asarray(other[name]) - np.asarray(one[name])
        want = np.zeros_like(diff)
        if name.startswith("bias_ih"):
            want[H:2 * H] = 1.5                                    # gate order i, f, g, o
        np.testing.assert_allclose(diff, want, rtol=0, atol=1e-15)
