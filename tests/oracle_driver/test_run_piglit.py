#!/usr/bin/python3
"""Self-test of run_piglit.py's judgement: which runner a test needs, what
kind of test it is, how reports and piglit complaints are grouped, whose
business a failure is, how expectations compare, and how our driver's
runs are told from the stock driver's and counted beside them. No driver
is run. ci.sh runs it before the piglit runs.

  tests/oracle_driver/test_run_piglit.py
"""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_piglit as rp  # noqa: E402


def shader_test(text):
    f = tempfile.NamedTemporaryFile('w', suffix='.shader_test', delete=False)
    f.write(text)
    f.close()
    return f.name


class Runner(unittest.TestCase):
    def check(self, require, want):
        p = shader_test(f'[require]\n{require}\n[vertex shader]\nx\n')
        try:
            self.assertEqual(rp.runner_for(p), want)
        finally:
            os.unlink(p)

    def test_desktop(self):
        self.check('GLSL >= 1.10', 'shader_runner')
        self.check('GL >= 3.3\nGLSL >= 3.30', 'shader_runner')

    def test_gles(self):
        self.check('GL ES >= 2.0\nGLSL ES >= 1.00', 'shader_runner_gles2')
        self.check('GL ES >= 3.1\nGLSL ES >= 3.10', 'shader_runner_gles3')
        self.check('GLSL ES >= 3.00', 'shader_runner_gles3')
        self.check('GL ES < 3.0', 'shader_runner_gles2')

    def test_require_ends_at_next_section(self):
        # A GL ES line after [require] belongs to another section.
        p = shader_test('[require]\nGLSL >= 1.10\n[test]\nGL ES >= 3.1\n')
        try:
            self.assertEqual(rp.runner_for(p), 'shader_runner')
        finally:
            os.unlink(p)


class Kind(unittest.TestCase):
    def check(self, test, want):
        p = shader_test('[require]\nGLSL >= 1.10\n[vertex shader]\n'
                        'draw rect\n' + test)
        try:
            self.assertEqual(rp.test_kind(p), want)
        finally:
            os.unlink(p)

    def test_kinds(self):
        # "draw rect" in a shader section is not a command.
        self.check('', 'compile')
        self.check('[test]\ndraw rect -1 -1 2 2\nprobe all rgba 0 1 0 1\n',
                   'draw')
        self.check('[test]\ndraw rect -1 -1 2 2\ncompute 1 1 1\n', 'compute')


class Reasons(unittest.TestCase):
    def test_simulator_lines(self):
        cases = [
            ('pan sim: v7 job 2 (compute) @ 0xa0123c0: compute shader '
             '0xa000040, workgroup (1, 0, 0), warp 3: clause 0x2 tuple 1 '
             'add branchz.i16: not modelled (family branchz)',
             'compute job: add branchz.i16: not modelled (family branchz)'),
            ('pan sim: v9 job 12 (compute) @ 0xa0123c0: compute shader '
             '0xa000040, workgroup (0, 0, 0), warp 0: pc 7: lea_tex_imm: '
             'not implemented (lea_attr)',
             'compute job: lea_tex_imm: not implemented (lea_attr)'),
            ('pan sim: v7 job 3 (indexed_vertex) @ 0xa1234a0: varying '
             'shader 0xa0000c0, vertices 4..7: add lea_attr_imm: lane 2: '
             'varying 3: format rg32f (0x1234567) is not modelled',
             'indexed_vertex job: add lea_attr_imm: varying N: format rg32f '
             'is not modelled'),
            ('pan sim: v7 job 1 (fragment) @ 0xa169580: render target 0: '
             'afbc_tiled block format (13) is not executed yet',
             'fragment job: render target 0: afbc_tiled block format (13) '
             'is not executed yet'),
            ('pan sim: malloc_vertex jobs are not executed yet',
             'malloc_vertex jobs are not executed yet'),
            ('pan shim: cannot map a 4096-byte BO for job execution',
             'cannot map a 4096-byte BO for job execution'),
        ]
        for raw, want in cases:
            self.assertEqual(rp.normalise(raw), want)

    def test_same_problem_same_reason(self):
        a = ('pan sim: v7 job 2 (fragment) @ 0xa000100: pixel (3, 9): add '
             'texc: not modelled (family tex)')
        b = ('pan sim: v7 job 5 (fragment) @ 0xb000200: pixel (0, 0): add '
             'texc: not modelled (family tex)')
        self.assertEqual(rp.normalise(a), rp.normalise(b))

    def test_piglit(self):
        out = ('Probe color at (125,3)\n  Expected: 0.6 0.7 0.8 1.0\n'
               'PIGLIT: {"result": "fail" }\n')
        self.assertEqual(rp.piglit_reason(out), 'piglit: Probe color at (N,N)')
        self.assertEqual(
            rp.piglit_reason('piglit: info: Test requires unsupported '
                             'extension GL_ARB_gpu_shader5\n'),
            'piglit: Test requires unsupported extension GL_ARB_gpu_shader5')
        self.assertEqual(rp.piglit_reason(''), 'piglit: (no output)')


