"""Planted bugs in the rough edges of the commands: a full disk, a read-only --dest, files that are not what
their names say, labels out of range, export's suffix, a run with no evaluation yet, long primes, the
pictures' captions and scale, predictions of every head (format: tests/mutants/mutants.py)."""

EDGES = "tests/test_edges.py"

MUTANTS = [
    # ---- a full disk, a read-only folder ----
    dict(name="edges-writer-error-hides-the-disk", file="lnrnn/files.py",
         old="        cause = _os_error_within(e) if isinstance(e, Exception) else None\n",
         new="        cause = e if isinstance(e, OSError) else None\n",
         tests=[f"{EDGES}::test_a_writer_that_hides_the_disk_error_still_reports_it"],
         why="matplotlib's zlib.error/AttributeError after a full disk escapes as a traceback"),
    dict(name="edges-checkpoint-save-raw-oserror", file="lnrnn/training/checkpoint.py",
         old="        raise _save_error(directory, meta, arrays, e) from None\n",
         new="        raise\n",
         tests=[f"{EDGES}::test_a_checkpoint_that_cannot_be_saved_keeps_the_previous_one",
                f"{EDGES}::test_a_failed_save_in_training_is_one_line"],
         why="a full disk during a checkpoint save is a chain of OSError tracebacks"),
    dict(name="edges-checkpoint-save-leaves-new-arrays", file="lnrnn/training/checkpoint.py",
         old="            os.unlink(npz_path)  # the description still names the previous arrays file\n",
         new="            pass\n",
         tests=[f"{EDGES}::test_a_checkpoint_that_cannot_be_saved_keeps_the_previous_one"],
         why="the arrays file of a save whose description failed stays behind, orphaned"),
    dict(name="edges-keep-past-half-copy", file="lnrnn/training/checkpoint.py",
         old="        shutil.rmtree(dest, ignore_errors=True)  # a half-made copy is no checkpoint\n",
         new="        pass\n",
         tests=[f"{EDGES}::test_keeping_a_past_checkpoint_on_a_full_disk"],
         why="a --keep copy that could not be finished is left as a folder that is no checkpoint"),
    dict(name="edges-train-write-error-traceback", file="lnrnn/commands/train.py",
         old="            raise _write_error(e, cfg.out) from None\n",
         new="            raise\n",
         tests=[f"{EDGES}::test_train_onto_a_full_disk_is_one_line_and_keeps_the_run"],
         why="a full disk while a run writes its logs ends in a traceback"),
    dict(name="edges-mnist-dest-not-checked", file="lnrnn/commands/data.py",
         old="    check_dest(dest)\n",
         new="    os.makedirs(dest, exist_ok=True)\n",
         tests=[f"{EDGES}::test_data_mnist_into_a_read_only_folder"],
         why="a read-only --dest ends in a PermissionError traceback"),
]
