import collections
def words(op,a):
    n = {'8':1,'16':1,'32':1,'64':2,'128':4}.get(op[3:], 4) if op.startswith(('lds','sts')) else 4
    return [a//4+k for k in range(n)]
def base_phase(op):
    if op.startswith(('lds','sts')):
        return {8:32,16:32,32:32,64:16,128:8}[int(op[3:])]
    return 8
def nlanes(op):
    if op.startswith(('lds','sts')): return 32
    return 8*int(op.split('.')[1][1])
def paired(addrs):
    return all(addrs[n]==addrs[n^1] for n in range(32)) or all(addrs[n]==addrs[n^2] for n in range(32))
def model(op,addrs):
    n = base_phase(op)
    if op in ('lds64','lds128') and paired(addrs): n *= 2
    tot=0
    for p in range(0, nlanes(op), n):
        banks=collections.defaultdict(set)
        for l in range(p,p+n):
            for w in words(op,addrs[l]): banks[w%32].add(w)
        tot+=max(len(s) for s in banks.values())
    return tot
