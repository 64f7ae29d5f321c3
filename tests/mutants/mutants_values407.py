"""Planted bugs, round 407 (format: tests/mutants/mutants.py): single-line slips in the except clauses that turn a
user's unreadable or damaged file into one sentence, across five modules (lnrnn/training/runconfig.py,
lnrnn/data/stroke_files.py, lnrnn/data/arrays.py, lnrnn/predict_io.py, lnrnn/training/checkpoint.py), twentieth
pass, planted before any test was written for them. Rounds v402, v403 and v406 found this kind the one the old
files miss most.

The planted bugs: an unreadable --config (a folder, an I/O error) ending in a traceback; lnrnn read of an .npz cut
short ending in a BadZipFile traceback; a sketch-rnn .npz of pickled object arrays ending in a traceback instead of
the pickle refusal; an npz-task file holding an object array the same; lnrnn predict of an input the file system
refuses (an I/O error) ending in a traceback; --keep on a file system without hard links failing instead of copying
the arrays. 6 mutants. Against each mutant's own module's old files alone (OLD_CONFIG, the runconfig files; for the
other four modules the old and new files of rounds 402, 406, 394 and 395): 3 of 6 caught; missed: the unreadable
--config, lnrnn read of an .npz cut short, predict's I/O error. test_values407_refusals checks each as one sentence
word for word where the words are fixed (os.strerror's reason, the path once, the pickle advice), the trusted
sketch-rnn file read with allow_pickle, and --keep with os.link failing (EXDEV): the kept checkpoint a copy that
loads as saved. NEW + OLD catch 6 of 6; the new file alone catches 6 of 6. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v407-*'
"""
import importlib.util
import os


def _files_of(round_):
    """The old and new targeted files of an earlier round on the same module (its round file's OLD + NEW)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), f"mutants_values{round_}.py")
    spec = importlib.util.spec_from_file_location(f"_round{round_}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.OLD + module.NEW


NEW = ["tests/test_values407_refusals.py"]
OLD_CONFIG = [
    "tests/training/test_values102_runconfig.py",
    "tests/training/test_values122_runconfig.py",
    "tests/training/test_values13_runconfig.py",
    "tests/training/test_values209_runconfig.py",
    "tests/training/test_values266_runconfig.py",
    "tests/training/test_values283_runconfig.py",
    "tests/training/test_values321_runconfig.py",
    "tests/training/test_values348_runconfig.py",
    "tests/training/test_values371_runconfig_setup.py",
    "tests/training/test_values_runconfig.py",
]
OLD_STROKE_FILES = _files_of(402)
OLD_ARRAYS = _files_of(406)
OLD_PREDICT = _files_of(394)
OLD_CHECKPOINT = _files_of(395)
OLD = OLD_CONFIG + OLD_STROKE_FILES + OLD_ARRAYS + OLD_PREDICT + OLD_CHECKPOINT

MUTANTS = [
    dict(name="v407-config-unreadable-traceback", file="lnrnn/training/runconfig.py",
         old=("    except OSError as e:\n"
              '        raise UserError(f"--config {path} cannot be read'),
         new=("    except PermissionError as e:\n"
              '        raise UserError(f"--config {path} cannot be read'),
         tests=NEW + OLD_CONFIG,
         why="a --config the system cannot read (a folder, an I/O error) ends in a traceback"),
    dict(name="v407-stroke-files-read-truncated-npz-traceback", file="lnrnn/data/stroke_files.py",
         old=("    except DAMAGED_NUMPY_FILE as e:\n"
              '        raise DataError(f"{text} is not a readable .npz/.npy file'),
         new=("    except (OSError, EOFError) as e:\n"
              '        raise DataError(f"{text} is not a readable .npz/.npy file'),
         tests=NEW + OLD_STROKE_FILES,
         why="lnrnn read of an .npz cut short (its zip directory gone) ends in a BadZipFile traceback"),
    dict(name="v407-stroke-files-pickled-npz-traceback", file="lnrnn/data/stroke_files.py",
         old=("        except ValueError as e:\n"
              "            raise _pickle_or_bad(path, e)"),
         new=("        except TypeError as e:\n"
              "            raise _pickle_or_bad(path, e)"),
         tests=NEW + OLD_STROKE_FILES,
         why="a sketch-rnn .npz (pickled train/valid arrays) without allow_pickle ends in numpy's ValueError"),
    dict(name="v407-arrays-object-array-traceback", file="lnrnn/data/arrays.py",
         old="            except ValueError as e:",
         new="            except TypeError as e:",
         tests=NEW + OLD_ARRAYS,
         why="an npz-task file holding an object array ends in numpy's ValueError instead of the pickle refusal"),
    dict(name="v407-predict-input-io-error-traceback", file="lnrnn/predict_io.py",
         old=("    except OSError as e:\n"
              '        raise DataError(f"cannot read {path}: {e.strerror or e}.")'),
         new=("    except PermissionError as e:\n"
              '        raise DataError(f"cannot read {path}: {e.strerror or e}.")'),
         tests=NEW + OLD_PREDICT,
         why="lnrnn predict of an input the file system refuses with an I/O error ends in a traceback"),
    dict(name="v407-checkpoint-keep-without-links-fails", file="lnrnn/training/checkpoint.py",
         old=("            except OSError:\n"
              "                shutil.copyfile("),
         new=("            except PermissionError:\n"
              "                shutil.copyfile("),
         tests=NEW + OLD_CHECKPOINT,
         why="--keep on a file system without hard links (EXDEV, ENOTSUP) fails instead of copying the arrays"),
]
