"""Planted bugs, round 220 (format: tests/mutants/mutants.py): single-line slips in the task registry, your own
arrays and the stroke sets, on lines no earlier round mutates: the head option taking 'mdn', --head ctc on a
task without text given the generic refusal (and charset the reading one), the flag refusal losing its quotes,
a misspelt task option passing when its value is None, the copy description counting the symbols once, the
digits descriptions of gray and ink-or-not pixels swapped; an empty .npz (a zip of only its end record) refused
as not a NumPy file, a missing data file called a folder, per-step labels that are all -1 reported as '0 class',
the held-out split's lengths taken from the training rows, and a file without x_val reading lengths_val for its
lengths; a CTC-reading batch leaving its first line at zero, default line names counted from 1 and text_batch
returning CTC classes instead of the alphabet's codes.

14 mutants. Against the existing targeted tests alone (every tests/data file on tasks, arrays and strokes) 5
were caught and 9 missed: the head option taking 'mdn', the unquoted flag refusal, the unknown option passing
as None, the copy and digits descriptions, the empty .npz, the missing file called a folder, '0 class' and the
default names. The new value tests catch every mutant on their own (checked with the old tests taken off the
lists): test_values220_tasks (refusals word for word; the copy task's description and layout against T =
symbols + blanks + recall steps counted here, its delimiter and -1 labels by definition; the digits
descriptions and the validation split's labels and pixels at 31/17 against scikit-learn's images permuted by
the fixed seed here), test_values220_arrays (an empty .npz written by numpy.savez, a missing file and a folder
refused word for word; per-step labels of 0 and of 1 classes; batches of the held-out split of N=7, 10% and
3/2, x, y and lengths element by element against the seed-0 permutation drawn here), test_values220_strokes
(default names; a CTC-reading batch against each line divided by the training offsets' std computed here,
labels as alphabet index + 1 with the unknown character's class 1, padding -1; text_batch's codes as alphabet
indices). Dropped as equivalent: ctc_steps_needed counting labels > 0 as real (labels are shifted by the blank,
never 0), _cut subtracting the whole stroke's length (only at the last stroke, where nothing follows) and the
npz description's plural for I > 1 instead of I != 1 (I is never 0).

    python tests/mutants/run.py --only 'v220-*'
"""
import glob as _glob
import os as _os

_ROOT = _os.path.dirname(_os.path.dirname(_os.path.dirname(_os.path.abspath(__file__))))

TASKS = "lnrnn/data/tasks.py"
ARRAYS = "lnrnn/data/arrays.py"
STROKES = "lnrnn/data/strokes.py"


def _old(*topics):
    found = (_os.path.relpath(p, _ROOT) for t in topics
             for p in _glob.glob(_os.path.join(_ROOT, "tests", "data", f"test_values*_{t}.py")))
    return sorted(p for p in found if "values220" not in p)


NEW_TASKS = "tests/data/test_values220_tasks.py"
NEW_ARRAYS = "tests/data/test_values220_arrays.py"
NEW_STROKES = "tests/data/test_values220_strokes.py"
OLD_TASKS = _old("tasks") + ["tests/data/test_values_tasks.py"]
OLD_ARRAYS = _old("arrays")
OLD_STROKES = _old("strokes") + ["tests/data/test_strokes_data.py", "tests/data/test_text_strokes.py",
                                 "tests/data/test_values_strokes.py"]

