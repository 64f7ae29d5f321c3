"""lnrnn's cells for other frameworks.

    torch.py        ``lnrnn.torch``: torch.nn.LSTM/RNN-shaped modules on torch.library custom ops
    jax.py          ``lnrnn.jax``: init/apply over jax.custom_vjp and jax.pure_callback

The frameworks are optional extras (``pip install -e ".[torch]"``, ``".[jax]"``); ``import lnrnn``
imports neither. Both run one layer through ``lnrnn.model.functional``, the layer function every
lnrnn layer runs.
"""
