"""lnrnn/gradcheck.py's check_model builds what it says: with a window, Graves's synthesis network, whose layers all
read the input and the window and whose head reads every layer (skip connections), whatever ``skip`` was given;
without one, the stack as ``skip`` says. Seen through the configuration it hands build_model."""
import pytest

import lnrnn.model.models as models
from lnrnn.gradcheck import TOLERANCE, check_model


@pytest.mark.parametrize("window, skip, want", [(2, False, True), (2, True, True), (0, False, False),
                                                (0, True, True)])
def test_the_synthesis_network_is_skip_connected(monkeypatch, window, skip, want):
    seen, plain = [], models.build_model

    def recorded(config, *args, **kwargs):
        seen.append(dict(config))
        return plain(config, *args, **kwargs)
    monkeypatch.setattr(models, "build_model", recorded)
    head = "mdn" if window else "regression"
    results = check_model("lstm", "ln", head=head, window=window, skip=skip, max_elems=4)
    assert [c["skip"] for c in seen] == [want]
    assert seen[0].get("window", 0) == window
    assert all(err <= TOLERANCE for _, err in results), results
