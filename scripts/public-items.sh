#!/usr/bin/env bash
# The library's public items, counted two ways (CONTRIBUTING.md, "What is public"):
#
# 1. rustdoc's all.html: every item a user of the crate can name by a public path — structs,
#    enums, traits, functions, type aliases, statics, constants (an item re-exported under a
#    second path is listed once). Modules, methods, fields and enum variants are not items
#    there. This is the count to compare before and after a change.
# 2. The declarations `pub fn|struct|enum|trait|type|const|static` in src/ (methods included,
#    fields and `pub use` not; `pub(crate)` and the like not): a grep, so it also counts
#    `pub` items inside crate-private modules, which nothing outside can reach.
#
# Usage: bash scripts/public-items.sh [--list]   (--list prints the all.html items, by path)
set -euo pipefail
cd "$(dirname "$0")/.."
cargo doc --no-deps --lib --quiet 2>/dev/null
all=${CARGO_TARGET_DIR:-target}/doc/tilebench/all.html
items=$(grep -o '<li><a href="[^"]*">' "$all" | sed 's/<li><a href="//; s/">$//; s/\.html$//')
if [[ "${1:-}" == "--list" ]]; then
    # kind.Name under its module's path: search/pdb/struct.Pdb -> search::pdb::Pdb (struct)
    sed -E 's#^(.*/)?([a-z]+)\.([A-Za-z0-9_]+)$#\1\3 (\2)#; s#/#::#g' <<<"$items" | sort
    exit 0
fi
echo "rustdoc all.html items: $(wc -l <<<"$items")"
sed -E 's#^(.*/)?([a-z]+)\.[A-Za-z0-9_]+$#\2#' <<<"$items" | sort | uniq -c | sed 's/^/  /'
echo "pub declarations in src/: $(grep -rE '^\s*pub (const )?(unsafe )?(fn|struct|enum|trait|type|const|static) ' src/ | wc -l)"
