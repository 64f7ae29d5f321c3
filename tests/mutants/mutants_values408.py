"""Planted bugs, round 408 (format: tests/mutants/mutants.py): single-line slips in lnrnn data mnist's download and
--dest checks (lnrnn/commands/data.py), the except clauses and headers a network and a disk can meet, twentieth
pass, planted before any test was written for them.

The planted bugs: a connection that times out (TimeoutError, an OSError that is no URLError) ending in a traceback;
a full disk while the file is written reported as a download that broke off (run it again) instead of asking for
space; a --dest folder that cannot be made ending in a traceback; a mirror that sends no Content-Length header
ending in a TypeError traceback. 4 mutants. The old targeted files alone (the data command's files in OLD) catch 2
of 4; missed: a --dest that cannot be made, a response without Content-Length. test_values408_data_download checks,
with stand-in responses, bodies of 0 to 3 chunks and more without Content-Length read whole, a timeout's sentence
word for word and nothing left, a disk that fills mid-write asking for space with nothing kept, and a --dest whose
making is refused named with os.strerror's reason. NEW + OLD catch 4 of 4; the new file alone catches 4 of 4.
Nothing left out as equivalent.

    python tests/mutants/run.py --only 'v408-*'
"""
DATA = "lnrnn/commands/data.py"
NEW = ["tests/commands/test_values408_data_download.py"]
OLD = [
    "tests/commands/test_values_data.py",
    "tests/commands/test_values9_data.py",
    "tests/commands/test_values17_data.py",
    "tests/commands/test_values37_data.py",
    "tests/commands/test_values69_data.py",
    "tests/commands/test_values131_data.py",
    "tests/commands/test_values208_data.py",
    "tests/commands/test_values237_data.py",
    "tests/commands/test_values322_data_sample.py",
    "tests/commands/test_values367_data.py",
]

MUTANTS = [
    dict(name="v408-timeout-traceback", file=DATA,
         old="    except (urllib.error.URLError, OSError) as e:",
         new="    except urllib.error.URLError as e:",
         tests=NEW + OLD,
         why="a connection that times out (TimeoutError, no URLError) ends in a traceback"),
    dict(name="v408-full-disk-told-to-retry", file=DATA,
         old="                except OSError as e:",
         new="                except PermissionError as e:",
         tests=NEW + OLD,
         why="a full disk while writing is reported as a download that broke off, 'run the command again'"),
    dict(name="v408-dest-not-made-traceback", file=DATA,
         old="        except OSError as err:",
         new="        except FileExistsError as err:",
         tests=NEW + OLD,
         why="a --dest folder that cannot be made (no permission, found only when making it) ends in a traceback"),
    dict(name="v408-no-content-length-traceback", file=DATA,
         old='    total = int(resp.headers.get("Content-Length") or 0)',
         new='    total = int(resp.headers.get("Content-Length"))',
         tests=NEW + OLD,
         why="a mirror that sends no Content-Length header (chunked transfer) ends in a TypeError traceback"),
]
