"""lnrnn/interop/torch.py, options seldom combined: an unbatched (T,I) input to a two-layer stack with its
(L,H) initial states equals the same row as a batch of one; with skip connections and dropout, the layer
above reads the dropped-out h (dropout near 1 leaves it zeros: equal to the layer run on [x | 0] alone);
a float32 input to a float64 module is refused by name."""
import numpy as np
import pytest
import torch

import lnrnn.torch as lt

T, B, I, H = 5, 2, 3, 4


def test_unbatched_input_with_two_layers_of_initial_states_equals_a_batch_of_one():
    torch.manual_seed(0)
    m = lt.LSTM(I, H, num_layers=2, norm="ln", dtype=torch.float64)
    x = torch.randn(T, I, dtype=torch.float64)
    h0, c0 = torch.randn(2, H, dtype=torch.float64), torch.randn(2, H, dtype=torch.float64)
    out, (h, c) = m(x, (h0, c0))
    out1, (h1, c1) = m(x[:, None], (h0[:, None], c0[:, None]))
    torch.testing.assert_close(out, out1[:, 0])
    torch.testing.assert_close(h, h1[:, 0])
    torch.testing.assert_close(c, c1[:, 0])


def test_skip_connections_read_the_dropped_out_h():
    torch.manual_seed(1)
    m = lt.LSTM(I, H, num_layers=2, norm="ln", skip=True, dropout=1 - 1e-7, dtype=torch.float64).train()
    x = torch.randn(T, B, I, dtype=torch.float64)
    out, _ = m(x)
    top = lt.LSTM(I + H, H, num_layers=1, norm="ln", dtype=torch.float64)
    top.load_state_dict({k.replace("_l1", "_l0"): v for k, v in m.state_dict().items() if "_l1" in k})
    want, _ = top(torch.cat([x, torch.zeros(T, B, H, dtype=torch.float64)], dim=2))
    torch.testing.assert_close(out[..., H:], want)


def test_a_float32_input_to_a_float64_module_is_refused_by_name():
    m = lt.RNN(I, H, norm="ln", dtype=torch.float64)
    with pytest.raises(TypeError, match="mixed dtypes"):
        m(torch.zeros(T, B, I, dtype=torch.float32))
    with pytest.raises(TypeError, match="mixed dtypes"):
        m(torch.zeros(T, B, I, dtype=torch.float64), torch.zeros(1, B, H, dtype=torch.float32))
