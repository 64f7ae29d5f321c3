"""lnrnn/interop/export.py by value: the metadata's pytorch_compatible says true only for plain cells without
skip connections (a skip stack's weight_ih above layer 0 is I + H wide: nn.LSTM cannot load it)."""
from lnrnn.interop.export import pytorch_compatible


def test_only_plain_cells_without_skip_are_marked_for_torch():
    assert pytorch_compatible({"norm": "none"})
    assert pytorch_compatible({"norm": "none", "skip": False, "bidirectional": True})
    assert not pytorch_compatible({"norm": "none", "skip": True})
    assert not pytorch_compatible({"norm": "ln"})
    assert not pytorch_compatible({"norm": "bn", "skip": False})
