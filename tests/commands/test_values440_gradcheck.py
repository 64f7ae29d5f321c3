"""lnrnn gradcheck's bound before any layer is built (lnrnn/commands/gradcheck.py), against its definition: each
layer's Wh (H,H) and Wx (I or H, H), and its outputs over the chunk mode's 2T steps of the padded batch's B + 4
rows, in float64 bytes; sizes where a wrong formula (a product turned, a row count or a factor dropped) gives
another number."""
import pytest

import lnrnn.commands.gradcheck as cmd
from lnrnn.errors import UserError
from test_cli import invoke


@pytest.mark.parametrize("T, B, I, H, layers", [(7, 3, 2, 5, 2), (11, 2, 6, 3, 3)])
def test_the_bound_counts_weights_and_outputs_in_float64(monkeypatch, T, B, I, H, layers):
    seen = []

    def recorded(nbytes, what, advice):
        seen.append(nbytes)
        raise UserError("bound recorded")
    monkeypatch.setattr(cmd, "refuse_beyond", recorded)
    result = invoke("gradcheck", "--steps", T, "--batch", B, "--input", I, "--hidden", H, "--layers", layers)
    assert result.exit_code != 0 and "bound recorded" in result.output
    weights = H * (I + H)                         # Wh (H,H) and Wx (I,H) of a layer, the wider of I and H
    outputs = (2 * T) * (B + 4) * H               # 2T steps of B + 4 rows of H
    assert seen == [8 * layers * (weights + outputs)]
