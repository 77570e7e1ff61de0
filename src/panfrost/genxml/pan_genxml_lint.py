# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Schema checks for the hardware-description XML.

Usage: pan_genxml_lint.py [--expect-fail] FILE...

Every FILE is an architecture entry file (v4.xml ...).  The checks catch the
mistakes that are easy to make when transcribing bit layouts: overlapping
fields, fields past the end of a struct, duplicate names, enum values that do
not fit the fields using them, unknown types and nonsensical encodings.
With --expect-fail the exit status is inverted (used to prove that the lint
rejects the broken fixtures in tests/).
"""

import sys

from pan_genxml_model import (Genxml, GenxmlError, Field, Choice, IDENT,
                              VALUE_IDENT)


def _pow2(x):
    return x > 0 and (x & (x - 1)) == 0


def _check_default(f, errors):
    d = f.default
    if d is None:
        return
    if f.type == 'enum':
        if f.enum.lookup(d) is None:
            errors.append('%s: default "%s" is not a value of enum %s'
                          % (f.where, d, f.enum.name))
    elif f.type == 'bool':
        if d not in ('true', 'false'):
            errors.append('%s: bool default must be true/false' % f.where)
    elif f.type in ('float', 'ufixed', 'sfixed'):
        if d not in ('inf', '-inf'):
            try:
                float(d)
            except ValueError:
                errors.append('%s: bad float default "%s"' % (f.where, d))
    elif f.type == 'struct':
        errors.append('%s: struct fields take defaults from their struct'
                      % f.where)
    else:
        try:
            v = int(d, 0)
        except ValueError:
            errors.append('%s: bad integer default "%s"' % (f.where, d))
            return
        if f.type == 'uint' and f.encoding == 'minus1' and v < 1:
            errors.append('%s: minus1 default must be >= 1' % f.where)
        if f.encoding == 'log2' and not _pow2(v):
            errors.append('%s: log2 default must be a power of two'
                          % f.where)


def _check_field(g, s, f, errors):
    w = f.where
    if not IDENT.match(f.name):
        errors.append('%s: bad identifier' % w)
    if f.bit >= 32 and f.word != 0:
        errors.append('%s: bit must be < 32 when word is given' % w)
    if f.width < 1:
        errors.append('%s: width must be positive' % w)
    if f.start + f.width > s.size_bits:
        errors.append('%s: bits %d..%d are past the end of %s (%d bits)'
                      % (w, f.start, f.start + f.width - 1, s.name,
                         s.size_bits))
    t = f.type
    if t != 'struct' and f.width > 64:
        errors.append('%s: scalar fields are at most 64 bits' % w)
    if t == 'bool' and f.width != 1:
        errors.append('%s: bool fields are 1 bit wide' % w)
    if t == 'float' and f.width != 32:
        errors.append('%s: float fields are 32 bits wide' % w)
    if t in ('ufixed', 'sfixed'):
        if f.width > 24 or f.frac < 1 or f.frac > f.width:
            errors.append('%s: fixed-point needs 1 <= frac <= width <= 24'
                          % w)
    elif f.frac:
        errors.append('%s: frac only applies to fixed-point types' % w)
    if f.encoding not in ('plain', 'minus1', 'log2', 'padded'):
        errors.append('%s: unknown encoding "%s"' % (w, f.encoding))
    if f.encoding != 'plain' and t != 'uint':
        errors.append('%s: encodings only apply to uint fields' % w)
    if f.encoding == 'log2' and f.width > 5:
        errors.append('%s: log2 fields are at most 5 bits' % w)
    if f.encoding == 'padded' and f.width != 8:
        errors.append('%s: padded fields are 8 bits (5-bit shift, 3-bit odd)'
                      % w)
    if f.encoding == 'minus1' and f.width > 32:
        errors.append('%s: minus1 fields are at most 32 bits' % w)
    if f.shift and (t not in ('uint', 'address', 'hex') or
                    f.encoding != 'plain'):
        errors.append('%s: shift applies to plain uint/address/hex' % w)
    if f.shift and f.width + f.shift > 64:
        errors.append('%s: width + shift exceeds 64 bits' % w)
    if not _pow2(f.multiple_of):
        errors.append('%s: multiple_of must be a power of two' % w)
    if t == 'enum':
        if not f.enum.values:
            errors.append('%s: enum %s has no values' % (w, f.enum.name))
        elif f.enum.max_value() >= (1 << f.width):
            bad = [v.name for v in f.enum.values
                   if v.value >= (1 << f.width)]
            errors.append('%s: enum %s values %s do not fit in %d bits'
                          % (w, f.enum.name, ', '.join(bad), f.width))
    if t == 'struct' and f.width != f.struct.size_bits:
        errors.append('%s: width %d differs from the size of struct %s (%d)'
                      % (w, f.width, f.struct.name, f.struct.size_bits))
    if f.view is not None:
        v = g.structs[f.view]
        if v.size_bits > 32 or f.width > 32 or t not in ('uint', 'hex'):
            errors.append('%s: views are for uint fields up to 32 bits'
                          % w)
    _check_default(f, errors)


def _check_names(where, members, errors):
    seen = set()
    for m in members:
        names = [m.name] if isinstance(m, Field) else \
            [c.name for c in m.cases]
        for n in names:
            if n in seen:
                errors.append('%s: duplicate member name "%s"' % (where, n))
            seen.add(n)
            if not IDENT.match(n):
                errors.append('%s: bad identifier "%s"' % (where, n))
    for m in members:
        if isinstance(m, Choice):
            for c in m.cases:
                _check_names(c.where, c.members, errors)


def _check_choice(c, errors):
    for case in c.cases:
        if c.selector is None:
            if case.when is not None:
                errors.append('%s: when= needs select= on the choice'
                              % case.where)
            continue
        if case.when is None:
            errors.append('%s: every case of a selected choice needs when='
                          % case.where)
            continue
        for v in case.when:
            if c.selector.type == 'bool':
                ok = v in ('true', 'false')
            else:
                ok = c.selector.enum.lookup(v) is not None
            if not ok:
                errors.append('%s: when value "%s" is not a value of %s'
                              % (case.where, v, c.select))


def _diverge(t1, t2):
    """True if two leaves sit in different cases of one choice."""
    for (c1, k1), (c2, k2) in zip(t1, t2):
        if c1 is not c2:
            return False
        if k1 is not k2:
            return True
    return False


def check_struct(g, s, errors):
    if not IDENT.match(s.name):
        errors.append('%s: bad identifier' % s.where)
    if not _pow2(s.align_B) or s.align_B < 4 and s.size_bits > 32:
        errors.append('%s: align_B must be a power of two >= 4' % s.where)
    _check_names(s.where, s.members, errors)
    for f in g.all_fields(s.members):
        _check_field(g, s, f, errors)
    for c in g.all_choices(s.members):
        _check_choice(c, errors)
    leaves = g.leaves(s)
    for i, a in enumerate(leaves):
        for b in leaves[i + 1:]:
            if a.start < b.start + b.width and b.start < a.start + a.width \
               and not _diverge(a.trail, b.trail):
                errors.append('%s: %s (bits %d..%d) overlaps %s (bits %d..%d)'
                              % (s.where, a.path, a.start,
                                 a.start + a.width - 1, b.path, b.start,
                                 b.start + b.width - 1))


def check_enum(e, errors):
    if not IDENT.match(e.name):
        errors.append('%s: bad enum name "%s"' % (e.where, e.name))
    names = set()
    values = {}
    for v in e.values:
        if v.name is None or not VALUE_IDENT.match(v.name):
            errors.append('%s: bad value name "%s"' % (v.where, v.name))
        if v.name in names:
            errors.append('%s: duplicate value name "%s"' % (v.where, v.name))
        names.add(v.name)
        if v.value < 0:
            errors.append('%s: negative value for "%s"' % (v.where, v.name))
        if v.value in values:
            errors.append('%s: "%s" and "%s" share the value %d'
                          % (v.where, values[v.value], v.name, v.value))
        values[v.value] = v.name


def check_descriptor(d, errors):
    end = 0
    for sec in sorted(d.sections, key=lambda x: x.offset_B):
        size_B = sec.struct.size_words * 4
        if sec.offset_B % 4:
            errors.append('%s: offset must be a multiple of 4' % sec.where)
        if sec.offset_B < end:
            errors.append('%s: overlaps the previous section' % sec.where)
        end = sec.offset_B + size_B
    if d.size_B is not None and end > d.size_B:
        errors.append('%s: sections end at byte %d, past size_B=%d'
                      % (d.where, end, d.size_B))
    names = [s.name for s in d.sections]
    if len(set(names)) != len(names):
        errors.append('%s: duplicate section names' % d.where)


def lint(g):
    errors = []
    for e in g.enums.values():
        check_enum(e, errors)
    for s in g.structs.values():
        check_struct(g, s, errors)
    for d in g.descriptors.values():
        check_descriptor(d, errors)
    return errors


def main(argv):
    expect_fail = '--expect-fail' in argv
    files = [a for a in argv if a != '--expect-fail']
    bad = 0
    for path in files:
        try:
            errors = lint(Genxml(path))
        except GenxmlError as e:
            errors = [str(e)]
        for e in errors:
            print('%s: %s' % ('expected' if expect_fail else 'error', e))
        if bool(errors) != expect_fail:
            print('FAIL: %s %s' % (path, 'was accepted' if expect_fail
                                   else 'has errors'))
            bad += 1
    print('%d passed, %d failed' % (len(files) - bad, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
