"""Planted bugs, round 394 (format: tests/mutants/mutants.py): single-line slips on lines no earlier round mutates,
in predict's inputs and outputs (lnrnn/predict_io.py), twentieth pass, planted before any test was written for them:
complex sequences refused in the words of the not-numbers refusal; the non-finite refusal naming NaN alone; the
guard of describe_task_data inverted (no record of a task with x_train); training_record of metadata without a task
spec raising KeyError; training_record catching DataError only, so a spec its task no longer takes (a plain
UserError) escapes; the refusal of IDX images for another task leaving mnist-rows out; the refusal of an .npz
advising another .npz; a float64 .npy rounded to float32 on reading; a .npy-named file that is none refused without
saying what it is; per-step values of ragged sequences keeping the padded steps; the .npy table's index field left
unset; the .npy table saved straight to --out (no folders made above it, not atomic).

12 mutants. Against the old targeted files alone (the 17 test_*predict_io* files listed in OLD): 8 of 12 caught;
missed: training_record catching DataError only, the .npz advice, the .npy-named refusal without its kind, the .npy
table saved in place. The new file test_values394_predict_io catches the four misses and, alone, 12 of 12 (checked
with every list cut to it): the refusals of an .npz, of .npy-named files that are empty, text or other bytes (their
first six bytes written out by hand), of IDX images for digits, of complex64 and of infinite sequences, word for
word; training_record None for metadata without a task spec and for a digits spec with --steps (task_spec's plain
UserError shown first), a saved record taken as it is; describe_task_data of a hand-made task with x_train and a
scale against the record written by hand, None without x_train; a float64 .npy read with values float32 cannot hold;
a ragged per-step regression table and a classifier's .npy table against rows written by hand; a .npy table written
into two missing folders with no temporary file left, replaced whole, and kept when the write fails (fsync made to
fail with ENOSPC). Left out as equivalent before the round: _read_one's check of the images' ndim and dtype
(read_idx with magic 2051 already demands uint8 in 3 dimensions), its EOFError clause (a truncated .npy raises
ValueError), check_like_training's `if not record` made `is None` (an empty record checks nothing either way),
input_files' existence check dropped (_read_one words the same refusal). None of the 12 turned out equivalent.

    python tests/mutants/run.py --only 'v394-*'
"""
PIO = "lnrnn/predict_io.py"
NEW = ["tests/test_values394_predict_io.py"]
OLD = [
    "tests/commands/test_values240_predict_io.py",
    "tests/commands/test_values258_predict_io.py",
    "tests/commands/test_values277_predict_io.py",
    "tests/commands/test_values319_predict_io.py",
    "tests/test_values112_predict_io.py",
    "tests/test_values131_predict_io.py",
    "tests/test_values14_predict_io.py",
    "tests/test_values214_predict_io.py",
    "tests/test_values219_predict_io.py",
    "tests/test_values21_predict_io.py",
    "tests/test_values34_predict_io.py",
    "tests/test_values365_predict_io.py",
    "tests/test_values54_predict_io.py",
    "tests/test_values80_predict_io.py",
    "tests/test_values91_predict_io.py",
    "tests/test_values9_predict_io.py",
    "tests/test_values_predict_io.py",
]

MUTANTS = [
    dict(name="v394-pio-complex-refusal-says-numbers", file=PIO,
         old='raise UserError(f"the sequences must be real numbers, not {x.dtype} values.")',
         new='raise UserError(f"the sequences must be numbers, not {x.dtype} values.")',
         tests=NEW + OLD,
         why="complex sequences refused as if they were not numbers at all (the first refusal's words)"),
    dict(name="v394-pio-nan-refusal-forgets-infinite", file=PIO,
         old='raise UserError("the sequences hold NaN or infinite values.")',
         new='raise UserError("the sequences hold NaN values.")',
         tests=NEW + OLD,
         why="the refusal of non-finite sequences names NaN alone, also when the values are infinite"),
    dict(name="v394-pio-task-data-guard-inverted", file=PIO,
         old='    if not hasattr(task, "x_train"):\n        return None',
         new='    if hasattr(task, "x_train"):\n        return None',
         tests=NEW + OLD,
         why="describe_task_data gives no record of a task with a training array (and fails on the others)"),
    dict(name="v394-pio-record-needs-a-task-key", file=PIO,
         old='    spec = dict(meta.get("task") or {})',
         new='    spec = dict(meta["task"])',
         tests=NEW + OLD,
         why="training_record of metadata without a task spec raises KeyError instead of giving None"),
    dict(name="v394-pio-record-catches-data-errors-only", file=PIO,
         old='        return describe_task_data(load_task(spec))\n    except UserError:',
         new='        return describe_task_data(load_task(spec))\n    except DataError:',
         tests=NEW + OLD,
         why="a spec the task no longer takes (a plain UserError) escapes training_record instead of no check"),
    dict(name="v394-pio-idx-refusal-lists-two-tasks", file=PIO,
         old="which only runs of {', '.join(MNIST_TASKS)} read",
         new="which only runs of {', '.join(MNIST_TASKS[:2])} read",
         tests=NEW + OLD,
         why="the refusal of IDX images for another task leaves mnist-rows out of the tasks that read them"),
    dict(name="v394-pio-npz-advice-savez", file=PIO,
         old="\"sequences with numpy.save('x.npy', x).\")",
         new="\"sequences with numpy.savez('x.npz', x=x).\")",
         tests=NEW + OLD,
         why="the refusal of an .npz tells the user to save another .npz"),
    dict(name="v394-pio-npy-cast-to-float32", file=PIO,
         old="            x = x.astype(np.float32) * np.float32(_task_scale(task))\n"
             "        return x\n",
         new="            x = x.astype(np.float32) * np.float32(_task_scale(task))\n"
             "        return x.astype(np.float32)\n",
         tests=NEW + OLD,
         why="float64 sequences of a .npy rounded to float32 on reading, not the model's inputs as they are"),
    dict(name="v394-pio-misnamed-npy-refusal-drops-kind", file=PIO,
         old='raise DataError(f"{path} {kind}; predict reads {INPUTS}.")',
         new='raise DataError(f"{path} is not a .npy file; predict reads {INPUTS}.")',
         tests=NEW + OLD,
         why="a .npy-named file that is none says not what it is (empty, text, other bytes)"),
    dict(name="v394-pio-per-step-values-keep-padding", file=PIO,
         old="            v = v[keep]  ",
         new="            v = v.reshape(N * T, O)  ",
         tests=NEW + OLD,
         why="per-step values of ragged sequences keep the padded steps: rows shift onto the wrong steps"),
    dict(name="v394-pio-npy-index-field-unset", file=PIO,
         old="        for name, _, a in cols:\n",
         new="        for name, _, a in cols[1:]:\n",
         tests=NEW + OLD,
         why="the .npy table's index field is left as np.empty made it"),
    dict(name="v394-pio-npy-saved-in-place", file=PIO,
         old="        write_output_file(path, lambda f: np.save(f, table, allow_pickle=False))",
         new="        np.save(path, table, allow_pickle=False)",
         tests=NEW + OLD,
         why="the .npy table written straight to --out: no folders made above it, not atomic"),
]
