"""lnrnn's cells for other frameworks.

    functional.py   one recurrent layer as two pure functions over arrays (forward, backward) with
                    residuals of known shapes: what a framework binding calls
    torch.py        ``lnrnn.torch``: torch.nn.LSTM/RNN-shaped modules on torch.library custom ops
    jax.py          ``lnrnn.jax``: init/apply over jax.custom_vjp and jax.pure_callback

The frameworks are optional extras (``pip install -e ".[torch]"``, ``".[jax]"``); ``import lnrnn``
imports neither.
"""
