"""lnrnn.torch's modules left at their defaults: what a user who swaps ``torch.nn.LSTM(I, H)`` for
``lnrnn.torch.LSTM(I, H)`` gets. With norm=None, each module's state_dict has the names and shapes of its
``torch.nn`` namesake built with the same two sizes, and loads it strictly: one layer, one direction, time-major;
its attributes (num_layers, batch_first, bidirectional, dropout) are the namesake's. With every argument left out,
a module is the one built with the documented defaults spelled out (norm 'ln', forget bias 1, no skip), drawn
from the same torch seed: the same parameters to the bit, the same output."""
import os

import pytest

if os.environ.get("LNRNN_REQUIRE_EXTRAS") == "1":
    import torch
else:
    torch = pytest.importorskip("torch")

import lnrnn.torch as lt  # noqa: E402

F64 = torch.float64
I, H = 3, 4
STACKS = {"LSTM": torch.nn.LSTM, "RNN": torch.nn.RNN}
CELLS = {"LSTMCell": torch.nn.LSTMCell, "RNNCell": torch.nn.RNNCell}
SPELLED = {"LSTM": dict(num_layers=1, norm="ln", batch_first=False, forget_bias=1.0, bias=True, dropout=0.0,
                        bidirectional=False, skip=False),
           "RNN": dict(num_layers=1, norm="ln", batch_first=False, bias=True, dropout=0.0, bidirectional=False,
                       skip=False),
           "LSTMCell": dict(bias=True, norm="ln", forget_bias=1.0), "RNNCell": dict(bias=True, norm="ln")}


def flat(out):
    """The tensors of a module's output, nested tuples ((h, c), (y, (h_n, c_n))) opened in order."""
    return [t for o in out for t in flat(o)] if isinstance(out, tuple) else [out]


def shapes(m):
    return {k: tuple(v.shape) for k, v in m.state_dict().items()}


@pytest.mark.parametrize("name", sorted({**STACKS, **CELLS}))
def test_a_plain_module_at_its_defaults_has_its_torch_namesakes_layout(name):
    torch.manual_seed(0)
    ours = getattr(lt, name)(I, H, norm=None, dtype=F64)
    theirs = {**STACKS, **CELLS}[name](I, H, dtype=F64)
    assert shapes(ours) == shapes(theirs)
    ours.load_state_dict(theirs.state_dict(), strict=True)
    if name in STACKS:
        for attr in ("num_layers", "batch_first", "bidirectional", "dropout", "input_size", "hidden_size"):
            assert getattr(ours, attr) == getattr(theirs, attr), attr


@pytest.mark.parametrize("name", sorted(SPELLED))
def test_every_argument_left_out_is_its_documented_default(name):
    torch.manual_seed(5)
    bare = getattr(lt, name)(I, H, dtype=F64)
    torch.manual_seed(5)
    spelled = getattr(lt, name)(I, H, dtype=F64, **SPELLED[name])
    assert bare.cell == spelled.cell == ("ln-lstm" if "LSTM" in name else "ln-rnn")
    a, b = bare.state_dict(), spelled.state_dict()
    assert list(a) == list(b)
    for k in a:
        assert torch.equal(a[k], b[k]), k
    x = torch.randn(5, 2, I, dtype=F64) if name in STACKS else torch.randn(2, I, dtype=F64)
    out_a, out_b = flat(bare(x)), flat(spelled(x))
    assert len(out_a) == len(out_b) and all(torch.equal(p, q) for p, q in zip(out_a, out_b))
    if name in STACKS:
        assert out_a[0].shape == (5, 2, H)      # time-major, one direction
