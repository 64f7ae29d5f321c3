"""Planted bugs, round 403 (format: tests/mutants/mutants.py): single-line slips in the IAM-OnDB reader
(lnrnn/data/iamondb.py), twentieth pass, planted before any test was written for them.

The planted bugs: an unreadable line file or list shown as the whole OSError; a point with x="abc" ending in a
traceback; task-list entries not stripped (a trailing blank refused); task lists limited to 1 KiB (IAM-OnDB's are
about 10 kB); a transcription too large called a "file"; an ISO-8859-1 line file with a non-ASCII byte parsed as
UTF-8 (a traceback). 6 mutants. The old targeted files alone (test_strokes_data and the IAM-OnDB value files in OLD)
catch 4 of 6; missed: the whole OSError shown for an unreadable file, the transcription called a file.
test_values403_iamondb checks a line file and a transcription that cannot be read (a folder in their place) word for
word, a point without y and one with x='abc' named, an ISO-8859-1 line with a non-ASCII byte read as the plain one,
blank-padded task-list entries and a list of 1200 ids (IAM-OnDB's size). NEW + OLD catch 6 of 6; the new file alone
catches 6 of 6. Left out as equivalent: the fast path's except narrowed to ValueError (a missing attribute is None,
which numpy turns into NaN, never a TypeError).

    python tests/mutants/run.py --only 'v403-*'
"""
IAM = "lnrnn/data/iamondb.py"
NEW = ["tests/data/test_values403_iamondb.py"]
OLD = [
    "tests/data/test_strokes_data.py",
    "tests/data/test_values_iamondb.py",
    "tests/data/test_values9_iamondb.py",
    "tests/data/test_values15_iamondb.py",
    "tests/data/test_values44_iamondb.py",
    "tests/data/test_values59_iamondb.py",
    "tests/data/test_values81_iamondb.py",
    "tests/data/test_values89_iamondb.py",
    "tests/data/test_values111_iamondb.py",
    "tests/data/test_values135_iamondb.py",
    "tests/data/test_values170_iamondb.py",
    "tests/data/test_values206_iamondb.py",
    "tests/data/test_values232_iamondb.py",
    "tests/data/test_values249_iamondb_files.py",
    "tests/data/test_values265_iamondb_points.py",
    "tests/data/test_values280_iamondb_xml.py",
    "tests/data/test_values307_iamondb_forms.py",
    "tests/data/test_values324_iamondb_lines.py",
    "tests/data/test_values350_iamondb_xml.py",
    "tests/data/test_values366_iamondb_lists.py",
]

MUTANTS = [
    dict(name="v403-unreadable-whole-oserror", file=IAM,
         old='raise DataError(f"cannot read {what} {path}: {e.strerror or e}.")',
         new='raise DataError(f"cannot read {what} {path}: {e}.")',
         tests=NEW + OLD,
         why="an unreadable line file is shown as '[Errno 13] Permission denied: PATH', the path twice"),
    dict(name="v403-non-numeric-traceback", file=IAM,
         old='    except ValueError:\n        v = float("nan")',
         new='    except TypeError:\n        v = float("nan")',
         tests=NEW + OLD,
         why='a <Point x="abc"> ends in a ValueError traceback instead of naming the point and the value'),
    dict(name="v403-list-entries-not-stripped", file=IAM,
         old="        entry = text.strip()",
         new='        entry = text.rstrip("\\n")',
         tests=NEW + OLD,
         why="a task list with a trailing blank or tab after an id is refused, and a line of blanks too"),
    dict(name="v403-list-limit-a-kilobyte", file=IAM,
         old="MAX_LIST_BYTES = 1 << 20",
         new="MAX_LIST_BYTES = 1 << 10",
         tests=NEW + OLD,
         why="IAM-OnDB's own task lists (about 10 kB) are refused as too large"),
    dict(name="v403-transcription-named-as-file", file=IAM,
         old='    raw = read_limited(ascii_path, what="transcription")',
         new="    raw = read_limited(ascii_path)",
         tests=NEW + OLD,
         why="an ascii/ file too large or unreadable is called 'file', not 'transcription'"),
    dict(name="v403-latin1-parsed-as-utf8", file=IAM,
         old="        return ET.fromstring(raw)",
         new='        return ET.fromstring(raw.decode("utf-8"))',
         tests=NEW + OLD,
         why="an ISO-8859-1 line file with a non-ASCII byte ends in a UnicodeDecodeError traceback"),
]
