"""Refusals and saved flags of the model layer, thirteenth pass, word for word: a layer's size given as a
string (named with its quotes, as repr writes it), a CTC head asked to score the last step only, and the
config of a two-layer bidirectional stack (every key written out, the flag included) rebuilding a stack that
is bidirectional again."""
import numpy as np
import pytest

from lnrnn.model.heads import CTCHead
from lnrnn.model.layers import RecurrentLayer, RecurrentStack
from lnrnn.model.models import build_model


def test_a_size_given_as_a_string_is_refused_with_its_quotes():
    with pytest.raises(ValueError) as e:
        RecurrentLayer("rnn", "none", "3", 4)
    assert str(e.value) == "RecurrentLayer: input_size must be a positive integer, not '3'."


def test_a_ctc_head_on_the_last_step_only_is_refused():
    with pytest.raises(ValueError) as e:
        CTCHead(3, 4, per_step=False)
    assert str(e.value) == "the CTC head scores every step (per_step=True)"


def test_a_bidirectional_stacks_config_and_its_rebuild():
    stack = RecurrentStack("rnn", "none", 2, 3, num_layers=2, dtype=np.float64, bidirectional=True)
    assert stack.config == dict(cell="rnn", norm="none", input_size=2, hidden_size=3, num_layers=2,
                                dtype="float64", forget_bias=1.0, bidirectional=True)
    assert stack.output_size == 6
    model = build_model(dict(stack.config, head={"kind": "classifier", "outputs": 2, "per_step": False}))
    assert model.stack.bidirectional and len(model.stack.layers) == 4
    assert model.params["head.W"].shape == (6, 2)
