"""Tournaments between bots: matches, statistics, reports and strength tables."""
