"""Planted bugs, round 413 (format: tests/mutants/mutants.py): the exceptions a damaged NumPy file raises
(lnrnn/errors.py's DAMAGED_NUMPY_FILE and the readers that catch it: the npz task's file, strokes files, lnrnn
read's lines, a sampler's --prime-strokes), twentieth pass.

Writing this round's plan found a real bug: an .npz written by numpy.savez_compressed (as lnrnn's own stroke files
are) whose compressed bytes are damaged inside a member raises zlib.error when the member is read, which no reader
caught: lnrnn train --task npz, lnrnn read and lnrnn sample --prime-strokes ended in a zlib.error traceback. The fix
names what numpy.load and an .npz member raise for a damaged file once (errors.DAMAGED_NUMPY_FILE, zlib.error
included) and every reader catches that tuple. The planted bugs, each bringing the bug back in one place: zlib.error
left out of the tuple; the npz task's member read, the strokes file's member read, lnrnn read's lines and the
sampler's prime each catching OSError alone. 5 mutants. The old targeted files alone (OLD) catch 2 of 5 (the npz
task's and lnrnn read's member reads, by their CRC and cut-short files); missed: zlib.error out of the tuple, the
strokes file's member read, the prime. test_values413_compressed_npz_errors damages a member of a savez_compressed
archive so that reading it raises zlib.error (checked first) and requires each reader's sentence, and lnrnn train's
one Error line. NEW + OLD catch 5 of 5; the new file alone catches 5 of 5 (each fails on the code before the fix).
Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v413-*'
"""
NEW = ["tests/data/test_values413_compressed_npz_errors.py"]
OLD = [
    "tests/data/test_values406_arrays.py",
    "tests/data/test_values170_stroke_files.py",
    "tests/data/test_values402_stroke_files.py",
    "tests/test_values407_refusals.py",
    "tests/test_values378_sampler.py",
    "tests/test_values221_sampler.py",
]

MUTANTS = [
    dict(name="v413-zlib-error-let-through", file="lnrnn/errors.py",
         old="DAMAGED_NUMPY_FILE = (OSError, EOFError, zipfile.BadZipFile, zlib.error)",
         new="DAMAGED_NUMPY_FILE = (OSError, EOFError, zipfile.BadZipFile)",
         tests=NEW + OLD,
         why="a damaged member of a savez_compressed file (zlib.error) ends every reader in a traceback"),
    dict(name="v413-npz-task-member-oserror-only", file="lnrnn/data/arrays.py",
         old="            except DAMAGED_NUMPY_FILE as e:\n"
             "                raise DataError(f\"{path} is a damaged .npz file",
         new="            except OSError as e:\n                raise DataError(f\"{path} is a damaged .npz file",
         tests=NEW + OLD,
         why="the npz task's member read catches OSError alone: a damaged compressed x ends in a traceback"),
    dict(name="v413-strokes-member-oserror-only", file="lnrnn/data/stroke_files.py",
         old="        except DAMAGED_NUMPY_FILE as e:\n            raise DataError(f\"{path} is a damaged .npz file",
         new="        except OSError as e:\n            raise DataError(f\"{path} is a damaged .npz file",
         tests=NEW + OLD,
         why="a strokes file's member read catches OSError alone: a damaged compressed member ends in a traceback"),
    dict(name="v413-read-lines-oserror-only", file="lnrnn/data/stroke_files.py",
         old="    except DAMAGED_NUMPY_FILE as e:\n        raise DataError(f\"{text} is not a readable",
         new="    except OSError as e:\n        raise DataError(f\"{text} is not a readable",
         tests=NEW + OLD,
         why="lnrnn read's lines catch OSError alone: a damaged compressed member ends in a traceback"),
    dict(name="v413-prime-oserror-only", file="lnrnn/sample.py",
         old="    except (ValueError, *DAMAGED_NUMPY_FILE) as e:",
         new="    except (ValueError, OSError) as e:",
         tests=NEW + OLD,
         why="--prime-strokes catches OSError alone: a damaged compressed prime ends in a traceback"),
]
