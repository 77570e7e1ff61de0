#!/usr/bin/env python3
# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Write the C cross-check of one architecture: our packers against the
base's stock unpackers.

Structs are paired by name (plus the stock "overlay" structs of
oracle_map.STOCK_HOST), fields by identical bit position and width, with
the exceptions of oracle_map.TRANSFORMS.  For every pair the generated code
places random raw bits valid for each of our fields, decodes them with our
unpack, packs them again with our pack (which must give the same words),
unpacks the words with the stock unpacker and compares every mapped field
in natural units.  Whatever exists on one side only is listed, counted.

usage: oracle_gen.py OUR_vN.xml STOCK_vN.xml OUT.c
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import oracle_map  # noqa: E402
import oracle_stock_xml as stock_xml  # noqa: E402

ITERS = 256


def c_str(s):
    return '"%s"' % s.replace('\\', '\\\\').replace('"', '\\"')


def variants(leaves):
    """Selections of cases of the choices without selector: variant i
    picks case i % n of every such choice."""
    n = 1
    for l in leaves:
        for ch, _ in l.picks:
            n = max(n, len(ch.cases))
    return n


def picked(leaf, v):
    return all(v % len(ch.cases) == i for ch, i in leaf.picks)


def sel_values(sel_leaf, names):
    f = sel_leaf.field
    out = []
    for n in names:
        if f.type == 'bool':
            out.append(1 if n in ('true', '1') else 0)
        else:
            out.append(f.enum.lookup(n).value)
    return out


def raw_expr(leaf, enum_arrays):
    f = leaf.field
    w = leaf.width
    if f.type == 'bool':
        return 'oracle_rnd() & 1'
    if f.type == 'enum':
        name = 'oracle_enum_%s' % f.enum.name
        enum_arrays[name] = [v.value for v in f.enum.values
                             if v.value < (1 << w)]
        return '%s[oracle_rnd() %% %d]' % (name, len(enum_arrays[name]))
    if f.type == 'float':
        return 'oracle_bits_float()'
    if f.encoding == 'minus1':
        e = 'oracle_bits_minus1(%d)' % w
    elif f.encoding == 'log2':
        e = 'oracle_bits_log2(%d)' % w
    elif f.encoding == 'padded':
        e = 'oracle_bits_padded()'
    else:
        e = 'oracle_bits(%d)' % w
    if f.multiple_of > 1:
        e = '(%s) / %d * %d' % (e, f.multiple_of, f.multiple_of)
    return e


def best_candidate(leaf, cands):
    for c in cands:
        if c.path == leaf.path:
            return c
    name = leaf.path.split('.')[-1]
    words = set(leaf.path.replace('.', '_').split('_'))
    return max(cands, key=lambda c: (
        len(words & set(c.path.replace('.', '_').split('_'))),
        c.path.split('.')[-1] == name))


def compare_exprs(leaf, sf, stock):
    """C expressions (ours, stock) comparable as int64_t."""
    f = leaf.field
    o = 'o.%s' % leaf.path
    t = 't.%s' % sf.path
    st = sf.type
    if f.type == 'float':
        return 'oracle_fbits(%s)' % o, \
            ('oracle_fbits(%s)' if st == 'float' else '(int64_t)%s') % t
    if f.type in ('ufixed', 'sfixed'):
        e = 'oracle_fixed(%s, %d)' % (o, f.frac)
        if st != 'int':
            e = '(%s & 0x%xll)' % (e, (1 << leaf.width) - 1)
        return e, '(int64_t)%s' % t
    ours_signed = f.type == 'int'
    stock_signed = st == 'int'
    if ours_signed != stock_signed:
        m = '0x%xll' % ((1 << leaf.width) - 1)
        return '((int64_t)%s & %s)' % (o, m), '((int64_t)%s & %s)' % (t, m)
    return '(int64_t)%s' % o, '(int64_t)%s' % t


def compare_enums(rep, ours, sname, svals):
    key = (ours.name, sname)
    if key in rep.enums_seen:
        return
    rep.enums_seen.add(key)
    ov = dict((v.value, v.name) for v in ours.values)
    for n in sorted(set(ov) | set(svals)):
        if n not in svals:
            rep.enum_diffs.append('%s = %d (%s) missing in stock %s' % (
                ours.name, n, ov[n], stock_xml.c_ident(sname).lower()))
        elif n not in ov:
            rep.enum_diffs.append('stock %s = %d (%s) missing in our %s' % (
                stock_xml.c_ident(sname).lower(), n, svals[n], ours.name))


