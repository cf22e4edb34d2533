"""The `timelord` command: play, replay, simulate and report."""
