import json, random
random.seed(7)
OPS = ['lds8','lds16','lds32','lds64','lds128','sts8','sts16','sts32','sts64','sts128',
       'ldmatrix.x1','ldmatrix.x2','ldmatrix.x4','ldmatrix.x4.trans','stmatrix.x1','stmatrix.x2','stmatrix.x4','stmatrix.x4.trans']
def width(op):
    if op.startswith(('lds','sts')): return int(op[3:])//8
    return 16
cases = []
truth = json.load(open('../bank_truth_sample.json'))['cases']
for c in truth[::12]:
    cases.append(dict(op=c['op'], addrs=c['addrs'], kind='truth', want=c['wavefronts']))
def add(op, addrs, kind):
    w = width(op)
    assert all(a % w == 0 for a in addrs), (op, kind)
    cases.append(dict(op=op, addrs=[int(a) for a in addrs], kind=kind))
L = range(32)
for op in OPS:
    w = width(op)
    add(op, [0]*32, 'uniform0')
    add(op, [(l>>1)*w for l in L], 'pairs^1')
    add(op, [((l>>2)*2 + (l&1))*w for l in L], 'pairs^2')
    add(op, [(l%8)*w for l in L], 'mod8')
    add(op, [(l%16)*w for l in L], 'mod16')
    add(op, [(l%4)*w for l in L], 'mod4')
    add(op, [(l%16)*w + (l//16)*128 for l in L], 'halves+128')
    add(op, [(l%8)*w + (l//8)*128 for l in L], 'quarters+128')
    add(op, [(l%8)*w + (l//8)*512 for l in L], 'quarters+512')
    add(op, [(l//16)*w for l in L], 'halfuniform')
    add(op, [(l//8)*w for l in L], 'quarteruniform')
    add(op, [(l//8)*128 for l in L], 'quarteruniform_samebank')
    add(op, [(l//16)*128 for l in L], 'halfuniform_samebank')
    add(op, [l*w for l in L], 'linear')
    add(op, [(31-l)*w for l in L], 'reverse')
    add(op, [l*128 for l in L], 'col128')
    add(op, [(l%2)*128 for l in L], 'two_words_same_bank')
    add(op, [(l%16)*128 for l in L], 'col128mod16')
    add(op, [(l%8)*128 for l in L], 'col128mod8')
    # random with collisions
    for k in range(24):
        pool = [random.randrange(0, 4096//w)*w for _ in range(random.choice([2,4,8,16,64]))]
        add(op, [random.choice(pool) for _ in L], 'rand%d'%k)
    for k in range(8):
        add(op, [random.randrange(0, 8192//w)*w for _ in L], 'randwide%d'%k)
json.dump(cases, open('cases.json','w'))
with open('cases.txt','w') as f:
    for c in cases: f.write(' '.join(map(str,[OPS.index(c['op'])]+c['addrs']))+'\n')
print(len(cases))
