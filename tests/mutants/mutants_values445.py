"""Planted bugs, round 445 (format: tests/mutants/mutants.py): the real survivors of an eighteenth random sample
(tests/mutants/random_sample.py --seed 18 --count 40 --all-named, on the tree after round 444: 31 of 40 caught) and
their neighbours, fortieth pass.

Seed 18's 9 missed: 3 equivalent (describe_split's last rank read as rank size + 1, whose shard has the same size;
the torch binding's seed drawn from [1, 2**62) for [0, 2**62); the beam's child test n < 1 for n < 0: node 0 is the
root, never a child), 1 near (glibc's mmap threshold at 2 GiB for 1 GiB), 2 on CUDA-only lines (a device update's
lengths None read as given, rnd18-18, caught by the CUDA model files and planted here with them; the window layer's
device BN statistics taken whole at t0 == 1, rnd18-33, reached only by one-step chunks on the device: left for the
next round), 3 real: resume_problem's None check with 'or' (rnd18-02: every field's None, and any value of the
fields that may be None, passed), search_bytes counting the trie as steps / W nodes (rnd18-20), a truncated-BPTT
chunk's lengths clipped at 1 (rnd18-35: a row that has ended runs a step of its padding in every later chunk, which
moves the BN statistics of the rows still running).

The planted bugs: the None check with 'or', None passed on every field, the fields that may be None never checked;
the trie as steps / W nodes, the merge table left out, the width asked for instead of the one kept; a chunk's
lengths clipped at 1; the device update's lengths (CUDA). 8 mutants. The old files named after each module
(OLD_SETUP, OLD_BEAM, OLD_MODELS) catch none of the 7 with new files; the new files alone catch 7 of 7; the CUDA
model files catch the CUDA one (NEW + OLD: 8 of 8).

    python tests/mutants/run.py --only 'v445-*'
"""
SETUP = "lnrnn/training/setup.py"
MODELS = "lnrnn/model/models.py"
BEAM = "lnrnn/model/beam.py"
NEW_SETUP = ["tests/training/test_values445_setup.py"]
NEW_BEAM = ["tests/model/test_values445_beam.py"]
NEW_MODELS = ["tests/model/test_values445_models.py"]
# every file named after each module (pytest -k <name>, as random_sample.py --all-named judges)
OLD_SETUP = ["tests/training/test_values114_setup.py", "tests/training/test_values142_setup.py",
             "tests/training/test_values180_setup_finetune.py", "tests/training/test_values210_setup_update.py",
             "tests/training/test_values260_setup.py", "tests/training/test_values279_plan_setup_evaluation.py",
             "tests/training/test_values321_setup.py", "tests/training/test_values348_setup.py",
             "tests/training/test_values371_runconfig_setup.py", "tests/training/test_values399_setup.py",
             "tests/training/test_values428_setup.py", "tests/training/test_values433_setup.py",
             "tests/training/test_values63_setup.py", "tests/training/test_values9_setup.py",
             "tests/training/test_values_setup.py"]
OLD_BEAM = ["tests/model/test_beam.py", "tests/model/test_values109_beam.py", "tests/model/test_values137_beam.py",
            "tests/model/test_values166_beam.py", "tests/model/test_values198_beam.py",
            "tests/model/test_values223_beam_decode.py", "tests/model/test_values235_beam_decode.py",
            "tests/model/test_values250_beam.py", "tests/model/test_values257_beam.py",
            "tests/model/test_values276_beam.py", "tests/model/test_values313_beam.py",
            "tests/model/test_values32_beam.py", "tests/model/test_values337_beam.py",
            "tests/model/test_values368_decode_beam.py", "tests/model/test_values432_beam.py",
            "tests/model/test_values87_beam.py", "tests/model/test_values9_beam.py"]
