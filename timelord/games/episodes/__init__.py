"""Doctor Who Episodes, the rummy-style fan card game (2-6 players). See RULES.md."""
