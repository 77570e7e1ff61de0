# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""In-memory model of the Panfrost hardware-description XML.

The XML format is documented in README.rst next to this file.  This module
only knows how to load one architecture's view of the description (following
<import> elements and dropping everything whose min_arch/max_arch range does
not include the requested architecture) and how to check it for mistakes.
It has no dependency on Mako so that the lint can run anywhere.
"""

import os
import re
import xml.etree.ElementTree as ET

ARCHS = (4, 5, 6, 7, 9)
SCALAR_TYPES = ('uint', 'int', 'bool', 'float', 'address', 'hex',
                'ufixed', 'sfixed')
ENCODINGS = ('plain', 'minus1', 'log2', 'padded')
IDENT = re.compile(r'^[a-z_][a-z0-9_]*?(_B)?$')
VALUE_IDENT = re.compile(r'^[a-z0-9_]+$')


class GenxmlError(Exception):
    pass


def _int(text, where):
    try:
        return int(text, 0)
    except (TypeError, ValueError):
        raise GenxmlError('%s: "%s" is not an integer' % (where, text))


class Node:
    """Common bits: name, source location and arch range."""

    def __init__(self, elem, where):
        self.where = where
        self.name = elem.get('name')
        if self.name is None:
            raise GenxmlError('%s: <%s> without a name' % (where, elem.tag))
        self.doc = (elem.get('doc') or '').strip()


def _in_arch(elem, arch, where):
    lo = elem.get('min_arch')
    hi = elem.get('max_arch')
    if lo is not None and _int(lo, where) > arch:
        return False
    if hi is not None and _int(hi, where) < arch:
        return False
    return True


class EnumValue:
    def __init__(self, name, value, where):
        self.name = name
        self.value = value
        self.where = where


class Enum(Node):
    def __init__(self, elem, where, arch):
        super().__init__(elem, where)
        self.values = []
        for v in elem:
            if v.tag != 'value':
                raise GenxmlError('%s: unexpected <%s> in enum %s'
                                  % (where, v.tag, self.name))
            if not _in_arch(v, arch, where):
                continue
            vwhere = '%s: enum %s' % (where, self.name)
            self.values.append(EnumValue(v.get('name'),
                                         _int(v.get('value'), vwhere), vwhere))

    def max_value(self):
        return max(v.value for v in self.values)

    def lookup(self, name):
        for v in self.values:
            if v.name == name:
                return v
        return None


class Field(Node):
    """A bit range with a type and an encoding."""

    def __init__(self, elem, where):
        super().__init__(elem, where)
        self.where = '%s: field %s' % (where, self.name)
        self.word = _int(elem.get('word', '0'), self.where)
        self.bit = _int(elem.get('bit', '0'), self.where)
        self.width = _int(elem.get('width'), self.where) \
            if elem.get('width') is not None else None
        t = elem.get('type')
        if t is None:
            raise GenxmlError('%s: missing type' % self.where)
        self.type, _, self.ref = t.partition(':')
        self.default = elem.get('default')
        self.encoding = elem.get('encoding', 'plain')
        self.shift = _int(elem.get('shift', '0'), self.where)
        self.frac = _int(elem.get('frac', '0'), self.where)
        self.multiple_of = _int(elem.get('multiple_of', '1'), self.where)
        self.view = elem.get('view')
        # Filled in by resolve()
        self.enum = None
        self.struct = None

    @property
    def start(self):
        return self.word * 32 + self.bit


class Case(Node):
    def __init__(self, elem, where, arch):
        super().__init__(elem, where)
        self.where = '%s: case %s' % (where, self.name)
        when = elem.get('when')
        self.when = when.split(',') if when else None
        self.members = _members(elem, self.where, arch)


class Choice(Node):
    """Alternative layouts of the same bits; a selector field may pick one."""

    def __init__(self, elem, where, arch):
        super().__init__(elem, where)
        self.where = '%s: choice %s' % (where, self.name)
        self.select = elem.get('select')
        self.cases = [Case(c, self.where, arch) for c in elem
                      if c.tag == 'case' and _in_arch(c, arch, where)]
        for c in elem:
            if c.tag != 'case':
                raise GenxmlError('%s: only <case> allowed in <choice>'
                                  % self.where)
        self.selector = None


def _members(elem, where, arch):
    out = []
    for m in elem:
        if not _in_arch(m, arch, where):
            continue
        if m.tag == 'field':
            out.append(Field(m, where))
        elif m.tag == 'choice':
            out.append(Choice(m, where, arch))
        else:
            raise GenxmlError('%s: unexpected <%s>' % (where, m.tag))
    return out


class Struct(Node):
    def __init__(self, elem, where, arch):
        super().__init__(elem, where)
        self.where = '%s: struct %s' % (where, self.name)
        if elem.get('size_words') is not None:
            self.size_bits = 32 * _int(elem.get('size_words'), self.where)
        elif elem.get('size_bits') is not None:
            self.size_bits = _int(elem.get('size_bits'), self.where)
        else:
            raise GenxmlError('%s: needs size_words or size_bits' % self.where)
        self.align_B = _int(elem.get('align_B', '4'), self.where)
        self.members = _members(elem, self.where, arch)

    @property
    def size_words(self):
        return (self.size_bits + 31) // 32


class Section:
    def __init__(self, elem, where):
        self.name = elem.get('name')
        self.where = '%s: section %s' % (where, self.name)
        self.offset_B = _int(elem.get('offset_B'), self.where)
        self.struct_name = elem.get('struct')
        self.struct = None


class Descriptor(Node):
    """A memory object made of several structs at fixed byte offsets."""

    def __init__(self, elem, where, arch):
        super().__init__(elem, where)
        self.where = '%s: descriptor %s' % (where, self.name)
        self.size_B = _int(elem.get('size_B'), self.where) \
            if elem.get('size_B') else None
        self.align_B = _int(elem.get('align_B', '4'), self.where)
        self.sections = [Section(s, self.where) for s in elem
                         if _in_arch(s, arch, where)]


class Const(Node):
    def __init__(self, elem, where):
        super().__init__(elem, where)
        self.value = _int(elem.get('value'), '%s: const %s' % (where,
                                                              self.name))


class Leaf:
    """A scalar field seen from the root of a struct (nesting flattened)."""

    def __init__(self, path, field, start, conds, trail, picks):
        self.path = path          # C access path, e.g. "equation.rgb.a"
        self.field = field
        self.start = start        # absolute bit inside the root struct
        self.conds = conds        # [(selector Leaf, [enum value names])]
        self.trail = trail        # [(choice, case)] for the overlap lint
        self.picks = picks        # [(choice, case index)] w/o selector

    @property
    def width(self):
        return self.field.width

    @property
    def word(self):
        return self.start // 32

    @property
    def bit(self):
        return self.start % 32


class Genxml:
    """One architecture's complete view of the description."""

    def __init__(self, path, arch=None):
        self.enums = {}
        self.structs = {}
        self.descriptors = {}
        self.consts = {}
        self.order = []          # declaration order, for emission
        self.files = []
        root = ET.parse(path).getroot()
        if arch is None:
            if root.get('arch') is None:
                raise GenxmlError('%s: entry file needs arch=' % path)
            arch = _int(root.get('arch'), path)
        self.arch = arch
        self._load(path, set())
        self._resolve()

    def _load(self, path, seen):
        path = os.path.normpath(path)
        if path in seen:
            return
        seen.add(path)
        self.files.append(path)
        try:
            root = ET.parse(path).getroot()
        except ET.ParseError as e:
            raise GenxmlError('%s: %s' % (path, e))
        if root.tag != 'genxml':
            raise GenxmlError('%s: root element must be <genxml>' % path)
        where = os.path.basename(path)
        for e in root:
            if not _in_arch(e, self.arch, where):
                continue
            if e.tag == 'import':
                self._load(os.path.join(os.path.dirname(path),
                                        e.get('file')), seen)
                continue
            table, obj = {
                'enum': (self.enums, lambda: Enum(e, where, self.arch)),
                'struct': (self.structs, lambda: Struct(e, where, self.arch)),
                'descriptor': (self.descriptors,
                               lambda: Descriptor(e, where, self.arch)),
                'const': (self.consts, lambda: Const(e, where)),
            }.get(e.tag, (None, None))
            if table is None:
                raise GenxmlError('%s: unknown element <%s>' % (where, e.tag))
            o = obj()
            if o.name in self.enums or o.name in self.structs or \
               o.name in self.descriptors or o.name in self.consts:
                raise GenxmlError('%s: %s "%s" defined twice for v%d'
                                  % (where, e.tag, o.name, self.arch))
            table[o.name] = o
            self.order.append(o)

    def _resolve(self):
        for s in self.structs.values():
            for f in self.all_fields(s.members):
                if f.type == 'enum':
                    f.enum = self.enums.get(f.ref)
                    if f.enum is None:
                        raise GenxmlError('%s: unknown enum "%s"'
                                          % (f.where, f.ref))
                elif f.type == 'struct':
                    f.struct = self.structs.get(f.ref)
                    if f.struct is None:
                        raise GenxmlError('%s: unknown struct "%s"'
                                          % (f.where, f.ref))
                    if f.width is None:
                        f.width = f.struct.size_bits
                elif f.type not in SCALAR_TYPES:
                    raise GenxmlError('%s: unknown type "%s"'
                                      % (f.where, f.type))
                if f.width is None:
                    raise GenxmlError('%s: missing width' % f.where)
                if f.view is not None and f.view not in self.structs:
                    raise GenxmlError('%s: unknown view struct "%s"'
                                      % (f.where, f.view))
            for c in self.all_choices(s.members):
                if c.select is not None:
                    sel = [m for m in s.members
                           if isinstance(m, Field) and m.name == c.select]
                    if not sel or sel[0].type not in ('enum', 'bool'):
                        raise GenxmlError('%s: selector "%s" must be an enum '
                                          'or bool field of the same struct'
                                          % (c.where, c.select))
                    c.selector = sel[0]
        for d in self.descriptors.values():
            for sec in d.sections:
                sec.struct = self.structs.get(sec.struct_name)
                if sec.struct is None:
                    raise GenxmlError('%s: unknown struct "%s"'
                                      % (sec.where, sec.struct_name))

    @staticmethod
    def all_fields(members):
        for m in members:
            if isinstance(m, Field):
                yield m
            else:
                for c in m.cases:
                    yield from Genxml.all_fields(c.members)

    @staticmethod
    def all_choices(members):
        for m in members:
            if isinstance(m, Choice):
                yield m
                for c in m.cases:
                    yield from Genxml.all_choices(c.members)

    def leaves(self, struct, base=0, path='', conds=(), trail=(), picks=()):
        """Flatten a struct into scalar leaves, in packing order."""
        out = []
        local = {}
        for m in struct.members:
            if isinstance(m, Field):
                if m.type == 'struct':
                    out += self.leaves(m.struct, base + m.start,
                                       path + m.name + '.', conds, trail,
                                       picks)
                else:
                    leaf = Leaf(path + m.name, m, base + m.start,
                                list(conds), list(trail), list(picks))
                    local[m.name] = leaf
                    out.append(leaf)
        for m in struct.members:
            if not isinstance(m, Choice):
                continue
            for i, c in enumerate(m.cases):
                cc = list(conds)
                pp = list(picks)
                if m.selector is not None:
                    if c.when is not None:
                        cc.append((local[m.select], c.when))
                else:
                    pp.append((m, i))
                out += self.leaves(c, base, path + c.name + '.', cc,
                                   list(trail) + [(m, c)], pp)
        return out