MUTANTS = [
    {"name": "v220-tasks-head-lets-mdn", "file": TASKS,
     "old": '    if value != "ctc":',
     "new": '    if value not in ("ctc", "mdn"):',
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "the head option takes 'mdn' though only ctc is a head the option can ask for"},
    {"name": "v220-tasks-head-refusal-branch", "file": TASKS,
     "old": '            if key == "head":',
     "new": '            if key != "head":',
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "--head ctc on a task without text gets the generic refusal, charset gets the reading one"},
    {"name": "v220-tasks-flag-message-unquoted", "file": TASKS,
     "old": 'must be true or false, not {value!r}.',
     "new": 'must be true or false, not {value}.',
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "the flag refusal shows the bad value without its quotes"},
    {"name": "v220-tasks-unknown-option-when-none", "file": TASKS,
     "old": "        if key not in OPTIONS:",
     "new": "        if key not in OPTIONS and val is not None:",
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "a misspelt option passes silently when its value is None"},
    {"name": "v220-tasks-copy-steps-desc", "file": TASKS,
     "old": 'f"({delay + 2 * COPY_SYMBOLS} steps, per-step',
     "new": 'f"({delay + COPY_SYMBOLS} steps, per-step',
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "the copy task's description counts the symbols once, not the recall steps too"},
    {"name": "v220-tasks-digits-pixels-desc-swapped", "file": TASKS,
     "old": 'else 0" if binary else "values in [0, 1]"',
     "new": 'else 0" if not binary else "values in [0, 1]"',
     "tests": [NEW_TASKS] + OLD_TASKS,
     "why": "gray digits are described as ink-or-not and binary ones as values in [0, 1]"},
    {"name": "v220-arrays-empty-zip-not-npz", "file": ARRAYS,
     "old": "    if head[:4] in ZIP_MAGICS:",
     "new": "    if head[:4] == ZIP_MAGICS[0]:",
     "tests": [NEW_ARRAYS] + OLD_ARRAYS,
     "why": "an empty .npz (a zip of no arrays, end record only) is refused as not a NumPy file"},
    {"name": "v220-arrays-missing-file-is-folder", "file": ARRAYS,
     "old": "    if os.path.isdir(path):",
     "new": "    if not os.path.isfile(path):",
     "tests": [NEW_ARRAYS] + OLD_ARRAYS,
     "why": "a file that does not exist is reported as a folder"},
    {"name": "v220-arrays-zero-classes-singular", "file": ARRAYS,
     "old": "class{'es' * (num_classes != 1)}",
     "new": "class{'es' * (num_classes > 1)}",
     "tests": [NEW_ARRAYS] + OLD_ARRAYS,
     "why": "per-step labels all -1 make 0 classes, reported as '0 class'"},
    {"name": "v220-arrays-val-lengths-from-train", "file": ARRAYS,
     "old": "(L[tr], L[va])",
     "new": "(L[tr], L[tr])",
     "tests": [NEW_ARRAYS] + OLD_ARRAYS,
     "why": "the held-out split's lengths are the training rows' lengths"},
    {"name": "v220-arrays-lengths-wrong-key", "file": ARRAYS,
     "old": 'x, y, L = d["x"], d["y"], d["lengths"]',
     "new": 'x, y, L = d["x"], d["y"], d["lengths_val"]',
     "tests": [NEW_ARRAYS] + OLD_ARRAYS,
     "why": "a file without x_val loses its lengths (lengths_val is None there): batches come without them"},
    {"name": "v220-strokes-reading-batch-skips-row0", "file": STROKES,
     "old": """        x = np.zeros((T, B, 3), dtype)                                    # (T, B, 3) time-major
        for b in range(B):
            x[:lengths[b], b] = s.points[first[b]:first[b] + lengths[b]]""",
     "new": """        x = np.zeros((T, B, 3), dtype)                                    # (T, B, 3) time-major
        for b in range(1, B):
            x[:lengths[b], b] = s.points[first[b]:first[b] + lengths[b]]""",
     "tests": [NEW_STROKES] + OLD_STROKES,
     "why": "a CTC-reading batch leaves its first line's points at zero"},
    {"name": "v220-strokes-default-names-from-1", "file": STROKES,
     "old": "[str(i) for i in range(len(lines))]",
     "new": "[str(i + 1) for i in range(len(lines))]",
     "tests": [NEW_STROKES] + OLD_STROKES,
     "why": "lines without names are named from 1, not by their index"},
    {"name": "v220-strokes-text-batch-shifted", "file": STROKES,
     "old": "            codes[b, :len(t)] = self.encode(t)",
     "new": "            codes[b, :len(t)] = self.encode(t) + CTC_SHIFT",
     "tests": [NEW_STROKES] + OLD_STROKES,
     "why": "text_batch returns CTC classes (code + 1) instead of the alphabet's codes"},
]
