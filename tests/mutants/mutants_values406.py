"""Planted bugs, round 406 (format: tests/mutants/mutants.py): single-line slips in the npz task's reader and checks
(lnrnn/data/arrays.py), twentieth pass, planted before any test was written for them.

The planted bugs: an unreadable .npz shown as the whole OSError; an .npz whose zip directory is cut off ending in a
BadZipFile traceback; an array whose bytes fail their CRC ending in a BadZipFile traceback; ragged x given to
lnrnn.fit ending in numpy's ValueError traceback; ragged y the same; a file's own validation set described as held
out by a fixed seed. 6 mutants. The old targeted files alone (test_own_data and the arrays value files in OLD) catch
1 of 6; missed: the whole OSError shown, the cut-short .npz's and the failed CRC's tracebacks, ragged x and ragged y
given as lists. test_values406_arrays checks each refusal as one DataError sentence word for word (os.strerror's
reason, the path once; an .npz cut in half; one byte of x flipped), ragged x and per-step y through check_arrays
(lnrnn.fit's checks), and the built task's description of where its validation set comes from. NEW + OLD catch 6 of
6; the new file alone catches 6 of 6. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v406-*'
"""
ARRAYS = "lnrnn/data/arrays.py"
NEW = ["tests/data/test_values406_arrays.py"]
OLD = [
    "tests/data/test_own_data.py",
    "tests/data/test_values10_arrays.py",
    "tests/data/test_values34_arrays.py",
    "tests/data/test_values44_arrays.py",
    "tests/data/test_values53_arrays.py",
    "tests/data/test_values81_arrays.py",
    "tests/data/test_values89_arrays.py",
    "tests/data/test_values111_arrays.py",
    "tests/data/test_values122_arrays.py",
    "tests/data/test_values136_arrays.py",
    "tests/data/test_values164_arrays.py",
    "tests/data/test_values200_arrays.py",
    "tests/data/test_values220_arrays.py",
    "tests/data/test_values228_arrays.py",
    "tests/data/test_values240_arrays.py",
    "tests/data/test_values258_arrays.py",
    "tests/data/test_values275_arrays.py",
    "tests/data/test_values299_arrays.py",
    "tests/data/test_values311_arrays.py",
    "tests/data/test_values336_arrays.py",
    "tests/data/test_values361_arrays_files.py",
]

MUTANTS = [
    dict(name="v406-unreadable-whole-oserror", file=ARRAYS,
         old='raise DataError(f"cannot read {path}: {e.strerror or e}.")',
         new='raise DataError(f"cannot read {path}: {e}.")',
         tests=NEW + OLD,
         why="an .npz the user may not read is shown as '[Errno 13] Permission denied: PATH', the path twice"),
    dict(name="v406-broken-zip-traceback", file=ARRAYS,
         old=('    except DAMAGED_NUMPY_FILE as e:\n'
              '        raise DataError(f"{path} is not a readable .npz file'),
         new=('    except (OSError, EOFError) as e:\n'
              '        raise DataError(f"{path} is not a readable .npz file'),
         tests=NEW + OLD,
         why="an .npz cut short (its zip directory gone) ends in a BadZipFile traceback"),
    dict(name="v406-bad-crc-traceback", file=ARRAYS,
         old=('            except DAMAGED_NUMPY_FILE as e:\n'
              '                raise DataError(f"{path} is a damaged .npz file'),
         new=('            except (OSError, EOFError) as e:\n'
              '                raise DataError(f"{path} is a damaged .npz file'),
         tests=NEW + OLD,
         why="an .npz whose array bytes fail their CRC check ends in a BadZipFile traceback"),
    dict(name="v406-ragged-x-traceback", file=ARRAYS,
         old=('    except (ValueError, TypeError):\n'
              '        raise DataError(f"{where}: {name} is not an array of numbers (ragged'),
         new=('    except TypeError:\n'
              '        raise DataError(f"{where}: {name} is not an array of numbers (ragged'),
         tests=NEW + OLD,
         why="lnrnn.fit of ragged x (lists of different lengths) ends in numpy's ValueError traceback"),
    dict(name="v406-ragged-y-traceback", file=ARRAYS,
         old=('    except (ValueError, TypeError):\n'
              '        raise DataError(f"{where}: {name} is not an array of numbers.")'),
         new=('    except TypeError:\n'
              '        raise DataError(f"{where}: {name} is not an array of numbers.")'),
         tests=NEW + OLD,
         why="lnrnn.fit of ragged per-step y ends in numpy's ValueError traceback"),
    dict(name="v406-own-validation-described-as-held-out", file=ARRAYS,
         old='        how = "validation from x_val"',
         new='        how = "held out from x by a fixed seed"',
         tests=NEW + OLD,
         why="a file with its own x_val, y_val is described as a validation set held out from x"),
]
