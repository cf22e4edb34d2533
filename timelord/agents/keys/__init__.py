"""Bot pieces for Keys to the TARDIS: distance-to-goal evaluation, rollout policy, heuristic."""
