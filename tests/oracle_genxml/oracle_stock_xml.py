# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Reader for the base's stock genxml files (test oracle only).

Parses the stock XML at test-build time (it is read from _base, never
committed) into flat leaves with the same naming rules the stock generator
uses for its C identifiers, so that our cross-check can name the members of
the stock unpacked structs.
"""

import re
import xml.etree.ElementTree as ET

_DROP = re.compile(r'[\[\]():.,=>#&%*"+\']')


def c_ident(name):
    """Stock generator's C name for an XML name (lowercase)."""
    s = _DROP.sub('', name.replace(' ', '_').replace('/', '_')
                  .replace('-', '_'))
    if not s[0].isalpha():
        s = '_' + s
    return s


def c_struct(name):
    return 'MALI_' + c_ident(name).upper()


class StockField:
    def __init__(self, path, start, width, ftype, modifier):
        self.path = path
        self.start = start
        self.width = width
        self.type = ftype
        self.modifier = modifier     # None, ('shr', n), ('minus', n), ('log2',)

    @property
    def end(self):
        return self.start + self.width


def _modifier(text):
    if not text:
        return None
    if text == 'log2':
        return ('log2',)
    m = re.match(r'^(shr|minus|align)\((\d+)\)$', text)
    assert m, text
    return (m.group(1), int(m.group(2)))


class StockXml:
    def __init__(self, path):
        root = ET.parse(path).getroot()
        self.enums = {}     # xml name -> {value: name}
        self.raw = {}       # xml struct name -> [(elem attrs)]
        self.sizes = {}
        self.no_unpack = set()   # no-direct-packing: only inside parents
        for e in root:
            if e.tag == 'enum':
                self.enums[e.get('name')] = dict(
                    (int(v.get('value'), 0), v.get('name')) for v in e
                    if v.tag == 'value')
            elif e.tag == 'struct':
                self.raw[e.get('name')] = [f.attrib for f in e
                                           if f.tag == 'field']
                self.sizes[e.get('name')] = int(e.get('size', '0'))
                if e.get('no-direct-packing') == 'true':
                    self.no_unpack.add(e.get('name'))

    def leaves(self, name, base=0, path=''):
        out = []
        for a in self.raw[name]:
            s = a['start']
            if ':' in s:
                w, b = s.split(':')
                start = int(w) * 32 + int(b)
            else:
                start = int(s)
            fpath = path + c_ident(a['name']).lower()
            if a['type'] in self.raw:
                out += self.leaves(a['type'], base + start, fpath + '.')
                continue
            out.append(StockField(fpath, base + start, int(a['size']),
                                  a['type'], _modifier(a.get('modifier'))))
        return out
