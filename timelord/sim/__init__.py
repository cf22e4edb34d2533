"""Tournaments between bots: matches, statistics, reports, strength tables and benchmarks,
and the research runs built on the adapters (CFR curves, head-to-head matches against
OpenSpiel's search, self-play datasets)."""

#: how to install what plots (matplotlib) and clusters (Dask) need, for error messages
SIM_EXTRAS = "pip install 'timelord[sim]'"
