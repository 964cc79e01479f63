#!/usr/bin/env python3
# sweep.py FILE "k=v k=v" ... | @CFGFILE : per config, tilec compile (sm_90a: gemm notes, ptxas), tilec layout, run --interp,
# --interp=lowered on sm_90a and sm_80, compile sm_80; prints ok/BAD with the gemm path and failures.
# TILEC=path picks the binary; SM90ONLY=1 runs the tile interpreter on sm_90a and skips sm_80 (T.tma_copy programs).
import subprocess, sys, re, os, concurrent.futures as cf
T=os.environ.get('TILEC', os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'build', 'tilec'))
def sh(args):
    p=subprocess.run(args,capture_output=True,text=True,timeout=600)
    return p.returncode, p.stdout+p.stderr
def one(f, cfg):
    ps=[]
    for kv in cfg.split():
        ps+=['-p',kv]
    out=[]
    rc,o=sh([T,'compile',f,'--target','cuda:sm_90a']+ps)
    gem=[]
    for m in re.finditer(r':(\d+):\d+: note: (T\.gemm[^\n]*)', o):
        gem.append('L%s %s'%(m.group(1), m.group(2)[:230]))
    pt=re.findall(r'ptxas sm_90a: [^\n]*', o)
    bad = rc!=0 or re.search(r'internal|error', o) or any('spill' in x and 'no spills' not in x for x in pt)
    if rc!=0 or re.search(r'internal|rror', o): out.append('  90a rc=%d: %s'%(rc, '\n'.join(l for l in o.splitlines() if 'rror' in l or 'internal' in l)[:600]))
    rc2,lay=sh([T,'layout',f,'-q','--target','cuda:sm_90a']+ps)
    lay=[l for l in lay.splitlines() if 'accumulator' in l and not l.startswith('__')]
    res={}
    import os
    t90=os.environ.get('SM90ONLY')
    for mode,args in (('tile',['--interp']+(['--target','cuda:sm_90a'] if t90 else [])),('low90',['--interp=lowered','--target','cuda:sm_90a']),('low80',['--interp=lowered','--target','cuda:sm_80'])) if not t90 else (('tile',['--interp','--target','cuda:sm_90a']),('low90',['--interp=lowered','--target','cuda:sm_90a'])):
        rc,o=sh([T,'run',f,'-q']+args+ps)
        lines=[l.strip() for l in o.splitlines() if 'rel-L2' in l]
        ok = rc==0 and re.search(r'^PASS',o,re.M)
        res[mode]=(ok, lines, o)
        if not ok:
            bad=True
            out.append('  %s FAIL rc=%d: %s'%(mode, rc, ' | '.join(lines) or o.strip()[-800:]))
        else:
            # flag max-abs notably larger than others later
            pass
    rc,o=(0,'') if t90 else sh([T,'compile',f,'--target','cuda:sm_80','-q']+ps)
    if rc!=0: bad=True; out.append('  sm80 rc=%d: %s'%(rc,o.strip()[-500:]))
    summ='%s [%s] %s | %s | %s'%(f, cfg, ' ; '.join(g for g in gem) or 'NO GEMM NOTE', ' '.join(pt).replace('ptxas sm_90a: ',''), ' ; '.join(l[:110] for l in lay))
    errs=' / '.join('%s:%s'%(m, re.sub(r'\s+',' ',' '.join(res[m][1]))) for m in res)
    return ('BAD ' if bad else 'ok  ')+summ+'\n    '+errs+('\n'+'\n'.join(out) if out else '')
if __name__=='__main__':
    f=sys.argv[1]; cfgs=sys.argv[2:]
    if len(cfgs)==1 and cfgs[0].startswith('@'): cfgs=[l.strip() for l in open(cfgs[0][1:]) if l.strip() and not l.startswith('#')]
    with cf.ThreadPoolExecutor(2) as ex:
        for r in ex.map(lambda c: one(f,c), cfgs): print(r, flush=True)
