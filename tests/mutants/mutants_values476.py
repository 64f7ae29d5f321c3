"""Planted bugs, round 476 (format: tests/mutants/mutants.py): the real survivors of a sixty-first random sample
(tests/mutants/random_sample.py --seed 61 --count 40 --all-named, on 50d4d6d: 34 of 40 caught) and their neighbours,
seventy-first pass.

Seed 61's 6 missed: 1 equivalent (rnd61-21: a run's meta shown in its repr, which nothing reads), 2 CUDA-only and
caught by the CUDA files (rnd61-15: the device update's last step of a row in a later chunk counted forward of the
chunk, caught by tests/training/test_device_batches.py; rnd61-32: the window layer's device buffers of a later chunk
sliced backward, caught by tests/model/test_values441_synthesis_cuda.py), 3 real: lnrnn gradcheck's write check
drawing its texts' codes from 1 (rnd61-09), so the window's first code never reached the check; a Hershey style
without jitter still drawing a normal per point (rnd61-17), which moves every later draw of the generator; and a
layer's refusal in the evaluation after the last update reported as one in the update after it (rnd61-23).

The planted bugs: the write check's codes from 1 (rnd61-09) or short of the last, its texts never full; a style
without jitter drawing normals (rnd61-17), the jitter by the style's scale; a refusal in the validation reported as
an update (rnd61-23) and one in an update as the validation before it. 7 mutants. The old files named after each
module catch 2 (the texts never full, a refusal in an update); the new files alone catch 7 of 7.

    python tests/mutants/run.py --only 'v476-*'
"""
from mutants_values449 import NEW_GRADCHECK as NEW_449, OLD_GRADCHECK as OLD_449  # the module's files to round 449

GRADCHECK = "lnrnn/gradcheck.py"
HERSHEY = "lnrnn/data/hershey.py"
UPDATE = "lnrnn/training/update.py"
NEW_GRADCHECK = ["tests/test_values476_gradcheck_codes.py"]
NEW_HERSHEY = ["tests/data/test_values476_hershey_jitter.py"]
NEW_UPDATE = ["tests/training/test_values476_update_validation.py"]
OLD_GRADCHECK = OLD_449 + NEW_449 + ["tests/commands/test_values465_gradcheck_bar.py",
                                     "tests/test_values463_gradcheck_texts.py"]
OLD_HERSHEY = ["tests/data/test_values127_hershey.py", "tests/data/test_values144_hershey.py",
               "tests/data/test_values15_hershey.py", "tests/data/test_values170_hershey.py",
               "tests/data/test_values213_hershey.py", "tests/data/test_values233_hershey_lines.py",
               "tests/data/test_values246_hershey_words.py", "tests/data/test_values265_hershey_lines.py",
               "tests/data/test_values280_hershey_layout.py", "tests/data/test_values307_idx_hershey.py",
               "tests/data/test_values34_hershey.py", "tests/data/test_values350_hershey_layout.py",
               "tests/data/test_values366_hershey_texts.py", "tests/data/test_values404_hershey_texts.py",
               "tests/data/test_values44_hershey.py", "tests/data/test_values59_hershey.py",
               "tests/data/test_values81_hershey.py", "tests/data/test_values89_hershey.py",
               "tests/data/test_values_hershey.py"]
OLD_UPDATE = ["tests/training/test_device_update.py", "tests/training/test_device_update_more.py",
              "tests/training/test_values114_update.py", "tests/training/test_values130_update.py",
              "tests/training/test_values210_setup_update.py", "tests/training/test_values289_update.py",
              "tests/training/test_values33_update.py", "tests/training/test_values357_update.py",
              "tests/training/test_values43_update.py", "tests/training/test_values457_train_first_update.py",
              "tests/training/test_values58_host_update.py", "tests/training/test_values64_update.py",
              "tests/training/test_values95_update.py", "tests/training/test_values_update.py"]
TEXT = "        text = (rng.integers(0, alphabet, (B, U)), np.arange(B) % (U + 1))   # (B,U) codes, (B,) lengths 0..U"
JITTER = "        out.append(pts + rng.normal(0.0, style.jitter, pts.shape) if style.jitter > 0 else pts)"
VALIDATION = '        trainer._diverged("recurrent activations of the validation", "NaN or infinite", evaluated=True)'
IN_UPDATE = '                      "NaN or infinite")'

MUTANTS = [
    dict(name="v476-codes-from-one", file=GRADCHECK, old=TEXT,
         new=TEXT.replace("integers(0, alphabet", "integers(1, alphabet"), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="rnd61-09: the write check's texts never hold the alphabet's first code"),
    dict(name="v476-codes-short-of-the-last", file=GRADCHECK, old=TEXT,
         new=TEXT.replace("integers(0, alphabet,", "integers(0, alphabet - 1,"), tests=NEW_GRADCHECK + OLD_GRADCHECK,
         why="the write check's texts never hold the alphabet's last code"),
    dict(name="v476-texts-never-full", file=GRADCHECK, old=TEXT, new=TEXT.replace("% (U + 1)", "% U"),
         tests=NEW_GRADCHECK + OLD_GRADCHECK, why="no text of the write check fills its code array"),
    dict(name="v476-hershey-no-jitter-draws", file=HERSHEY, old=JITTER, new=JITTER.replace("> 0", ">= 0"),
         tests=NEW_HERSHEY + OLD_HERSHEY,
         why="rnd61-17: a style without jitter still draws a normal per point, moving every later draw"),
    dict(name="v476-hershey-jitter-by-scale", file=HERSHEY, old=JITTER,
         new=JITTER.replace("normal(0.0, style.jitter,", "normal(0.0, style.scale,"), tests=NEW_HERSHEY + OLD_HERSHEY,
         why="the points jitter by the style's scale, not its jitter"),
    dict(name="v476-validation-refusal-in-an-update", file=UPDATE, old=VALIDATION,
         new=VALIDATION.replace("evaluated=True", "evaluated=False"), tests=NEW_UPDATE + OLD_UPDATE,
         why="rnd61-23: a refusal in the evaluation after the last update is reported in the update after it"),
    dict(name="v476-update-refusal-after-it", file=UPDATE, old=IN_UPDATE,
         new='                      "NaN or infinite", evaluated=True)', tests=NEW_UPDATE + OLD_UPDATE,
         why="a refusal during an update is reported as the evaluation after the update before"),
]
