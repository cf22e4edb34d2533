"""Tournaments between bots: matches, statistics, reports and strength tables."""

#: how to install what plots (matplotlib) and clusters (Dask) need, for error messages
SIM_EXTRAS = "pip install 'timelord[sim]'"
