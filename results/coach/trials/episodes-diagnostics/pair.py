import json, sys
def load(f):
    out = {}
    for k, l in enumerate(open(f)):
        r = json.loads(l)
        if 'share' in r: out[r['i']] = r['share']; continue
        res = r['result']; seats = r['seats']
        me = [i for i, x in enumerate(seats) if x.startswith('ismcts')][0]
        out[res['index']] = (1 / len(res['winners'])) if me in res['winners'] else 0.0
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
common = sorted(set(a) & set(b))
print(len(common), sum(a[i] for i in common)/len(common), sum(b[i] for i in common)/len(common),
      'a only', sum(a[i] > b[i] for i in common), 'b only', sum(b[i] > a[i] for i in common))
