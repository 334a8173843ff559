# SPDX-License-Identifier: GPL-2.0-only OR MIT
"""Repair one code-generation bug of E-ACSL 25.0 in an instrumented file.

When E-ACSL compiles a logic function whose body it computes with GMP
integers but whose result it types as a C integer (here the control-word
fields ctl_code .. ctl_rsvd_63_60 of spec/hvipi_receiver.h), the generated
C function ends with

    __gmpz_clear(__gen_e_acsl_mod);
    return __gen_e_acsl_mod;

that is, it returns the address of the (already cleared) GMP value
converted to int, instead of the value.  gcc warns (-Wint-conversion); the
run would fail every ctl_is() check.  This script converts the GMP value
to the C result type before the clean-up and returns that instead.  Any
such return it does not recognise is left as is, and the Makefile compiles
the result with -Werror=int-conversion, so a variant of the bug that this
script misses stops the build instead of giving wrong verdicts.

Usage: fix_gmp_return.py IN OUT   (prints the number of repairs)
"""
import re
import sys

FUNC = re.compile(r'^(int|long|unsigned int|unsigned long) (__gen_e_acsl_\w+)\(.*[^;]$')
RET = re.compile(r'^(\s*)return (__gen_e_acsl_\w+);$')
CLEAR = re.compile(r'^\s*__gmpz_clear\(')


def main(src, dst):
    lines = open(src).read().split('\n')
    out = list(lines)
    fixed = 0
    i = 0
    while i < len(lines):
        m = FUNC.match(lines[i])
        if not m:
            i += 1
            continue
        ctype = m.group(1)
        end = i + 1
        while end < len(lines) and lines[end] != '}':
            end += 1
        body = lines[i:end]
        mpz = set(re.findall(r'__e_acsl_mpz_t (__gen_e_acsl_\w+);', '\n'.join(body)))
        for k in range(i, end):
            r = RET.match(lines[k])
            if not r or r.group(2) not in mpz:
                continue
            var = r.group(2)
            first = k
            while first > i and CLEAR.match(lines[first - 1]):
                first -= 1
            get = '__gmpz_get_ui' if ctype.startswith('unsigned') else '__gmpz_get_si'
            conv = '%s%s __hvipi_fixed_ret = (%s)%s((__e_acsl_mpz_struct const *)(%s));' % (
                r.group(1), ctype, ctype, get, var)
            ret = '%sreturn __hvipi_fixed_ret;' % r.group(1)
            if first == k:
                out[k] = conv + '\n' + ret
            else:
                out[first] = conv + '\n' + out[first]
                out[k] = ret
            fixed += 1
        i = end + 1
    open(dst, 'w').write('\n'.join(out))
    print(fixed)


if __name__ == '__main__':
    main(sys.argv[1], sys.argv[2])
