"""``lnrnn.torch``: PyTorch modules on lnrnn's kernels (``lnrnn/interop/torch.py`` has the design).

Needs the ``torch`` extra (``pip install -e ".[torch]"``); ``import lnrnn`` does not import it. Kept as
the name users import (README, docs/bindings.md), short beside ``lnrnn.interop.torch``."""
from lnrnn.interop.torch import (LSTM, RNN, LSTMCell, RNNCell, from_run, layer_backward, layer_forward,  # noqa: F401
                                 load_exported)

__all__ = ["LSTM", "RNN", "LSTMCell", "RNNCell", "from_run", "load_exported", "layer_forward", "layer_backward"]
