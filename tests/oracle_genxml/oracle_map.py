# Copyright 2026 The Panfrost fork authors
# SPDX-License-Identifier: MIT
"""Hand-written exceptions to the automatic ours <-> stock mapping.

The generator pairs structs by name and fields by identical bit position
and width, and compares stock fields that lie inside one plain field of
ours by extracting their bits.  Only what that cannot find, or where the
two descriptions store the same meaning differently, is listed here, each
entry with the reason.  DISAGREEMENTS.rst has the longer story.
"""

# Stock structs that describe an alternative view of bits that we keep as a
# <case> inside another struct: stock struct -> our struct that holds them.
STOCK_HOST = {
    'blend_shader': 'internal_blend',
    'blend_fixed_function': 'internal_blend',
    'compute_preload': 'preload',
    'vertex_preload': 'preload',
    'fragment_preload': 'preload',
    'ld_var_preload': 'message_preload',
    'var_tex_preload': 'message_preload',
    'render_target_afbc_overlay': 'render_target',
    'render_target_yuv_overlay': 'render_target',
    'plane_afbc_overlay': 'plane',
    'plane_astc_overlay': 'plane',
    'plane_astc_2d_overlay': 'plane',
    'plane_astc_3d_overlay': 'plane',
}

# Extra or overriding comparisons where both sides mean the same thing but
# keep different representations in their C structs.
# (archs, our struct, our path, stock struct, stock path) ->
#     (C expression of the expected stock value from our value v, reason)
ALL = (4, 5, 6, 7, 9)
TRANSFORMS = {
    (ALL, 'attribute_buffer', 'pot.divisor', 'attribute_buffer',
     'divisor_r'):
    ('oracle_log2(v)', 'we hold the divisor, stock holds the raw shift '
     '(its driver computes the ctz)'),
    (ALL, 'attribute_buffer', 'modulus.padded_count', 'attribute_buffer',
     'divisor_p'):
    ('((v) >> oracle_log2((v) & -(v))) >> 1', 'stock also exposes the odd '
     'part n of the padded count (2n + 1) << s as a raw 3-bit field'),
}

# Stock fields whose bounds differ from ours, investigated.
# (archs, stock struct, stock path) -> (who is wrong, reason)
LAYOUT_EXPLAINED = {
    ((4, 5), 'attribute_buffer', 'special'):
    ('neither', 'Midgard special inputs (frag coord, front facing, point coord) '
     'reuse the low 8 bits as one code with type 0; we describe that '
     'buffer as attribute_vertex_id/attribute_instance_id whose 8-bit type '
     'is the same attribute_special enum'),
    ((6, 7), 'renderer_state', 'alpha_reference'):
    ('stock', 'word 12 holds the register preload on Bifrost; there is no '
     'fixed-function alpha test (the stock driver itself only writes '
     'alpha_reference for v4/v5), so the stock v6/v7 XML keeps a stale '
     'overlapping field'),
    ((9,), 'zs_crc_extension', 'crc_render_target'):
    ('stock', '4 bits from bit 13 would run into the stencil write format '
     'at bit 16 in the stock XML itself; 3 bits address the 8 render '
     'targets'),
}

# Value disagreements that were investigated and in which the STOCK
# description is the wrong side: (arch, our struct, our path) -> reason.
# The test reports them as KNOWN without failing.
STOCK_WRONG = {
}
