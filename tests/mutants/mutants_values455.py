"""Planted bugs, round 455 (format: tests/mutants/mutants.py): the real survivors of a thirty-third random sample
(tests/mutants/random_sample.py --seed 33 --count 40 --all-named, on 0f8a7ae: 37 of 40 caught) and their neighbours,
fiftieth pass.

Seed 33's 3 missed: 1 equivalent (rnd33-24: a head's targets reshaped with -2 rather than -1, which NumPy takes as
the one unknown dimension alike), 1 CUDA-only line caught by the CUDA update files (rnd33-13: a BN model's
statistics fetched and uploaded again at every update of exactly as many steps as they have rows;
tests/training/test_device_update_more.py watches the copies of a BN bidirectional CTC update), 1 real:
kernel_threads never preparing the process on its first entry (rnd33-19: a process that enters the scope
before it loads the kernels had neither the threading layer started with passive waiting nor the allocator
tuned until the kernels' import did it; nothing watched the scope in a fresh process).

The planted bugs: kernel_threads never preparing the process on its first entry; the record saying the allocator was
tuned whatever was done; LNRNN_KEEP_MALLOC=1 ignored; a BN model's device statistics fetched and uploaded again at
every update of as many steps as they have rows; a longer batch growing the host's stale statistics without fetching
the device's first. 5 mutants. The old files named after the modules (OLD_*; the CUDA model files are not among
them, as the sample judges) catch 1 (the record's allocator flag); the new files alone catch 5 of 5.

    python tests/mutants/run.py --only 'v455-*'
"""
THREADSCOPE = "lnrnn/threadscope.py"
MODELS = "lnrnn/model/models.py"
NEW_THREADSCOPE = ["tests/test_values455_threadscope.py"]
NEW_MODELS = ["tests/model/test_values455_models_stats.py"]
# every file named after the module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_THREADSCOPE = ["tests/test_values216_threadscope.py", "tests/test_values9_threadscope.py"]
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
              "tests/model/test_values447_models.py", "tests/model/test_values451_models.py",
              "tests/model/test_values51_models.py", "tests/model/test_values73_models.py",
              "tests/model/test_values88_models.py"]

MUTANTS = [
    dict(name="v455-kernel-threads-never-prepares", file=THREADSCOPE,
         old="    if not _prepared:\n        prepare_process()", new="    if _prepared:\n        prepare_process()",
         tests=NEW_THREADSCOPE + OLD_THREADSCOPE, why="rnd33-19: the first kernel_threads() block prepares nothing"),
    dict(name="v455-malloc-always-tuned", file=THREADSCOPE,
         old='            _prepared["MALLOC_TUNED"] = _reuse_freed_memory()',
         new='            _prepared["MALLOC_TUNED"] = True',
         tests=NEW_THREADSCOPE + OLD_THREADSCOPE, why="the record says the allocator was tuned whatever was done"),
    dict(name="v455-keep-malloc-ignored", file=THREADSCOPE,
         old='    if os.environ.get("LNRNN_KEEP_MALLOC") or not sys.platform.startswith("linux"):',
         new='    if not sys.platform.startswith("linux"):',
         tests=NEW_THREADSCOPE + OLD_THREADSCOPE, why="LNRNN_KEEP_MALLOC=1 no longer leaves the allocator alone"),
    dict(name="v455-stats-uploaded-again-at-t", file=MODELS,
         old="all(a.shape[0] >= T for d in stats for a in d.values())",
         new="all(a.shape[0] > T for d in stats for a in d.values())",
         tests=NEW_MODELS + OLD_MODELS, why="rnd33-13: BN statistics fetched and uploaded at every update of T steps"),
    dict(name="v455-stats-grown-without-fetching", file=MODELS,
         old="        if stats is not None:\n            self.pull_params()",
         new="        if stats is None:\n            self.pull_params()",
         tests=NEW_MODELS + OLD_MODELS, why="a longer batch grows the host's stale statistics, the device's lost"),
]