class Report:
    def __init__(self):
        self.pairs = []            # (ours S, path, stock T, spath, known)
        self.ours_only = []        # strings
        self.stock_only = []
        self.layout = []
        self.layout_explained = []
        self.enum_diffs = []
        self.enums_seen = set()
        self.structs_ours_only = []
        self.structs_stock_only = []


def gen_pair(out, arch, g, S, st, T, rep, enum_arrays, matched_ours):
    leaves = g.leaves(S)
    sleaves = st.leaves(T)
    tname = stock_xml.c_ident(T).lower()
    nv = variants(leaves)
    nw = S.size_words
    pidx = []
    used_stock = set()

    def add_pair(i, l, sf, oe, te):
        known = oracle_map.STOCK_WRONG.get((arch, S.name, l.path))
        rep.pairs.append((S.name, l.path, tname, sf.path, known))
        matched_ours.add((S.name, l.path))
        used_stock.add(sf.path)
        pidx.append((i, len(rep.pairs) - 1, oe, te))
        if l.field.type == 'enum' and sf.type in st.enums:
            compare_enums(rep, l.field.enum, sf.type, st.enums[sf.type])

    extras = dict(((k[2], k[4]), v) for k, v in oracle_map.TRANSFORMS.items()
                  if arch in k[0] and k[1] == S.name and k[3] == tname)
    by_path = dict((x.path, x) for x in sleaves)
    for i, l in enumerate(leaves):
        for (op, sp), (expr, _) in extras.items():
            if op == l.path:
                add_pair(i, l, by_path[sp],
                         '(int64_t)(%s)' % expr.replace('v', 'o.' + l.path),
                         '(int64_t)t.%s' % sp)
        cands = [x for x in sleaves if x.start == l.start and
                 x.width == l.width and (l.path, x.path) not in extras]
        if cands:
            sf = best_candidate(l, cands)
            add_pair(i, l, sf, *compare_exprs(l, sf, st))

    # Stock fields inside one plain field of ours (per-bit aliases of a
    # mask, sub-ranges): compare the extracted bits.
    for x in sleaves:
        if x.path in used_stock:
            continue
        host = [(i, l) for i, l in enumerate(leaves)
                if l.start <= x.start and x.end <= l.start + l.width and
                l.field.type in ('uint', 'hex', 'bool', 'enum') and
                l.field.encoding == 'plain' and l.field.shift == 0]
        if len(host) == 1 and x.type not in ('int', 'float'):
            i, l = host[0]
            add_pair(i, l, x, '(int64_t)(((uint64_t)o.%s >> %d) & 0x%xull)'
                     % (l.path, x.start - l.start, (1 << x.width) - 1),
                     '(int64_t)t.%s' % x.path)

    for x in sleaves:
        if x.path in used_stock:
            continue
        ov = [l.path for l in leaves
              if l.start < x.end and x.start < l.start + l.width]
        if ov:
            why = [v for k, v in oracle_map.LAYOUT_EXPLAINED.items()
                   if arch in k[0] and k[1] == tname and k[2] == x.path]
            text = '%s.%s [%d+%d] overlaps ours %s' % (
                tname, x.path, x.start, x.width, ', '.join(ov))
            if why:
                rep.layout_explained.append('%s -- wrong: %s; %s' % (
                    text, why[0][0], why[0][1]))
            else:
                rep.layout.append(text)
        else:
            rep.stock_only.append('%s.%s [%d+%d]' % (
                tname, x.path, x.start, x.width))
    fn = 'check_%s__%s' % (S.name, tname)
    p = 'pan_v%d_%s' % (arch, S.name)
    w = out.append
    w('static void')
    w('%s(struct oracle_pair *pairs)' % fn)
    w('{')
    w('   for (unsigned it = 0; it < %d; ++it) {' % ITERS)
    w('      const unsigned variant = it %% %d;' % nv)
    w('      uint64_t r[%d] = {0};' % max(1, len(leaves)))
    w('      bool act[%d] = {0};' % max(1, len(leaves)))
    w('      uint32_t w0[%d] = {0}, w1[%d] = {0};' % (nw, nw))
    w('      struct %s o;' % p)
    w('      struct %s t;' % stock_xml.c_struct(T))
    w('      (void)variant; (void)r; (void)act;')
    for i, l in enumerate(leaves):
        conds = []
        if l.picks:
            conds.append('(%s)' % ' && '.join(
                'variant %% %d == %d' % (len(ch.cases), ci)
                for ch, ci in l.picks))
        for sel, names in l.conds:
            si = leaves.index(sel)
            conds.append('act[%d]' % si)
            conds.append('(%s)' % ' || '.join(
                'r[%d] == %d' % (si, v) for v in sel_values(sel, names)))
        w('      act[%d] = %s;' % (i, ' && '.join(conds) or 'true'))
        w('      if (act[%d]) {' % i)
        w('         r[%d] = %s;' % (i, raw_expr(l, enum_arrays)))
        w('         pan_gx_put(w0, %d, %d, r[%d]);' % (l.start, l.width, i))
        w('      }')
    w('      %s_unpack(w0, &o);' % p)
    for i, l in enumerate(leaves):
        if l.picks:
            w('      if (!act[%d]) o.%s = 0;' % (i, l.path))
    w('      %s_pack(w1, &o);' % p)
    w('      oracle_roundtrip("v%d %s", w0, w1, %d);' % (arch, S.name, nw))
    w('      %s_unpack((const uint8_t *)w1, &t);' % stock_xml.c_struct(T))
    for i, k, oe, te in pidx:
        w('      if (act[%d]) oracle_cmp(&pairs[%d], %s, %s);' % (i, k, oe, te))
    w('   }')
    w('}')
    w('')
    return fn


