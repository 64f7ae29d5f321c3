"""``lnrnn.jax``: lnrnn's recurrent cells for JAX (init, apply, ...); the code and its documentation live in
``lnrnn.interop.jax``. Needs the ``jax`` extra; ``import lnrnn`` does not import it. Kept as the name users
import (README, docs/bindings.md), short beside ``lnrnn.interop.jax``."""
from lnrnn.interop.jax import VMAP_METHOD, apply, init, init_stats, load_export, params_from_stack  # noqa: F401

__all__ = ["init", "init_stats", "apply", "params_from_stack", "load_export", "VMAP_METHOD"]
