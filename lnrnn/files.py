"""Where lnrnn writes files: every file a command or run writes goes through ``atomic_write`` (a temp
file beside the target, fsync, rename), so a crash or Ctrl-C leaves the old file or the new one, never
a torn one, and new files get the permissions the user's umask gives (``mkstemp`` alone would make
them owner-only)."""
import os
import tempfile


def umask():
    """The process's umask (read from /proc where it can be, as setting it to read it races with threads)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write(path, write):
    """Call write(fileobj) on a temp file beside path, fsync it, then rename it over path."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=folder)
    try:
        os.fchmod(fd, 0o666 & ~umask())  # what open() would have given the file
        with os.fdopen(fd, "wb") as f:
            write(f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def atomic_write_text(path, text):
    """Write a str to path atomically, as UTF-8."""
    atomic_write(path, lambda f: f.write(text.encode("utf-8")))
