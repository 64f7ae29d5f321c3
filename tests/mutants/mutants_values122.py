"""Planted bugs, round 122 (format: tests/mutants/mutants.py): single-line slips in the run recorder,
checkpoints, the run configuration and the npz task, a fifth pass on lines no earlier round mutates: the npz
task describing a text file that holds a space as bytes and never adding '...' to the six bytes it quotes,
refusing unknown arrays by naming every array, lengths kept in their stored dtype instead of int64, y_val taken
from y; a checkpoint of another format version refused naming this lnrnn's version, one of another model
refused with the two sides swapped, a failed save naming the epoch as its update; a .toml that is not TOML
escaping as a traceback, a config that is not a table named by its class's repr; metrics.jsonl rewritten with
its newest row only, a resume into another model refused with the two sides swapped, a best of 0 left out of
the summary, samples_per_s from the scored count.

14 mutants. Against the existing targeted tests alone 5 were caught and 9 missed: the text/bytes description
and its '...', the unknown arrays' names, the lengths' dtype, the TOML error and the table's type name, the
recorder's mismatch sides, the best of 0 in the summary and samples_per_s (no old test read these values).
The new value tests catch every mutant on their own (checked with the old tests taken off the lists):
test_values122_arrays (a file's first six bytes described from the definition, the unknown arrays by set
difference, a file with every optional array and per-step labels with -1 against the arrays written, for
lengths stored as uint8, int16, int32, int64 and uint64, classes counted over both sets, the batches of each
split against the same arrays gathered here), test_values122_checkpoint (version 0, 2 and 17 named as the
file's; each differing model setting as checkpoint's value then requested one; a blocked save naming its
update; --keep 2 over updates 9, 10, 99, 100, 1000, 10000 against the two highest by number),
test_values122_runconfig (four broken TOML files; a list, str, int, float and bool named by type; config.json
of a run with most fields set read back through --config into the same values and types),
test_values122_recorder (metrics.jsonl and metrics.csv after each of six evaluations over a non-monotonic
loss with a tie, the whole history in order; a resume of an H=4 checkpoint into H=6; the summary's best for
acc 0, loss 0 and acc 0.25; samples_per_s as sequences over wall time where the scored count differs).
Dropped as equivalent: the pickle test without .lower() in read_file (numpy's message says "allow_pickle" in
lower case); --config's command line winning over the environment only (lnrnn train reads no environment
variables); the plural of "input" on I > 1 for I != 1 (I is at least 1); metrics.csv's repr of floats as str
(the same text in Python 3). Left out: the TensorBoard writer's lines in logs.py (tensorboard is an optional
package, absent where these tests run).

    python tests/mutants/run.py --only 'v122-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
CKPT = "lnrnn/training/checkpoint.py"
RUNCONFIG = "lnrnn/training/runconfig.py"
RECORDER = "lnrnn/training/recorder.py"

T = "tests/training/"
# existing tests of these modules
ARRAYS_OLD = ["tests/data/test_own_data.py", "tests/data/test_values10_arrays.py", "tests/data/test_values34_arrays.py",
              "tests/data/test_values111_arrays.py"]
CKPT_OLD = [T + f for f in ("test_checkpoint.py", "test_values14_checkpoint.py", "test_values63_checkpoint.py",
                            "test_values102_checkpoint.py")]
RUNCONFIG_OLD = [T + f for f in ("test_values_runconfig.py", "test_values13_runconfig.py",
                                 "test_values102_runconfig.py")]
RECORDER_OLD = [T + f for f in ("test_values10_recorder.py", "test_values20_recorder.py",
                                "test_values102_recorder.py")]

# value tests written for the bugs below (first, so that a caught mutant stops there)
ARRAYS_NEW = ["tests/data/test_values122_arrays.py"]
CKPT_NEW = [T + "test_values122_checkpoint.py"]
RUNCONFIG_NEW = [T + "test_values122_runconfig.py"]
RECORDER_NEW = [T + "test_values122_recorder.py"]

MUTANTS = [
    # ---- the npz task: what a file that is no npz is told, unknown arrays, lengths' dtype, y_val ----
    dict(name="v122-arrays-space-not-text", file=ARRAYS,
         old='all(c >= 32 or c in b"\\t\\r\\n" for c in head)',
         new='all(c > 32 or c in b"\\t\\r\\n" for c in head)',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a text file whose first six bytes hold a space is described as beginning with bytes, not as text"),
    dict(name="v122-arrays-ellipsis-never", file=ARRAYS,
         old="{'...' if len(head) == 6 else ''}",
         new="{'...' if len(head) > 6 else ''}",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the six bytes quoted from a longer file lose their '...': the message reads as if the file ended there"),
    dict(name="v122-arrays-unknown-names-every-array", file=ARRAYS,
         old="has arrays {', '.join(unknown)} the npz task",
         new="has arrays {', '.join(data.files)} the npz task",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="a file with an unknown array is refused naming every array it holds, x and y included, as unread"),
    dict(name="v122-arrays-lengths-dtype-kept", file=ARRAYS,
         old="    return lengths.astype(np.int64)\n",
         new="    return lengths\n",
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="lengths stored as uint8 or int32 come back in that dtype, not int64 (uint8 arithmetic on them wraps)"),
    dict(name="v122-arrays-y-val-from-y", file=ARRAYS,
         old='        out["y_val"] = ys[1]\n',
         new='        out["y_val"] = ys[0]\n',
         tests=ARRAYS_NEW + ARRAYS_OLD,
         why="the checked y_val is the training labels: validation scores each sequence against another's target"),
    # ---- checkpoints: what a refusal names ----
    dict(name="v122-ckpt-version-names-ours", file=CKPT,
         old="has checkpoint format version {meta.get('version')}; ",
         new="has checkpoint format version {VERSION}; ",
         tests=CKPT_NEW + CKPT_OLD,
         why="a description of another format version is refused naming this lnrnn's version as the file's"),
    dict(name="v122-ckpt-mismatch-swapped", file=CKPT,
         old="belongs to another model ({model_mismatch(model, expected_model)})",
         new="belongs to another model ({model_mismatch(expected_model, model)})",
         tests=CKPT_NEW + CKPT_OLD,
         why="a checkpoint of another model is refused with its values and the requested ones swapped"),
    dict(name="v122-ckpt-save-error-names-epoch", file=CKPT,
         old="cannot save the checkpoint of update {meta.get('step', 0)} in",
         new="cannot save the checkpoint of update {meta.get('epoch', 0)} in",
         tests=CKPT_NEW + CKPT_OLD,
         why="a failed save names the epoch as the update it could not save"),
    # ---- the run configuration: a config file's refusals ----
    dict(name="v122-runconfig-toml-error-escapes", file=RUNCONFIG,
         old="except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:",
         new="except UnicodeDecodeError as e:",
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="a .toml config that is not TOML raises TOMLDecodeError with a traceback, not one sentence"),
    dict(name="v122-runconfig-table-type-repr", file=RUNCONFIG,
         old="not a {type(table).__name__}.",
         new="not a {type(table)}.",
         tests=RUNCONFIG_NEW + RUNCONFIG_OLD,
         why="a config holding a list is refused as \"not a <class 'list'>\" instead of naming a list"),
    # ---- the run recorder: metrics.jsonl, a refused resume, the summary, the epoch row ----
    dict(name="v122-recorder-metrics-last-row-only", file=RECORDER,
         old='"".join(json.dumps(r) + "\\n" for r in t.history)',
         new='"".join(json.dumps(r) + "\\n" for r in t.history[-1:])',
         tests=RECORDER_NEW + RECORDER_OLD,
         why="metrics.jsonl is rewritten with the newest row only: every earlier evaluation is lost from the file"),
    dict(name="v122-recorder-restore-mismatch-swapped", file=RECORDER,
         old="f\"build ({model_mismatch(saved, t.model.config)}).\")",
         new="f\"build ({model_mismatch(t.model.config, saved)}).\")",
         tests=RECORDER_NEW + RECORDER_OLD,
         why="a resume refused for another model says the checkpoint holds the requested settings and vice versa"),
    dict(name="v122-recorder-best-zero-untold", file=RECORDER,
         old='        if b["value"] is not None:\n',
         new='        if b["value"]:\n',
         tests=RECORDER_NEW + RECORDER_OLD,
         why="a best validation value of 0 (accuracy 0, or a loss of 0) leaves the best checkpoint out of the summary"),
    dict(name="v122-recorder-rate-from-count", file=RECORDER,
         old='round(s["samples"] / max(epoch_wall, 1e-9), 1)',
         new='round(s["count"] / max(epoch_wall, 1e-9), 1)',
         tests=RECORDER_NEW + RECORDER_OLD,
         why="samples_per_s divides the scored count (steps or points on per-step heads) by the epoch's wall time"),
]
