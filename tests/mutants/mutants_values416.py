"""Planted bugs, round 416 (format: tests/mutants/mutants.py): a NumPy file whose header promises an array larger
than any memory (lnrnn/errors.py's too_large and the readers that catch numpy's MemoryError: the npz task's file,
strokes files, lnrnn read's lines, a sampler's --prime-strokes, predict's inputs, a checkpoint's arrays file),
twentieth pass.

Writing this round's plan found a real bug: numpy allocates the array a .npy header (alone, or as an .npz member)
promises before reading it, and a header promising more than any memory (a file from a larger machine, or a few
damaged bytes) raised MemoryError, which no reader caught: lnrnn train --task npz, lnrnn read, --prime-strokes,
lnrnn predict and a checkpoint's load ended in a traceback. The fix words the sentence once (errors.too_large) and
every reader catches MemoryError around its numpy reads. The planted bugs: each of the eight readers catching
OverflowError in its place, and the sentence dropping numpy's own words (the size it could not allocate). 9 mutants.
The old targeted files alone (OLD) catch 0 of 9: none writes a header promising more than memory.
test_values416_too_large_errors writes such headers (a .npy alone and as an .npz member, beyond any address space so
that allocating fails on every host) and requires each reader's sentence with numpy's words in it, and lnrnn train's
one Error line. NEW + OLD catch 9 of 9; the new file alone catches 9 of 9 (each of its 11 tests fails on the code
before the fix). Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v416-*'
"""
NEW = ["tests/data/test_values416_too_large_errors.py"]
OLD = [
    "tests/data/test_values413_compressed_npz_errors.py",
    "tests/data/test_values406_arrays.py",
    "tests/data/test_values170_stroke_files.py",
    "tests/data/test_values402_stroke_files.py",
    "tests/test_values407_refusals.py",
    "tests/test_values378_sampler.py",
    "tests/test_values221_sampler.py",
    "tests/training/test_values142_checkpoint.py",
    "tests/training/test_checkpoint.py",
    "tests/test_values_predict_io.py",
    "tests/test_values394_predict_io.py",
]

MUTANTS = [
    dict(name="v416-sentence-without-numpys-words", file="lnrnn/errors.py",
         old='holds an array too large for the memory free ({e}); if',
         new='holds an array too large for the memory free; if',
         tests=NEW + OLD,
         why="the sentence no longer says what size numpy could not allocate (the clue to a damaged header)"),
    dict(name="v416-npz-task-load-overflow", file="lnrnn/data/arrays.py",
         old="    except MemoryError as e:\n        raise DataError(too_large(path, e)) from None",
         new="    except OverflowError as e:\n        raise DataError(too_large(path, e)) from None",
         tests=NEW + OLD,
         why="the npz task given a .npy of a huge header ends in a MemoryError traceback"),
    dict(name="v416-npz-task-member-overflow", file="lnrnn/data/arrays.py",
         old="            except MemoryError as e:",
         new="            except OverflowError as e:",
         tests=NEW + OLD,
         why="the npz task's member of a huge header ends in a MemoryError traceback"),
    dict(name="v416-strokes-load-overflow", file="lnrnn/data/stroke_files.py",
         old="    except MemoryError as e:\n        raise DataError(too_large(path, e)) from None",
         new="    except OverflowError as e:\n        raise DataError(too_large(path, e)) from None",
         tests=NEW + OLD,
         why="a strokes .npy of a huge header ends in a MemoryError traceback"),
    dict(name="v416-strokes-member-overflow", file="lnrnn/data/stroke_files.py",
         old="        except MemoryError as e:\n            raise DataError(too_large(path, e)) from None",
         new="        except OverflowError as e:\n            raise DataError(too_large(path, e)) from None",
         tests=NEW + OLD,
         why="a strokes .npz member of a huge header ends in a MemoryError traceback"),
    dict(name="v416-read-lines-overflow", file="lnrnn/data/stroke_files.py",
         old="    except MemoryError as e:\n        raise DataError(too_large(text, e)) from None",
         new="    except OverflowError as e:\n        raise DataError(too_large(text, e)) from None",
         tests=NEW + OLD,
         why="lnrnn read's lines of a huge header end in a MemoryError traceback"),
    dict(name="v416-prime-overflow", file="lnrnn/sample.py",
         old="    except MemoryError as e:\n        raise UserError(too_large(",
         new="    except OverflowError as e:\n        raise UserError(too_large(",
         tests=NEW + OLD,
         why="--prime-strokes of a huge header ends in a MemoryError traceback"),
    dict(name="v416-checkpoint-overflow", file="lnrnn/training/checkpoint.py",
         old="    except MemoryError as e:",
         new="    except OverflowError as e:",
         tests=NEW + OLD,
         why="a checkpoint whose arrays file has a huge header ends in a MemoryError traceback"),
    dict(name="v416-predict-overflow", file="lnrnn/predict_io.py",
         old="        except MemoryError as e:",
         new="        except OverflowError as e:",
         tests=NEW + OLD,
         why="predict's .npy input of a huge header ends in a MemoryError traceback"),
]