class Blame(unittest.TestCase):
    def run_(self, result, reason, reports=()):
        return {'result': result, 'reason': reason, 'reports': list(reports)}

    def test_blame(self):
        self.assertEqual(rp.blame(self.run_('skip', 'skip: piglit: Test '
                                            'requires GL_ARB_x')), 'driver')
        self.assertEqual(rp.blame(self.run_(
            'fail', 'fail: piglit: Failed to compile FS: ...')), 'driver')
        # A wrong picture without a report is the simulator's to explain.
        self.assertEqual(rp.blame(self.run_(
            'fail', 'fail: piglit: Probe color at (N,N)')), 'sim')
        self.assertEqual(rp.blame(self.run_('crash', 'crash: SIGSEGV: x')),
                         'sim')
        self.assertEqual(rp.blame(self.run_('skip', 'x', ['vertex jobs'])),
                         'sim')


class Expected(unittest.TestCase):
    def rec(self, test, g52, g57):
        return {'test': test, 'agree': {'G52': g52, 'G57': g57}}

    def test_compare(self):
        recs = [self.rec('a', True, False), self.rec('b', False, False),
                self.rec('c', True, True)]
        exp = {('G52', 'a'), ('G52', 'b'), ('G57', 'c'), ('G52', 'gone'),
               ('G57', 'gone')}
        lost, new, missing = rp.compare_expected(exp, recs, ['G52', 'G57'])
        self.assertEqual(lost, [('G52', 'b')])
        self.assertEqual(new, [('G52', 'c')])
        self.assertEqual(missing, [('G52', 'gone'), ('G57', 'gone')])
        # Runs of a GPU not asked for are neither lost nor missing.
        lost, new, missing = rp.compare_expected(exp, recs, ['G52'])
        self.assertEqual(missing, [('G52', 'gone')])

    def test_read(self):
        f = tempfile.NamedTemporaryFile('w', delete=False)
        f.write('# comment\nG52 tests/a.shader_test\n\nG57 b  # why\n')
        f.close()
        try:
            self.assertEqual(rp.read_expected(f.name),
                             {('G52', 'tests/a.shader_test'), ('G57', 'b')})
        finally:
            os.unlink(f.name)

    def test_read_rejects_bad_lines(self):
        f = tempfile.NamedTemporaryFile('w', delete=False)
        f.write('G99 tests/a.shader_test\n')
        f.close()
        try:
            with self.assertRaises(SystemExit):
                rp.read_expected(f.name)
        finally:
            os.unlink(f.name)


