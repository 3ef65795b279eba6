#!/usr/bin/env python3
"""The library's public surface: which `pub` items of src/ are named outside the crate.

Lists the `pub` items of src/ (fn, struct, enum, trait, type, const, static, union, mod, named struct fields, methods,
and the names of `pub use` re-exports) and, for each, whether its name occurs as a word in the code outside the library
crate: tests/, benches/, examples/, python/src/ (the extension crate), fuzz/fuzz_targets/ and fuzz/src/ (the fuzz
crate) and src/main.rs (the binary). A word match is conservative: a name used outside for something else (`new`,
`run`) counts as used, so an item reported "not named outside" is certainly unused outside, not the other way round.

    python3 scripts/pub_surface.py                 # counts by kind
    python3 scripts/pub_surface.py --list inside   # the items not named outside (path:line kind name)
    python3 scripts/pub_surface.py --list outside  # the items named outside
    python3 scripts/pub_surface.py --apply src/games
                                                   # turn `pub` into `pub(crate)` for the items under that path
                                                   # that are not named outside (then let the compiler check)

Items written by macros (`pub fn $name`) are not listed. `pub(crate)`, `pub(super)` and `pub(in ...)` are not `pub`.
See docs/architecture.md, "The public surface".
"""

import argparse
import collections
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUTSIDE = ["tests", "benches", "examples", "python/src", "fuzz/fuzz_targets", "fuzz/src", "src/main.rs"]
WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
ITEM = re.compile(
    r"^(\s*)pub\s+(?:(?:async|unsafe|const|extern\s+\"[^\"]*\")\s+)*"
    r"(fn|struct|enum|trait|type|const|static|union|mod)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
FIELD = re.compile(r"^(\s+)pub\s+([A-Za-z_][A-Za-z0-9_]*)\s*:(?!:)")
USE = re.compile(r"^(\s*)pub\s+use\s+")


def rust_files(path):
    path = os.path.join(ROOT, path)
    if os.path.isfile(path):
        return [path] if path.endswith(".rs") else []
    found = []
    for folder, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if d != "target")
        found += [os.path.join(folder, f) for f in sorted(files) if f.endswith(".rs")]
    return found


def outside_words():
    words = set()
    for place in OUTSIDE:
        for path in rust_files(place):
            with open(path, encoding="utf-8") as f:
                words.update(WORD.findall(f.read()))
    return words


def use_names(statement):
    """The names a `use` statement brings in (the last segment of each path, or its `as` alias)."""
    body = statement.split("use", 1)[1].rstrip().rstrip(";")
    names = []
    for leaf in re.split(r"[{},]", body):
        leaf = leaf.strip()
        if not leaf or leaf.endswith("::"):
            continue
        if " as " in leaf:
            names.append(leaf.split(" as ")[1].strip())
        else:
            last = leaf.split("::")[-1].strip()
            if last not in ("*", "self"):
                names.append(last)
            elif last == "self":
                names.append(leaf.split("::")[-2].strip())
    return names


def items():
    """(path, line number, kind, name, column of `pub`, `use` statement text or None) for each pub item of src/."""
    found = []
    for path in rust_files("src"):
        if os.path.relpath(path, ROOT) == "src/main.rs":
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            line = lines[i]
            if "$" in line:  # inside a macro: the names are the macro's arguments
                i += 1
                continue
            m = ITEM.match(line)
            if m:
                found.append((path, i + 1, m.group(2), m.group(3), len(m.group(1)), None))
            elif FIELD.match(line):
                m = FIELD.match(line)
                found.append((path, i + 1, "field", m.group(2), len(m.group(1)), None))
            elif USE.match(line):
                statement, j = line, i
                while ";" not in statement and j + 1 < len(lines):
                    j += 1
                    statement += " " + lines[j].strip()
                for name in use_names(statement):
                    found.append((path, i + 1, "use", name, len(USE.match(line).group(1)), statement))
                i = j
            i += 1
    return found


def split_use(statement, words):
    """`pub use a::{b, c};` with `b` named outside and `c` not -> [`pub use a::{b};`, `pub(crate) use a::{c};`], or
    None when the statement has nested braces or aliases."""
    m = re.match(r"\s*pub\s+use\s+([A-Za-z0-9_:]*)::\{([^{}]*)\}\s*;\s*$", statement)
    if not m or " as " in m.group(2):
        return None
    leaves = [leaf.strip() for leaf in m.group(2).split(",") if leaf.strip()]
    used = [leaf for leaf in leaves if leaf.split("::")[-1] in words]
    unused = [leaf for leaf in leaves if leaf.split("::")[-1] not in words]
    prefix = m.group(1)
    return [f"pub use {prefix}::{{{', '.join(used)}}};", f"pub(crate) use {prefix}::{{{', '.join(unused)}}};"]


def apply(prefix, entries, words):
    """`pub` -> `pub(crate)` on the lines of the items under `prefix` that are not named outside. A `pub use` is
    narrowed when none of its names is named outside; a mixed one is left for a person (and listed)."""
    by_file = collections.defaultdict(list)
    for e in entries:
        by_file[e[0]].append(e)
    changed = 0
    for path, group in sorted(by_file.items()):
        rel = os.path.relpath(path, ROOT)
        if not rel.startswith(prefix):
            continue
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        uses = collections.defaultdict(list)
        targets = set()
        for _, line, kind, name, col, statement, named in group:
            if kind == "use":
                uses[line].append(named)
            elif not named:
                targets.add((line, col))
        splits = {}
        for line, flags in uses.items():
            if not any(flags):
                targets.add((line, len(USE.match(lines[line - 1]).group(1))))
            elif not all(flags):
                statement = next(e[5] for e in group if e[1] == line)
                split = split_use(statement, words)
                if split is None:
                    print(f"{rel}:{line}: pub use with names both used and unused outside: left as it is")
                else:
                    splits[line] = split
        for line, col in sorted(targets):
            text = lines[line - 1]
            assert text[col : col + 4] == "pub ", (rel, line, text)
            lines[line - 1] = text[:col] + "pub(crate) " + text[col + 4 :]
            changed += 1
        for line in sorted(splits, reverse=True):
            end = line
            while ";" not in lines[end - 1]:
                end += 1
            indent = USE.match(lines[line - 1]).group(1)
            lines[line - 1 : end] = [indent + text for text in splits[line]]
            changed += 1
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    print(f"{changed} lines narrowed to pub(crate) under {prefix}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--list", choices=["inside", "outside"], help="list the items not named / named outside")
    parser.add_argument("--apply", metavar="PATH", help="narrow the items under PATH (e.g. src/games) not named outside")
    args = parser.parse_args()
    words = outside_words()
    entries = [e + (e[3] in words,) for e in items()]
    if args.apply:
        apply(args.apply, entries, words)
        return
    if args.list:
        for path, line, kind, name, _, _, named in entries:
            if named == (args.list == "outside"):
                print(f"{os.path.relpath(path, ROOT)}:{line} {kind} {name}")
        return
    counts = collections.Counter(e[2] for e in entries)
    outside = collections.Counter(e[2] for e in entries if e[6])
    print(f"{'kind':8} {'pub':>6} {'named outside':>14} {'not named outside':>18}")
    for kind in sorted(counts, key=lambda k: -counts[k]):
        print(f"{kind:8} {counts[kind]:6} {outside[kind]:14} {counts[kind] - outside[kind]:18}")
    total, named = sum(counts.values()), sum(outside.values())
    print(f"{'total':8} {total:6} {named:14} {total - named:18}")


if __name__ == "__main__":
    sys.exit(main())
