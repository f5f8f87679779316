"""Writing a surveyed instruction table as Rust (crates/rdna3-isa/src/table*.rs), shared by
tools/gen_table.py (gfx1100) and tools/gen_table_gfx942.py (gfx942)."""


def table_line(ctor, fmt, op, name, ops, flags):
    """One table line: `InstrDef::CTOR(FORMAT, 0xOP, "NAME", &[operands], flags),`."""
    o = ', '.join('O::new(%s, %s)' % (f, k) for f, k in ops)
    fl = '.or('.join('Flags::' + f for f in flags) + ')' * (len(flags) - 1) if flags else 'Flags::NONE'
    return '    InstrDef::%s(%s, 0x%02x, "%s", &[%s], %s),' % (ctor, fmt, op, name, o, fl)


def print_table(rows, ctor, static, header, uses, doc):
    """Prints the table file: the `//!` header lines, the `use` lines, then the static `static`
    of `rows` (format, opcode, name, operands, flags) written with `InstrDef::ctor`."""
    for line in header:
        print('//!' + (' ' + line if line else ''))
    print('')
    for u in uses:
        print(u)
    print('')
    print('/// ' + doc)
    print('#[rustfmt::skip]')
    print('pub static %s: &[InstrDef] = &[' % static)
    for fmt, op, name, ops, flags in rows:
        print(table_line(ctor, fmt, op, name, ops, flags))
    print('];')
