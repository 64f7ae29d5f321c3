"""Planted bugs, round 477 (format: tests/mutants/mutants.py): the real survivors of a sixty-third random sample
(tests/mutants/random_sample.py --seed 63 --count 40 --all-named, on 6e0b72c: 36 of 40 caught) and their neighbours,
seventy-third pass; the sixty-second sample (seed 62, on 6e0b72c: 36 of 40 caught) left none.

Seed 62's 4 missed: 3 equivalent (rnd62-01: lnrnn info's probe starting its count at one; rnd62-14: a run's model in
the dataclass's repr, which Run's own __repr__ replaces; rnd62-38: the optimizer's slots laid out by the gradients'
flat buffer for the parameters'), 1 CUDA-only and caught by the CUDA files (rnd62-24: the window stack's backward
refusing a device dy, caught by tests/model/test_synthesis_cuda.py). Seed 63's 4 missed: 1 equivalent (rnd63-15: the
orthogonal init's column signs divided by sign(diag r) for multiplied, the same for a sign of +-1), 1 CUDA-only and
caught by the CUDA files (rnd63-21: the last-step head's device rows taken at step B - 1, caught by
tests/model/test_values468_last_step_residence_cuda.py), 2 real: lnrnn.jax on a JAX whose setting has no global
value refusing float64 (rnd63-24), and the spec's mixture weights shifted by the row's largest logit added for
subtracted (rnd63-26), which overflows once a logit passes 355.

The planted bugs: lnrnn.jax on a JAX whose setting has no global value refusing float64 (rnd63-24), or raising
AttributeError there, or ImportError on a JAX without jax._src.config; the setting read on this thread, not the
process's; the spec's mixture weights shifted by the row's largest logit added (rnd63-26), by the batch's largest,
or not at all. 7 mutants. The new files alone catch 6 of 7 (the setting read on this thread is caught by
tests/interop/test_jax.py's float64 in a jax.enable_x64 context, in a child process). The old files: the setting
read on this thread caught (tests/interop/test_jax.py); float64 refused on another JAX missed by the whole old list,
the two exceptions let through missed by tests/interop/test_jax.py (the rest of the old list not run for them); the
three mixture shifts missed by the whole old list.

    python tests/mutants/run.py --only 'v477-*'
"""
from mutants_values466 import NEW_JAX as NEW_466, OLD_JAX as OLD_466  # lnrnn.jax's files to round 466

JAX = "lnrnn/interop/jax.py"
REF = "lnrnn/reference.py"
NEW_JAX = ["tests/interop/test_values477_jax_x64.py"]
NEW_REF = ["tests/test_values477_reference_mdn_shift.py"]
OLD_JAX = ["tests/interop/test_jax.py"] + OLD_466 + NEW_466
OLD_REF = ["tests/test_values105_reference.py", "tests/test_values11_reference.py",
           "tests/test_values150_reference_cells.py", "tests/test_values150_reference_heads.py",
           "tests/test_values176_reference_cells.py", "tests/test_values176_reference_heads.py",
           "tests/test_values18_reference.py", "tests/test_values191_reference_cells.py",
           "tests/test_values191_reference_heads.py", "tests/test_values288_reference_cells.py",
           "tests/test_values288_reference_heads.py", "tests/test_values304_reference_cells.py",
           "tests/test_values304_reference_heads.py", "tests/test_values31_reference.py",
           "tests/test_values330_reference_cells.py", "tests/test_values330_reference_heads.py",
           "tests/test_values355_reference_cells.py", "tests/test_values355_reference_heads.py",
           "tests/test_values83_reference_backward.py", "tests/test_values83_reference_ctc.py",
           "tests/test_values83_reference_forward.py"]
ANOTHER = "    except (ImportError, AttributeError):  # another JAX: trust this thread's setting\n        return True"
GLOBAL = "        return bool(enable_x64.get_global())"
SHIFT = "    p = np.exp(y[:, 1:1 + M] - y[:, 1:1 + M].max(axis=1, keepdims=True))"

MUTANTS = [
    dict(name="v477-jax-another-jax-refuses", file=JAX, old=ANOTHER, new=ANOTHER.replace("return True", "return False"),
         tests=NEW_JAX + OLD_JAX, why="rnd63-24: on a JAX whose setting has no global value float64 is refused"),
    dict(name="v477-jax-attribute-error-escapes", file=JAX, old=ANOTHER,
         new=ANOTHER.replace("(ImportError, AttributeError)", "ImportError"), tests=NEW_JAX + OLD_JAX,
         why="a JAX whose setting has no global value: every lnrnn.jax call raises AttributeError"),
    dict(name="v477-jax-import-error-escapes", file=JAX, old=ANOTHER,
         new=ANOTHER.replace("(ImportError, AttributeError)", "AttributeError"), tests=NEW_JAX + OLD_JAX,
         why="a JAX without jax._src.config: every lnrnn.jax call raises ImportError"),
    dict(name="v477-jax-this-threads-value", file=JAX, old=GLOBAL, new=GLOBAL.replace("get_global()", "value"),
         tests=NEW_JAX + OLD_JAX,
         why="the setting read on this thread: float64 in a jax.enable_x64 context reaches the callbacks as float32"),
    dict(name="v477-ref-mdn-shift-added", file=REF, old=SHIFT, new=SHIFT.replace("] - y[", "] + y["),
         tests=NEW_REF + OLD_REF, why="rnd63-26: the spec's mixture weights overflow once a logit passes 355"),
    dict(name="v477-ref-mdn-shift-by-the-batch", file=REF, old=SHIFT,
         new=SHIFT.replace(".max(axis=1, keepdims=True)", ".max()"), tests=NEW_REF + OLD_REF,
         why="one shift for the whole batch: a row far below the batch's largest logit gets weights 0 / 0"),
    dict(name="v477-ref-mdn-no-shift", file=REF, old=SHIFT, new="    p = np.exp(y[:, 1:1 + M])",
         tests=NEW_REF + OLD_REF, why="the spec's mixture weights unshifted: inf / inf past a logit of 709"),
]
