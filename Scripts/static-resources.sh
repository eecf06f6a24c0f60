#!/bin/sh
# Writes .build/swift_static: the toolchain's static resources (the Swift runtime, Foundation and their
# module files, linked into the release binary) as symbolic links, except ICU's archive, which is a copy
# whose packaged data holds only what Courier uses (Scripts/icu-data-subset.py: 3.6 MB of 34 MB).
# Release builds point swiftc's resource folder here. Where the data cannot be cut, the copy is the
# toolchain's archive as it is, so the build still links.
# Usage: static-resources.sh TOOLCHAIN_STATIC_DIR OUTPUT_DIR
set -eu
source_dir=$1
output=$2
tmp="$output.tmp"
rm -rf "$tmp"
mkdir -p "$tmp/linux"
for entry in "$source_dir"/*; do
    [ "$(basename "$entry")" = linux ] || ln -s "$entry" "$tmp/"
done
for entry in "$source_dir"/linux/*; do
    [ "$(basename "$entry")" = lib_FoundationICU.a ] || ln -s "$entry" "$tmp/linux/"
done
archive="$source_dir/linux/lib_FoundationICU.a"
if [ -f "$archive" ]; then
    cp "$archive" "$tmp/linux/lib_FoundationICU.a"
    python3 "$(dirname "$0")/icu-data-subset.py" "$archive" "$tmp/icu_packaged_data.cpp.o"
    if [ -n "$(nm "$tmp/icu_packaged_data.cpp.o" 2>/dev/null)" ]; then
        (cd "$tmp" && ar r linux/lib_FoundationICU.a icu_packaged_data.cpp.o)
    fi
    rm -f "$tmp/icu_packaged_data.cpp.o"
fi
rm -rf "$output"
mv "$tmp" "$output"
