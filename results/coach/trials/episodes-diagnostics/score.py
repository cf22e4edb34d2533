import json, sys, math, ast
def wilson(k, n, z=1.96):
    p = k / n; d = 1 + z * z / n; c = p + z * z / (2 * n); h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (c - h) / d, (c + h) / d
tot = n = 0
for f in sys.argv[1:]:
    for l in open(f):
        r = json.loads(l); seats = r["seats"]; res = r["result"]
        if isinstance(seats, str): seats = ast.literal_eval(seats)
        if isinstance(res, str): res = ast.literal_eval(res)
        me = [i for i, s in enumerate(seats) if s.startswith("ismcts")][0]
        w = res["winners"]; tot += (1 / len(w)) if me in w else 0; n += 1
lo, hi = wilson(tot, n)
print(f"games {n} share {tot/n:.3f} [{lo:.3f}, {hi:.3f}]")
