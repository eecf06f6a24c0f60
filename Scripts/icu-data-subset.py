#!/usr/bin/env python3
"""Writes the ICU data Courier's release binary links instead of the toolchain's full set.

Static Foundation carries ICU's whole data package (about 34 MB: converters for legacy character sets,
collation, dictionaries for line breaking in Thai or Chinese, names of languages, currencies and units in
every locale). Courier formats and parses dates in en_US_POSIX and ISO 8601, keeps time zones, runs
regular expressions and normalises Unicode, and never needs the rest. This keeps the package's own
structure (the table of contents ICU searches) and drops every item Courier cannot use: locale data other
than root and English, legacy converters, break dictionaries, collation, transliteration, spelled-out
numbers and Unicode character names.

Usage: icu-data-subset.py ARCHIVE OUTPUT.o
ARCHIVE is the toolchain's lib_FoundationICU.a; OUTPUT.o defines the same data symbol, so the linker takes
it and never pulls the archive's full data object. Prints what it kept. When the archive has no packaged
data object (another toolchain layout), OUTPUT.o is an empty object and the build links the full data.
"""
import os
import re
import struct
import subprocess
import sys
import tempfile

DATA_MEMBER = "icu_packaged_data.cpp.o"

# Locales whose data is kept wherever locale data lives (top level and every subfolder).
KEPT_LOCALES = {"root", "en", "en_US", "en_US_POSIX", "en_001", "en_150", "en_GB"}
# Whole kinds of item that Courier never uses.
DROPPED_FOLDERS = {"coll", "translit", "rbnf"}
DROPPED_SUFFIXES = (".cnv", ".dict")
DROPPED_NAMES = {"unames.icu"}
# A language tag: two or three lower-case letters, then optional subtags (de, zh_Hant_TW, sr_Latn_BA).
LOCALE_NAME = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$")


def keeps(name):
    """Whether the item named `name` (`icudt76l/zone/de.res`) stays in the package."""
    parts = name.split("/")[1:]
    if len(parts) > 1 and parts[0] in DROPPED_FOLDERS:
        return False
    leaf = parts[-1]
    if leaf in DROPPED_NAMES or leaf.endswith(DROPPED_SUFFIXES):
        return False
    base, _, kind = leaf.rpartition(".")
    if kind == "res" and LOCALE_NAME.match(base) and base != "res_index":
        return base in KEPT_LOCALES
    return True


def items(package):
    """The package's header length and its items as (name, bytes), in table-of-contents order."""
    header = struct.unpack_from("<H", package, 0)[0]
    count = struct.unpack_from("<I", package, header)[0]
    entries = []
    for index in range(count):
        name_at, data_at = struct.unpack_from("<II", package, header + 4 + 8 * index)
        start = header + name_at
        entries.append((package[start:package.index(b"\0", start)].decode(), header + data_at))
    listed = []
    for index, (name, start) in enumerate(entries):
        end = entries[index + 1][1] if index + 1 < len(entries) else len(package)
        listed.append((name, package[start:end]))
    return header, listed


def pad16(data):
    return data + b"\0" * (-len(data) % 16)


def package_of(header_bytes, kept):
    """A package with the same header and the kept items, offsets counted from the table of contents."""
    names = b"".join(name.encode() + b"\0" for name, _ in kept)
    table_length = 4 + 8 * len(kept)
    names_at = table_length
    data_at = len(pad16(b"\0" * (table_length + len(names))))
    table = struct.pack("<I", len(kept))
    body = b""
    name_offset = names_at
    for name, data in kept:
        table += struct.pack("<II", name_offset, data_at + len(body))
        name_offset += len(name.encode()) + 1
        body += pad16(data)
    return header_bytes + pad16(table + names) + body


def run(*command, cwd=None):
    return subprocess.run(command, cwd=cwd, check=True, capture_output=True, text=True).stdout


def assemble(source_text, folder, output):
    """Assembles `source_text` into `output`, written whole or not at all."""
    assembly = os.path.join(folder, "data.s")
    with open(assembly, "w") as source:
        source.write(source_text + '    .section .note.GNU-stack,"",@progbits\n')
    run("as", "-o", output + ".tmp", assembly)
    os.replace(output + ".tmp", output)


def keep_everything(reason, folder, output):
    print(f"{reason}: the full ICU data stays")
    assemble("", folder, output)


def main():
    archive, output = sys.argv[1], os.path.abspath(sys.argv[2])
    with tempfile.TemporaryDirectory() as folder:
        if DATA_MEMBER not in run("ar", "t", archive).split():
            return keep_everything(f"{archive} has no {DATA_MEMBER}", folder, output)
        run("ar", "x", archive, DATA_MEMBER, cwd=folder)
        member = os.path.join(folder, DATA_MEMBER)
        symbols = [line.split()[-1] for line in run("nm", member).splitlines() if line.split()[-1].endswith("_dat")]
        if len(symbols) != 1:
            return keep_everything(f"{DATA_MEMBER} does not hold one data symbol ({symbols})", folder, output)
        raw = os.path.join(folder, "full.dat")
        run("objcopy", "-O", "binary", "--only-section=.rodata", member, raw)
        with open(raw, "rb") as source:
            package = source.read()
        header, listed = items(package)
        kept = [(name, data) for name, data in listed if keeps(name)]
        subset = os.path.join(folder, "subset.dat")
        with open(subset, "wb") as target:
            target.write(package_of(package[:header], kept))
        symbol = symbols[0]
        assemble(f"""    .section .rodata.icudata,"a"
    .balign 16
    .globl {symbol}
    .type {symbol}, @object
{symbol}:
    .incbin "{subset}"
    .size {symbol}, . - {symbol}
""", folder, output)
        print(f"ICU data: kept {len(kept)} of {len(listed)} items, "
              f"{os.path.getsize(subset) / 1e6:.1f} MB of {len(package) / 1e6:.1f} MB ({symbol})")


if __name__ == "__main__":
    main()
