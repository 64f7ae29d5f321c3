"""lnrnn/training/finetune.py's describe_change: the decay is named exactly when it changed, whether or not
the learning rate changed with it."""
from lnrnn.training.finetune import describe_change


def change(lr, decay):
    return {"step": 6, "epoch": 1, "lr": list(lr), "lr_decay": list(decay)}


def test_a_decay_change_alone_is_said():
    text = describe_change(change((0.0027, 0.0027), (0.9, 0.5)))
    assert text == "learning rate 0.0027 from update 6, decay 0.9 -> 0.5 per epoch"


def test_a_rate_change_alone_names_no_decay():
    assert describe_change(change((0.003, 0.0003), (0.9, 0.9))) == "learning rate 0.003 -> 0.0003 from update 6"
