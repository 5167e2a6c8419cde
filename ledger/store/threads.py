"""How many threads a process may ask of DuckDB (``handledger --threads N``), in a module of
its own so that the command line can check the count without loading DuckDB."""

#: Far more than any machine this runs on has CPUs, far fewer than a slip of the finger
#: (DuckDB takes minutes to start 100,000 threads).
MAX_THREADS = 1024
