"""The `paigow` command line: argument parsing, calls into the library, rendering."""
