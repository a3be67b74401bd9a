import json, random
from hyp import model
random.seed(11)
OPS = ['lds8','lds16','lds32','lds64','lds128','sts8','sts16','sts32','sts64','sts128',
       'ldmatrix.x1','ldmatrix.x2','ldmatrix.x4','ldmatrix.x4.trans','stmatrix.x1','stmatrix.x2','stmatrix.x4','stmatrix.x4.trans']
cases=[]
def add(op, addrs, kind):
    w = 8 if op.endswith('64') else 16
    assert all(a % w == 0 for a in addrs)
    cases.append(dict(op=op, addrs=[int(a) for a in addrs], kind=kind))
L=range(32)
for op in ['lds64','lds128','sts64','sts128']:
    w = 8 if op.endswith('64') else 16
    p1 = [(l>>1)*w for l in L]
    a = list(p1); a[31] = 4000//w*w; add(op, a, 'p1_broken_last')
    a = [(l>>1)*w if l<16 else l*w for l in L]; add(op, a, 'p1_first_half_only')
    a = [(l>>1)*w if l<8 else 1024+l*w for l in L]; add(op, a, 'p1_first_quarter_only')
    # half0: 2-way conflict in bank 0 ; half1: 2-way in bank 8
    a = [((l>>1)%8)*w for l in L]
    a[0]=a[1]=0; a[2]=a[3]=128
    a[16]=a[17]=32; a[18]=a[19]=160
    add(op, a, 'p1_conflicts_diff_banks')
    add(op, [((l%16)>>1)*w for l in L], 'p1_halves_same_words')
    add(op, [((l>>2)*2+(l&1))*w + (l//16)*128 for l in L], 'p2_halves_samebanks')
    a = [(l>>1)*w if l<16 else (((l>>2)*2+(l&1))*w) for l in L]; add(op, a, 'p1_half0_p2_half1')
    add(op, [(l>>2)*w for l in L], 'quad_uniform')
    add(op, [(l>>2)*128 for l in L], 'quad_uniform_samebank')
    add(op, [(l>>1)*128 for l in L], 'p1_samebank')
    add(op, [(l>>3)*w*2 for l in L], 'oct_uniform')
    for k in range(20):
        pool=[random.randrange(0,4096//w)*w for _ in range(random.choice([4,8,16,64]))]
        ev=[random.choice(pool) for _ in range(32)]
        m = random.choice([1,2])
        add(op, [ev[l & ~m] for l in L], 'randp%d_%d'%(m,k))
json.dump(cases, open('cases2.json','w'))
with open('cases2.txt','w') as f:
    for c in cases: f.write(' '.join(map(str,[OPS.index(c['op'])]+c['addrs']))+'\n')
print(len(cases))
