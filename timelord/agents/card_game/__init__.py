"""Bot pieces for Doctor Who: The Card Game: evaluation, rollout policy, heuristic."""
