import json, sys, math
for f in sys.argv[1:]:
    w = 0.0; n = 0
    for l in open(f):
        r = json.loads(l)
        if 'share' in r:
            s = r['share']
        else:
            res = r['result']; seats = r['seats']
            me = [i for i, x in enumerate(seats) if x.startswith('ismcts')][0]
            s = (1 / len(res['winners'])) if me in res['winners'] else 0.0
        n += 1; w += s
    p = w / n; z = 1.96
    d = 1 + z*z/n; c = (p + z*z/(2*n))/d; h = z*math.sqrt(p*(1-p)/n + z*z/(4*n*n))/d
    print(f, n, round(p, 3), [round(c-h, 3), round(c+h, 3)])
