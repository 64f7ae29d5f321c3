"""Planted bugs, round 402 (format: tests/mutants/mutants.py): single-line slips in the stroke-3 file reader
(lnrnn/data/stroke_files.py), twentieth pass, planted before any test was written for them.

The planted bugs: an unreadable stroke file (no permission) ending in a traceback instead of a DataError;
read_lines' unreadable file shown as the whole OSError; a truncated .npz (a broken zip) ending in a traceback; the
pickle refusal without its advice; float lengths accepted (a traceback from the split); an IAM-OnDB .xml line
returned as its points instead of a list of one line; the pickle advice naming a save_npz that does not exist; an
.npz with no arrays described as having arrays ''; a damaged .npy header ending in a traceback in read_lines; a
ragged sequence inside an object array ending in a traceback. 10 mutants. The old targeted files alone
(test_strokes_data and the stroke_files value files in OLD) catch 5 of 10; missed: the unreadable file in load (a
traceback) and in read_lines (the whole OSError), the advice naming a missing function, the empty .npz's 'none', the
ragged sequence's traceback. test_values402_stroke_files checks each refusal as one DataError sentence word for word
(os.strerror's reason, the path once), imports and calls every dotted lnrnn name the pickle advice gives and loads
its output back, and reads an .xml line as one line of its points. NEW + OLD catch 10 of 10; the new file alone
catches 10 of 10. Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v402-*'
"""
FILES = "lnrnn/data/stroke_files.py"
NEW = ["tests/data/test_values402_stroke_files.py"]
OLD = [
    "tests/data/test_strokes_data.py",
    "tests/data/test_values_stroke_files.py",
    "tests/data/test_values10_stroke_files.py",
    "tests/data/test_values21_stroke_files.py",
    "tests/data/test_values53_stroke_files.py",
    "tests/data/test_values81_stroke_files.py",
    "tests/data/test_values116_stroke_files.py",
    "tests/data/test_values126_stroke_files.py",
    "tests/data/test_values135_stroke_files.py",
    "tests/data/test_values170_stroke_files.py",
    "tests/data/test_values206_stroke_files.py",
    "tests/data/test_values232_stroke_files.py",
    "tests/data/test_values244_stroke_files.py",
    "tests/data/test_values275_stroke_files.py",
    "tests/data/test_values299_stroke_files.py",
    "tests/data/test_values324_stroke_files.py",
    "tests/data/test_values350_stroke_files.py",
]

MUTANTS = [
    dict(name="v402-load-unreadable-traceback", file=FILES,
         old="        kind = numpy_kind(path)\n    except OSError as e:",
         new="        kind = numpy_kind(path)\n    except FileNotFoundError as e:",
         tests=NEW + OLD,
         why="a stroke file the user may not read (PermissionError) ends in a traceback, not one line"),
    dict(name="v402-read-lines-unreadable-whole-oserror", file=FILES,
         old='raise DataError(f"cannot read {text}: {e.strerror or e}.")',
         new='raise DataError(f"cannot read {text}: {e}.")',
         tests=NEW + OLD,
         why="lnrnn read's unreadable file is shown as '[Errno 13] Permission denied: PATH', the path twice"),
    dict(name="v402-load-truncated-zip-traceback", file=FILES,
         old='    except DAMAGED_NUMPY_FILE as e:\n'
             '        raise DataError(f"{path} is not a readable .npz/.npy file ({e}).")',
         new='    except (OSError, EOFError) as e:\n'
             '        raise DataError(f"{path} is not a readable .npz/.npy file ({e}).")',
         tests=NEW + OLD,
         why="a truncated .npz (its zip directory cut off) ends in a BadZipFile traceback"),
    dict(name="v402-pickle-refusal-without-advice", file=FILES,
         old='which can run arbitrary code; {PICKLE_HINT}.")',
         new='which can run arbitrary code.")',
         tests=NEW + OLD,
         why="the refusal of a pickled stroke file no longer says how to re-save it or how to opt in"),
    dict(name="v402-float-lengths-accepted", file=FILES,
         old='    if lengths.ndim != 1 or lengths.dtype.kind not in "iu":',
         new='    if lengths.ndim != 1 or lengths.dtype.kind not in "iuf":',
         tests=NEW + OLD,
         why="float lengths pass the check and the split fails with a TypeError traceback"),
    dict(name="v402-xml-line-not-a-list", file=FILES,
         old="        return [read_line(text)]",
         new="        return read_line(text)",
         tests=NEW + OLD,
         why="an IAM-OnDB .xml line comes back as its (N, 3) points: every point is read as a line of its own"),
    dict(name="v402-pickle-hint-names-a-missing-function", file=FILES,
         old="(lnrnn.data.stroke_files.save_npz)",
         new="(lnrnn.data.strokes.save_npz)",
         tests=NEW + OLD,
         why="the advice sends the user to lnrnn.data.strokes.save_npz, which does not exist"),
    dict(name="v402-empty-npz-arrays-unnamed", file=FILES,
         old="raise DataError(f\"{path} has arrays {', '.join(sorted(keys)) or 'none'}; expected strokes + lengths, \"",
         new="raise DataError(f\"{path} has arrays {', '.join(sorted(keys))}; expected strokes + lengths, \"",
         tests=NEW + OLD,
         why="an .npz holding no arrays is described as having arrays '' instead of none"),
    dict(name="v402-read-lines-bad-header-traceback", file=FILES,
         old='    except ValueError as e:\n        if "pickle" in str(e).lower():',
         new='    except TypeError as e:\n        if "pickle" in str(e).lower():',
         tests=NEW + OLD,
         why="lnrnn read of an .npy with a damaged header (a ValueError from numpy) ends in a traceback"),
    dict(name="v402-ragged-sequence-traceback", file=FILES,
         old='    except (ValueError, TypeError):\n        raise DataError(f"{path}: {name} is not a numeric array.")',
         new='    except TypeError:\n        raise DataError(f"{path}: {name} is not a numeric array.")',
         tests=NEW + OLD,
         why="a ragged sequence inside a pickled object array ends in numpy's ValueError traceback"),
]
