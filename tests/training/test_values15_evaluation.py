"""lnrnn/training/evaluation.py's format_metrics: a loss label changes only the long form; the short form
names every metric by its key."""
from lnrnn.training.evaluation import format_metrics


def test_loss_label_only_in_the_long_form():
    means = {"loss": 0.41234, "acc": 0.872}
    assert format_metrics(means, loss_label="cross-entropy loss (nats)") == "loss 0.4123 acc 87.20%"
    assert format_metrics(means, long=True, loss_label="cross-entropy loss (nats)") == \
        "cross-entropy loss 0.4123 nats, accuracy 87.20%"
