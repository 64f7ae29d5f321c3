"""The JAX binding's refusal of an empty x names it as the caller passed it: (B, T, I) with batch_first=True,
not the (T, B, I) apply turns it into before checking."""
import os
import re

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import jax
else:
    jax = pytest.importorskip("jax")
import jax.numpy as jnp  # noqa: E402

import lnrnn.jax as lj  # noqa: E402


@pytest.mark.parametrize("shape, batch_first", [((0, 4, 2), True), ((4, 0, 2), False), ((3, 0, 2), True)])
def test_an_empty_x_is_named_as_passed(shape, batch_first):
    params = lj.init(jax.random.PRNGKey(0), "lstm", "ln", 2, 3)
    text = f"x must hold at least one step and one sequence, got shape {shape}."
    with pytest.raises(ValueError, match="^" + re.escape(text) + "$"):
        lj.apply(params, jnp.zeros(shape), batch_first=batch_first)
