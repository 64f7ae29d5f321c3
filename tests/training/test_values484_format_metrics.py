"""lnrnn/training/evaluation.py's format_metrics on a metric outside METRIC_INFO (lnrnn/model/heads.py): it is named
by its key in both forms and shown as a plain number with four decimals, not as a percentage; and every head's
metrics are in METRIC_INFO, so each head's figures get their label and their percent sign from that one table."""
import inspect

import pytest

from lnrnn.model import heads
from lnrnn.training.evaluation import format_metrics


@pytest.mark.parametrize("long, want", [(False, "loss 0.5000 wer 0.2500 acc 12.50%"),
                                        (True, "loss 0.5000, wer 0.2500, accuracy 12.50%")])
def test_a_metric_outside_the_table_is_a_plain_number_under_its_key(long, want):
    assert format_metrics({"loss": 0.5, "wer": 0.25, "acc": 0.125}, long=long) == want


def test_every_heads_metrics_are_in_the_table():
    found = [c for _, c in inspect.getmembers(heads, inspect.isclass)
             if c.__module__ == heads.__name__ and isinstance(getattr(c, "metrics", None), tuple)]
    names = {m for c in found for m in c.metrics}
    assert {"loss", "acc", "nats_seq", "cer"} <= names
    assert names <= set(heads.METRIC_INFO)
