"""lnrnn's version, in a module that imports nothing, so that any layer can read it without importing the
package's face: ``lnrnn.__version__``, the trainer's run records and the export files' metadata."""
__version__ = "0.1.0"
