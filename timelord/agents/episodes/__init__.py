"""Bot pieces for Episodes: the heuristic agent, rollout policy and evaluation."""