class Ours(unittest.TestCase):
    GLINFO = 'GL_VENDOR = {}\nGL_RENDERER = {}\nGL_VERSION = 2.1\n'

    def test_configs(self):
        self.assertEqual(rp.configs_of('stock', ['G52', 'G57']),
                         ['G52', 'G57'])
        self.assertEqual(rp.configs_of('ours', ['G57']), ['ours-G57'])
        self.assertTrue(rp.is_ours('ours-G57'))
        self.assertFalse(rp.is_ours('G57'))
        self.assertEqual(rp.gpu_of('ours-G57'), 'G57')
        self.assertEqual(rp.gpu_of('G52'), 'G52')

    def test_glsl_of_gl(self):
        self.assertEqual(rp.glsl_of_gl('3.0'), '130')
        self.assertEqual(rp.glsl_of_gl('3.2'), '150')
        self.assertEqual(rp.glsl_of_gl('3.3'), '330')
        self.assertEqual(rp.glsl_of_gl('4.5'), '450')
        self.assertEqual(rp.glsl_of_gl('2.1'), '120')

    def versions(self, require):
        p = shader_test(f'[require]\n{require}\n[test]\nGL >= 4.6\n')
        try:
            return rp.required_versions(p)
        finally:
            os.unlink(p)

    def test_required_versions(self):
        self.assertEqual(self.versions('GLSL >= 1.10'), ((2, 0), None))
        self.assertEqual(self.versions('GLSL >= 1.30'), ((3, 0), None))
        self.assertEqual(self.versions('GLSL >= 1.40'), ((3, 1), None))
        self.assertEqual(self.versions('GL >= 3.3\nGLSL >= 3.30'),
                         ((3, 3), None))
        self.assertEqual(self.versions('GL ES >= 3.1\nGLSL ES >= 3.10'),
                         (None, (3, 1)))
        self.assertEqual(self.versions('GL < 3.0'), (None, None))

    def test_ours_overrides(self):
        def over(require, ours_gl='3.0'):
            p = shader_test(f'[require]\n{require}\n')
            try:
                return rp.ours_overrides(p, ours_gl)
            finally:
                os.unlink(p)
        # Below --ours-gl: --ours-gl; above: what the test asks for.
        self.assertEqual(over('GLSL >= 1.10'),
                         {'MESA_GL_VERSION_OVERRIDE': '3.0',
                          'MESA_GLSL_VERSION_OVERRIDE': '130'})
        self.assertEqual(over('GLSL >= 1.40')['MESA_GLSL_VERSION_OVERRIDE'],
                         '140')
        self.assertEqual(over('GL >= 3.3\nGLSL >= 3.30'),
                         {'MESA_GL_VERSION_OVERRIDE': '3.3',
                          'MESA_GLSL_VERSION_OVERRIDE': '330'})
        self.assertEqual(
            over('GL ES >= 3.1')['MESA_GLES_VERSION_OVERRIDE'], '3.1')
        self.assertNotIn('MESA_GLES_VERSION_OVERRIDE', over('GL ES >= 3.0'))
        self.assertEqual(over('GLSL >= 3.30', ''), {})

    def test_renderer(self):
        mali = 'Mali-G57 (Panfrost)'
        self.assertIsNone(rp.check_renderer(
            'ours-G57', self.GLINFO.format('Mesa', mali)))
        self.assertIsNone(rp.check_renderer(
            'G57', self.GLINFO.format('Panfrost', mali)))
        # Both call themselves Panfrost: the vendor tells which one.
        self.assertIn('not our driver', rp.check_renderer(
            'ours-G57', self.GLINFO.format('Panfrost', mali)))
        self.assertIn('not the stock driver', rp.check_renderer(
            'G57', self.GLINFO.format('Mesa', mali)))
        # A fallback to software rendering, or another GPU.
        self.assertIn('expected', rp.check_renderer(
            'ours-G57', self.GLINFO.format('Mesa', 'llvmpipe (LLVM 15)')))
        self.assertIsNotNone(rp.check_renderer(
            'ours-G57', self.GLINFO.format('Mesa', 'Mali-G52 (Panfrost)')))
        self.assertIsNotNone(rp.check_renderer('ours-G57', ''))
        self.assertIsNone(rp.check_renderer(
            'softpipe', self.GLINFO.format('Mesa', 'softpipe'),
            'softpipe'))

    def test_driver_reason(self):
        out = ('piglit: x\nMESA: warning: panfrost: vertex element 3: '
               'divisor 2 not supported\nMESA: warning: panfrost: other\n')
        self.assertEqual(rp.driver_reason(out),
                         'panfrost: vertex element N: divisor N not '
                         'supported')
        self.assertEqual(rp.driver_reason('MESA: error: panfrost: fragment '
                                          'shader refused: op b2b1\n'),
                         'panfrost: fragment shader refused: op b2b1')
        self.assertIsNone(rp.driver_reason('Probe color at (1,2)\n'))

    def rec(self, test, sp, stock, mine):
        r = {'test': test, 'softpipe': {'result': sp},
             'G57': {'result': stock}, 'ours-G57': {'result': mine}}
        r['agree'] = {c: sp == 'pass' and r[c]['result'] == 'pass'
                      for c in ('G57', 'ours-G57')}
        return r

    def test_side_by_side(self):
        recs = [self.rec('a', 'pass', 'pass', 'pass'),
                self.rec('b', 'pass', 'pass', 'fail'),
                self.rec('c', 'pass', 'skip', 'pass'),
                self.rec('d', 'fail', 'pass', 'pass'),
                self.rec('e', 'pass', 'fail', 'crash')]
        [row] = rp.side_by_side(recs, ['G57'])
        self.assertEqual(row, {'gpu': 'G57', 'softpipe': 4,
                               'stock_pass': 3, 'ours_pass': 3,
                               'stock_agree': 2, 'ours_agree': 2,
                               'both': 1, 'stock_only': 1, 'ours_only': 1})

    def test_summary_ours_on_fewer_gpus(self):
        # Stock on G52 and G57, ours on G57 only: one side-by-side row.
        import contextlib
        import io
        recs = [self.rec('a', 'pass', 'pass', 'fail'),
                self.rec('b', 'pass', 'pass', 'pass')]
        for r in recs:
            r['kind'] = 'draw'
            r['G52'] = {'result': 'fail', 'reason': 'x', 'reports': []}
            r['agree']['G52'] = False
            for c in ('G57', 'ours-G57'):
                r[c].setdefault('reports', [])
                r[c].setdefault('reason', None if r[c]['result'] == 'pass'
                                else 'panfrost: dropped')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rp.summarise(recs, ['G52', 'G57'], 5, ('stock', 'ours'), ['G57'])
        text = out.getvalue()
        self.assertIn('ours-G57 (v9): 1 of 2 agree', text)
        self.assertNotIn('ours-G52', text)
        rows = [ln.split() for ln in text.splitlines()
                if ln.startswith(('  G52 ', '  G57 '))]
        self.assertEqual(rows, [['G57', '2', '2', '1', '2', '1', '1', '1',
                                 '0']])
        self.assertIn('1  panfrost: dropped  [ours-G57 1]', text)

    def test_expected_ours(self):
        # The file names GPUs; our driver's runs are judged against it.
        recs = [self.rec('a', 'pass', 'fail', 'pass'),
                self.rec('b', 'pass', 'pass', 'fail')]
        f = tempfile.NamedTemporaryFile('w', delete=False)
        f.write('G57 a\nG57 b\nG52 b\n')
        f.close()
        try:
            by_test = {r['test']: r for r in recs}
            for r in recs:
                r['ours-G57']['reason'] = 'x'
                r['G57']['reason'] = 'y'
            failed, lost, missing = rp.check_expected(
                f.name, recs, ['ours-G57'], by_test)
            self.assertEqual((failed, lost, missing), (1, 1, 0))
            failed, lost, missing = rp.check_expected(
                f.name, recs, ['G57'], by_test)
            self.assertEqual((failed, lost, missing), (1, 1, 0))
        finally:
            os.unlink(f.name)

    def test_expected_subset(self):
        # A run of part of the list (ci.sh's G72): the expectations of
        # the tests it did not name are not missing runs.
        recs = [self.rec('a', 'pass', 'pass', 'pass')]
        f = tempfile.NamedTemporaryFile('w', delete=False)
        f.write('G57 a\nG57 c\n')
        f.close()
        try:
            by_test = {r['test']: r for r in recs}
            self.assertEqual(rp.check_expected(f.name, recs, ['G57'],
                                               by_test), (1, 0, 1))
            self.assertEqual(rp.check_expected(f.name, recs, ['G57'],
                                               by_test, True), (0, 0, 0))
        finally:
            os.unlink(f.name)


if __name__ == '__main__':
    unittest.main()
