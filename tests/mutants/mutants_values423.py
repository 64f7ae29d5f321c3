"""Planted bugs, round 423 (format: tests/mutants/mutants.py): a checkpoint's model description against the
weights saved beside it (lnrnn/training/evaluation.py: check_saved_sizes, called by model_from_checkpoint),
twentieth pass.

Writing this round's plan found a real bug, by setting each field of a run's checkpoint.json in turn to null, a
text, -1, infinity, a list and 2**70 and sampling and exporting from it: the description is not covered by the
arrays' hash, and num_layers 2**70 made lnrnn sample (and eval, export, predict, lnrnn.load_run,
lnrnn.torch.from_run) build layers until the memory ran out (24 GB in use when it was stopped). The planted bugs:
the check not called; a size of true compared as 1; the hidden size unchecked; a synthesis network's characters left
out of layer 0's width, or counted without a window; a plain stack's input unchecked; the refusal saying the
described layer count. 7 mutants. The old evaluation and API files alone (OLD) catch 0 of 7: none changes a
checkpoint's description. test_values423_saved_sizes trains a two-layer run, changes num_layers (2**70, 3, 1),
hidden_size and input_size one at a time and reads eval's, export's and predict's refusal word for word (the 2**70
case under an alarm), with lnrnn.load_run and lnrnn.torch.from_run too, and holds check_saved_sizes on arrays
written here. The new file alone catches 7 of 7 (the hidden-size mutant first by the suite's timeout, at a hidden
size of 30000; the case is 300 now, caught in 48 s), so NEW + OLD does too (not run separately). Two mutants left
out as equivalent on contiguous layers: counting from l1, and counting Wx instead of Wh.

    python tests/mutants/run.py --only 'v423-*'
"""
NEW = ["tests/commands/test_values423_saved_sizes.py"]
OLD = ["tests/training/test_values_evaluation.py", "tests/training/test_values218_evaluation.py",
       "tests/training/test_values326_evaluation_finetune.py", "tests/test_values46_api.py",
       "tests/training/test_values10_evaluation.py", "tests/training/test_values21_evaluation.py"]
EVALUATION = "lnrnn/training/evaluation.py"

MUTANTS = [
    dict(name="v423-check-not-called", file=EVALUATION,
         old="    check_saved_sizes(config, arrays)\n", new="",
         tests=NEW + OLD,
         why="the description is built as it is: 2**70 layers are built until the memory runs out"),
    dict(name="v423-true-taken-as-whole", file=EVALUATION,
         old="    if whole_number(L) and L != saved:",
         new="    if isinstance(L, int) and L != saved:",
         tests=NEW + OLD,
         why="a size of true is compared as 1 instead of being left to build_model's own refusal"),
    dict(name="v423-hidden-unchecked", file=EVALUATION,
         old="    if whole_number(H) and Wh is not None and Wh.shape[:1] != (H,):",
         new="    if whole_number(H) and Wh is None and Wh.shape[:1] != (H,):",
         tests=NEW + OLD,
         why="a hidden size that disagrees with rnn.l0.Wh is built before the arrays are found not to fit"),
    dict(name="v423-window-characters-ignored", file=EVALUATION,
         old='    C = config.get("alphabet_size", 0) if config.get("window") else 0', new="    C = 0",
         tests=NEW + OLD,
         why="a synthesis network, whose layer 0 reads [x | window], is refused as damaged"),
    dict(name="v423-characters-without-a-window", file=EVALUATION,
         old='    C = config.get("alphabet_size", 0) if config.get("window") else 0',
         new='    C = config.get("alphabet_size", 0)',
         tests=NEW + OLD,
         why="an alphabet size without a window widens layer 0's expected input"),
    dict(name="v423-input-checked-for-synthesis-only", file=EVALUATION,
         old="    if whole_number(I) and whole_number(C) and Wx is not None and Wx.shape[:1] != (I + C,):",
         new="    if whole_number(I) and C and Wx is not None and Wx.shape[:1] != (I + C,):",
         tests=NEW + OLD,
         why="a plain stack's input size is not checked against rnn.l0.Wx"),
    dict(name="v423-layers-said-as-described", file=EVALUATION,
         old='but it holds the weights of {saved}")', new='but it holds the weights of {L}")',
         tests=NEW + OLD,
         why="the refusal says the arrays hold as many layers as the description claims"),
]
