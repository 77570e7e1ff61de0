# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Generate C code from one architecture's hardware-description XML.

Usage:
  gen_pack.py --xml vN.xml --kind header|tables|selftest --out FILE

  header    pan_vN_pack.h: enums, structs, pack/unpack/print, descriptors
  tables    pan_vN_genxml_tables.c: layout tables for generic iteration
  selftest  pan_vN_genxml_selftest.c: randomized pack/unpack round trips

The XML is linted first; any schema error aborts generation.
"""

import argparse
import os
import sys

from mako.template import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pan_genxml_model import Genxml, GenxmlError, Field, Choice  # noqa: E402
from pan_genxml_lint import lint  # noqa: E402


class Names:
    """C spellings for one architecture."""

    def __init__(self, arch):
        self.arch = arch
        self.p = 'pan_v%d_' % arch
        self.P = 'PAN_V%d_' % arch

    def struct(self, name):
        return 'struct %s%s' % (self.p, name)

    def enum_type(self, enum):
        return 'enum %s%s' % (self.p, enum.name)

    def enum_const(self, enum, value_name):
        return '%s%s_%s' % (self.P, enum.name.upper(), value_name.upper())

    def fn(self, name, suffix):
        return '%s%s_%s' % (self.p, name, suffix)


def ctype(n, f):
    t = f.type
    if t == 'bool':
        return 'bool'
    if t in ('float', 'ufixed', 'sfixed'):
        return 'float'
    if t == 'enum':
        return n.enum_type(f.enum)
    if t == 'struct':
        return n.struct(f.struct.name)
    if t == 'int':
        return 'int32_t' if f.width <= 32 else 'int64_t'
    if t == 'address':
        return 'uint64_t'
    if f.encoding == 'minus1':
        return 'uint32_t' if f.width < 32 else 'uint64_t'
    if f.encoding in ('log2', 'padded'):
        return 'uint32_t'
    return 'uint32_t' if f.width + f.shift <= 32 else 'uint64_t'


def encode_expr(f, v, what):
    """Expression turning the C value v into the raw stored bits."""
    t, w = f.type, f.width
    if t == 'bool':
        return '(uint64_t)((%s) ? 1 : 0)' % v
    if t == 'float':
        return 'pan_gx_enc_float(%s)' % v
    if t == 'int':
        return 'pan_gx_enc_int(%s, %d, "%s")' % (v, w, what)
    if t == 'ufixed':
        return 'pan_gx_enc_ufixed(%s, %d, %d, "%s")' % (v, w, f.frac, what)
    if t == 'sfixed':
        return 'pan_gx_enc_sfixed(%s, %d, %d, "%s")' % (v, w, f.frac, what)
    if t == 'enum':
        return 'pan_gx_enc_uint((uint64_t)(%s), %d, 0, 1, "%s")' % (v, w, what)
    if f.encoding == 'minus1':
        return 'pan_gx_enc_minus1(%s, %d, "%s")' % (v, w, what)
    if f.encoding == 'log2':
        return 'pan_gx_enc_log2(%s, %d, "%s")' % (v, w, what)
    if f.encoding == 'padded':
        return 'pan_gx_enc_padded(%s, "%s")' % (v, what)
    return 'pan_gx_enc_uint(%s, %d, %d, %du, "%s")' % (v, w, f.shift,
                                                      f.multiple_of, what)


def decode_expr(n, f, r):
    """Expression turning raw bits r (uint64_t) back into the C value."""
    t, w = f.type, f.width
    if t == 'bool':
        return '(%s) != 0' % r
    if t == 'float':
        return 'pan_gx_dec_float(%s)' % r
    if t == 'int':
        return '(%s)pan_gx_sext(%s, %d)' % (ctype(n, f), r, w)
    if t == 'ufixed':
        return 'pan_gx_dec_ufixed(%s, %d)' % (r, f.frac)
    if t == 'sfixed':
        return 'pan_gx_dec_sfixed(%s, %d, %d)' % (r, w, f.frac)
    if t == 'enum':
        return '(%s)(%s)' % (ctype(n, f), r)
    if f.encoding == 'minus1':
        return '(%s)((%s) + 1)' % (ctype(n, f), r)
    if f.encoding == 'log2':
        return '(uint32_t)(1ull << (%s))' % r
    if f.encoding == 'padded':
        return '(uint32_t)pan_gx_dec_padded(%s)' % r
    if f.shift:
        return '(%s)((%s) << %d)' % (ctype(n, f), r, f.shift)
    return '(%s)(%s)' % (ctype(n, f), r)


def cond_expr(n, leaf, obj):
    """C condition (over struct pointer/lvalue obj) for a leaf to be live."""
    parts = []
    for sel, values in leaf.conds:
        f = sel.field
        if f.type == 'bool':
            alts = ['%s%s' % ('' if v == 'true' else '!', obj + sel.path)
                    for v in values]
        else:
            alts = ['%s == %s' % (obj + sel.path, n.enum_const(f.enum, v))
                    for v in values]
        parts.append(alts[0] if len(alts) == 1
                     else '(%s)' % ' || '.join(alts))
    return ' && '.join(parts)


def cond_text(leaf):
    parts = ['%s in {%s}' % (sel.path, ','.join(values))
             for sel, values in leaf.conds]
    parts += ['%s is %s' % (ch.name, ch.cases[i].name)
              for ch, i in leaf.picks]
    return ' && '.join(parts)


def default_expr(n, f):
    d = f.default
    if f.type == 'enum':
        return n.enum_const(f.enum, d)
    if f.type in ('float', 'ufixed', 'sfixed'):
        return {'inf': 'INFINITY', '-inf': '-INFINITY'}.get(d, d + 'f'
                                                           if '.' in d
                                                           else d + '.0f')
    return d


def struct_defaults(g, s):
    return [(leaf.path, leaf.field) for leaf in g.leaves(s)
            if leaf.field.default is not None]


def used_mask(g, s):
    mask = [0] * s.size_words
    for leaf in g.leaves(s):
        for b in range(leaf.start, leaf.start + leaf.width):
            mask[b // 32] |= 1 << (b % 32)
    return mask


def kind_name(f):
    return 'PAN_GX_KIND_' + f.type.upper()


def enc_name(f):
    return 'PAN_GX_ENC_' + f.encoding.upper()


def print_lines(g, n, members, obj, sname, ind):
    """C statements printing members of obj (a pointer prefix like "v->")."""
    out = []
    local = {m.name: m for m in members if isinstance(m, Field)}
    for m in members:
        if not isinstance(m, Field):
            continue
        out += print_field(g, n, m, obj + m.name, ind)
    for m in members:
        if not isinstance(m, Choice):
            continue
        for c in m.cases:
            cond = None
            if m.selector is not None:
                sel = local[m.select]
                if sel.type == 'bool':
                    cond = ' || '.join(
                        ('' if v == 'true' else '!') + obj + sel.name
                        for v in c.when)
                else:
                    cond = ' || '.join(
                        '%s%s == %s' % (obj, sel.name,
                                        n.enum_const(sel.enum, v))
                        for v in c.when)
            body = ['fprintf(fp, "%%*s%s:\\n", %s, "");' % (c.name, ind)]
            body += print_lines(g, n, c.members, obj + c.name + '.', sname,
                                ind + ' + 2')
            if cond:
                out.append('if (%s) {' % cond)
                out += ['   ' + b for b in body]
                out.append('}')
            else:
                out += body
    return out


def print_field(g, n, f, v, ind):
    label = 'fprintf(fp, "%%*s%s: ' % f.name
    t = f.type
    if t == 'struct':
        return [label + '\\n", %s, "");' % ind,
                '%s(fp, &%s, %s + 2);' % (n.fn(f.struct.name, 'print'), v,
                                          ind)]
    if t == 'bool':
        return [label + '%%s\\n", %s, "", %s ? "true" : "false");'
                % (ind, v)]
    if t in ('float', 'ufixed', 'sfixed'):
        return [label + '%%f\\n", %s, "", (double)%s);' % (ind, v)]
    if t == 'enum':
        return ['{',
                '   const char *s_ = %s(%s);' % (n.fn(f.enum.name, 'name'), v),
                '   if (s_)',
                '      ' + label + '%%s\\n", %s, "", s_);' % ind,
                '   else',
                '      ' + label + '<unknown %%u>\\n", %s, "", '
                '(unsigned)%s);' % (ind, v),
                '}']
    if t == 'int':
        return [label + '%%" PRId64 "\\n", %s, "", (int64_t)%s);' % (ind, v)]
    if t in ('address', 'hex'):
        lines = [label + '0x%%" PRIx64 "\\n", %s, "", (uint64_t)%s);'
                 % (ind, v)]
    else:
        lines = [label + '%%" PRIu64 "\\n", %s, "", (uint64_t)%s);'
                 % (ind, v)]
    if f.view is not None:
        lines += ['{',
                  '   uint32_t w_ = (uint32_t)%s;' % v,
                  '   %s u_;' % n.struct(f.view),
                  '   %s(&w_, &u_);' % n.fn(f.view, 'unpack'),
                  '   %s(fp, &u_, %s + 2);' % (n.fn(f.view, 'print'), ind),
                  '}']
    return lines


def struct_body(g, n, members, ind):
    """C member declarations of a struct (cases become nested structs)."""
    out = []
    for m in members:
        if isinstance(m, Field):
            out.append('%s%s %s;' % (ind, ctype(n, m), m.name))
    for m in members:
        if isinstance(m, Choice):
            for c in m.cases:
                out.append('%sstruct {' % ind)
                out += struct_body(g, n, c.members, ind + '   ')
                out.append('%s} %s;' % (ind, c.name))
    return out


def ordered_structs(g):
    """Structs in dependency order (nested/view types first)."""
    done, out = set(), []

    def visit(s):
        if s.name in done:
            return
        done.add(s.name)
        for f in g.all_fields(s.members):
            if f.struct is not None:
                visit(f.struct)
            if f.view is not None:
                visit(g.structs[f.view])
        out.append(s)
    for o in g.order:
        if o.name in g.structs and g.structs[o.name] is o:
            visit(o)
    return out


def choice_ids(g, s):
    ids = {}
    for leaf in g.leaves(s):
        for ch, _ in leaf.picks:
            ids.setdefault(id(ch), (len(ids), ch))
    return ids


def descriptor_size(d):
    if d.size_B is not None:
        return d.size_B
    return max(sec.offset_B + sec.struct.size_words * 4 for sec in d.sections)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--xml', required=True)
    ap.add_argument('--kind', required=True,
                    choices=('header', 'tables', 'selftest'))
    ap.add_argument('--out', required=True)
    args = ap.parse_args()

    try:
        g = Genxml(args.xml)
    except GenxmlError as e:
        sys.exit('gen_pack: %s' % e)
    errors = lint(g)
    if errors:
        sys.exit('gen_pack: %s has schema errors:\n  %s'
                 % (args.xml, '\n  '.join(errors)))

    here = os.path.dirname(os.path.abspath(__file__))
    tmpl = {'header': 'pan_pack.h.mako',
            'tables': 'pan_tables.c.mako',
            'selftest': 'pan_selftest.c.mako'}[args.kind]
    t = Template(filename=os.path.join(here, tmpl))
    n = Names(g.arch)
    text = t.render(g=g, n=n, arch=g.arch, structs=ordered_structs(g),
                    ctype=ctype, encode_expr=encode_expr,
                    decode_expr=decode_expr, cond_expr=cond_expr,
                    cond_text=cond_text, default_expr=default_expr,
                    struct_defaults=struct_defaults, used_mask=used_mask,
                    kind_name=kind_name, enc_name=enc_name,
                    print_lines=print_lines, struct_body=struct_body,
                    choice_ids=choice_ids, descriptor_size=descriptor_size,
                    sources=[os.path.basename(f) for f in g.files])
    with open(args.out, 'w') as fh:
        fh.write(text)


if __name__ == '__main__':
    main()
