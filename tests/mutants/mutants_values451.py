"""Planted bugs, round 451 (format: tests/mutants/mutants.py): the real survivors of a twenty-sixth random sample
(tests/mutants/random_sample.py --seed 26 --count 40 --all-named, on 0c0971a: 35 of 40 caught, one more stopping the
suite at collection) and their neighbours, forty-sixth pass.

Seed 26's 4 not caught: 1 caught by a test not named after its module (rnd26-11: config.ROWS compiled without nogil,
which tests/kernels/test_values444_threads.py fails on), 1 CUDA-only line caught by the CUDA files (rnd26-17: the
mixture density head's device targets swapped on one axis; tests/training/test_device_update.py fails), 2 real: a
model's last_count starting at 1 before any update (rnd26-02: every reader ran an update first) and setup putting a
CUDA update on the device only for groups of 2 (rnd26-33: the device choice was tested through the simulator's
training files alone, none named after setup).

The planted bugs: a fresh model's last_count at 1, each update's count added to the last one's, a row of no step
counted by a last-step head; setup choosing the device update for groups of 2 only, and exactly where the model
refuses it. 5 mutants. The old files named after the modules (OLD_*) catch 2 (the count added up, the row of no step
counted); the new files alone catch 5 of 5.

    python tests/mutants/run.py --only 'v451-*'
"""
MODELS = "lnrnn/model/models.py"
SETUP = "lnrnn/training/setup.py"
NEW_MODELS = ["tests/model/test_values451_models.py"]
NEW_SETUP = ["tests/training/test_values451_setup.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_MODELS = ["tests/model/test_layers_models_bidirectional.py", "tests/model/test_models.py",
              "tests/model/test_values10_models.py", "tests/model/test_values129_models.py",
              "tests/model/test_values163_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values193_models.py", "tests/model/test_values20_models.py",
              "tests/model/test_values211_models.py", "tests/model/test_values231_models.py",
              "tests/model/test_values242_models.py", "tests/model/test_values257_models.py",
              "tests/model/test_values276_models.py", "tests/model/test_values297_models.py",
              "tests/model/test_values315_models.py", "tests/model/test_values341_models.py",
              "tests/model/test_values363_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values388_models.py", "tests/model/test_values445_models.py",
              "tests/model/test_values447_models.py", "tests/model/test_values51_models.py",
              "tests/model/test_values73_models.py", "tests/model/test_values88_models.py"]
OLD_SETUP = ["tests/training/test_values114_setup.py", "tests/training/test_values142_setup.py",
             "tests/training/test_values180_setup_finetune.py", "tests/training/test_values210_setup_update.py",
             "tests/training/test_values260_setup.py", "tests/training/test_values279_plan_setup_evaluation.py",
             "tests/training/test_values321_setup.py", "tests/training/test_values348_setup.py",
             "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values399_setup.py",
             "tests/training/test_values428_setup.py", "tests/training/test_values433_setup.py",
             "tests/training/test_values445_setup.py", "tests/training/test_values446_setup.py",
             "tests/training/test_values63_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values_setup.py"]

MUTANTS = [
    dict(name="v451-fresh-model-counted-one", file=MODELS,
         old="        self.last_count = 0  # scored units",
         new="        self.last_count = 1  # scored units",
         tests=NEW_MODELS + OLD_MODELS, why="rnd26-02: a model that has run no update reports a scored unit"),
    dict(name="v451-count-adds-up", file=MODELS,
         old="        self.last_count = self.head.count(targets, valid_all)   # scored units of this batch",
         new="        self.last_count += self.head.count(targets, valid_all)   # scored units of this batch",
         tests=NEW_MODELS + OLD_MODELS, why="each update's count added to the last one's (the trainer adds them)"),
    dict(name="v451-empty-row-counted", file=MODELS,
         old='        valid_all = running_mask(L, T, bool) if self.head.steps == "all" else L > 0\n',
         new='        valid_all = running_mask(L, T, bool) if self.head.steps == "all" else L >= 0\n',
         tests=NEW_MODELS + OLD_MODELS, why="a last-step head counting a row of length 0 as scored"),
    dict(name="v451-device-for-two", file=SETUP, old='cfg.device == "cuda" and group.size == 1 and',
         new='cfg.device == "cuda" and group.size == 2 and',
         tests=NEW_SETUP + OLD_SETUP, why="rnd26-33: a single process with --device cuda updates on the host"),
    dict(name="v451-device-refusal-inverted", file=SETUP, old="and model.device_refusal() is None",
         new="and model.device_refusal() is not None",
         tests=NEW_SETUP + OLD_SETUP, why="the device update chosen exactly where the model refuses it"),
]