OLD_MODELS = ["tests/model/test_layers_models_bidirectional.py", "tests/model/test_models.py",
              "tests/model/test_values10_models.py", "tests/model/test_values129_models.py",
              "tests/model/test_values163_models.py", "tests/model/test_values16_models.py",
              "tests/model/test_values193_models.py", "tests/model/test_values20_models.py",
              "tests/model/test_values211_models.py", "tests/model/test_values231_models.py",
              "tests/model/test_values242_models.py", "tests/model/test_values257_models.py",
              "tests/model/test_values276_models.py", "tests/model/test_values297_models.py",
              "tests/model/test_values315_models.py", "tests/model/test_values341_models.py",
              "tests/model/test_values363_models.py", "tests/model/test_values37_models.py",
              "tests/model/test_values388_models.py", "tests/model/test_values51_models.py",
              "tests/model/test_values73_models.py", "tests/model/test_values88_models.py"]
# the CUDA files that run a model's update on the device (loss_and_grad_on_device), under the simulator
CUDA_MODELS = ["tests/model/test_values20_models_cuda.py", "tests/model/test_values139_models_cuda.py"]

UNSET = "        if value is ... or (value is None and path in NONE_MEANS_UNSET):"
DEVICE_L = "        L = np.full(B, T, np.int64) if lengths is None else lengths\n        valid_all = L > 0 if last"
CHUNK_L = ("            lc = None if lengths is None else np.clip(lengths - t0, 0, t1 - t0)\n"
           "            y, state, _ = self._run(np.ascontiguousarray(x[t0:t1]), state, True")
BYTES = "    W = _width(width, steps, classes)\n    return 8 * (6 * (1 + steps * W) + W * (11 + classes))"

MUTANTS = [
    dict(name="v445-resume-none-or-unset", file=SETUP, old=UNSET, new=UNSET.replace("None and path", "None or path"),
         tests=NEW_SETUP + OLD_SETUP,
         why="None passes on every field, and the fields that may be None pass whatever they hold (rnd18-02)"),
    dict(name="v445-resume-none-anywhere", file=SETUP, old=UNSET,
         new="        if value is ... or value is None:", tests=NEW_SETUP + OLD_SETUP,
         why="a step, a count or a table of None resumes: the run goes on from a damaged description"),
    dict(name="v445-resume-unset-unchecked", file=SETUP, old=UNSET,
         new="        if value is ... or path in NONE_MEANS_UNSET:", tests=NEW_SETUP + OLD_SETUP,
         why="a best value, a budget or a blow-up's initial loss is never checked once set"),
    dict(name="v445-device-update-lengths", file=MODELS,
         old=DEVICE_L, new=DEVICE_L.replace("is None", "is not None"), tests=CUDA_MODELS,
         why="a device update without lengths reads None as every row's length (rnd18-18; CUDA only)"),
    dict(name="v445-search-bytes-steps-over-width", file=BEAM, old=BYTES,
         new=BYTES.replace("steps * W", "steps / W"), tests=NEW_BEAM + OLD_BEAM,
         why="a beam's trie counted as steps / W nodes: a search too large for memory let through (rnd18-20)"),
    dict(name="v445-search-bytes-no-merges", file=BEAM, old=BYTES, new=BYTES.replace("W * (11 + classes)", "W * 11"),
         tests=NEW_BEAM + OLD_BEAM, why="the merge table (W,C) left out of the estimate"),
    dict(name="v445-search-bytes-uncapped", file=BEAM, old=BYTES,
         new=BYTES.replace("W = _width(width, steps, classes)", "W = width"), tests=NEW_BEAM + OLD_BEAM,
         why="the width asked for, not the one the search keeps: a short line's small search refused"),
    dict(name="v445-chunk-lengths-at-least-one", file=MODELS, old=CHUNK_L,
         new=CHUNK_L.replace("lengths - t0, 0, t1 - t0", "lengths - t0, 1, t1 - t0"), tests=NEW_MODELS + OLD_MODELS,
         why="a row that has ended runs a step of its padding in every later chunk: BN statistics move (rnd18-35)"),
]
