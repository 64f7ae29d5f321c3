"""lnrnn/training/finetune.py's Source.record, what a new run keeps of the checkpoint it starts from: a
checkpoint that says nothing of its update, its train settings or its task is recorded as update 0, not best,
cell and task None; one that says them is recorded with them (the step as an int, best as a bool); and
describe_record words both."""
from lnrnn.training.finetune import Source, describe_record


def test_a_checkpoint_without_a_step_is_recorded_as_update_0():
    rec = Source("runs/a", {}, {}).record
    assert rec == {"path": "runs/a", "step": 0, "best": False, "cell": None, "task": None}
    assert describe_record(rec) == "runs/a (update 0)"


def test_a_checkpoint_records_what_it_says():
    meta = {"step": 1530.0, "best": 1, "train": {"cell": "ln-lstm"}, "task": {"task": "digits"}}
    rec = Source("runs/a/best", meta, {}).record
    assert rec == {"path": "runs/a/best", "step": 1530, "best": True, "cell": "ln-lstm", "task": "digits"}
    assert type(rec["step"]) is int and describe_record(rec) == "runs/a/best (its best checkpoint, update 1530)"