def main():
    ours_path, stock_path, out_path = sys.argv[1:4]
    sys.path.insert(0, os.path.dirname(os.path.abspath(ours_path)))
    import pan_genxml_model as model

    g = model.Genxml(ours_path)
    arch = g.arch
    st = stock_xml.StockXml(stock_path)
    rep = Report()
    enum_arrays = {}
    body = []
    fns = []
    matched_ours = set()

    stock_by_c = dict((stock_xml.c_ident(n).lower(), n) for n in st.raw)
    for name in sorted(stock_by_c):
        T = stock_by_c[name]
        if T in st.no_unpack:
            rep.structs_stock_only.append(
                name + ' (no unpacker of its own: compared inside parents)')
            continue
        host = name if name in g.structs else oracle_map.STOCK_HOST.get(name)
        if host is None or host not in g.structs:
            rep.structs_stock_only.append(name)
            continue
        fns.append(gen_pair(body, arch, g, g.structs[host], st, T, rep,
                            enum_arrays, matched_ours))
    for name in sorted(g.structs):
        if name not in stock_by_c:
            rep.structs_ours_only.append(name)
    for name in sorted(g.structs):
        if name not in stock_by_c and \
           name not in oracle_map.STOCK_HOST.values():
            continue
        if name in stock_by_c and stock_by_c[name] in st.no_unpack:
            continue
        for l in g.leaves(g.structs[name]):
            if (name, l.path) not in matched_ours:
                rep.ours_only.append('%s.%s [%d+%d]' % (
                    name, l.path, l.start, l.width))

    o = []
    o.append('/* Generated by oracle_gen.py from %s and %s -- do not edit. */'
             % (os.path.basename(ours_path), 'stock ' +
                os.path.basename(stock_path)))
    o.append('#define _POSIX_C_SOURCE 200809L /* fileno, dup */')
    o.append('#include "pan_v%d_pack.h"' % arch)
    o.append('#include "oracle_stock_v%d_pack.h"' % arch)
    o.append('#include "oracle_common.h"')
    o.append('')
    o.append('#define ORACLE_ARCH %d' % arch)
    for name, vals in sorted(enum_arrays.items()):
        o.append('static const uint64_t %s[] = { %s };' % (
            name, ', '.join(str(v) for v in vals)))
    o.append('')
    o.append('static struct oracle_pair oracle_pairs[] = {')
    for s, pth, t, sp, known in rep.pairs:
        o.append('   { %s, %s, %s, %s, %s },' % (
            c_str(s), c_str(pth), c_str(t), c_str(sp),
            c_str(known) if known else 'NULL'))
    o.append('};')
    for lst in ('ours_only', 'stock_only', 'layout', 'layout_explained',
                'structs_ours_only', 'structs_stock_only', 'enum_diffs'):
        items = getattr(rep, lst)
        o.append('static const char *const oracle_%s[] = { %s NULL };' % (
            lst, ''.join(c_str(x) + ', ' for x in items)))
    o.append('')
    o.extend(body)
    o.append('static const struct { const char *name; '
             'void (*fn)(struct oracle_pair *); } oracle_checks[] = {')
    for fn in fns:
        o.append('   { "%s", %s },' % (fn[len('check_'):], fn))
    o.append('};')
    o.append('')
    o.append('#include "oracle_main.h"')
    with open(out_path, 'w') as f:
        f.write('\n'.join(o) + '\n')


if __name__ == '__main__':
    main()
